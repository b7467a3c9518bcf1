// The Unigram lattice of one piece, drawn as SVG: positions on a line, one arc per
// vocabulary piece, each position's best score under it. Every edge and node is made once
// (drawLattice); renderLattice(s, k) only flips attributes, so stepping is cheap.
import { t } from "../../i18n/index.js";
import { el, svg } from "../../lib/dom.js";
import { visible as shown } from "../../lib/tokens.js";
import { fmtScore, fmtProb } from "./numbers.js";
import "./unigram-strings.js";

const CELL = 100; // px between positions, at most
const MIN_CELL = 52; // and at least: below this the lattice scrolls in its box
const PAD = 40;
const LABEL_CHAR = 8.6; // px per character of an edge label (14px monospace), of a score 6.7
const SCORE_CHAR = 6.7;
const ROW = 30; // px for one row of edge labels (piece and score)
const NODE_ROWS = 48; // px more below the line when node numbers alternate in two rows

// Where things go: x of a position, the base line's y, each edge's arc height and label
// row. The cell shrinks to fit `room` px (down to MIN_CELL); edges of one length share a
// level, and a label that would overlap another of its level goes one row up, the
// levels above moving up with it, so no two labels meet.
function geometry(word, edges, room) {
  const n = word.length; // the model's offsets are UTF-16 indices of the piece in JS too
  const fit = Math.floor((room - 2 - PAD * 2 - 30) / Math.max(1, n));
  const cell = Math.max(MIN_CELL, Math.min(CELL, fit || CELL));
  const x = (pos) => PAD + pos * cell;
  const labelWidth = (e) => Math.max((e.unk ? 5 : [...shown(e.piece)].length) * LABEL_CHAR, 7 * SCORE_CHAR) + 6;
  const byLength = new Map();
  for (const e of edges) {
    const len = e.end - e.start;
    if (!byLength.has(len)) byLength.set(len, []);
    byLength.get(len).push(e);
  }
  const row = new Map(); // "start:end" -> row in its level
  const rowsOf = new Map(); // length -> rows its level needs
  for (const [len, list] of byLength) {
    const ends = []; // right end of the last label in each row
    for (const e of [...list].sort((a, b) => a.start - b.start)) {
      const mid = (x(e.start) + x(e.end)) / 2, half = labelWidth(e) / 2;
      let r = ends.findIndex((right) => right <= mid - half);
      if (r < 0) { r = ends.length; ends.push(0); }
      ends[r] = mid + half;
      row.set(`${e.start}:${e.end}`, r);
    }
    rowsOf.set(len, ends.length);
  }
  const maxLen = Math.max(1, ...edges.map((e) => e.end - e.start));
  const base = [0]; // base[len]: how high the level of that length starts
  for (let len = 1; len <= maxLen; len++) base[len] = base[len - 1] + (len === 1 ? 36 : 34) + ROW * Math.max(0, (rowsOf.get(len - 1) || 1) - 1);
  const rise = (e) => base[e.end - e.start] + ROW * (row.get(`${e.start}:${e.end}`) || 0);
  const top = Math.max(36, ...edges.map(rise));
  const lineY = 24 + top;
  const stagger = cell < 90; // node numbers (~80px wide) alternate in two rows
  return {
    n, rise, lineY, cell, stagger, x,
    width: PAD * 2 + n * cell + 30, // room for the last node's numbers
    height: lineY + 92 + (stagger ? NODE_ROWS : 0),
  };
}

// The base line and the characters between the positions, just above it.
function drawAxis(canvas, word, { x, n, lineY, cell }) {
  canvas.append(svg("line", { class: "lattice-axis", x1: x(0), y1: lineY, x2: x(n), y2: lineY }));
  let at = 0;
  for (const ch of [...word]) {
    const len = ch.length;
    const label = svg("text", { class: "lattice-char", x: (x(at) + x(at + len)) / 2, y: lineY + 26, "text-anchor": "middle" });
    if (cell < 70) label.classList.add("is-small");
    label.textContent = shown(ch);
    canvas.append(label);
    at += len;
  }
}

// One vocabulary piece as an arc from its start to its end; hovering or focusing it says what it is.
function drawEdge(e, { x, rise, lineY }, info) {
  const x1 = x(e.start), x2 = x(e.end), h = rise(e);
  const g = svg("g", { class: "lattice-edge", tabindex: 0, role: "img" });
  g.dataset.testid = "lattice-edge";
  g.dataset.piece = e.piece;
  g.dataset.start = e.start;
  g.dataset.end = e.end;
  g.dataset.score = e.score;
  g.dataset.probability = Math.exp(e.score);
  if (e.unk) g.dataset.unk = "true";
  const text = e.unk ? t("uenc.edgeInfoUnk", { start: e.start, end: e.end, score: fmtScore(e.score) })
    : t("uenc.edgeInfo", { piece: shown(e.piece), start: e.start, end: e.end, score: fmtScore(e.score), p: fmtProb(Math.exp(e.score)) });
  g.setAttribute("aria-label", text);
  const title = svg("title");
  title.textContent = text;
  const d = `M ${x1} ${lineY} C ${x1} ${lineY - h * 1.3}, ${x2} ${lineY - h * 1.3}, ${x2} ${lineY}`;
  const arc = svg("path", { class: "lattice-arc", d });
  const mid = (x1 + x2) / 2, apex = lineY - h * 0.975;
  const label = svg("text", { class: "lattice-label", x: mid, y: apex - 4, "text-anchor": "middle" });
  label.textContent = e.unk ? "<unk>" : shown(e.piece);
  const score = svg("text", { class: "lattice-score", x: mid, y: apex + 13, "text-anchor": "middle" });
  score.textContent = fmtScore(e.score);
  g.append(title, arc, label, score);
  const say = () => { info.textContent = text; };
  g.addEventListener("mouseenter", say);
  g.addEventListener("focus", say);
  return g;
}

// One position: its dot and number, and (filled in by renderLattice) its best score.
function drawNode(pos, { x, lineY, stagger }) {
  const g = svg("g", { class: "lattice-node" });
  g.dataset.testid = "lattice-node";
  g.dataset.position = pos;
  const dot = svg("circle", { cx: x(pos), cy: lineY, r: 7, class: "lattice-dot" });
  const num = svg("text", { class: "lattice-pos", x: x(pos), y: lineY + 20, "text-anchor": "middle" });
  num.textContent = String(pos);
  const below = lineY + (stagger && pos % 2 ? NODE_ROWS : 0);
  const prob = svg("text", { class: "lattice-prob", x: x(pos), y: below + 48, "text-anchor": "middle" });
  const score = svg("text", { class: "lattice-best", x: x(pos), y: below + 63, "text-anchor": "middle" });
  const from = svg("text", { class: "lattice-from", x: x(pos), y: below + 78, "text-anchor": "middle" });
  g.setAttribute("role", "img");
  g.append(dot, num, prob, score, from);
  return { g, prob, score, from };
}

// The whole figure for the piece on show `s` ({piece, steps}), appended to `box`; it keeps
// s.edges (Map "start:end" -> <g>), s.nodes and s.nbestBox for renderLattice.
export function drawLattice(box, s) {
  const word = s.piece.text;
  const edges = s.steps.filter((e) => e.type === "unigram.edge");
  // The room the figure has: the box's width (the view's, before the box is in the page).
  const geo = geometry(word, edges, box.clientWidth || box.closest(".view, .enc-stage")?.clientWidth || 1000);
  const title = t("uenc.lattice", { word: shown(word), n: geo.n });
  const figure = el("figure", "lattice-figure");
  const caption = el("figcaption", "lattice-caption", title);
  const scroller = el("div", "lattice-scroll");
  scroller.tabIndex = 0;
  scroller.setAttribute("role", "region");
  scroller.setAttribute("aria-label", title);
  const canvas = svg("svg", { class: "lattice", width: geo.width, height: geo.height, viewBox: `0 0 ${geo.width} ${geo.height}`, role: "group" });
  canvas.setAttribute("aria-label", title);
  drawAxis(canvas, word, geo);
  const info = el("p", "lattice-info hint", t("uenc.hint"));
  info.setAttribute("aria-live", "polite");
  s.edges = new Map();
  for (const e of edges) {
    const g = drawEdge(e, geo, info);
    canvas.append(g);
    s.edges.set(`${e.start}:${e.end}`, g);
  }
  s.nodes = [];
  for (let pos = 0; pos <= geo.n; pos++) {
    const node = drawNode(pos, geo);
    canvas.append(node.g);
    s.nodes.push(node);
  }
  scroller.append(canvas);
  s.scroller = scroller;
  s.x = geo.x;
  figure.append(caption, scroller, info);
  s.nbestBox = el("section", "unigram-nbest");
  s.nbestBox.dataset.testid = "unigram-nbest";
  box.append(figure, s.nbestBox);
}

// What the first k steps have shown: edges met, best scores fixed, backtrack edges taken.
function seenAfter(steps, k) {
  const seen = new Set();
  const best = new Map();
  const onPath = new Set();
  for (let i = 0; i < k; i++) {
    const e = steps[i];
    if (e.type === "unigram.edge") seen.add(`${e.start}:${e.end}`);
    else if (e.type === "unigram.best") best.set(e.position, e);
    else if (e.type === "back") onPath.add(`${e.start}:${e.end}`);
  }
  return { seen, best, onPath };
}

function renderEdges(s, { seen, onPath }, lastStep) {
  const currentKey = lastStep && (lastStep.type === "unigram.edge" || lastStep.type === "back")
    ? `${lastStep.start}:${lastStep.end}` : null;
  for (const [id, g] of s.edges) {
    g.classList.toggle("is-hidden", !seen.has(id));
    g.classList.toggle("is-current", id === currentKey);
    if (seen.has(id)) g.removeAttribute("aria-hidden"); else g.setAttribute("aria-hidden", "true");
    g.setAttribute("tabindex", seen.has(id) ? "0" : "-1");
    if (onPath.has(id)) g.dataset.best = "true"; else delete g.dataset.best;
  }
}

function renderNode(node, pos, e, lastStep) {
  const reached = pos === 0 || e;
  node.g.classList.toggle("is-final", Boolean(reached));
  node.g.classList.toggle("is-current", lastStep?.type === "unigram.best" && lastStep.position === pos);
  if (pos === 0 || !e) {
    node.prob.textContent = pos === 0 ? "p = 1" : "";
    node.score.textContent = pos === 0 ? fmtScore(0) : "";
    node.from.textContent = "";
    delete node.g.dataset.bestScore;
    delete node.g.dataset.probability;
    node.g.setAttribute("aria-label", pos === 0 ? t("uenc.nodeLabel", { pos, score: fmtScore(0), p: fmtProb(1), piece: "" }) : t("uenc.nodeEmpty", { pos }));
    return;
  }
  const p = Math.exp(e.score);
  node.prob.textContent = `p = ${fmtProb(p)}`;
  node.score.textContent = fmtScore(e.score);
  node.from.textContent = `← ${shown(e.piece)}`;
  node.g.dataset.bestScore = e.score;
  node.g.dataset.probability = p;
  node.g.dataset.from = e.piece;
  node.g.setAttribute("aria-label", t("uenc.nodeLabel", { pos, score: fmtScore(e.score), p: fmtProb(p), piece: shown(e.piece) }));
}

// The positions step k is about: the edge met or taken back, the position scored, or at
// the end the token "why this token?" asked about (s.asked); null for none.
function spanOf(s, k, lastStep) {
  if (k === s.steps.length && s.asked) return [s.asked.start, s.asked.end];
  if (lastStep?.type === "unigram.best") return [lastStep.position, lastStep.position];
  if (lastStep?.type === "unigram.edge" || lastStep?.type === "back") return [lastStep.start, lastStep.end];
  return null;
}

// A long word's lattice scrolls in its box: bring what the step is about into view, so a
// phone's narrow box never animates out of sight. Only when it is out of view; a learner's
// own scrolling between steps is left alone.
function keepInView(s, span) {
  const box = s.scroller;
  if (!span || !box || box.scrollWidth <= box.clientWidth) return;
  const margin = 24;
  const left = s.x(span[0]) - margin, right = s.x(span[1]) + margin;
  const view = box.clientWidth;
  if (left >= box.scrollLeft && right <= box.scrollLeft + view) return;
  // Centre the span; one wider than the box shows its start.
  box.scrollLeft = Math.max(0, right - left > view ? left : (left + right - view) / 2);
}

// The lattice as it stands after k steps (recomputed from the steps: a word is short).
export function renderLattice(s, k) {
  const after = seenAfter(s.steps, k);
  const lastStep = k > 0 ? s.steps[k - 1] : null;
  renderEdges(s, after, lastStep);
  s.nodes.forEach((node, pos) => renderNode(node, pos, after.best.get(pos), lastStep));
  keepInView(s, spanOf(s, k, lastStep));
}

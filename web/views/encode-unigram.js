// The Unigram encoding renderer: the lattice of one pre-tokenized piece, its forward
// (Viterbi) pass, the backtrack of the best path, then the n best segmentations.
//
// API (used by web/views/encode.js for Unigram tokenizers):
//   const r = createUnigramEncodeRenderer({root, player, engine, key?});
//   const timeline = r.show(trace, {piece?, cursor?});
//     trace = {events, ids, tokens, offsets, key?}: what webapi.trace_encode returned plus the
//     events it streamed (docs/events.md "Encoding: models", Unigram). `key` (here or in the
//     context) is the tokenizer key; the n-best step asks Python for it (webapi.unigram_nbest).
//     `piece` picks a pre-tokenized piece by index, `cursor` the piece under a text offset;
//     default the first. Returns {length, render(k), narrate(k)} for player.load.
//   r.selectPiece(i): show another piece (also from the piece picker); it calls player.load itself.
//   r.destroy()
// Steps: every lattice edge and every final best score in the order the forward pass met
// them, then one step per edge of the backtrack (end to start), then the n best list.
// Probabilities of segmentations are normalised over ALL segmentations of the piece.
import { t, register, formatNumber, lang } from "../i18n.js";

register({
  en: {
    "uenc.piece": "Piece", "uenc.pickPiece": "Which pre-tokenized piece's lattice to show",
    "uenc.lattice": "Lattice of “{word}”: positions 0 to {n}, one edge per vocabulary piece",
    "uenc.none": "This text has no piece for the Unigram model to segment.",
    "uenc.start": "The lattice of “{word}”: {n} characters, positions 0 to {n}. Each step adds a vocabulary piece as an edge, or fixes a position's best score.",
    "uenc.edge": "Edge {start}→{end}: “{piece}” is in the vocabulary, log-probability {score} (p = {p}).",
    "uenc.unk": "No piece of one character starts at {start}: an unknown edge {start}→{end} scored {score} (the lowest score minus 10).",
    "uenc.best": "Position {pos} is settled: best score {score} (p = {p}), arriving by “{piece}” from position {start}.",
    "uenc.back": "Backtrack from position {end}: the best edge into it is “{piece}”, from position {start}.",
    "uenc.path": "Best segmentation: {pieces}; total log-probability {score} (p = {p}).",
    "uenc.nbest": "The {n} best segmentations; each probability is its share of all {count} segmentations of “{word}”.",
    "uenc.nbestTitle": "Next-best segmentations (probability over all {count} segmentations)",
    "uenc.nbestLoading": "Asking Python for the n best segmentations…",
    "uenc.nbestUnavailable": "The n best segmentations are not available: {reason}",
    "uenc.nbestLater": "The n best segmentations appear at the last step.",
    "uenc.best.label": "best", "uenc.rank": "#{n}",
    "uenc.edgeInfo": "“{piece}”, positions {start}→{end}: log-probability {score}, p = {p}",
    "uenc.edgeInfoUnk": "unknown character, positions {start}→{end}: score {score}",
    "uenc.hint": "Hover over or focus an edge (Tab) to read its score and probability.",
    "uenc.nodeLabel": "position {pos}: best score {score}, p = {p}, from “{piece}”",
    "uenc.nodeEmpty": "position {pos}: not reached yet",
    "uenc.noPython": "Python is not ready yet.",
  },
  vi: {
    "uenc.piece": "Mẩu", "uenc.pickPiece": "Chọn mẩu (sau tiền tách từ) để xem lưới",
    "uenc.lattice": "Lưới của “{word}”: các vị trí từ 0 đến {n}, mỗi cạnh là một mẩu trong từ vựng",
    "uenc.none": "Văn bản này không có mẩu nào để mô hình Unigram phân đoạn.",
    "uenc.start": "Lưới của “{word}”: {n} ký tự, các vị trí từ 0 đến {n}. Mỗi bước thêm một mẩu từ vựng làm cạnh, hoặc chốt điểm tốt nhất của một vị trí.",
    "uenc.edge": "Cạnh {start}→{end}: “{piece}” có trong từ vựng, log xác suất {score} (p = {p}).",
    "uenc.unk": "Không có mẩu một ký tự nào bắt đầu tại {start}: cạnh không xác định {start}→{end} có điểm {score} (điểm thấp nhất trừ 10).",
    "uenc.best": "Vị trí {pos} đã chốt: điểm tốt nhất {score} (p = {p}), đến bằng “{piece}” từ vị trí {start}.",
    "uenc.back": "Lần ngược từ vị trí {end}: cạnh tốt nhất đi vào là “{piece}”, từ vị trí {start}.",
    "uenc.path": "Phân đoạn tốt nhất: {pieces}; tổng log xác suất {score} (p = {p}).",
    "uenc.nbest": "{n} cách phân đoạn tốt nhất; xác suất của mỗi cách là tỉ lệ của nó trên toàn bộ {count} cách phân đoạn “{word}”.",
    "uenc.nbestTitle": "Các cách phân đoạn tốt tiếp theo (xác suất trên toàn bộ {count} cách)",
    "uenc.nbestLoading": "Đang hỏi Python các cách phân đoạn tốt nhất…",
    "uenc.nbestUnavailable": "Không có danh sách phân đoạn tốt nhất: {reason}",
    "uenc.nbestLater": "Các cách phân đoạn tốt nhất hiện ra ở bước cuối.",
    "uenc.best.label": "tốt nhất", "uenc.rank": "#{n}",
    "uenc.edgeInfo": "“{piece}”, vị trí {start}→{end}: log xác suất {score}, p = {p}",
    "uenc.edgeInfoUnk": "ký tự không xác định, vị trí {start}→{end}: điểm {score}",
    "uenc.hint": "Di chuột lên hoặc focus một cạnh (Tab) để đọc điểm và xác suất của nó.",
    "uenc.nodeLabel": "vị trí {pos}: điểm tốt nhất {score}, p = {p}, từ “{piece}”",
    "uenc.nodeEmpty": "vị trí {pos}: chưa tới",
    "uenc.noPython": "Python chưa sẵn sàng.",
  },
  zh: {
    "uenc.piece": "片段", "uenc.pickPiece": "选择要显示哪个预分词片段的格",
    "uenc.lattice": "“{word}”的格：位置 0 到 {n}，每条边是一个词表片段",
    "uenc.none": "这段文本没有可供 Unigram 模型切分的片段。",
    "uenc.start": "“{word}”的格：{n} 个字符，位置 0 到 {n}。每一步加入一个词表片段作为边，或确定某个位置的最佳得分。",
    "uenc.edge": "边 {start}→{end}：“{piece}”在词表中，对数概率 {score}（p = {p}）。",
    "uenc.unk": "位置 {start} 没有单字符片段：加入未知边 {start}→{end}，得分 {score}（最低得分减 10）。",
    "uenc.best": "位置 {pos} 已确定：最佳得分 {score}（p = {p}），经由“{piece}”从位置 {start} 到达。",
    "uenc.back": "从位置 {end} 回溯：进入它的最佳边是“{piece}”，来自位置 {start}。",
    "uenc.path": "最佳切分：{pieces}；总对数概率 {score}（p = {p}）。",
    "uenc.nbest": "前 {n} 个最佳切分；每个概率是它在“{word}”全部 {count} 种切分中所占的比例。",
    "uenc.nbestTitle": "次优切分（在全部 {count} 种切分上归一化的概率）",
    "uenc.nbestLoading": "正在向 Python 请求前 n 个最佳切分…",
    "uenc.nbestUnavailable": "无法得到前 n 个最佳切分：{reason}",
    "uenc.nbestLater": "前 n 个最佳切分在最后一步显示。",
    "uenc.best.label": "最佳", "uenc.rank": "第 {n}",
    "uenc.edgeInfo": "“{piece}”，位置 {start}→{end}：对数概率 {score}，p = {p}",
    "uenc.edgeInfoUnk": "未知字符，位置 {start}→{end}：得分 {score}",
    "uenc.hint": "把鼠标移到某条边上或用 Tab 聚焦，可查看它的得分和概率。",
    "uenc.nodeLabel": "位置 {pos}：最佳得分 {score}，p = {p}，来自“{piece}”",
    "uenc.nodeEmpty": "位置 {pos}：尚未到达",
    "uenc.noPython": "Python 尚未就绪。",
  },
});

const SVG = "http://www.w3.org/2000/svg";
const NBEST = 5;
const CELL = 100; // px between positions
const PAD = 40;

let cssLoaded = false;
export function loadUnigramCss() {
  if (cssLoaded) return;
  cssLoaded = true;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./unigram.css", import.meta.url).href;
  document.head.append(link);
}

const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};
const svg = (tag, attrs = {}) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
};

// Numbers: log scores to 4 decimals; probabilities to 6 decimals (or 3 significant when tiny).
export const fmtScore = (x) => formatNumber(x, lang(), { minimumFractionDigits: 4, maximumFractionDigits: 4 });
export function fmtProb(p) {
  if (p >= 1e-4 || p === 0) return formatNumber(p, lang(), { minimumFractionDigits: 6, maximumFractionDigits: 6 });
  return formatNumber(p, lang(), { notation: "scientific", maximumSignificantDigits: 3 });
}
const shown = (s) => s.replace(/ /g, "␣").replace(/\n/g, "↵").replace(/\t/g, "⇥");

// The trace's events cut into one record per model piece: {index, text, offsets, events}.
function splitPieces(events) {
  const pieces = [];
  let current = null;
  let pending = null;
  for (const e of events || []) {
    if (e.type === "model_piece") pending = e;
    else if (e.type === "unigram.word") {
      current = { index: pending ? pending.index : pieces.length, text: e.word,
        offsets: pending ? pending.offsets : [0, e.word.length], events: [] };
      pieces.push(current);
      pending = null;
    } else if (current && e.type.startsWith("unigram.")) current.events.push(e);
  }
  return pieces;
}

// The steps of one piece: forward events, then the backtrack edges (end to start), then n-best.
function stepsOf(piece) {
  const steps = [];
  let path = null;
  for (const e of piece.events) {
    if (e.type === "unigram.edge" || e.type === "unigram.best") steps.push(e);
    else if (e.type === "unigram.path") path = e;
  }
  const back = path ? [...path.tokens].reverse() : [];
  back.forEach(([value, id, start, end], i) => steps.push({ type: "back", piece: value, id, start, end,
    last: i === back.length - 1, path }));
  steps.push({ type: "nbest" });
  return steps;
}

export function createUnigramEncodeRenderer({ root, player, engine, key = null }) {
  loadUnigramCss();
  const box = el("div", "unigram-encode");
  root.append(box);
  let pieces = [];
  let state = null; // the piece on show: {piece, steps, edges: Map, nodes: [], ...}
  let traceKey = key;
  const nbestCache = new Map();

  function show(trace, { piece = null, cursor = null } = {}) {
    traceKey = trace.key || key;
    pieces = splitPieces(trace.events);
    let index = 0;
    if (piece !== null && piece >= 0 && piece < pieces.length) index = piece;
    else if (cursor !== null) {
      const hit = pieces.findIndex((p) => cursor >= p.offsets[0] && cursor <= p.offsets[1]);
      if (hit >= 0) index = hit;
    }
    return build(index);
  }

  function selectPiece(i) {
    const timeline = build(i);
    player?.load(timeline, 0);
    return timeline;
  }

  function build(index) {
    box.replaceChildren();
    if (!pieces.length) {
      box.append(el("p", "placeholder", t("uenc.none")));
      state = null;
      return { length: 0, render() {}, narrate: () => t("uenc.none") };
    }
    box.append(picker(index));
    const piece = pieces[index];
    state = { piece, steps: stepsOf(piece), index };
    drawLattice(state);
    return timelineOf(state);
  }

  function picker(index) {
    const wrap = el("div", "field unigram-picker");
    const label = el("label", "", t("uenc.piece"));
    const select = el("select");
    select.dataset.testid = "lattice-piece";
    select.setAttribute("aria-label", t("uenc.pickPiece"));
    pieces.forEach((p, i) => {
      const option = el("option", "", `${i + 1}. ${shown(p.text)}`);
      option.value = String(i);
      select.append(option);
    });
    select.value = String(index);
    select.addEventListener("change", () => {
      selectPiece(Number(select.value));
      box.querySelector("select")?.focus();
    });
    label.append(select);
    wrap.append(label);
    return wrap;
  }

  // ---- drawing: every edge and node is made once; render(k) only flips attributes.
  function drawLattice(s) {
    const word = s.piece.text;
    const chars = [...word];
    const n = word.length; // the model's offsets are UTF-16 indices of the piece in JS too
    const edges = s.steps.filter((e) => e.type === "unigram.edge");
    const maxLen = Math.max(1, ...edges.map((e) => e.end - e.start));
    const rise = (len) => 36 + (len - 1) * 34;
    const lineY = 24 + rise(maxLen);
    const width = PAD * 2 + n * CELL + 30; // room for the last node's numbers
    const height = lineY + 92;
    const x = (pos) => PAD + pos * CELL;
    const figure = el("figure", "lattice-figure");
    const caption = el("figcaption", "lattice-caption", t("uenc.lattice", { word: shown(word), n }));
    const scroller = el("div", "lattice-scroll");
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "region");
    scroller.setAttribute("aria-label", t("uenc.lattice", { word: shown(word), n }));
    const canvas = svg("svg", { class: "lattice", width, height, viewBox: `0 0 ${width} ${height}`, role: "group" });
    canvas.setAttribute("aria-label", t("uenc.lattice", { word: shown(word), n }));
    canvas.append(svg("line", { class: "lattice-axis", x1: x(0), y1: lineY, x2: x(n), y2: lineY }));
    // the characters between the positions, just above the line
    let at = 0;
    for (const ch of chars) {
      const len = ch.length;
      const label = svg("text", { class: "lattice-char", x: (x(at) + x(at + len)) / 2, y: lineY + 26, "text-anchor": "middle" });
      label.textContent = shown(ch);
      canvas.append(label);
      at += len;
    }
    const info = el("p", "lattice-info hint", t("uenc.hint"));
    info.setAttribute("aria-live", "polite");
    s.edges = new Map();
    for (const e of edges) {
      const len = e.end - e.start;
      const x1 = x(e.start), x2 = x(e.end), h = rise(len);
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
      canvas.append(g);
      s.edges.set(`${e.start}:${e.end}`, g);
    }
    s.nodes = [];
    for (let pos = 0; pos <= n; pos++) {
      const g = svg("g", { class: "lattice-node" });
      g.dataset.testid = "lattice-node";
      g.dataset.position = pos;
      const dot = svg("circle", { cx: x(pos), cy: lineY, r: 7, class: "lattice-dot" });
      const num = svg("text", { class: "lattice-pos", x: x(pos), y: lineY + 20, "text-anchor": "middle" });
      num.textContent = String(pos);
      const prob = svg("text", { class: "lattice-prob", x: x(pos), y: lineY + 48, "text-anchor": "middle" });
      const score = svg("text", { class: "lattice-best", x: x(pos), y: lineY + 63, "text-anchor": "middle" });
      const from = svg("text", { class: "lattice-from", x: x(pos), y: lineY + 78, "text-anchor": "middle" });
      g.setAttribute("role", "img");
      g.append(dot, num, prob, score, from);
      canvas.append(g);
      s.nodes.push({ g, prob, score, from });
    }
    scroller.append(canvas);
    figure.append(caption, scroller, info);
    s.nbestBox = el("section", "unigram-nbest");
    s.nbestBox.dataset.testid = "unigram-nbest";
    box.append(figure, s.nbestBox);
  }

  // ---- the timeline: state after k steps, recomputed from the steps (fast: a word is short)
  function timelineOf(s) {
    const length = s.steps.length;
    return {
      length,
      render: (k) => render(s, k),
      narrate: (k) => narrate(s, k),
    };
  }

  function render(s, k) {
    if (s !== state) return;
    const visible = new Set();
    const best = new Map();
    const onPath = new Set();
    for (let i = 0; i < k; i++) {
      const e = s.steps[i];
      if (e.type === "unigram.edge") visible.add(`${e.start}:${e.end}`);
      else if (e.type === "unigram.best") best.set(e.position, e);
      else if (e.type === "back") onPath.add(`${e.start}:${e.end}`);
    }
    const lastStep = k > 0 ? s.steps[k - 1] : null;
    const currentKey = lastStep && (lastStep.type === "unigram.edge" || lastStep.type === "back")
      ? `${lastStep.start}:${lastStep.end}` : null;
    for (const [id, g] of s.edges) {
      g.classList.toggle("is-hidden", !visible.has(id));
      g.classList.toggle("is-current", id === currentKey);
      if (visible.has(id)) g.removeAttribute("aria-hidden"); else g.setAttribute("aria-hidden", "true");
      g.setAttribute("tabindex", visible.has(id) ? "0" : "-1");
      if (onPath.has(id)) g.dataset.best = "true"; else delete g.dataset.best;
    }
    s.nodes.forEach((node, pos) => {
      const e = best.get(pos);
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
    });
    renderNbest(s, k === s.steps.length);
  }

  function renderNbest(s, atEnd) {
    const boxEl = s.nbestBox;
    if (!atEnd) {
      if (boxEl.dataset.state !== "later") {
        boxEl.dataset.state = "later";
        boxEl.replaceChildren(el("p", "hint", t("uenc.nbestLater")));
      }
      return;
    }
    const word = s.piece.text;
    const cached = nbestCache.get(`${traceKey}\u0000${word}`);
    if (cached && cached.result) return drawNbest(s, cached.result);
    if (cached && cached.error) {
      boxEl.dataset.state = "error";
      return boxEl.replaceChildren(el("p", "hint", t("uenc.nbestUnavailable", { reason: cached.error })));
    }
    boxEl.dataset.state = "loading";
    boxEl.replaceChildren(el("p", "hint", t("uenc.nbestLoading")));
    if (cached) return;
    const entry = {};
    nbestCache.set(`${traceKey}\u0000${word}`, entry);
    if (!engine || !traceKey) {
      entry.error = t("uenc.noPython");
      return renderNbest(s, true);
    }
    engine.request("call", { name: "unigram_nbest", args: { key: traceKey, word, n: NBEST } }).then(
      (result) => { entry.result = typeof result === "string" ? JSON.parse(result) : result; },
      (error) => { entry.error = error.message; },
    ).then(() => { if (state === s && player && player.k === s.steps.length) player.seek(player.k); });
  }

  function drawNbest(s, result) {
    const boxEl = s.nbestBox;
    if (boxEl.dataset.state === "done" && boxEl.dataset.word === result.word) return;
    boxEl.dataset.state = "done";
    boxEl.dataset.word = result.word;
    const heading = el("h3", "unigram-nbest-title", t("uenc.nbestTitle", { count: formatNumber(result.segmentations, lang()) }));
    const list = el("ol", "unigram-nbest-list");
    result.paths.forEach((path, i) => {
      const item = el("li", i === 0 ? "is-best" : "");
      item.dataset.testid = "nbest-item";
      item.dataset.probability = path.probability;
      item.dataset.score = path.score;
      const bar = el("span", "nbest-bar");
      bar.style.setProperty("--share", String(path.probability));
      bar.setAttribute("aria-hidden", "true");
      const tokens = el("span", "nbest-tokens");
      for (const p of path.pieces) tokens.append(el("span", "nbest-token", shown(p)));
      const numbers = el("span", "nbest-numbers", `p = ${fmtProb(path.probability)} · ${fmtScore(path.score)}`);
      item.append(bar, tokens, numbers);
      if (i === 0) item.append(el("span", "nbest-flag", t("uenc.best.label")));
      list.append(item);
    });
    boxEl.replaceChildren(heading, list);
  }

  function narrate(s, k) {
    const word = shown(s.piece.text);
    if (k === 0) return t("uenc.start", { word, n: s.piece.text.length });
    const e = s.steps[k - 1];
    if (e.type === "unigram.edge") {
      return e.unk ? t("uenc.unk", { start: e.start, end: e.end, score: fmtScore(e.score) })
        : t("uenc.edge", { start: e.start, end: e.end, piece: shown(e.piece), score: fmtScore(e.score), p: fmtProb(Math.exp(e.score)) });
    }
    if (e.type === "unigram.best") {
      return t("uenc.best", { pos: e.position, score: fmtScore(e.score), p: fmtProb(Math.exp(e.score)), piece: shown(e.piece), start: e.start });
    }
    if (e.type === "back") {
      const text = t("uenc.back", { end: e.end, piece: shown(e.piece), start: e.start });
      if (!e.last) return text;
      const pieces = e.path.tokens.map((tok) => shown(tok[0])).join(" + ");
      return `${text} ${t("uenc.path", { pieces, score: fmtScore(e.path.score), p: fmtProb(Math.exp(e.path.score)) })}`;
    }
    const cached = nbestCache.get(`${traceKey}\u0000${s.piece.text}`);
    const count = cached?.result ? formatNumber(cached.result.segmentations, lang()) : "…";
    const n = cached?.result ? cached.result.paths.length : NBEST;
    return t("uenc.nbest", { n, count, word });
  }

  return {
    show,
    selectPiece,
    pieces: () => pieces.map((p) => ({ index: p.index, text: p.text, offsets: p.offsets })),
    destroy() { box.remove(); state = null; },
  };
}

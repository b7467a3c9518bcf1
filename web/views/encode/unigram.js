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
import { t, formatNumber, lang } from "../../i18n/index.js";
import { el, loadCss } from "../../lib/dom.js";
import { visible as shown } from "../../lib/tokens.js";
import { fmtScore, fmtProb } from "./numbers.js";
import { drawLattice, renderLattice } from "./lattice.js";
import { createNbest, NBEST } from "./nbest.js";
import { askedRows } from "./asked.js";
import "./unigram-strings.js";

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

// The select that chooses which piece's lattice is on show.
function picker(pieces, index, onSelect, box) {
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
    onSelect(Number(select.value));
    box.querySelector("select")?.focus();
  });
  label.append(select);
  wrap.append(label);
  return wrap;
}

// The line under step k of piece `s`; `answer` is the n-best reply, once it has come.
function narrate(s, k, answer) {
  const word = shown(s.piece.text);
  if (k === 0) return t("uenc.start", { word, n: Array.from(s.piece.text).length }); // positions count code points
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
  const count = answer ? formatNumber(answer.segmentations, lang()) : "…";
  const n = answer ? answer.paths.length : NBEST;
  return t(answer && Number(answer.segmentations) === 1 ? "uenc.nbestOnly" : "uenc.nbest", { n, count, word });
}

// The token "why this token?" was asked about: its piece, its place in that piece's best
// path, its span in the lattice and value ({piece, place, start, end, value}); null
// otherwise (askedRows: a run of unknown characters is one token, one edge a character).
function askedToken(trace, pieces) {
  const rows = pieces.flatMap((p, group) => (p.events.find((e) => e.type === "unigram.path")?.tokens || [])
    .map(([value, , start, end], place) => ({ value, group, place, start, end })));
  const run = askedRows(trace.why, rows);
  if (!run) return null;
  const first = rows[run.first];
  return { piece: first.group, place: first.place, value: trace.why.tokens[trace.why.token],
    start: first.start, end: rows[run.last].end };
}

export function createUnigramEncodeRenderer({ root, player, engine, key = null }) {
  loadCss(new URL("../unigram.css", import.meta.url));
  const box = el("div", "unigram-encode");
  root.append(box);
  let pieces = [];
  let state = null; // the piece on show: {piece, steps, index, edges, nodes, nbestBox}
  let traceKey = key;
  let asked = null; // the token "why this token?" asked about (askedToken)
  const nbest = createNbest({ engine });

  function show(trace, { piece = null, cursor = null } = {}) {
    traceKey = trace.key || key;
    pieces = splitPieces(trace.events);
    asked = askedToken(trace, pieces);
    let index = asked ? asked.piece : 0;
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
    box.append(picker(pieces, index, selectPiece, box));
    const piece = pieces[index];
    state = { piece, steps: stepsOf(piece), index, asked: asked?.piece === index ? asked : null };
    drawLattice(box, state);
    if (state.asked) markAsked(box, state);
    return timelineOf(state);
  }

  // The asked token's edge in the lattice (the best path ends up through it), or the
  // unknown characters' edges of a run of them fused into one token; and a line under the
  // figure that says what the mark means.
  function markAsked(box, s) {
    const { start, end } = s.asked;
    const whole = s.edges.get(`${start}:${end}`);
    const edges = whole ? [whole] : [...s.edges.values()].filter((g) => g.dataset.unk === "true"
      && Number(g.dataset.start) >= start && Number(g.dataset.end) <= end);
    if (!edges.length) return;
    for (const edge of edges) {
      edge.classList.add("is-asked");
      edge.dataset.asked = "true";
    }
    box.insertBefore(el("p", "hint uenc-asked", t("uenc.asked")), s.nbestBox);
  }

  // The timeline of one piece: the lattice after k steps, and the n best at the end.
  function timelineOf(s) {
    // An n-best answer that arrives later redraws the last step, if it is still on show.
    const replay = () => { if (state === s && player && player.k === s.steps.length) player.seek(player.k); };
    return {
      length: s.steps.length,
      render(k) {
        if (s !== state) return;
        renderLattice(s, k);
        nbest.render(s, k === s.steps.length, traceKey, replay);
      },
      narrate: (k) => narrate(s, k, nbest.answer(traceKey, s.piece.text)),
      // The model event step k shows, for the Code panel: a backtrack step is the path's.
      event(k) {
        const e = k > 0 ? s.steps[k - 1] : null;
        if (!e || e.type === "nbest") return null;
        return e.type === "back" ? e.path : e;
      },
    };
  }

  return {
    show,
    selectPiece,
    pieces: () => pieces.map((p) => ({ index: p.index, text: p.text, offsets: p.offsets })),
    destroy() { box.remove(); state = null; },
  };
}

// The Unigram renderer's last step: the n best segmentations of the piece, asked of Python
// (webapi.unigram_nbest) once per tokenizer and word, and drawn as bars of probability.
import { t, formatNumber, lang } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { visible as shown } from "../../lib/tokens.js";
import { fmtScore, fmtProb } from "./numbers.js";
import "./unigram-strings.js";

export const NBEST = 5;

// One list per renderer. `replay()` redraws the step on show once an answer arrives.
export function createNbest({ engine }) {
  const cache = new Map(); // "key\0word" -> {result?, error?}
  const keyOf = (traceKey, word) => `${traceKey}\u0000${word}`;

  // Draw the list for piece `s` into s.nbestBox: a hint before the last step, then the answer.
  function render(s, atEnd, traceKey, replay) {
    const box = s.nbestBox;
    if (!atEnd) {
      if (box.dataset.state !== "later") {
        box.dataset.state = "later";
        box.replaceChildren(el("p", "hint", t("uenc.nbestLater")));
      }
      return;
    }
    const word = s.piece.text;
    const cached = cache.get(keyOf(traceKey, word));
    if (cached && cached.result) return draw(box, cached.result, bestPieces(s));
    if (cached && cached.error) {
      box.dataset.state = "error";
      return box.replaceChildren(el("p", "hint", t("uenc.nbestUnavailable", { reason: cached.error })));
    }
    box.dataset.state = "loading";
    box.replaceChildren(el("p", "hint", t("uenc.nbestLoading")));
    if (cached) return;
    const entry = {};
    cache.set(keyOf(traceKey, word), entry);
    if (!engine || !traceKey) {
      entry.error = t("uenc.noPython");
      return render(s, true, traceKey, replay);
    }
    engine.request("call", { name: "unigram_nbest", args: { key: traceKey, word, n: NBEST } }).then(
      (result) => { entry.result = typeof result === "string" ? JSON.parse(result) : result; },
      (error) => { entry.error = error.message; },
    ).then(replay);
  }

  // The pieces of the path the encoder took (the trace's unigram.path event), or null.
  function bestPieces(s) {
    const path = (s.piece.events || []).find((e) => e.type === "unigram.path");
    return path ? path.tokens.map((row) => row[0]) : null;
  }

  function draw(box, result, taken) {
    if (box.dataset.state === "done" && box.dataset.word === result.word) return;
    box.dataset.state = "done";
    box.dataset.word = result.word;
    const only = Number(result.segmentations) === 1;
    const heading = el("h3", "unigram-nbest-title",
      t(only ? "uenc.nbestOnlyTitle" : "uenc.nbestTitle", { count: formatNumber(result.segmentations, lang()) }));
    const list = el("ol", "unigram-nbest-list");
    result.paths.forEach((path, i) => list.append(item(path, i)));
    box.replaceChildren(heading, list, ...tieNotes(result.paths, taken));
  }

  // Segmentations of exactly the same score are equally likely; say so, and why the
  // encoder took #1 when it is one of them.
  function tieNotes(paths, taken) {
    const tookFirst = taken && paths.length && taken.join("\u0000") === paths[0].pieces.join("\u0000");
    const notes = [];
    for (let i = 0; i < paths.length;) {
      let j = i + 1;
      while (j < paths.length && paths[j].score === paths[i].score) j++;
      if (j - i > 1) {
        const ranks = paths.slice(i, j).map((_, k) => t("uenc.rank", { n: i + k + 1 })).join(", ");
        const note = el("p", "hint nbest-tie", t(i === 0 && tookFirst ? "uenc.tieBest" : "uenc.tie",
          { ranks, n: j - i, score: fmtScore(paths[i].score) }));
        note.dataset.testid = "nbest-tie";
        notes.push(note);
      }
      i = j;
    }
    return notes;
  }

  function item(path, i) {
    const node = el("li", i === 0 ? "is-best" : "");
    node.dataset.testid = "nbest-item";
    node.dataset.probability = path.probability;
    node.dataset.score = path.score;
    const bar = el("span", "nbest-bar");
    bar.style.setProperty("--share", String(path.probability));
    bar.setAttribute("aria-hidden", "true");
    const tokens = el("span", "nbest-tokens");
    for (const p of path.pieces) tokens.append(el("span", "nbest-token", shown(p)));
    const numbers = el("span", "nbest-numbers", `p = ${fmtProb(path.probability)} · ${fmtScore(path.score)}`);
    node.append(bar, tokens, numbers);
    if (i === 0) node.append(el("span", "nbest-flag", t("uenc.best.label")));
    return node;
  }

  // The answer for a word, if it has come (the narration counts its segmentations).
  const answer = (traceKey, word) => cache.get(keyOf(traceKey, word))?.result ?? null;

  return { render, answer };
}

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
    if (cached && cached.result) return draw(box, cached.result, bestPieces(s), s.asked);
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

  // `asked`: the token "why this token?" asked about ({place, value}), outlined in #1 when
  // #1 is the path the encoder took.
  function draw(box, result, taken, asked = null) {
    if (box.dataset.state === "done" && box.dataset.word === result.word) return;
    box.dataset.state = "done";
    box.dataset.word = result.word;
    const only = Number(result.segmentations) === 1;
    const heading = el("h3", "unigram-nbest-title",
      t(only ? "uenc.nbestOnlyTitle" : "uenc.nbestTitle", { count: formatNumber(result.segmentations, lang()) }));
    const list = el("ol", "unigram-nbest-list");
    const tookFirst = taken && result.paths.length && taken.join("\u0000") === result.paths[0].pieces.join("\u0000");
    result.paths.forEach((path, i) => list.append(item(path, i, i === 0 && tookFirst ? asked : null)));
    box.replaceChildren(heading, list, ...tieNotes(result.paths, tookFirst));
  }

  // Segmentations of exactly the same score are equally likely; say so, and why the
  // encoder took #1 when it is one of them.
  function tieNotes(paths, tookFirst) {
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

  function item(path, i, asked) {
    const node = el("li", i === 0 ? "is-best" : "");
    node.dataset.testid = "nbest-item";
    node.dataset.probability = path.probability;
    node.dataset.score = path.score;
    const bar = el("span", "nbest-bar");
    bar.style.setProperty("--share", String(path.probability));
    bar.setAttribute("aria-hidden", "true");
    const tokens = el("span", "nbest-tokens");
    path.pieces.forEach((p, place) => {
      const token = tokens.appendChild(el("span", "nbest-token", shown(p)));
      if (asked && place === asked.place && p === asked.value) {
        token.classList.add("is-asked");
        token.dataset.asked = "true";
      }
    });
    const numbers = el("span", "nbest-numbers", `p = ${fmtProb(path.probability)} · ${fmtScore(path.score)}`);
    node.append(bar, tokens, numbers);
    if (i === 0) node.append(el("span", "nbest-flag", t("uenc.best.label")));
    return node;
  }

  // The answer for a word, if it has come (the narration counts its segmentations).
  const answer = (traceKey, word) => cache.get(keyOf(traceKey, word))?.result ?? null;

  return { render, answer };
}

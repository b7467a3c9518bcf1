// The frame the word-by-word renderers (WordPiece, BPE) share: a trace cut into words,
// the strip of words, the tokens so far, and a timeline whose step k is one model event.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { tokenChip, face } from "../../lib/tokens.js";
import { askedRows } from "./asked.js";
import "./strings.js";

// The words (model_piece events) and each word's model events, from a trace.
export function wordsOf(trace, prefix) {
  const words = [];
  for (const event of trace.events) {
    if (event.type === "model_piece") {
      words.push({ text: event.text, offsets: event.offsets, events: [], tokens: [] });
    } else if (event.type.startsWith(prefix) && words.length) {
      const word = words[words.length - 1];
      word.events.push(event);
      if (event.type === `${prefix}done`) word.tokens = event.tokens;
    }
  }
  return words;
}

// The strip of words: finished ones, the current one (marked in words, not colour only), and those waiting.
export function wordStrip(words, current, finished, info) {
  const box = el("section", "enc-words");
  box.append(el("h3", "enc-h", t("encode.words")));
  const list = el("ol", "enc-word-list");
  words.forEach((word, i) => {
    const state = finished || i < current ? "done" : i === current ? "current" : "todo";
    const item = el("li", `enc-word ${state}`);
    item.dataset.testid = "encode-word";
    item.dataset.state = state;
    const text = el("span", "enc-word-text", face(word.text, info));
    text.translate = false; // the user's words: data in every language
    item.append(text);
    item.append(el("span", "enc-word-state", t(`encode.wordState.${state}`)));
    if (state === "current") item.setAttribute("aria-current", "step");
    list.append(item);
  });
  box.append(list);
  return box;
}

const RESULT_LIMIT = 120; // chips drawn at most; older ones are counted, not drawn
// The tokens produced so far: every finished word's, then `partial` (the current word's).
// `asked`: {index, value} of the token "why this token?" was asked about, among all the
// words' tokens (null otherwise): outlined from the step that makes it on (a WordPiece
// piece matched before its word turns out unknown is not it: the value must agree).
export function resultRow(words, current, partial, info, final, asked = null) {
  const rows = [];
  for (let i = 0; i < Math.min(current, words.length); i++) rows.push(...words[i].tokens);
  rows.push(...partial);
  const box = el("section", "enc-result");
  box.dataset.testid = "encode-result";
  box.dataset.final = String(final);
  box.append(el("h3", "enc-h", t(final ? "encode.resultFinal" : "encode.result")));
  const list = el("div", "enc-result-tokens");
  const skip = Math.max(0, rows.length - RESULT_LIMIT);
  if (skip) list.append(el("span", "enc-earlier", t("encode.earlier", { n: skip })));
  rows.slice(skip).forEach(([value, id], i) => {
    const chip = tokenChip(value, id, info, { testid: "result-token" });
    if (asked && skip + i === asked.index && value === asked.value) {
      chip.classList.add("asked");
      chip.dataset.asked = "true";
    }
    list.append(chip);
  });
  box.append(list);
  if (list.querySelector(".asked")) box.append(el("p", "hint enc-asked", t("encode.asked")));
  return box;
}

// The token "why this token?" was asked about, {index, value} among the tokens the
// trace's words end in (askedRows); null otherwise.
function askedToken(trace, words) {
  const rows = words.flatMap((word, group) => word.tokens.map(([value]) => ({ value, group })));
  const run = askedRows(trace.why, rows);
  return run && run.first === run.last ? { index: run.first, value: rows[run.first].value } : null;
}

// The frame both word-by-word renderers (WordPiece, BPE) draw after k steps: the word
// strip, the current word's panel (or the start hint), the tokens so far, a legend.
// `wordStep(word, index, info)` gives the renderer's own part: {panel, partial tokens}.
export function renderWordSteps(root, { steps, words, info, legend, wordStep, asked = null }, k) {
  if (steps.length === 0) {
    root.replaceChildren(el("p", "hint", t("encode.noSteps")));
    return;
  }
  const final = k >= steps.length;
  const current = k === 0 ? 0 : steps[k - 1].word;
  const parts = [wordStrip(words, k === 0 ? -1 : current, final, info)];
  let partial = [];
  if (k > 0) {
    const step = wordStep(words[current], steps[k - 1].index, info);
    partial = step.partial;
    parts.push(step.panel);
  } else {
    parts.push(el("p", "hint enc-start", t("encode.start")));
  }
  parts.push(resultRow(words, final ? words.length : current, final ? [] : partial, info, final, asked));
  parts.push(el("p", "hint enc-legend", t(legend)));
  root.replaceChildren(...parts);
}


// The player's timeline over a trace, one step per model event that `isStep` keeps.
// The renderer gives its own part: wordStep(word, index, info) -> {panel, partial tokens} and
// narrateEvent(word, step, event, wordCount) -> the line for that event.
export function wordStepsTimeline(root, trace, { prefix, isStep, legend, wordStep, narrateEvent }) {
  const info = trace.info;
  const words = wordsOf(trace, prefix);
  const steps = []; // {word, index}: word number and the event's index in that word's events
  words.forEach((word, w) => word.events.forEach((event, index) => {
    if (isStep(event)) steps.push({ word: w, index });
  }));
  const asked = askedToken(trace, words);
  const render = (k) => renderWordSteps(root, { steps, words, info, legend, wordStep, asked }, k);
  function narrate(k) {
    if (steps.length === 0) return t("encode.noSteps");
    // The stage already says how to start; the narration says where we are.
    if (k === 0) return t("encode.ready", { n: words.length });
    const step = steps[k - 1];
    const word = words[step.word];
    let line = narrateEvent(word, step, word.events[step.index], words.length, info);
    if (k === steps.length) line += ` ${t("encode.finished", { n: words.reduce((s, w) => s + w.tokens.length, 0) })}`;
    return line;
  }
  // The model event step k shows (null at step 0): what the Code panel points at.
  const event = (k) => (k > 0 && k <= steps.length ? words[steps[k - 1].word].events[steps[k - 1].index] : null);
  return { length: steps.length, render, narrate, event };
}

// The current word's panel, headed by the word as its tokens show it (spaces made visible),
// and, where the vocabulary writes it otherwise (bytes: Ġ, å¤©), that spelling under it.
export function wordPanel(testid, word, info = null) {
  const panel = el("section", "enc-panel");
  panel.dataset.testid = testid;
  panel.dataset.word = word.text;
  const shownAs = face(word.text, info);
  panel.append(el("h3", "enc-h", `“${shownAs}”`));
  if (shownAs !== word.text && info?.byte_level) {
    const note = el("p", "hint enc-spelling", t("encode.spelling"));
    note.append(" ", el("code", "", word.text));
    note.dataset.testid = "encode-spelling";
    panel.append(note);
  }
  return panel;
}

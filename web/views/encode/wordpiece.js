// WordPiece encoding, step by step: greedy longest match on each word.
//
// Steps are the model's events for every word, in order: the word starting
// (wordpiece.word), each candidate tried (wordpiece.try, found or not) and the
// whole-word unknown (wordpiece.unk). render(k) draws the state after k steps
// from those events alone, so stepping back redraws exactly what was there.
import { t, register } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { tokenChip, visible } from "../../lib/tokens.js";
import { wordPanel, wordStepsTimeline } from "./word-steps.js";

register({
  en: {
    "wp.word": "Word {i} of {n}: “{word}”. WordPiece tries the longest piece first, then shrinks the window one character at a time.",
    "wp.found": "“{candidate}” is in the vocabulary: it becomes a token. The rest of the word continues after character {end}.",
    "wp.foundCont": "“{candidate}” is in the vocabulary (## marks a piece inside the word): it becomes a token.",
    "wp.miss": "“{candidate}” is not in the vocabulary: shrink the window to one character fewer.",
    "wp.unkNoMatch": "No vocabulary piece starts at position {position} (“{piece}”): the whole word “{word}” becomes {token}, and the pieces already found are dropped.",
    "wp.unkTooLong": "“{word}” has more characters ({chars}) than the limit ({max}): the whole word becomes {token} without trying.",
    "wp.chars": "The word, character by character",
    "wp.window": "window",
    "wp.matched": "matched",
    "wp.tries": "Candidates tried for this word",
    "wp.triesEarlier": "… {n} earlier tries",
    "wp.yes": "✓ in the vocabulary",
    "wp.no": "✗ not in the vocabulary",
    "wp.legend": "Pieces after the first start with ##: they continue the word. If no piece matches at some position, the whole word is unknown.",
    "wp.unkTitle": "Why the whole word is unknown",
  },
  vi: {
    "wp.word": "Từ {i}/{n}: “{word}”. WordPiece thử mảnh dài nhất trước, rồi thu hẹp cửa sổ từng ký tự một.",
    "wp.found": "“{candidate}” có trong bộ từ vựng: nó trở thành một token. Phần còn lại của từ tiếp tục sau ký tự {end}.",
    "wp.foundCont": "“{candidate}” có trong bộ từ vựng (## đánh dấu một mảnh nằm bên trong từ): nó trở thành một token.",
    "wp.miss": "“{candidate}” không có trong bộ từ vựng: thu hẹp cửa sổ bớt một ký tự.",
    "wp.unkNoMatch": "Không có mảnh nào trong bộ từ vựng bắt đầu tại vị trí {position} (“{piece}”): cả từ “{word}” trở thành {token}, các mảnh đã tìm được bị bỏ.",
    "wp.unkTooLong": "“{word}” có {chars} ký tự, vượt giới hạn {max}: cả từ trở thành {token} mà không cần thử.",
    "wp.chars": "Từ, từng ký tự một",
    "wp.window": "cửa sổ",
    "wp.matched": "đã khớp",
    "wp.tries": "Các ứng viên đã thử cho từ này",
    "wp.triesEarlier": "… {n} lần thử trước đó",
    "wp.yes": "✓ có trong bộ từ vựng",
    "wp.no": "✗ không có trong bộ từ vựng",
    "wp.legend": "Các mảnh sau mảnh đầu tiên bắt đầu bằng ##: chúng nối tiếp từ. Nếu tại một vị trí nào đó không mảnh nào khớp, cả từ thành token không xác định.",
    "wp.unkTitle": "Vì sao cả từ thành token không xác định",
  },
  zh: {
    "wp.word": "第 {i} 个词（共 {n} 个）：“{word}”。WordPiece 先尝试最长的片段，然后每次把窗口缩短一个字符。",
    "wp.found": "“{candidate}”在词表中：它成为一个词元。词的剩余部分从第 {end} 个字符之后继续。",
    "wp.foundCont": "“{candidate}”在词表中（## 表示词内部的片段）：它成为一个词元。",
    "wp.miss": "“{candidate}”不在词表中：把窗口缩短一个字符。",
    "wp.unkNoMatch": "词表中没有从位置 {position}（“{piece}”）开始的片段：整个词“{word}”变成 {token}，已经找到的片段也一并丢弃。",
    "wp.unkTooLong": "“{word}”有 {chars} 个字符，超过上限 {max}：整个词直接变成 {token}，不再尝试。",
    "wp.chars": "逐个字符看这个词",
    "wp.window": "窗口",
    "wp.matched": "已匹配",
    "wp.tries": "这个词尝试过的候选片段",
    "wp.triesEarlier": "… 前面还有 {n} 次尝试",
    "wp.yes": "✓ 在词表中",
    "wp.no": "✗ 不在词表中",
    "wp.legend": "第一个片段之后的片段以 ## 开头，表示接在词的后面。只要某个位置找不到任何匹配的片段，整个词就是未知词。",
    "wp.unkTitle": "为什么整个词都是未知词",
  },
});

const STEP_TYPES = new Set(["wordpiece.word", "wordpiece.try", "wordpiece.unk"]);
const TRIES_SHOWN = 14;


// The current word's state after its first `upto` events (inclusive of index).
function wordState(word, upto) {
  const state = { tries: [], tokens: [], window: null, matchedEnd: 0, unk: null };
  for (let i = 0; i <= upto; i++) {
    const event = word.events[i];
    if (event.type === "wordpiece.try") {
      state.tries.push(event);
      state.window = [event.start, event.end, event.found];
    } else if (event.type === "wordpiece.match") {
      state.tokens.push([event.token, event.id, event.start, event.end]);
      state.matchedEnd = event.end;
    } else if (event.type === "wordpiece.unk") state.unk = event;
  }
  // A found try is followed by its match: show the match with the try that found it.
  const next = word.events[upto + 1];
  if (next && next.type === "wordpiece.match") {
    state.tokens.push([next.token, next.id, next.start, next.end]);
    state.matchedEnd = next.end;
  }
  return state;
}

function wordStep(word, index, info) {
  const state = wordState(word, index);
  const wordDone = word.events.slice(index + 1).every((e) => !STEP_TYPES.has(e.type));
  const partial = state.unk || wordDone ? word.tokens : state.tokens;
  return { panel: statePanel(word, state, info), partial };
}

function statePanel(word, state, info) {
  const panel = wordPanel("wp-word", word);
  // The characters, with the matched prefix and the current window marked in words too.
  const chars = el("div", "enc-chars");
  chars.setAttribute("role", "group");
  chars.setAttribute("aria-label", t("wp.chars"));
  const text = [...word.text];
  const [ws, we, found] = state.window || [-1, -1, false];
  text.forEach((ch, i) => {
    const cell = el("span", "enc-char");
    cell.dataset.testid = "wp-char";
    cell.append(el("span", "enc-char-text", visible(ch)));
    const notes = [];
    if (i < state.matchedEnd && !(i >= ws && i < we && found)) notes.push("matched");
    if (i >= ws && i < we) notes.push("window");
    for (const n of notes) cell.classList.add(n);
    if (i >= ws && i < we && found) cell.classList.add("found");
    if (state.unk && state.unk.position === i) cell.classList.add("failed");
    cell.append(el("span", "enc-char-note", notes.includes("window") ? t("wp.window")
      : notes.includes("matched") ? t("wp.matched") : "\u00a0"));
    chars.append(cell);
  });
  panel.append(chars);
  panel.append(triesList(state.tries));
  if (state.unk) panel.append(unkBox(word, state.unk, info));
  return panel;
}

function triesList(tries) {
  const box = el("div", "enc-tries");
  box.append(el("h4", "enc-h4", t("wp.tries")));
  const list = el("ol", "enc-try-list");
  const skip = Math.max(0, tries.length - TRIES_SHOWN);
  if (skip) list.append(el("li", "enc-earlier", t("wp.triesEarlier", { n: skip })));
  tries.slice(skip).forEach((attempt, i) => {
    const item = el("li", `enc-try ${attempt.found ? "yes" : "no"}`);
    item.dataset.testid = "wp-try";
    item.dataset.candidate = attempt.candidate;
    item.dataset.found = String(attempt.found);
    if (skip + i === tries.length - 1) item.classList.add("latest");
    item.append(el("code", "enc-cand", visible(attempt.candidate)));
    item.append(el("span", "enc-verdict", t(attempt.found ? "wp.yes" : "wp.no")));
    list.append(item);
  });
  box.append(list);
  return box;
}

function unkBox(word, unk, info) {
  const box = el("div", "enc-unk");
  box.dataset.testid = "wp-unk";
  box.dataset.reason = unk.reason;
  if (unk.position !== null && unk.position !== undefined) box.dataset.position = String(unk.position);
  box.append(el("h4", "enc-h4", t("wp.unkTitle")));
  box.append(el("p", "", unkText(word, unk)));
  box.append(tokenChip(unk.token, unk.id, info));
  return box;
}

function unkText(word, unk) {
  if (unk.reason === "too_long") {
    return t("wp.unkTooLong", { word: word.text, chars: unk.chars, max: unk.max, token: unk.token });
  }
  const piece = [...word.text].slice(unk.position).join("");
  return t("wp.unkNoMatch", { position: unk.position, piece: visible(piece), word: word.text, token: unk.token });
}

function narrateEvent(word, step, event, wordCount) {
  if (event.type === "wordpiece.word") {
    return t("wp.word", { i: step.word + 1, n: wordCount, word: visible(word.text) });
  }
  if (event.type === "wordpiece.try") {
    const params = { candidate: visible(event.candidate), end: event.end };
    return event.found ? t(event.start > 0 ? "wp.foundCont" : "wp.found", params) : t("wp.miss", params);
  }
  return unkText(word, event);
}

export function createWordPieceEncodeRenderer({ root }) {
  return {
    show: (trace) => wordStepsTimeline(root, trace, {
      prefix: "wordpiece.", isStep: (e) => STEP_TYPES.has(e.type), legend: "wp.legend", wordStep, narrateEvent,
    }),
  };
}

// Text and tokens, linked: pointing at (or moving the caret into) characters of the text
// highlights their token, and pointing at or focusing a token highlights its characters;
// the inspector line says what the highlighted token is.
import { t } from "../../i18n/index.js";
import { explain, quoted } from "../../lib/tokens.js";
import { tokenOptions } from "./token-list.js";
import "../../i18n/tokenize.js";

// The document or shadow root `node` is in (the notebook widgets draw in a shadow root,
// where document.activeElement is the host and document.elementsFromPoint stops at it).
const rootOf = (node) => /** @type {Document | ShadowRoot} */ (node.getRootNode());

const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };

export class TokenLinks {
  // view: the tokenize view (its el, list, result, resultText, info, current).
  constructor(view) {
    this.view = view;
    this.highlighted = -1;
    // A touch screen cannot point without tapping, and a tap asks "why this token?": the
    // hints say so there (data-i18n keeps the touch hint when the language changes).
    this.touch = matchMedia("(hover: none) and (pointer: coarse)").matches;
  }

  hint() {
    return t(this.touch ? "tok.inspectorTouch" : "tok.inspector");
  }

  bind() {
    const { text, tokens, inspector } = this.view.el;
    if (this.touch && inspector) {
      inspector.dataset.i18n = "tok.inspectorTouch";
      inspector.textContent = this.hint();
    }
    for (const type of ["keyup", "click", "select"]) text.addEventListener(type, () => this.caretMoved());
    text.addEventListener("mousemove", (event) => this.pointAtText(event));
    text.addEventListener("mouseleave", () => this.caretMoved());
    tokens.addEventListener("pointerover", (event) => {
      const chip = event.target.closest("[data-testid=token]");
      if (chip) this.highlight(Number(chip.dataset.index), { from: "token" });
    });
    tokens.addEventListener("pointerleave", () => {
      const focused = /** @type {HTMLElement} */ (rootOf(tokens).activeElement);
      if (tokens.contains(focused) && focused.dataset.index) this.highlight(Number(focused.dataset.index), {});
      else this.highlight(-1);
    });
    tokens.addEventListener("focusin", (event) => {
      const chip = event.target.closest("[data-testid=token]");
      if (!chip) return;
      this.view.list.focusIndex = Number(chip.dataset.index);
      this.highlight(Number(chip.dataset.index), { from: "token", reveal: true });
    });
    tokens.addEventListener("keydown", (event) => this.tokenKey(event));
    // Click or Enter on a token: "why this token?" (the encode step view for its word).
    tokens.addEventListener("click", (event) => {
      const chip = event.target.closest("[data-testid=token]");
      if (chip) this.view.why(Number(chip.dataset.index));
    });
  }

  highlight(index, { from = "", reveal = false } = {}) {
    if (index === this.highlighted && !reveal) return;
    const { list, result } = this.view;
    const old = this.highlighted;
    if (old >= 0) {
      list.tokenAt(old)?.classList.remove("hl");
      list.tokenAt(old)?.setAttribute("aria-selected", "false");
      list.segmentOf(old)?.classList.remove("hl");
    }
    this.highlighted = index;
    list.setHighlight(index);
    if (index < 0 || !result) {
      this.view.el.inspector.textContent = this.hint();
      return;
    }
    // From the text: the list scrolls to the token (drawing its chip if it was not).
    const chip = from === "text" ? list.revealToken(index) : list.tokenAt(index);
    chip?.classList.add("hl");
    chip?.setAttribute("aria-selected", "true");
    const seg = reveal ? list.revealSegment(index) : list.segmentOf(index);
    seg?.classList.add("hl");
    if (reveal && seg) this.revealInText(seg);
    this.describe(index);
  }

  describe(index) {
    const { result: r, resultText, info, current } = this.view;
    const token = r.tokens[index];
    const [s, e] = r.offsets[index];
    const covered = resultText.slice(s, e);
    const where = e > s
      ? t("tok.covers", { start: s, end: e, text: quoted(covered) })
      : t("tok.coversNone");
    const note = explain(token, tokenOptions(r, index, info.get(current) || {}));
    this.view.el.inspector.textContent =
      t("tok.describe", { n: index + 1, total: r.ids.length, token: quoted(token), id: String(r.ids[index]), where }) +
      (note ? t("tok.note", { note: `${note[0].toUpperCase()}${note.slice(1)}` }) : "") +
      (this.view.list.joins.get(index)?.title ? ` ${this.view.list.joins.get(index).title}` : "") +
      (e > s ? t(this.touch ? "tok.whyHintTouch" : "tok.whyHint") : ""); // no characters, no steps
  }

  revealInText(seg) {
    const box = this.view.el.text;
    const top = seg.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }

  pointAtText(event) {
    if (this.pointerFrame) return;
    this.pointerFrame = requestAnimationFrame(() => {
      this.pointerFrame = 0;
      const seg = /** @type {HTMLElement | undefined} */ (rootOf(this.view.el.text).elementsFromPoint(event.clientX, event.clientY).find((node) => node.classList?.contains("seg")));
      if (seg) this.highlight(Number(seg.dataset.index), { from: "text" });
    });
  }

  caretMoved() {
    const { result, el } = this.view;
    if (!result || rootOf(el.text).activeElement !== el.text) return;
    const caret = el.text.selectionStart;
    const offsets = result.offsets;
    const shown = offsets.length;
    // The token whose span holds the caret (or the one that starts right at it).
    let found = -1;
    for (let i = 0; i < shown; i++) {
      const [s, e] = offsets[i];
      if (e > s && s <= caret && caret < e) { found = i; break; }
      if (s > caret) break;
    }
    this.highlight(found, { from: "text" });
  }

  // Arrow keys, Home and End move the focus along the token list (drawing the next
  // chip if it was out of view: only the chips in view exist).
  tokenKey(event) {
    const chip = event.target.closest("[data-testid=token]");
    if (!chip) return;
    const index = Number(chip.dataset.index);
    if (event.key === "Enter") {
      event.preventDefault();
      this.view.why(index);
      return;
    }
    if (!(event.key in MOVES)) return;
    event.preventDefault();
    const count = this.view.result?.ids.length || 0;
    this.focusToken(Math.max(0, Math.min(count - 1, index + MOVES[event.key])));
  }

  focusToken(index) {
    const list = this.view.list;
    list.tokenAt(list.focusIndex)?.setAttribute("tabindex", "-1");
    list.focusIndex = index;
    const next = list.revealToken(index);
    if (!next) return;
    next.tabIndex = 0;
    next.focus({ preventScroll: true });
  }
}

/** The word a token belongs to: the run of letters, marks and digits around its offsets
 * (a punctuation token is its own word), with the one space before it (byte-level and
 * sentencepiece vocabularies keep that space). */
const WORD = /[\p{L}\p{M}\p{N}_'’]/u;
export function wordAround(text, [start, end]) {
  let from = start;
  let to = Math.max(end, start);
  while (from < to - 1 && /\s/.test(text[from])) from += 1; // " unbel": the word is after the space
  if (WORD.test(text[from] || "")) {
    while (from > 0 && WORD.test(text[from - 1])) from -= 1;
    while (to < text.length && WORD.test(text[to])) to += 1;
  }
  if (from > 0 && text[from - 1] === " ") from -= 1;
  return text.slice(from, to);
}

// The "why this token?" event's detail for token `index` of the view's last result, or
// null: `word` (the word around it) is what the encode view's link and text box show;
// `focus` is what it asks Python (web/why.py) for the steps this very encode took there.
export function whyDetail(view, index) {
  const r = view.result;
  if (!r || !r.offsets[index] || !view.current) return null;
  const word = wordAround(view.resultText, r.offsets[index]);
  if (!word) return null; // a token of no characters ([CLS]); spaces alone have steps too
  const limit = view.windowChars;
  const text = view.resultText.length > limit + 1 ? view.resultText.slice(0, limit + 2) : view.resultText;
  const special = view.rules.specialTokens(view.current) || null;
  const focus = { key: view.current, text, index, limit, special };
  return { key: view.current, word, index, token: r.tokens[index], focus };
}

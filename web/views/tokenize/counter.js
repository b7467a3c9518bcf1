// The counts under the text box (tokens, characters, characters per token, bytes per
// token): always the whole text's, whatever part of it the chips show.
//
// A text the worker encoded whole is counted from that encoding at once. A longer one is
// counted by Python in slices (py/subword_lab/web/count.py), started as the page sends
// the text's head to be encoded for the chips, not after they are drawn: one small request
// per slice, so the encodes that typing asks for run between two slices; meanwhile
// `token-count` says "counting… 40%" with data-complete="false" (docs/automation.md).
//
// A vocabulary with no unknown token (a toy one trained on five words) drops what it cannot
// write. The characters no token covers are counted (whitespace aside), said under the counts,
// and left out of the per-token figures, which would otherwise credit the tokens with them.
import { t, formatNumber } from "../../i18n/index.js";
import "../../i18n/tokenize.js";
import { loadCss } from "../../lib/dom.js";

const RATIO = { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false };
const PERCENT = { style: "percent", maximumFractionDigits: 0 };
// Steps asked for ahead: two, as drawing a pasted book's chips holds this thread for two
// steps' time (one left the worker idle, waiting to be asked); each more is a step an
// edit's encode may wait behind.
const AHEAD = 2;

export class WholeCount {
  constructor(el, engine) {
    this.el = el; // count, chars, ratio, bytes (elements)
    this.engine = engine;
    this.session = 0; // the count under way; a new text or tokenizer starts a new one
    loadCss(new URL("./notes.css", import.meta.url)); // the `uncovered` note
  }

  clear() {
    this.session += 1;
    this.target = null;
    for (const name of ["count", "chars", "ratio", "bytes"]) this.el[name].textContent = "–";
    this.showUncovered(0);
    delete this.el.count.dataset.count;
    delete this.el.count.dataset.complete;
  }

  // `text` could not be tokenized: no token figures, but its characters are still known.
  unknown(text) {
    this.clear();
    this.showCharacters(text);
  }

  // The page has asked for the head of `text` (too long to encode whole) to be encoded:
  // its count starts now, right behind that encode, not after the chips are drawn (the
  // count is what a reader of a pasted book looks at first), with `special`, the
  // special-tokens choice the encode asks for (web/views/tokenize/rules.js; null: the
  // tokenizer's default).
  start(text, key, special) {
    if (this.counting(text, key, special)) return;
    this.begin(text, key, special);
    this.progress(0);
    this.run(this.session, text, key, special);
  }

  // The page drew `result` (the encoding of the first result.encoded_chars of `text`).
  follow(result, text, key) {
    // The same text again ("show more", a redraw, or one `start` began): its count is
    // done or under way.
    const special = result.specialTokens || null;
    if (this.counting(text, key, special)) return;
    if (result.encoded_chars < text.length) {
      this.start(text, key, special);
      return;
    }
    this.begin(text, key, special);
    this.finish(text, key, result.ids.length, uncovered(text, result.offsets));
  }

  // A new count: this text, tokenizer and choice; any earlier session's answers are ignored.
  begin(text, key, special) {
    this.target = { text, key, special };
    this.session += 1;
    this.showCharacters(text);
  }

  // The count shown (or under way) is that of this text, tokenizer and choice.
  counting(text, key, special) {
    const target = this.target;
    return Boolean(target) && target.text === text && target.key === key && target.special === special;
  }

  // AHEAD steps are always asked for ahead of the answer awaited, so the worker goes from
  // slice to slice without waiting for this thread (busy drawing the chips meanwhile);
  // a step asked for after the last answers {gone: true}, and is not awaited.
  async run(session, text, key, special) {
    const id = `count-${session}`;
    const ask = (name, args) => {
      const answer = this.engine.request("call", { name, args });
      answer.catch(() => {}); // one left unawaited must not be an unhandled rejection
      return answer;
    };
    const step = () => ask("count_step", { session: id });
    try {
      const asked = [ask("count_start", { key, text, session: id, special }), ...Array.from({ length: AHEAD }, step)];
      let state = await asked.shift();
      while (session === this.session && !state.complete && !state.gone) {
        this.progress(state.total ? state.done / state.total : 0);
        asked.push(step());
        state = await asked.shift();
      }
      if (session === this.session && state.complete) {
        this.finish(text, key, state.count, { chars: state.uncovered || 0, bytes: state.uncovered_bytes || 0 });
      }
    } catch {
      // Stopped or restarted: the view draws again when Python is back, and counts again
      // (forgetting this text, so that the next drawing of it does not take it as counted).
      if (session === this.session) this.clear();
    }
  }

  showCharacters(text) {
    this.points = codePoints(text);
    this.bytesOf = utf8Length(text);
    this.el.chars.textContent = formatNumber(this.points);
    this.el.chars.dataset.count = String(this.points);
  }

  progress(fraction) {
    const { count, ratio, bytes } = this.el;
    count.textContent = t("tok.counting", { percent: formatNumber(fraction, undefined, PERCENT) });
    count.dataset.complete = "false";
    delete count.dataset.count;
    ratio.textContent = "…";
    bytes.textContent = "…";
  }

  finish(text, key, n, missed = { chars: 0, bytes: 0 }) {
    const { count, ratio, bytes } = this.el;
    count.textContent = formatNumber(n);
    count.dataset.count = String(n);
    count.dataset.complete = "true";
    ratio.textContent = n ? formatNumber((this.points - missed.chars) / n, undefined, RATIO) : "–";
    bytes.textContent = n ? formatNumber((this.bytesOf - missed.bytes) / n, undefined, RATIO) : "–";
    this.showUncovered(missed.chars);
  }

  showUncovered(chars) {
    const note = this.el.uncovered;
    if (!note) return;
    note.hidden = !chars;
    note.dataset.count = String(chars);
    note.textContent = chars ? t("tok.uncovered", {
      n: chars, percent: formatNumber(chars / Math.max(1, this.points), undefined, PERCENT_FINE) }) : "";
  }
}

const PERCENT_FINE = { style: "percent", maximumFractionDigits: 1 };

// {chars, bytes} of the text, whitespace aside, in no token's span (offsets in UTF-16 units);
// a character of two units counts once, as Python counts it (py/subword_lab/web/count.py).
export function uncovered(text, offsets) {
  const covered = new Uint8Array(text.length);
  for (const [start, end] of offsets) covered.fill(1, Math.min(start, text.length), Math.min(end, text.length));
  let chars = 0, bytes = 0, i = 0;
  for (const char of text) {
    if (!covered[i] && !/\s/u.test(char)) {
      chars += 1;
      bytes += utf8Length(char);
    }
    i += char.length;
  }
  return { chars, bytes };
}

function codePoints(text) {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) || []).length;
}

// The UTF-8 size of a JavaScript string (a lone surrogate counts as U+FFFD, 3 bytes,
// as TextEncoder writes it), without building the bytes of a 5 MB text.
function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length
      && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      n += 4;
      i += 1;
    } else n += 3;
  }
  return n;
}

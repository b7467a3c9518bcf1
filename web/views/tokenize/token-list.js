// The tokenize view's drawing: the token chips (a virtual list, chip-rows.js), the
// coloured layer behind the text box (text-layer.js), and the "show more" line and legend.
//
// Only the chips of the rows in view exist (docs/automation.md): a 10 KB text has
// thousands of tokens, and drawing them all took longer than a key press may (issue 14).
// Chips are reused by what they show: after an edit the chips in view are mostly the
// same tokens, moved.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { hueOf, chipBody, markText, byteJoins, pieces } from "../../lib/tokens.js";
import { ChipRows } from "./chip-rows.js";
import { TextLayer } from "./text-layer.js";
import "../../i18n/tokenize.js";

const LEGEND_ORDER = ["spelling", "Ġ", "Ċ", "ĉ", "bytes", "partial", "▁", "##", "<0x…>", "␣", "invisible", "special", "unknown"];
const WEIGHT = { partial: 600, invisible: 600, bytes: 400 }; // style.css: .tok .mark is bold, .mark.partial 600

// How token i of a result is marked (tokens.js's pieces() and explain() take these).
export function tokenOptions(result, i, info) {
  return {
    special: Boolean(result.special[i]),
    // a special token written in the text (<|im_start|>, [INST]) covers characters
    inText: Boolean(result.special[i]) && result.offsets[i][1] > result.offsets[i][0],
    model: info.model || "",
    unknown: info.unk_id !== null && info.unk_id !== undefined && result.ids[i] === info.unk_id,
    byteLevel: Boolean(info.byte_level),
  };
}

// One token chip: coloured by id, its markers visible, the id drawn under it by CSS.
function tokenElement(result, i, info) {
  const chip = el("span", "tok");
  const id = result.ids[i];
  chip.setAttribute("role", "option");
  chip.setAttribute("aria-selected", "false");
  chip.tabIndex = -1;
  chip.dataset.testid = "token";
  chip.dataset.tokenId = String(id);
  chip.style.setProperty("--h", String(hueOf(id)));
  chip.style.setProperty("--id", `"${id}"`);
  const options = tokenOptions(result, i, info);
  if (options.special) chip.classList.add("special");
  chipBody(chip, result.tokens[i], options);
  chip.shown = { id, token: result.tokens[i], special: result.special[i] }; // see shows()
  chip.placedAs = {}; // what place() wrote last
  return chip;
}

export class TokenList {
  // els: the view's elements (tokens, backdrop, text, more, hidden, legend; more and
  // hidden may be left out: the notebook's tokens widget encodes all of its text).
  constructor(els) {
    this.el = els;
    this.result = null;
    this.info = {};
    this.drawnFor = null; // the tokenizer key the chips were drawn with
    this.looks = new Map(); // what a chip shows -> {width, marks}
    this.pool = new Map(); // what a chip shows -> chips free to reuse
    this.highlighted = -1;
    this.focusIndex = 0; // the chip Tab reaches (roving tabindex)
    /** @type {Map<any, any> | JoinWindow} */
    this.joins = new Map();
    this.widths = null; // every token's chip width, for the result drawn
    this.marks = new Map(); // legend mark -> how many tokens show it
    this.placeholder = el("p", "placeholder", "");
    this.rows = null;
    this.layer = null;
  }

  // Built on the first draw: the list replaces whatever the markup held.
  ensure() {
    if (this.rows) return;
    this.el.tokens.replaceChildren();
    this.rows = new ChipRows(this.el.tokens, {
      chipFor: (i) => this.chipFor(i),
      placed: (chip, i) => this.place(chip, i),
      release: (chip) => this.release(chip),
      done: () => this.pool.clear(),
      shows: (chip, i) => this.shows(chip, i),
      remeasured: () => {
        this.looks.clear();
        if (this.last) this.draw(...this.last);
      },
    });
    this.el.tokens.append(this.placeholder); // after the rows: it never moves them
    this.layer = new TextLayer(this.el.backdrop, this.el.text);
    this.layer.highlighted = () => this.highlighted;
  }

  reset() {
    this.drawnFor = null;
  }

  lookKey(result, i) {
    return `${result.ids[i]}\u0000${result.special[i] ? 1 : 0}\u0000${result.tokens[i]}`;
  }

  // Its width and marks, once per distinct token and tokenizer.
  look(result, i) {
    const key = this.lookKey(result, i);
    let look = this.looks.get(key);
    if (!look) {
      const options = tokenOptions(result, i, this.info);
      const parts = pieces(result.tokens[i], options);
      const plain = options.special || options.unknown;
      const widthParts = parts.map((p) => ({
        text: p.text,
        weight: plain || p.mark === "special" || p.mark === "unknown" ? 600 : p.mark ? WEIGHT[p.mark] ?? 700 : 400,
      }));
      look = { width: this.rows.chipWidth(widthParts, result.ids[i]), marks: parts.filter((p) => p.mark).map((p) => p.mark) };
      this.looks.set(key, look);
    }
    return look;
  }

  // Draw `result` (the encoding of the first result.encoded_chars of `text`) by tokenizer `key`.
  // After a key press (result.change: the tokens kept at both ends since the result drawn
  // last) only the new tokens are looked at here; the rows and the layer keep what they can.
  draw(result, text, key, info) {
    this.ensure();
    this.last = [result, text, key, info];
    if (this.drawnFor !== key) {
      this.looks.clear();
      this.pool.clear();
      this.rows.clear();
      this.focusIndex = 0;
    }
    const before = this.drawnFor === key && this.widths ? this.result : null;
    const change = before && result.change?.from === before ? result.change : null;
    this.drawnFor = key;
    this.info = info;
    this.widths = change ? this.widthsAfter(before, result, change) : this.widthsOf(result);
    this.result = result;
    this.joins = new JoinWindow(result, (lo, hi) => this.joinsOf(result, info, lo, hi));
    const n = result.ids.length;
    if (this.focusIndex >= n) this.focusIndex = 0;
    this.placeholder.hidden = n > 0;
    this.placeholder.textContent = t(text ? "tok.noTokens" : "tok.typeSome");
    this.rows.layout(this.widths);
    this.layer.redraw(result, text, this.highlighted);
    this.el.tokens.dataset.status = "done";
    this.el.tokens.dataset.textLength = String(text.length);
    this.updateMore(result, text);
    this.updateLegend();
  }

  // Every token's chip width; the marks in use counted for the legend.
  widthsOf(result) {
    this.marks = new Map();
    const n = result.ids.length;
    const widths = new Array(n);
    for (let i = 0; i < n; i++) widths[i] = this.counted(this.look(result, i), 1).width;
    return widths;
  }

  // The widths after an edit: those of the kept tokens as they were, the new ones looked up.
  widthsAfter(before, result, { head, tail }) {
    const old = before.ids.length;
    for (let i = head; i < old - tail; i++) this.counted(this.look(before, i), -1);
    const middle = [];
    for (let i = head; i < result.ids.length - tail; i++) middle.push(this.counted(this.look(result, i), 1).width);
    return this.widths.slice(0, head).concat(middle, this.widths.slice(old - tail));
  }

  counted(look, step) {
    for (const mark of look.marks) this.marks.set(mark, (this.marks.get(mark) || 0) + step);
    return look;
  }

  // The chip shows token i as it is now (its place aside).
  shows(chip, i) {
    const { shown } = chip;
    const r = this.result;
    return shown.id === r.ids[i] && shown.token === r.tokens[i] && shown.special === r.special[i];
  }

  chipFor(i) {
    const key = this.lookKey(this.result, i);
    const free = this.pool.get(key);
    if (free?.length) return free.pop();
    const chip = tokenElement(this.result, i, this.info);
    chip.look = key;
    return chip;
  }

  release(chip) {
    const key = chip.look;
    if (!this.pool.has(key)) this.pool.set(key, []);
    this.pool.get(key).push(chip);
  }

  // A chip's place in the list and its state (highlight, focus, joined bytes). Only what
  // changed is written (compared with what was written last, kept on the chip): after an
  // edit most chips in view are the same, and every write is work for the browser.
  place(chip, i) {
    const [start, end] = this.result.offsets[i];
    const was = chip.placedAs;
    const now = {
      i, start, end, size: this.result.ids.length, tab: i === this.focusIndex ? 0 : -1,
      hl: i === this.highlighted, join: this.joins.get(i) || null,
    };
    const data = chip.dataset;
    if (was.i !== i) {
      data.index = String(i);
      chip.setAttribute("aria-posinset", String(i + 1));
    }
    if (was.start !== start) data.start = String(start);
    if (was.end !== end) data.end = String(end);
    if (was.size !== now.size) chip.setAttribute("aria-setsize", String(now.size));
    // focus and highlight are also set from outside (linking.js): read from the chip
    if (chip.tabIndex !== now.tab) chip.tabIndex = now.tab;
    if (chip.classList.contains("hl") !== now.hl) {
      chip.classList.toggle("hl", now.hl);
      chip.setAttribute("aria-selected", String(now.hl));
    }
    if (was.join?.pos !== now.join?.pos || was.join?.title !== now.join?.title) this.placeJoin(chip, now.join);
    chip.placedAs = now;
  }

  placeJoin(chip, join) {
    const data = chip.dataset;
    if (join) {
      data.joins = join.pos;
      data.char = join.char;
      chip.title = data.spelling ? `${data.spelling} · ${join.title}` : join.title;
    } else if (data.joins) {
      delete data.joins;
      delete data.char;
      if (data.spelling) chip.title = data.spelling;
      else chip.removeAttribute("title");
    }
  }

  // Tokens that hold the bytes of one character between them are drawn joined
  // (style.css: .tok[data-joins]) and say so. Those among tokens lo..hi-1: a character
  // has at most 4 bytes, so starting 8 tokens before lo finds every join that reaches lo.
  joinsOf(result, info, lo, hi) {
    const parts = new Map();
    const first = Math.max(0, lo - 8);
    const tokens = result.tokens.slice(first, Math.min(result.tokens.length, hi + 8));
    for (const join of byteJoins(tokens, (k) => tokenOptions(result, first + k, info))) {
      const [a, b] = [join.first + first, join.last + first];
      const code = [...join.text].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
      const title = t("tok.joins", { n: b - a + 1, char: `${join.text} (${code.join(" ")})` });
      for (let i = a; i <= b; i++) {
        const pos = i === a ? "first" : i === b ? "last" : "mid";
        parts.set(i, { pos, title, char: join.text });
      }
    }
    return parts;
  }

  // The chip of token `index` if it is drawn.
  tokenAt(index) {
    return this.rows?.chipAt(index) || null;
  }

  // The chip of token `index`, scrolled into view and drawn if it was not.
  revealToken(index) {
    return this.rows?.reveal(index) || null;
  }

  setHighlight(index) {
    this.highlighted = index;
  }

  // The highlight layer's element for token i: its own span, or the span of the
  // token it shares characters with (the bytes of one character).
  segmentOf(index) {
    return this.layer?.segmentOf(index) || null;
  }

  revealSegment(index) {
    return this.layer?.reveal(index, this.highlighted) || null;
  }

  // [first, end): the tokens whose chips are in the DOM now.
  drawn() {
    return this.rows ? [this.rows.first, this.rows.end] : [0, 0];
  }

  updateMore(result, text) {
    if (!this.el.more) return; // the notebook's tokens widget has no "show more" line
    const hiddenChars = text.length - result.encoded_chars;
    this.el.more.hidden = hiddenChars <= 0;
    if (hiddenChars > 0) {
      const details = t("tok.hiddenChars", { n: hiddenChars, covered: result.encoded_chars });
      this.el.hidden.textContent = t("tok.showing", { n: result.ids.length, details });
    }
  }

  updateLegend() {
    const shown = LEGEND_ORDER.filter((mark) => this.marks.get(mark) > 0);
    if (shown.join() === this.legendFor) return;
    this.legendFor = shown.join();
    const items = shown.map((mark) => el("li", "", markText(mark)));
    if (!items.length) items.push(el("li", "", t("tok.noMarks")));
    this.el.legend.replaceChildren(...items);
  }
}

// The joins of a result, found a window of tokens at a time, as the chips drawn need them
// (scanning all of a long text's tokens at every key press cost milliseconds).
class JoinWindow {
  constructor(result, find) {
    this.n = result.ids.length;
    this.find = find;
    this.lo = this.hi = 0;
    this.map = new Map();
  }

  get(i) {
    if (i < this.lo || i >= this.hi) {
      this.lo = Math.max(0, i - 256);
      this.hi = Math.min(this.n, i + 768);
      this.map = this.find(this.lo, this.hi);
    }
    return this.map.get(i);
  }
}

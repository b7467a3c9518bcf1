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

const LEGEND_ORDER = ["Ġ", "Ċ", "ĉ", "bytes", "partial", "▁", "##", "<0x…>", "␣", "special", "unknown"];
const WEIGHT = { partial: 600, bytes: 400 }; // style.css: .tok .mark is bold, .mark.partial 600

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
  return chip;
}

export class TokenList {
  // els: the view's elements (tokens, backdrop, text, more, hidden, legend).
  constructor(els) {
    this.el = els;
    this.result = null;
    this.info = {};
    this.drawnFor = null; // the tokenizer key the chips were drawn with
    this.looks = new Map(); // what a chip shows -> {width, marks}
    this.pool = new Map(); // what a chip shows -> chips free to reuse
    this.highlighted = -1;
    this.focusIndex = 0; // the chip Tab reaches (roving tabindex)
    this.joins = new Map();
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
      shows: (chip, i) => chip.dataset.look === this.lookKey(this.result, i),
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
  draw(result, text, key, info) {
    this.ensure();
    this.last = [result, text, key, info];
    if (this.drawnFor !== key) {
      this.looks.clear();
      this.pool.clear();
      this.rows.clear();
      this.focusIndex = 0;
    }
    this.drawnFor = key;
    this.result = result;
    this.info = info;
    const n = result.ids.length;
    const widths = new Array(n);
    const seen = new Set();
    for (let i = 0; i < n; i++) {
      const look = this.look(result, i);
      widths[i] = look.width;
      for (const mark of look.marks) seen.add(mark);
    }
    this.joins = this.joinsOf(result, info);
    if (this.focusIndex >= n) this.focusIndex = 0;
    this.placeholder.hidden = n > 0;
    this.placeholder.textContent = t(text ? "tok.noTokens" : "tok.typeSome");
    this.rows.layout(widths);
    this.layer.redraw(result, text, this.highlighted);
    this.el.tokens.dataset.status = "done";
    this.el.tokens.dataset.textLength = String(text.length);
    this.updateMore(result, text);
    this.updateLegend(seen);
  }

  chipFor(i) {
    const key = this.lookKey(this.result, i);
    const free = this.pool.get(key);
    if (free?.length) return free.pop();
    const chip = tokenElement(this.result, i, this.info);
    chip.dataset.look = key;
    return chip;
  }

  release(chip) {
    const key = chip.dataset.look;
    if (!this.pool.has(key)) this.pool.set(key, []);
    this.pool.get(key).push(chip);
  }

  // A chip's place in the list and its state (highlight, focus, joined bytes). Only what
  // changed is written: after an edit most chips in view are the same, and every write
  // is work for the browser, even of the value already there.
  place(chip, i) {
    const [start, end] = this.result.offsets[i];
    const data = chip.dataset;
    write(data, "index", String(i));
    write(data, "start", String(start));
    write(data, "end", String(end));
    attribute(chip, "aria-posinset", String(i + 1));
    attribute(chip, "aria-setsize", String(this.result.ids.length));
    const tab = i === this.focusIndex ? 0 : -1;
    if (chip.tabIndex !== tab) chip.tabIndex = tab;
    const hl = i === this.highlighted;
    if (chip.classList.contains("hl") !== hl) chip.classList.toggle("hl", hl);
    attribute(chip, "aria-selected", String(hl));
    const join = this.joins.get(i);
    if (join) {
      write(data, "joins", join.pos);
      write(data, "char", join.char);
      if (chip.title !== join.title) chip.title = join.title;
    } else if (data.joins) {
      delete data.joins;
      delete data.char;
      chip.removeAttribute("title");
    }
  }

  // Tokens that hold the bytes of one character between them are drawn joined
  // (style.css: .tok[data-joins]) and say so.
  joinsOf(result, info) {
    const parts = new Map();
    for (const join of byteJoins(result.tokens, (i) => tokenOptions(result, i, info))) {
      const code = [...join.text].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
      const title = t("tok.joins", { n: join.last - join.first + 1, char: `${join.text} (${code.join(" ")})` });
      for (let i = join.first; i <= join.last; i++) {
        const pos = i === join.first ? "first" : i === join.last ? "last" : "mid";
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
    const hiddenChars = text.length - result.encoded_chars;
    this.el.more.hidden = hiddenChars <= 0;
    if (hiddenChars > 0) {
      const details = t("tok.hiddenChars", { n: hiddenChars, covered: result.encoded_chars });
      this.el.hidden.textContent = t("tok.showing", { n: result.ids.length, details });
    }
  }

  updateLegend(seen) {
    const items = LEGEND_ORDER.filter((mark) => seen.has(mark)).map((mark) => el("li", "", markText(mark)));
    if (!items.length) items.push(el("li", "", t("tok.noMarks")));
    this.el.legend.replaceChildren(...items);
  }
}

function write(data, name, value) {
  if (data[name] !== value) data[name] = value;
}

function attribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

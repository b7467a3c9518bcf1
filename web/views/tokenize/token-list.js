// The tokenize view's drawing: the list of token chips, the coloured layer behind the text
// box (one span per token's characters), and the counts, "show more" line and legend.
//
// Typing changes a few tokens, so the elements of the unchanged head and tail are kept and
// only the middle is rebuilt: fresh elements cost the browser layout and text shaping,
// which is most of the time here.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { hueOf, chipBody, markText, byteJoins } from "../../lib/tokens.js";
import "../../i18n/tokenize.js";

const LEGEND_ORDER = ["Ġ", "Ċ", "ĉ", "bytes", "partial", "▁", "##", "<0x…>", "␣", "special", "unknown"];

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

// Per token: the text between it and the one before (gap) and its own text
// (seg) in the text box; and a key that is equal when nothing drawn differs.
function itemKeys(result, text, shown) {
  const keys = new Array(shown);
  const parts = new Array(shown);
  let pos = 0;
  for (let i = 0; i < shown; i++) {
    const [s, e] = result.offsets[i];
    let gap = "";
    let seg = null; // null: no characters of its own (special, or bytes of one character)
    if (e > s && s >= pos) {
      gap = text.slice(pos, s);
      seg = text.slice(s, e);
      pos = e;
    }
    parts[i] = { gap, seg };
    keys[i] = `${result.ids[i]}\u0000${result.tokens[i]}\u0000${result.special[i]}\u0000${gap}\u0000${seg}`;
  }
  parts.end = pos;
  return { keys, parts };
}

// How many items at the head and at the tail are unchanged.
function keptEnds(keys, oldKeys, shown) {
  let head = 0;
  while (head < shown && head < oldKeys.length && keys[head] === oldKeys[head]) head++;
  let tail = 0;
  while (tail < shown - head && tail < oldKeys.length - head
         && keys[shown - 1 - tail] === oldKeys[oldKeys.length - 1 - tail]) tail++;
  return { head, tail };
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
  const options = tokenOptions(result, i, info);
  if (options.special) chip.classList.add("special");
  return { el: chip, marks: chipBody(chip, result.tokens[i], options) };
}

function placeItem(item, result, i) {
  const [start, end] = result.offsets[i];
  const data = item.tok.dataset;
  data.start = String(start);
  data.end = String(end);
  data.index = String(i);
  if (item.seg) item.seg.dataset.index = String(i);
}

function makeItem(result, i, info, part) {
  const tok = tokenElement(result, i, info);
  const bd = el("span");
  if (part.gap) bd.append(part.gap);
  let seg = null;
  if (part.seg !== null) {
    seg = el("span", "seg", part.seg);
    seg.style.setProperty("--h", String(hueOf(result.ids[i])));
    bd.append(seg);
  }
  const item = { tok: tok.el, bd, seg, marks: tok.marks };
  placeItem(item, result, i);
  return item;
}

export class TokenList {
  // els: the view's elements (tokens, backdrop, text, count, chars, ratio, more, hidden, legend).
  constructor(els) {
    this.el = els;
    this.items = null; // [{tok, bd, seg, marks}] for the tokens drawn
    this.keys = [];
    this.drawnFor = null; // the tokenizer key the items were drawn with
  }

  reset() {
    this.items = [];
    this.keys = [];
    this.placeholder = el("p", "placeholder", "");
    this.el.tokens.replaceChildren(this.placeholder);
    this.bdTail = document.createTextNode("");
    this.el.backdrop.replaceChildren(this.bdTail);
  }

  // Draw the first `shown` tokens of `result` for `text`, encoded by tokenizer `key`.
  draw(result, text, key, info, shown) {
    const { keys, parts } = itemKeys(result, text, shown);
    if (this.drawnFor !== key || !this.items) this.reset();
    this.drawnFor = key;
    const old = this.items;
    const { head, tail } = keptEnds(keys, this.keys, shown);
    const items = this.replaceMiddle(result, info, parts, old, head, tail, shown);
    // The kept tail may have moved in the text and in the list.
    for (let i = shown - tail; i < shown; i++) placeItem(items[i], result, i);
    if (items[0]) items[0].tok.tabIndex = 0;
    if (old[0] && old[0] !== items[0] && old[0].tok.isConnected) old[0].tok.tabIndex = -1;
    this.items = items;
    this.keys = keys;
    this.markJoins(result, info, shown);
    this.bdTail.data = text.slice(parts.end, Math.max(result.encoded_chars, Math.min(text.length, 200000))) + "\u200b";
    this.el.backdrop.scrollTop = this.el.text.scrollTop;
    this.placeholder.hidden = shown > 0;
    this.placeholder.textContent = t(text ? "tok.noTokens" : "tok.typeSome");
    this.el.tokens.dataset.status = "done";
    this.el.tokens.dataset.textLength = String(text.length);
    this.updateMore(result, text, shown);
    this.updateLegend(new Set(items.flatMap((item) => item.marks)));
  }

  // Remove the old items between the kept ends and put fresh ones in their place.
  replaceMiddle(result, info, parts, old, head, tail, shown) {
    for (const item of old.slice(head, old.length - tail)) {
      item.tok.remove();
      item.bd.remove();
    }
    const middle = [];
    const tokFragment = document.createDocumentFragment();
    const bdFragment = document.createDocumentFragment();
    for (let i = head; i < shown - tail; i++) {
      const item = makeItem(result, i, info, parts[i]);
      middle.push(item);
      tokFragment.append(item.tok);
      bdFragment.append(item.bd);
    }
    const after = old[old.length - tail];
    this.el.tokens.insertBefore(tokFragment, after ? after.tok : null);
    this.el.backdrop.insertBefore(bdFragment, after ? after.bd : this.bdTail);
    return old.slice(0, head).concat(middle, old.slice(old.length - tail));
  }

  // Tokens that hold the bytes of one character between them are drawn joined
  // (style.css: .tok[data-joins]) and say so; only chips whose part changed are touched.
  markJoins(result, info, shown) {
    const parts = new Map();
    const joins = byteJoins(result.tokens.slice(0, shown), (i) => tokenOptions(result, i, info));
    for (const join of joins) {
      const code = [...join.text].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
      const title = t("tok.joins", { n: join.last - join.first + 1, char: `${join.text} (${code.join(" ")})` });
      for (let i = join.first; i <= join.last; i++) {
        const pos = i === join.first ? "first" : i === join.last ? "last" : "mid";
        parts.set(i, { pos, title, char: join.text });
      }
    }
    this.items.forEach((item, i) => {
      const want = parts.get(i);
      const chip = item.tok;
      if ((want?.pos || "") === (chip.dataset.joins || "") && (want?.title || "") === chip.title) return;
      if (want) {
        chip.dataset.joins = want.pos;
        chip.dataset.char = want.char;
        chip.title = want.title;
      } else {
        delete chip.dataset.joins;
        delete chip.dataset.char;
        chip.removeAttribute("title");
      }
    });
  }

  tokenAt(index) {
    return this.items?.[index]?.tok || null;
  }

  // The highlight layer's element for token i: its own span, or the span of the
  // token it shares characters with (the bytes of one character).
  segmentOf(index, offsets) {
    for (let i = index; i >= 0 && this.items && i < this.items.length; i--) {
      if (this.items[i].seg) return this.items[i].seg;
      const [s, e] = offsets[i];
      if (i === index && e <= s) return null;
    }
    return null;
  }

  updateMore(result, text, shown) {
    const hiddenTokens = result.ids.length - shown;
    const hiddenChars = text.length - result.encoded_chars;
    const parts = [];
    if (hiddenTokens > 0) parts.push(t("tok.hiddenTokens", { n: hiddenTokens }));
    if (hiddenChars > 0) {
      parts.push(t("tok.hiddenChars", { n: hiddenChars, covered: result.encoded_chars }));
    }
    this.el.more.hidden = parts.length === 0;
    if (parts.length) {
      this.el.hidden.textContent = t("tok.showing", { n: shown, details: parts.join(t("tok.listSep")) });
    }
  }

  updateLegend(seen) {
    const items = LEGEND_ORDER.filter((mark) => seen.has(mark)).map((mark) => el("li", "", markText(mark)));
    if (!items.length) items.push(el("li", "", t("tok.noMarks")));
    this.el.legend.replaceChildren(...items);
  }
}

// The coloured layer behind the text box: the same text, laid out as the text box lays
// it out, with a span per token only in the part of the text that is in view (and a
// screen's worth around it). The rest is two plain text nodes, which cost the browser
// one text layout instead of thousands of spans (issue 14).
//
// Which part is in view is measured on this layer itself (it scrolls with the text
// box): a binary search over character positions with collapsed Ranges.
import { el } from "../../lib/dom.js";
import { hueOf } from "../../lib/tokens.js";

const MAX_CHARS = 200000; // a longer text's layer stops here (the text box scrolls on)
const MIN_MARGIN = 400; // characters drawn with spans beyond the visible ones, at least
// (kept small: spans are reused as the text scrolls, and a jump to another part of the
// text draws every span of its window anew within one frame, issue 14)

export class TextLayer {
  // backdrop: the layer; text: the text box (a textarea) it sits under.
  constructor(backdrop, text) {
    this.backdrop = backdrop;
    this.text = text;
    this.before = document.createTextNode("");
    this.after = document.createTextNode("");
    this.items = []; // what is drawn between them: {s, e, i?, id, node}, in text order
    this.nodes = []; // [start, text node] in order, for measuring
    this.segs = new Map(); // token index -> its span
    this.from = 0; // the characters drawn with spans: [from, to)
    this.to = 0;
    this.cut = { before: false, after: false }; // tokens left out before and after the spans
    this.seen = [0, 0]; // the characters in view when last measured
    this.highlighted = () => -1;
    this.frame = 0;
    this.range = document.createRange();
    backdrop.replaceChildren(this.before, this.after);
    text.addEventListener("scroll", () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(text);
  }

  // Draw `text` with the spans of `result`'s tokens whose characters lie in [from, to).
  // Spans and gaps drawn before whose characters the edit left alone are kept (moved with
  // the text after the edit): a key press changes a few nodes, not the thousand drawn, and
  // the browser styles and lays out only those (issue 14).
  draw(result, text, from, to, highlighted, { sync = true } = {}) {
    const [items, end] = this.itemsFor(result, text, from, to);
    this.place(items, text, result.ids, highlighted);
    const first = items.length ? items[0].s : end;
    const pos = items.length ? items[items.length - 1].e : end;
    this.result = result;
    this.source = text;
    const limit = Math.max(result.encoded_chars || 0, Math.min(text.length, MAX_CHARS));
    // Unchanged text is not set again: a text node set anew is laid out anew.
    setData(this.before, text.slice(0, first));
    setData(this.after, text.slice(pos, Math.max(pos, limit)) + "\u200b");
    this.items = items;
    this.segs = new Map();
    this.nodes = [[0, this.before]];
    for (const item of items) {
      if (item.i !== undefined) this.segs.set(item.i, item.node);
      this.nodes.push([item.s, item.i === undefined ? item.node : item.node.firstChild]);
    }
    this.nodes.push([pos, this.after]);
    this.from = first;
    this.to = pos;
    // Reading the text box's scroll lays the page out at once; after typing, the next
    // frame (schedule) does it with the rest of the page's layout.
    if (sync) this.backdrop.scrollTop = this.text.scrollTop;
  }

  // What [from, to) is drawn with: {s, e, i?} for each token span (i: its index) and each
  // stretch of text between two spans; `cut` says whether tokens were left out around it.
  /** @returns {[any[], number]} the items drawn and where the text after them starts */
  itemsFor(result, text, from, to) {
    const offsets = result.offsets;
    const items = [];
    const cut = { before: false, after: false };
    let pos = 0;
    let started = false;
    for (let i = 0; i < offsets.length; i++) {
      const [s, e] = offsets[i];
      if (!(e > s && s >= pos)) continue; // no characters of its own
      if (e <= from) {
        pos = e;
        cut.before = true;
        continue;
      }
      if (s >= to) {
        cut.after = true;
        break;
      }
      if (started && s > pos) items.push({ s: pos, e: s });
      started = true;
      items.push({ s, e, i });
      pos = e;
    }
    this.cut = cut;
    return [items, pos];
  }

  // Put the items' nodes in the layer, reusing the nodes of the last draw whose characters
  // the edit did not touch (same place in the unchanged head, or in the unchanged tail).
  place(items, text, ids, highlighted) {
    const old = this.source ?? "";
    const drawn = this.items || [];
    const head = commonHead(old, text);
    const tail = commonTail(old, text, head);
    const delta = text.length - old.length;
    const unchanged = text.length - tail;
    let j = 0; // both lists run in text order: one walk pairs them
    for (const item of items) {
      item.id = item.i === undefined ? -1 : ids[item.i];
      const shift = item.e <= head ? 0 : item.s >= unchanged ? delta : null;
      if (shift === null) continue;
      const s = item.s - shift;
      while (j < drawn.length && drawn[j].s < s) j++;
      const was = drawn[j];
      if (was && was.s === s && was.e === item.e - shift && was.id === item.id) {
        item.node = was.node;
        item.was = was;
        was.kept = true;
        j++;
      }
    }
    for (const item of drawn) if (!item.kept) item.node.remove();
    let prev = this.before;
    let run = null;
    const flush = () => {
      if (run) this.backdrop.insertBefore(run, prev.nextSibling);
      run = null;
    };
    for (const item of items) {
      if (item.node) {
        flush();
        prev = item.node;
      } else {
        item.node = item.i === undefined ? document.createTextNode(text.slice(item.s, item.e)) : segment(text, item, item.id);
        run = run || document.createDocumentFragment();
        run.append(item.node);
      }
      if (item.i !== undefined) {
        if (item.was?.i !== item.i) item.node.dataset.index = String(item.i);
        // the highlight is also set from outside (linking.js): read from the span
        const hl = item.i === highlighted;
        if (item.node.classList.contains("hl") !== hl) item.node.classList.toggle("hl", hl);
      }
      item.was = null;
    }
    flush();
  }

  // Draw around the part in view, measured from the layout the text has now.
  drawAround(result, text, highlighted) {
    const [a, b] = this.visible();
    const margin = Math.max(MIN_MARGIN, (b - a) >> 1);
    this.draw(result, text, Math.max(0, a - margin), b + margin, highlighted);
  }

  // After typing: around the part seen before (moved with the text) and the caret;
  // measured again in the next frame, and drawn again there if that was not enough.
  redraw(result, text, highlighted) {
    const caret = this.text.selectionStart ?? 0;
    let [a, b] = this.seen; // as many characters stay in view, whatever the edit
    if (caret >= a - MIN_MARGIN && caret <= b + MIN_MARGIN) {
      a = Math.min(a, caret);
      b = Math.max(b, caret);
    }
    const margin = Math.max(MIN_MARGIN, (b - a) >> 1);
    let [from, to] = [Math.max(0, a - margin), b + margin];
    // The part drawn before (its end moved with the edit) still reaches far enough around
    // the part in view: drawn again over the same characters, so that its nodes are kept.
    const moved = this.to + text.length - (this.source ?? "").length;
    if (this.items?.length && this.from <= Math.max(0, a - margin / 2) && moved >= b + margin / 2
      && moved - this.from <= 2 * (b - a + 2 * margin)) [from, to] = [this.from, moved];
    this.draw(result, text, from, to, highlighted, { sync: false });
    this.schedule();
  }

  schedule() {
    if (this.frame || !this.result) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.backdrop.scrollTop = this.text.scrollTop;
      this.backdrop.scrollLeft = this.text.scrollLeft;
      const [a, b] = this.visible();
      const wide = this.to - this.from > 3 * (b - a) + 6 * MIN_MARGIN; // after a paste, say
      if ((a < this.from && this.cut.before) || (b > this.to && this.cut.after) || wide) {
        this.drawAround(this.result, this.source, this.highlighted());
      }
    });
  }

  // [first, last] characters in view.
  visible() {
    const box = this.backdrop.getBoundingClientRect();
    const total = this.nodes.length ? this.nodes[this.nodes.length - 1][0] + this.after.data.length - 1 : 0;
    if (total <= 0) return [0, 0];
    const top = box.top + this.backdrop.clientTop;
    const bottom = top + this.backdrop.clientHeight;
    const first = this.search(total, (rect) => rect.bottom > top);
    const last = this.search(total, (rect) => rect.top >= bottom);
    this.seen = [first, last];
    return this.seen;
  }

  // The first position (0..total) whose caret rect passes `test` (rects run down the text).
  search(total, test) {
    let lo = 0;
    let hi = total;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (test(this.caretRect(mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  // The box of the character at `position` (a collapsed Range has none in Chromium); a
  // line break's box can be empty, so the next character's stands in for it.
  caretRect(position) {
    for (let p = position; p < position + 4; p++) {
      const [node, offset] = this.locate(p);
      if (!node || offset >= node.data.length) continue;
      this.range.setStart(node, offset);
      this.range.setEnd(node, offset + 1);
      const rect = this.range.getBoundingClientRect();
      if (rect.height > 0) return rect;
    }
    return { top: -Infinity, bottom: -Infinity };
  }

  locate(position) {
    let lo = 0;
    let hi = this.nodes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.nodes[mid][0] <= position) lo = mid;
      else hi = mid - 1;
    }
    let [start, node] = this.nodes[lo] || [0, null];
    // an empty node (a token span right at a node's end): the position is in the next one
    while (node && position - start >= node.data.length && lo + 1 < this.nodes.length) {
      [start, node] = this.nodes[++lo];
    }
    return [node, position - start];
  }

  // The span of token `index`: its own, or that of the token it shares characters with.
  segmentOf(index) {
    const offsets = this.result?.offsets;
    if (!offsets) return null;
    for (let i = index; i >= 0 && i > index - 8; i--) {
      const seg = this.segs.get(i);
      if (seg) return seg;
      const [s, e] = offsets[i] || [0, 0];
      if (i === index && e <= s) return null;
    }
    return null;
  }

  // The span of token `index`, drawn if it was out of the part drawn.
  reveal(index, highlighted) {
    const offsets = this.result?.offsets;
    if (!offsets?.[index]) return null;
    const [s, e] = offsets[index];
    if (s < this.from || e > this.to) {
      this.draw(this.result, this.source, Math.max(0, s - 2 * MIN_MARGIN), e + 2 * MIN_MARGIN, highlighted);
    }
    return this.segmentOf(index);
  }

  clear() {
    for (const item of this.items) item.node.remove();
    this.items = [];
    this.source = null;
    this.segs = new Map();
    this.before.data = "";
    this.after.data = "\u200b";
    this.from = this.to = 0;
    this.nodes = [];
    this.result = null;
  }
}

function setData(node, data) {
  if (node.data !== data) node.data = data;
}

function segment(text, item, id) {
  const seg = el("span", "seg", text.slice(item.s, item.e));
  seg.style.setProperty("--h", String(hueOf(id)));
  return seg;
}

// How many characters a and b share at the start.
function commonHead(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

// How many they share at the end, not counting the `head` shared at the start.
function commonTail(a, b, head) {
  const n = Math.min(a.length, b.length) - head;
  let i = 0;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

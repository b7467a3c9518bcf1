// The token chips as a virtual list: every token has a place in rows of chips, but only
// the rows in and near the visible part of the list are in the DOM.
//
// A 10 KB text has thousands of tokens; laying out and painting all their chips took
// hundreds of milliseconds a key press (issue 14). Chips all have one height, so rows
// can be computed here: each chip's width comes from its text, measured once with a
// canvas in the chip's own fonts, and tokens are packed into rows the width of the list.
// Scrolling draws the rows that come into view, reusing the chips already drawn.
import { el } from "../../lib/dom.js";

const SLACK = 6; // px kept free at the end of a row, for rounding in the measured widths
const MARGIN = 0.5; // screens of rows drawn above and below the visible ones (a jump draws
// them a frame after the visible ones; scrolling reuses the chips)
const LOOKAHEAD = 4; // chips a row's chips are compared over to find the ones it keeps

export class ChipRows {
  // box: the scrolling list; chipFor(i): a chip element for token i (new or reused);
  // placed(chip, i): called for each chip drawn, to set its place and state;
  // release(chip): a drawn chip that may be reused (chipFor may return it) during this
  // draw; done(): the draw is over (chips released and not reused are dropped).
  constructor(box, { chipFor, placed, release, done, remeasured, shows }) {
    this.box = box;
    this.shows = shows; // (chip, i): the chip shows token i as it is now (its place aside)
    this.remeasured = remeasured;
    this.chipFor = chipFor;
    this.placed = placed;
    this.release = release;
    this.done = done;
    this.space = el("div", "tok-space");
    this.space.setAttribute("role", "none");
    Object.assign(this.space.style, { position: "relative", minHeight: "0" });
    box.style.position = "relative";
    box.style.scrollbarGutter = "stable"; // a scrollbar coming does not change the rows' width
    box.append(this.space);
    this.starts = [0]; // the first token of each row, then the count of tokens
    this.rows = new Map(); // row number -> {el, from, to, generation}
    this.generation = 0; // changes when the tokens change: every row is drawn again
    this.first = 0;
    this.end = 0;
    this.scrollTop = 0;
    this.frame = 0;
    box.addEventListener("scroll", () => {
      this.scrollTop = box.scrollTop;
      this.schedule();
    }, { passive: true });
    new ResizeObserver(() => this.resized()).observe(box);
  }

  // ------------------------------------------------------------------ measuring
  // Row height and a chip's padding, border and margin, read once from a drawn chip.
  // While the list is hidden (another view shown) nothing can be read: widths are guessed
  // from the fonts alone and nothing is drawn; remeasured() redraws once it shows.
  metrics() {
    if (this.m) return this.m;
    if (this.guess) return this.guess;
    const probe = el("span", "tok");
    const body = el("span", "t", "0");
    probe.append(body);
    probe.dataset.tokenId = "0";
    probe.style.visibility = "hidden";
    this.space.append(probe);
    const cs = getComputedStyle(probe);
    const px = (v) => parseFloat(v) || 0;
    const after = getComputedStyle(probe, "::after");
    const text = getComputedStyle(body);
    const boxStyle = getComputedStyle(this.box);
    // Hidden (display: none on the view): every box reads 0, but margins in px still
    // read as set, so the row height alone does not tell (it read 6.4 px: issue 24).
    const hidden = probe.offsetHeight === 0 || this.box.clientWidth === 0;
    const m = {
      row: probe.offsetHeight + px(cs.marginTop) + px(cs.marginBottom),
      frame: px(cs.paddingLeft) + px(cs.paddingRight) + px(cs.borderLeftWidth) + px(cs.borderRightWidth),
      gap: px(cs.marginLeft) + px(cs.marginRight),
      min: px(cs.minWidth),
      font: `${text.fontStyle} ${text.fontWeight} ${text.fontSize} ${text.fontFamily}`,
      bold: `${text.fontStyle} 700 ${text.fontSize} ${text.fontFamily}`,
      semibold: `${text.fontStyle} 600 ${text.fontSize} ${text.fontFamily}`,
      idFont: `${after.fontWeight} ${after.fontSize} ${after.fontFamily}`,
      padX: px(boxStyle.paddingLeft) + px(boxStyle.paddingRight),
      // rows are drawn for the tallest the list can be: no second draw as it grows
      view: px(boxStyle.maxHeight) || window.innerHeight,
      top: this.space.offsetTop,
    };
    probe.remove();
    this.canvas = this.canvas || document.createElement("canvas").getContext("2d");
    this.digit = this.measure("0", m.idFont);
    this.guessed = hidden;
    if (this.guessed) {
      this.guess = m;
      return m;
    }
    this.m = m;
    this.height = this.box.clientHeight;
    this.width = this.box.clientWidth - m.padX;
    return m;
  }

  // The font set last is remembered here: the canvas reads its font back in another
  // form ("14px ui-monospace" for "normal 400 14px ui-monospace"), so comparing with
  // what it reads would set (and parse) the font again on every call.
  measure(text, font) {
    if (this.font !== font) {
      this.canvas.font = font;
      this.font = font;
    }
    return this.canvas.measureText(text).width;
  }

  // A chip's width from its pieces ({text, weight}) and its id: as style.css draws it.
  chipWidth(pieces, id) {
    const m = this.metrics();
    let text = 0;
    for (const p of pieces) text += this.measure(p.text, p.weight === 700 ? m.bold : p.weight === 600 ? m.semibold : m.font);
    const idWidth = this.digit * String(id).length;
    return Math.max(Math.max(text, idWidth) + m.frame, m.min) + m.gap + 1;
  }

  resized() {
    if (this.box.clientWidth === 0) return; // hidden: keep the rows for when it shows
    if (this.guessed) {
      this.guessed = false;
      this.guess = null;
      this.remeasured();
      return;
    }
    if (!this.m) return;
    const width = this.box.clientWidth - this.m.padX;
    this.height = this.box.clientHeight;
    if (Math.abs(width - this.width) >= 1 && this.widths) {
      this.width = width;
      this.layout(this.widths);
    }
    this.schedule();
  }

  // ------------------------------------------------------------------ rows
  // widths[i]: the width of token i's chip. Packs them into rows; draws the visible ones.
  layout(widths) {
    const m = this.metrics();
    this.widths = widths;
    if (!this.m) return; // hidden: drawn when it shows
    const room = Math.max(40, this.width - SLACK);
    const starts = [0];
    let x = 0;
    for (let i = 0; i < widths.length; i++) {
      if (x > 0 && x + widths[i] > room) {
        starts.push(i);
        x = 0;
      }
      x += widths[i];
    }
    if (widths.length) starts.push(widths.length);
    this.starts = starts;
    this.space.style.height = `${(starts.length - 1) * m.row}px`;
    this.generation += 1;
    this.draw();
  }

  rowOf(index) {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  // A draw before the next paint; or, `afterPaint`, before the one after it (its work
  // then falls in a task of its own, not in the rendering of what was just drawn).
  schedule(afterPaint = false) {
    if (this.frame) return;
    const draw = () => {
      this.frame = 0;
      this.draw();
    };
    this.frame = requestAnimationFrame(() => {
      if (afterPaint) this.frame = requestAnimationFrame(draw);
      else draw();
    });
  }

  // Draw the rows in view (and a screen's worth around them); keep rows already drawn.
  // A row whose tokens changed keeps the chips at its start and end that still show the
  // same tokens: after an edit, a row gains or loses a chip or two, and the browser lays
  // out only those (issue 14). Kept chips are set aside for all rows before any row takes
  // new ones, so that no row takes a chip another row keeps.
  draw() {
    if (!this.m) return;
    const { row, top } = this.m;
    const count = this.starts.length - 1;
    const view = Math.max(this.height, this.m.view, row);
    let r0 = Math.max(0, Math.floor((this.scrollTop - top - MARGIN * view) / row));
    let r1 = Math.min(count, Math.ceil((this.scrollTop - top + (1 + MARGIN) * view) / row));
    // After a jump (the caret moved far, a new text) most rows are new: the visible ones
    // now, the margins in the next frame, so that no task lays out two screens of chips.
    const v0 = Math.max(r0, Math.floor((this.scrollTop - top) / row));
    const v1 = Math.min(r1, Math.ceil((this.scrollTop - top + view) / row));
    let fresh = 0;
    let freshInView = false;
    for (let r = r0; r < r1; r++) {
      if (this.rows.has(r)) continue;
      fresh++;
      if (r >= v0 && r < v1) freshInView = true;
    }
    if (freshInView && fresh > v1 - v0) {
      [r0, r1] = [v0, v1];
      this.schedule(true);
    }
    for (const [r, drawn] of this.rows) {
      if (r >= r0 && r < r1) continue;
      for (const chip of drawn.el.children) this.release(chip);
      drawn.el.remove();
      this.rows.delete(r);
    }
    const plans = [];
    for (let r = r0; r < r1; r++) {
      const drawn = this.rows.get(r);
      const stale = !drawn || drawn.generation !== this.generation
        || drawn.from !== this.starts[r] || drawn.to !== this.starts[r + 1];
      if (stale) plans.push(this.keep(r));
    }
    for (const plan of plans) this.fill(plan);
    this.first = count ? this.starts[r0] : 0;
    this.end = count ? this.starts[r1] : 0;
    this.done();
  }

  // Row r's chips that still show one of the tokens it is to show, in order (a token
  // added or gone in the row, or one moved to or from the next row, leaves the others
  // where they are); the others are released for reuse.
  keep(r) {
    const from = this.starts[r];
    const to = this.starts[r + 1];
    let drawn = this.rows.get(r);
    if (!drawn) {
      const row = el("div", "tok-row");
      row.setAttribute("role", "none");
      Object.assign(row.style, { position: "absolute", left: "0", right: "0", whiteSpace: "nowrap" });
      drawn = { el: row };
      this.space.insertBefore(row, this.rowAfter(r)); // chips stay in token order in the DOM
      this.rows.set(r, drawn);
    }
    Object.assign(drawn, { from, to, generation: this.generation });
    const top = `${r * this.m.row}px`;
    if (drawn.el.style.top !== top) drawn.el.style.top = top;
    const chips = [...drawn.el.children];
    const kept = new Array(to - from).fill(null); // kept[k]: the chip kept for token from + k
    let j = 0;
    for (let k = 0; k < kept.length && j < chips.length; k++) {
      const ahead = this.find(chips, j, from + k);
      if (ahead >= 0) {
        for (; j < ahead; j++) this.release(chips[j]);
        kept[k] = chips[j++];
      }
    }
    for (; j < chips.length; j++) this.release(chips[j]);
    return { drawn, from, kept };
  }

  // The element of the first row drawn after row r, or null.
  rowAfter(r) {
    let next = null;
    for (const [k, drawn] of this.rows) if (k > r && (next === null || k < next[0])) next = [k, drawn.el];
    return next ? next[1] : null;
  }

  // The first of the next LOOKAHEAD chips from `j` on that shows token i, or -1.
  find(chips, j, i) {
    for (let a = j; a < Math.min(chips.length, j + LOOKAHEAD); a++) if (this.shows(chips[a], i)) return a;
    return -1;
  }

  // A row planned by keep(): the missing chips reused or made and put in their places,
  // the chips released and not reused taken out, then every chip's place written.
  fill({ drawn, from, kept }) {
    const row = drawn.el;
    const wanted = new Set(kept);
    for (const chip of [...row.children]) if (!wanted.has(chip)) chip.remove();
    for (let k = 0; k < kept.length;) {
      if (kept[k]) {
        k++;
        continue;
      }
      const fragment = document.createDocumentFragment();
      for (; k < kept.length && !kept[k]; k++) fragment.append(this.chipFor(from + k));
      row.insertBefore(fragment, k < kept.length ? kept[k] : null);
    }
    const all = row.children;
    for (let k = 0; k < all.length; k++) this.placed(all[k], from + k);
  }

  // Every chip drawn now, in token order.
  *chips() {
    for (const r of [...this.rows.keys()].sort((a, b) => a - b)) yield* this.rows.get(r).el.children;
  }

  // The chip of token `index`, scrolled into view and drawn if it was not.
  reveal(index) {
    if (!this.m || index < 0 || index >= this.starts[this.starts.length - 1]) return null;
    const { row, top } = this.m;
    const y = top + this.rowOf(index) * row;
    if (y < this.scrollTop || y + row > this.scrollTop + this.height) {
      this.box.scrollTop = Math.max(0, y - this.height / 3);
      this.scrollTop = this.box.scrollTop;
    }
    this.draw();
    return this.chipAt(index);
  }

  chipAt(index) {
    const drawn = this.rows.get(this.rowOf(index));
    if (!drawn || index < drawn.from || index >= drawn.to) return null;
    return drawn.el.children[index - drawn.from] || null;
  }

  clear() {
    for (const drawn of this.rows.values()) {
      for (const chip of drawn.el.children) this.release(chip);
      drawn.el.remove();
    }
    this.done();
    this.rows.clear();
    this.starts = [0];
    this.widths = null;
    this.space.style.height = "0px";
    this.first = this.end = 0;
  }
}

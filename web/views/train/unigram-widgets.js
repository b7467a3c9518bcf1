// The drawing pieces of the Unigram training renderer: a virtual list of [piece, value]
// rows and a small line chart.
import { t as translate, formatNumber, lang } from "../../i18n/index.js";
import { el, svg } from "../../lib/dom.js";
import { visible as shown } from "../../lib/tokens.js";
import { shortNumber } from "./unigram-log.js";
import "./unigram-strings.js";

const ROW = 26;

// A scrolling list that draws only the rows in view (rows are [piece, value, removed?]).
export class VirtualList {
  constructor(title, testid) {
    this.title = title;
    this.box = el("div", "ut-list");
    this.box.tabIndex = 0;
    this.box.setAttribute("role", "list");
    this.inner = el("div", "ut-list-inner");
    this.inner.setAttribute("role", "presentation");
    this.box.append(this.inner);
    this.testid = testid;
    this.items = [];
    // The column heads, kept in view while the rows scroll: what the numbers are.
    this.head = el("div", "ut-row ut-head");
    this.head.setAttribute("aria-hidden", "true"); // each row's value has its own title
    this.box.prepend(this.head);
    this.columns("");
    this.box.addEventListener("scroll", () => this.draw());
  }

  // Name the value column ("count", "log-probability", ...); "" for a list without values.
  columns(valueLabel) {
    this.valueLabel = valueLabel;
    this.head.replaceChildren(el("span", "n", "#"), el("span", "piece", translate("utrain.col.piece")),
      el("span", "value", valueLabel));
  }

  set(items) {
    if (items === this.items) return;
    this.items = items;
    this.inner.style.height = `${items.length * ROW}px`;
    this.box.setAttribute("aria-label", translate("utrain.listLabel", { title: this.title, n: items.length }));
    this.draw();
  }

  draw() {
    const height = this.box.clientHeight || 16 * 16;
    const first = Math.max(0, Math.floor(this.box.scrollTop / ROW) - 5);
    const last = Math.min(this.items.length, first + Math.ceil(height / ROW) + 10);
    const rows = [];
    for (let i = first; i < last; i++) {
      const [piece, value, removed] = this.items[i];
      const row = el("div", removed ? "ut-row is-removed" : "ut-row");
      row.setAttribute("role", "listitem");
      row.style.top = `${i * ROW}px`;
      row.dataset.testid = this.testid;
      row.dataset.piece = piece;
      row.dataset.value = value;
      if (removed) row.dataset.removed = "true";
      row.append(el("span", "n", formatNumber(i + 1, lang())), el("span", "piece", shown(piece)),
        valueCell(value));
      rows.push(row);
    }
    this.inner.replaceChildren(...rows);
  }
}

function valueCell(value) {
  const cell = el("span", "value", value === "" ? "" : shortNumber(value));
  if (value !== "") cell.title = String(value);
  return cell;
}

// A small line chart of [x, y] points; the point at `current` is marked.
export function lineChart(box, label, points, current) {
  const w = 420, h = 170, left = 64, right = 12, top = 12, bottom = 26;
  const chart = svg("svg", { class: "ut-chart", viewBox: `0 0 ${w} ${h}`, role: "img" });
  const drawn = points.filter((p) => p.step <= current);
  const at = drawn[drawn.length - 1];
  chart.setAttribute("aria-label", at ? `${label}: ${shortNumber(at.y)}` : label);
  if (!points.length) return box.replaceChildren(chart);
  const ys = points.map((p) => p.y);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (lo === hi) { lo -= 1; hi += 1; }
  const n = Math.max(1, points.length - 1);
  const X = (i) => left + ((w - left - right) * i) / n;
  const Y = (y) => top + (h - top - bottom) * (1 - (y - lo) / (hi - lo));
  for (const y of [lo, hi]) {
    chart.append(svg("line", { class: "grid", x1: left, x2: w - right, y1: Y(y), y2: Y(y) }));
    const tick = svg("text", { x: left - 6, y: Y(y) + 4, "text-anchor": "end" });
    tick.textContent = formatNumber(y, lang(), { maximumFractionDigits: 2 });
    chart.append(tick);
  }
  const first = svg("text", { x: left, y: h - 8 });
  first.textContent = "1";
  const lastTick = svg("text", { x: w - right, y: h - 8, "text-anchor": "end" });
  lastTick.textContent = formatNumber(points.length, lang());
  chart.append(first, lastTick);
  if (drawn.length) {
    const d = drawn.map((p, i) => `${i ? "L" : "M"} ${X(i)} ${Y(p.y)}`).join(" ");
    chart.append(svg("path", { class: "line", d }));
    drawn.forEach((p, i) => chart.append(svg("circle", {
      class: i === drawn.length - 1 ? "dot current" : "dot", cx: X(i), cy: Y(p.y), r: 3 })));
  }
  box.replaceChildren(chart);
}


// The merges renderer's chart: vocabulary size against the corpus length in tokens.
import { t, formatNumber } from "../../i18n/index.js";
import { svg } from "../../lib/dom.js";
import "./strings.js";

// The chart of vocabulary size (x) against the corpus length in tokens (y), one point per
// merge (at most ~500 drawn). Returns its SVG parts, the marker the renderer moves, and
// the scales that place it. `title` is the chart's <title>, kept by the renderer.
export function sizeChart(sizes, lengths, title) {
  const n = lengths.length;
  const W = 360, H = 200, L = 56, R = 12, T = 12, B = 36;
  const x0 = sizes[0], x1 = Math.max(sizes[n - 1], x0 + 1);
  const yMax = Math.max(...lengths), yMin = Math.min(...lengths);
  const y0 = Math.max(0, yMin - (yMax - yMin) * 0.1), y1 = Math.max(yMax, y0 + 1);
  const scaleX = (v) => (L + ((v - x0) / (x1 - x0)) * (W - L - R)).toFixed(1);
  const scaleY = (v) => (H - B - ((v - y0) / (y1 - y0)) * (H - T - B)).toFixed(1);
  const every = Math.max(1, Math.floor(n / 500)); // at most ~500 points drawn
  const points = [];
  for (let i = 0; i < n; i += every) points.push(`${scaleX(sizes[i])},${scaleY(lengths[i])}`);
  points.push(`${scaleX(sizes[n - 1])},${scaleY(lengths[n - 1])}`);
  const axis = { class: "train-chart-axis" };
  const label = (x, y, text, anchor = "middle") => {
    const node = svg("text", { x, y, "text-anchor": anchor, class: "train-chart-label" });
    node.textContent = text;
    return node;
  };
  const marker = svg("circle", { r: 5, class: "train-chart-marker" });
  const parts = [
    title,
    svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, ...axis }),
    svg("line", { x1: L, y1: T, x2: L, y2: H - B, ...axis }),
    svg("polyline", { points: points.join(" "), class: "train-chart-line" }),
    label(L, H - B + 16, formatNumber(x0)), label(W - R, H - B + 16, formatNumber(x1), "end"),
    label((L + W - R) / 2, H - 4, t("train.chart.x")),
    label(L - 6, H - B, formatNumber(Math.round(y0)), "end"), label(L - 6, T + 10, formatNumber(y1), "end"),
    marker,
  ];
  const yTitle = label(12, (T + H - B) / 2, t("train.chart.y"));
  yTitle.setAttribute("transform", `rotate(-90 12 ${(T + H - B) / 2})`);
  parts.push(yTitle);
  return { parts, marker, scaleX, scaleY };
}

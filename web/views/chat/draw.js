// Drawing the Chat view's answer (web/chat.py): a message's cost, and the rendered text
// with the template's special tokens marked and the messages' own text underlined.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import "./strings.js";

// "12 tokens · 5 from its text, 7 from the template" under a message.
export function costLine(node, row) {
  node.dataset.count = String(row.tokens);
  node.dataset.contentCount = String(row.content_tokens);
  node.dataset.prefix = String(row.prefix);
  const template = row.tokens - row.content_tokens;
  let text = `${t("chat.cost", { n: row.tokens })} · ${t("chat.costSplit", { text: row.content_tokens, template })}`;
  if (!row.span) text = `${t("chat.cost", { n: row.tokens })} · ${t("chat.left")}`;
  if (!row.prefix) text += ` (${t("chat.rewrote")})`;
  node.textContent = text;
}

// The rendered text cut where a special token or a message's text starts or ends; each
// piece a text node, or a span marking what it is (textContent only: the text is data).
export function renderedText(result) {
  const { text, offsets, special, messages } = result;
  const marks = [];
  offsets.forEach(([start, end], i) => { if (special[i] && end > start) marks.push({ start, end, kind: "special" }); });
  messages.forEach((row, i) => {
    if (row.span && row.span[1] > row.span[0]) marks.push({ start: row.span[0], end: row.span[1], kind: "said", message: i });
  });
  const cuts = new Set([0, text.length]);
  for (const mark of marks) { cuts.add(mark.start); cuts.add(mark.end); }
  const points = [...cuts].sort((a, b) => a - b);
  const nodes = [];
  for (let k = 0; k + 1 < points.length; k++) {
    const [a, b] = [points[k], points[k + 1]];
    const piece = text.slice(a, b);
    const inside = marks.filter((m) => m.start <= a && b <= m.end);
    if (!inside.length) { nodes.push(document.createTextNode(piece)); continue; }
    const span = el("span", inside.map((m) => `chat-${m.kind}`).join(" "), piece);
    const spec = inside.find((m) => m.kind === "special");
    if (spec) span.dataset.testid = "chat-special";
    const content = inside.find((m) => m.kind === "said");
    if (content) span.dataset.message = String(content.message);
    nodes.push(span);
  }
  return nodes;
}

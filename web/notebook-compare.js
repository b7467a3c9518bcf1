// notebook.compare([tok1, tok2, ...], text): one text, each tokenizer's chips in a row of its
// own with its counts, drawn as notebook.tokens draws them. The kernel
// (subword_lab/notebook/compare_widget.py) sends `rows`, one per tokenizer; `text` is editable.
import { t, register, formatNumber } from "./i18n/index.js";
import { el } from "./lib/dom.js";
import { drawChips } from "./notebook-tokens.js";
import { editable } from "./notebook-editable.js";

register({
  en: { "nb.compare.row": { one: "{name}: {n} token, {ratio} characters per token", other: "{name}: {n} tokens, {ratio} characters per token" } },
  vi: { "nb.compare.row": "{name}: {n} token, {ratio} ký tự mỗi token" },
  zh: { "nb.compare.row": "{name}：{n} 个词元，每个词元 {ratio} 个字符" },
});

export function renderCompare(model, root) {
  const text = el("textarea");
  text.rows = 2;
  text.dataset.testid = "text";
  text.setAttribute("aria-label", t("nb.text"));
  const typed = editable(model, "text", text);
  const rows = el("div", "nb-compare-rows");
  root.append(text, rows);

  const draw = () => {
    typed.show();
    const chars = model.get("text").length;
    rows.replaceChildren(...model.get("rows").map((row) => {
      const box = el("section", "nb-compare-row");
      box.dataset.testid = "compare-row";
      const n = row.ids.length;
      const ratio = n ? formatNumber(chars / n, undefined, { maximumFractionDigits: 2 }) : "–";
      const name = row.name === row.info.model ? row.name : `${row.name} (${row.info.model})`;
      const head = el("h3", "nb-compare-name", t("nb.compare.row", { name, n: formatNumber(n), ratio }));
      const list = el("div", "nb-tokens");
      list.setAttribute("role", "list");
      list.setAttribute("aria-label", row.name);
      list.dataset.testid = "tokens";
      drawChips(list, row, row.info);
      box.append(head, list);
      return box;
    }));
  };
  model.on("change:rows", draw);
  draw();
  return () => { typed.stop(); model.off("change:rows", draw); };
}

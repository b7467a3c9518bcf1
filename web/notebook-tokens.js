// notebook.tokens(tokenizer, text): the chips of one encoding, drawn as the page draws them
// (lib/tokens.js: colour by id, the id under each chip, spaces and bytes made visible), with
// the counts, the text (editable: the kernel encodes it again and the chips follow), the
// special-tokens choice, a line that says what the pointed token covers, and the legend.
// The kernel's widget (subword_lab/notebook/tokens_widget.py) owns the synced traits: text,
// ids, tokens, offsets, special, add_special_tokens, info.
import { t, register, formatNumber } from "./i18n/index.js";
import { el, setText } from "./lib/dom.js";
import { tokenChip, tokenOptions, pieces, marksIn, markText, explain, byteJoins, visible } from "./lib/tokens.js";

register({
  en: { "nb.tokens": "Tokens", "nb.chars": "Characters", "nb.addSpecial": "Add special tokens",
        "nb.text": "Text", "nb.none": "No tokens.", "nb.legend": "What the marks mean" },
  vi: { "nb.tokens": "Số token", "nb.chars": "Số ký tự", "nb.addSpecial": "Thêm token đặc biệt",
        "nb.text": "Văn bản", "nb.none": "Không có token nào.", "nb.legend": "Ý nghĩa các dấu" },
  zh: { "nb.tokens": "词元数", "nb.chars": "字符数", "nb.addSpecial": "添加特殊词元",
        "nb.text": "文本", "nb.none": "没有词元。", "nb.legend": "各标记的含义" },
});

const TYPING_PAUSE = 150; // ms after the last key before the kernel is asked again

function stat(list, key, testid) {
  const box = el("div");
  const value = el("dd", "", "–");
  value.dataset.testid = testid;
  box.append(el("dt", "", t(key)), value);
  list.append(box);
  return value;
}

// The chips of one encoding ({ids, tokens, offsets, special}) in `list`, as the page draws
// them, bytes of one character joined; returns the marks met, for a legend.
export function drawChips(list, { ids, tokens, offsets, special }, info) {
  const marks = new Set();
  const chips = ids.map((id, i) => {
    const options = tokenOptions(info, id, { special: Boolean(special[i]) });
    const chip = tokenChip(tokens[i], id, info, { testid: "token", special: Boolean(special[i]) });
    chip.setAttribute("role", "listitem");
    chip.tabIndex = 0;
    chip.dataset.index = String(i);
    [chip.dataset.start, chip.dataset.end] = offsets[i].map(String);
    for (const mark of marksIn(pieces(tokens[i], options))) marks.add(mark);
    return chip;
  });
  for (const join of byteJoins(tokens, (i) => tokenOptions(info, ids[i]))) {
    for (let i = join.first; i <= join.last; i++) {
      chips[i].dataset.joins = i === join.first ? "first" : i === join.last ? "last" : "mid";
      chips[i].title = t("tok.joins", { n: join.last - join.first + 1, char: join.text });
    }
  }
  list.replaceChildren(...(chips.length ? chips : [el("p", "hint", t("nb.none"))]));
  list.dataset.status = "done";
  return marks;
}

// A text field bound to the string trait `name`: what the reader types goes to the kernel
// after a pause; `show()` puts the trait's value in, unless the reader is typing there.
export function editable(model, name, field) {
  let typing = 0;
  field.spellcheck = false;
  field.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => { model.set(name, field.value); model.save_changes(); }, TYPING_PAUSE);
  });
  return {
    show() {
      const value = model.get(name);
      if (field.value !== value && field.ownerDocument.activeElement !== field) field.value = value;
    },
    stop() { clearTimeout(typing); },
  };
}

export function renderTokens(model, root) {
  const bar = el("div", "nb-bar");
  const counts = el("dl", "nb-counts");
  const count = stat(counts, "nb.tokens", "token-count");
  const chars = stat(counts, "nb.chars", "char-count");
  const special = el("input");
  special.type = "checkbox";
  special.dataset.testid = "add-special-tokens";
  const specialLabel = el("label", "nb-special");
  specialLabel.append(special, " ", t("nb.addSpecial"));
  bar.append(counts, specialLabel);
  const text = el("textarea");
  text.rows = 2;
  text.dataset.testid = "text";
  const typed = editable(model, "text", text);
  text.setAttribute("aria-label", t("nb.text"));
  const list = el("div", "nb-tokens");
  list.dataset.testid = "tokens";
  list.setAttribute("role", "list");
  list.setAttribute("aria-label", t("nb.tokens"));
  const inspect = el("p", "nb-inspect", t("tok.inspector"));
  inspect.setAttribute("aria-live", "polite");
  const legend = el("ul", "nb-legend");
  legend.setAttribute("aria-label", t("nb.legend"));
  root.append(bar, text, list, inspect, legend);

  let frame = 0;
  const draw = () => {
    frame = 0;
    const ids = model.get("ids"), tokens = model.get("tokens"), offsets = model.get("offsets");
    const specials = model.get("special"), info = model.get("info");
    const source = model.get("text");
    typed.show();
    special.checked = model.get("add_special_tokens");
    const marks = drawChips(list, { ids, tokens, offsets, special: specials }, info);
    setText(count, formatNumber(ids.length));
    setText(chars, formatNumber(source.length));
    legend.replaceChildren(...[...marks].map((mark) => el("li", "", markText(mark))));
  };
  const redraw = () => { frame ||= requestAnimationFrame(draw); };

  const point = (event) => {
    const chip = event.target.closest?.(".tok");
    if (!chip || !list.contains(chip)) return;
    const i = Number(chip.dataset.index);
    const [start, end] = model.get("offsets")[i];
    const token = model.get("tokens")[i];
    const options = tokenOptions(model.get("info"), model.get("ids")[i], { special: Boolean(model.get("special")[i]) });
    const covers = start < end ? t("tok.covers", { start, end, text: visible(model.get("text").slice(start, end)) })
      : t("tok.coversNone");
    const note = explain(token, options);
    setText(inspect, `${visible(token)} (id ${chip.dataset.tokenId}): ${covers}${note ? ` · ${note}` : ""}`);
  };
  list.addEventListener("pointerover", point);
  list.addEventListener("focusin", point);

  special.addEventListener("change", () => { model.set("add_special_tokens", special.checked); model.save_changes(); });

  const traits = ["text", "ids", "tokens", "offsets", "special", "info", "add_special_tokens"];
  for (const name of traits) model.on(`change:${name}`, redraw);
  draw();
  return () => {
    typed.stop();
    cancelAnimationFrame(frame);
    for (const name of traits) model.off(`change:${name}`, redraw);
  };
}

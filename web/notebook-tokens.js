// notebook.tokens(tokenizer, text): the chips of one encoding, drawn by the tokenize view's
// own list (views/tokenize/token-list.js: colour by id, the id under each chip, spaces and
// bytes made visible; a virtual list, so only the rows of chips in view are in the DOM and a
// book-length text stays responsive), with the counts, the text (editable: the kernel
// encodes it again and the chips follow) over the page's coloured layer, the special-tokens
// choice and the legend. Text and tokens are linked by the page's own code (views/tokenize/linking.js):
// pointing at a chip highlights its characters and the reverse, and the line below says
// what the token is. A click (or Enter) on a chip asks "why this token?": the kernel
// answers in the trait `why` (pipeline/why.py, as for the page) and the steps are drawn
// below by the encode view's renderers (notebook-steps.js's stepsPanel).
// The kernel's widget (subword_lab/notebook/tokens_widget.py) owns the synced traits: text,
// ids, tokens, offsets, special, add_special_tokens, info, why_index, why.
import { t, register, formatNumber } from "./i18n/index.js";
import { el, setText } from "./lib/dom.js";
import { tokenChip, tokenOptions, pieces, marksIn, byteJoins, visible } from "./lib/tokens.js";
import { TokenList } from "./views/tokenize/token-list.js";
import { TokenLinks } from "./views/tokenize/linking.js";
import { editable } from "./notebook-editable.js";
import { stepsPanel } from "./notebook-steps.js";

register({
  en: { "nb.tokens": "Tokens", "nb.chars": "Characters", "nb.addSpecial": "Add special tokens",
        "nb.text": "Text", "nb.none": "No tokens.", "nb.legend": "What the marks mean",
        "nb.whyHint": "Click a token to see why the model cut it so.",
        "nb.why": "Why {token}? The model's steps on {text}:",
        "nb.whyAdded": "{token} is an added token: it was matched in the text whole, not made by the model.",
        "nb.whyNone": "No steps for this token: {reason}" },
  vi: { "nb.tokens": "Số token", "nb.chars": "Số ký tự", "nb.addSpecial": "Thêm token đặc biệt",
        "nb.text": "Văn bản", "nb.none": "Không có token nào.", "nb.legend": "Ý nghĩa các dấu",
        "nb.whyHint": "Bấm vào một token để xem vì sao mô hình cắt như vậy.",
        "nb.why": "Vì sao có {token}? Các bước của mô hình trên {text}:",
        "nb.whyAdded": "{token} là token thêm vào: nó được khớp nguyên vẹn trong văn bản, không do mô hình tạo ra.",
        "nb.whyNone": "Token này không có bước nào: {reason}" },
  zh: { "nb.tokens": "词元数", "nb.chars": "字符数", "nb.addSpecial": "添加特殊词元",
        "nb.text": "文本", "nb.none": "没有词元。", "nb.legend": "各标记的含义",
        "nb.whyHint": "点击一个词元，看看模型为什么这样切分。",
        "nb.why": "为什么是 {token}？模型在 {text} 上的步骤：",
        "nb.whyAdded": "{token} 是添加的词元：它在文本中被整体匹配，不是模型生成的。",
        "nb.whyNone": "这个词元没有步骤：{reason}" },
});

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

// Python's character offsets as UTF-16 ones (what the text box and the layer count).
function utf16Offsets(text, offsets) {
  const units = [0];
  for (const ch of text) units.push(units[units.length - 1] + ch.length);
  const at = (i) => units[Math.min(i, units.length - 1)];
  return offsets.map(([start, end]) => [at(start), at(end)]);
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
  const box = el("div", "textbox");
  const backdrop = el("div", "backdrop");
  backdrop.dataset.testid = "backdrop";
  backdrop.setAttribute("aria-hidden", "true");
  const text = el("textarea");
  text.rows = 2;
  text.dataset.testid = "text";
  text.setAttribute("aria-label", t("nb.text"));
  box.append(backdrop, text);
  const typed = editable(model, "text", text);
  text.addEventListener("scroll", () => { backdrop.scrollTop = text.scrollTop; });
  const list = el("div", "tokens nb-tokens");
  list.dataset.testid = "tokens";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", t("nb.tokens"));
  const inspect = el("p", "nb-inspect", t("tok.inspector"));
  inspect.dataset.testid = "inspector";
  inspect.setAttribute("aria-live", "polite");
  const legend = el("ul", "nb-legend");
  legend.setAttribute("aria-label", t("nb.legend"));
  const whyBox = el("section", "enc-view nb-why");
  whyBox.dataset.testid = "why";
  const whyTitle = el("p", "nb-why-title", t("nb.whyHint"));
  whyTitle.dataset.testid = "why-title";
  whyBox.append(whyTitle);
  root.append(bar, box, list, inspect, legend, whyBox);

  // The page's list and linking code see this widget as they see the tokenize view.
  const tokenList = new TokenList({ tokens: list, backdrop, text, legend });
  let drawnInfo = null; // the info the chips were drawn with, and its key for the list
  let infoKey = 0;
  const view = {
    el: { text, tokens: list, inspector: inspect }, list: tokenList, result: null, resultText: "",
    info: new Map(), current: "kernel",
    why(index) { model.set("why_index", index); model.save_changes(); },
  };
  const links = new TokenLinks(view);
  links.bind();

  let frame = 0;
  const draw = () => {
    frame = 0;
    const ids = model.get("ids"), tokens = model.get("tokens"), specials = model.get("special");
    const info = model.get("info");
    const source = model.get("text");
    const offsets = utf16Offsets(source, model.get("offsets"));
    typed.show();
    special.checked = model.get("add_special_tokens");
    if (info !== drawnInfo) [drawnInfo, infoKey] = [info, infoKey + 1];
    view.result = { ids, tokens, offsets, special: specials, encoded_chars: source.length };
    view.resultText = source;
    view.info.set("kernel", info);
    links.highlighted = -2; // the chips are new: no highlight, the inspector says so
    links.highlight(-1);
    tokenList.draw(view.result, source, infoKey, info);
    setText(count, formatNumber(ids.length));
    setText(chars, formatNumber(source.length));
  };
  const redraw = () => { frame ||= requestAnimationFrame(draw); };

  let panel = null;
  const showWhy = () => {
    const why = model.get("why");
    whyBox.dataset.state = why.events ? (why.added ? "added" : "steps") : why.error ? "none" : "idle";
    whyBox.dataset.index = String(why.index ?? -1);
    const token = why.index >= 0 ? JSON.stringify(visible(model.get("tokens")[why.index] ?? "")) : "";
    if (why.error) setText(whyTitle, t("nb.whyNone", { reason: why.error }));
    else if (why.added) setText(whyTitle, t("nb.whyAdded", { token }));
    else if (why.events) setText(whyTitle, t("nb.why", { token, text: JSON.stringify(why.text) }));
    else setText(whyTitle, t("nb.whyHint"));
    const steps = Boolean(why.events) && !why.added;
    if (steps && !panel) {
      const stage = el("div", "nb-why-steps");
      whyBox.append(stage);
      panel = stepsPanel(stage, model.get("info"));
    }
    if (panel) {
      panel.player.pause();
      whyBox.querySelector(".nb-why-steps").hidden = !steps;
      if (steps) panel.show({ events: why.events, ids: why.ids, tokens: why.tokens, text: why.text }, why.nbest);
    }
  };
  model.on("change:why", showWhy);

  special.addEventListener("change", () => { model.set("add_special_tokens", special.checked); model.save_changes(); });

  const traits = ["text", "ids", "tokens", "offsets", "special", "info", "add_special_tokens"];
  for (const name of traits) model.on(`change:${name}`, redraw);
  draw();
  showWhy();
  return () => {
    typed.stop();
    cancelAnimationFrame(frame);
    panel?.player.pause();
    model.off("change:why", showWhy);
    for (const name of traits) model.off(`change:${name}`, redraw);
  };
}

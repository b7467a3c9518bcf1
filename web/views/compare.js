// The compare view (?view=compare&tokenizers=a,b,c&text=...): one text, two or three
// tokenizers side by side, tokens coloured by id as in the tokenize view, with counts.
import { t, register, formatNumber } from "../i18n/index.js";
import { el, loadCss } from "../lib/dom.js";
import { labelled, statusLine, unknownLine, tell } from "../lib/controls.js";
import { tokenChip } from "../lib/tokens.js";
import { loadTokenizer, PRESETS } from "../lib/tokenizers.js";

register({
  en: {
    "cmp.title": "Compare tokenizers",
    "cmp.intro": "The same text through several tokenizers: fewer tokens means more characters per token.",
    "cmp.text": "Text",
    "cmp.column": "Tokenizer {n}",
    "cmp.none": "(none)",
    "cmp.tokens": { one: "{n} token", other: "{n} tokens" },
    "cmp.perToken": "{n} characters per token",
    "cmp.loading": "Tokenizing…",
    "cmp.waiting": "Python is starting; the tokens appear when it is ready.",
    "cmp.error": "Could not tokenize: {message}",
    "cmp.more": { one: "… and {n} more token", other: "… and {n} more tokens" },
    "cmp.tokenList": "Tokens from {name}",
    "cmp.perByte": "{n} bytes per token",
    "cmp.perWord": "{n} tokens per word",
    "cmp.cuts": "{n} of its cuts are not made by every other tokenizer (underlined)",
    "cmp.cutsNone": "Every other tokenizer makes each of its cuts too",
    "cmp.unknown": "There is no tokenizer called “{name}” here; it is left out.",
    "cmp.cutNote": "a cut here that another tokenizer does not make",
  },
  vi: {
    "cmp.title": "So sánh các bộ tách token",
    "cmp.intro": "Cùng một văn bản qua nhiều bộ tách token: ít token hơn nghĩa là mỗi token chứa nhiều ký tự hơn.",
    "cmp.text": "Văn bản",
    "cmp.column": "Bộ tách token {n}",
    "cmp.none": "(không có)",
    "cmp.tokens": "{n} token",
    "cmp.perToken": "{n} ký tự mỗi token",
    "cmp.loading": "Đang tách token…",
    "cmp.waiting": "Python đang khởi động; các token sẽ hiện ra khi sẵn sàng.",
    "cmp.error": "Không tách token được: {message}",
    "cmp.more": "… và {n} token nữa",
    "cmp.tokenList": "Các token của {name}",
    "cmp.perByte": "{n} byte mỗi token",
    "cmp.perWord": "{n} token mỗi từ",
    "cmp.cuts": "{n} chỗ cắt không phải bộ tách nào cũng có (gạch dưới)",
    "cmp.cutsNone": "Mọi bộ tách khác cũng cắt ở từng chỗ nó cắt",
    "cmp.unknown": "Ở đây không có bộ tách token nào tên “{name}”; nó được bỏ qua.",
    "cmp.cutNote": "một chỗ cắt mà bộ tách token khác không có",
  },
  zh: {
    "cmp.title": "比较分词器",
    "cmp.intro": "同一段文本经过几个分词器：词元越少，每个词元包含的字符越多。",
    "cmp.text": "文本",
    "cmp.column": "分词器 {n}",
    "cmp.none": "（无）",
    "cmp.tokens": "{n} 个词元",
    "cmp.perToken": "每个词元 {n} 个字符",
    "cmp.loading": "正在分词…",
    "cmp.waiting": "Python 正在启动；准备好后会显示词元。",
    "cmp.error": "无法分词：{message}",
    "cmp.more": "… 还有 {n} 个词元",
    "cmp.tokenList": "{name} 的词元",
    "cmp.perByte": "每个词元 {n} 个字节",
    "cmp.perWord": "每个词 {n} 个词元",
    "cmp.cuts": "{n} 处切分并非所有分词器都有（带下划线）",
    "cmp.cutsNone": "它的每处切分，其他分词器也都有",
    "cmp.unknown": "这里没有名为“{name}”的分词器；已略去。",
    "cmp.cutNote": "其他分词器没有在这里切分",
  },
});

const DEFAULT_TEXT = "Tokenizers don't read words; they read pieces. Héllo, naïve café!";
const MAX_COLUMNS = 3;
const CHIPS = 1500; // drawn per column at most

export function createView(context) {
  return new CompareView(context);
}

class CompareView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.run = 0;
    this.settledPromise = Promise.resolve();
    loadCss(new URL("./encode.css", import.meta.url)); // the shared control classes
    loadCss(new URL("./compare.css", import.meta.url));
    this.build();
  }

  build() {
    const head = el("header", "cmp-head");
    head.append(el("h2", "", t("cmp.title")), el("p", "hint", t("cmp.intro")));
    this.input = el("textarea", "enc-text cmp-text");
    this.input.rows = 3;
    this.input.spellcheck = false;
    this.input.dataset.testid = "compare-text";
    const field = labelled(t("cmp.text"), this.input, "cmp-text-field");
    this.status = statusLine("compare-status");
    this.unknown = unknownLine("compare-unknown");
    this.grid = el("div", "cmp-grid");
    this.root.replaceChildren(head, field, this.unknown, this.status, this.grid);
    this.selects = [];
    this.columns = [];
    for (let i = 0; i < MAX_COLUMNS; i++) this.columns.push(this.column(i));
    let timer = 0;
    this.input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => { this.context.urlState.set({ text: this.input.value }); this.load(); }, 200);
    });
  }

  options() {
    const ids = (this.context.manifest.presets || []).filter((p) => p.file).map((p) => p.id);
    for (const id of PRESETS) if (!ids.includes(id)) ids.push(id);
    for (const id of this.context.tokenize.tokenizerIds?.() || []) if (!ids.includes(id)) ids.push(id);
    return ids;
  }

  column(i) {
    const box = el("section", "cmp-column");
    box.dataset.testid = "compare-column";
    const select = el("select", "enc-select");
    select.dataset.testid = "compare-select";
    const label = labelled(t("cmp.column", { n: i + 1 }), select);
    const counts = el("p", "cmp-counts");
    const count = el("span", "cmp-count");
    count.dataset.testid = "compare-count";
    const per = el("span", "cmp-per");
    per.dataset.testid = "compare-chars-per-token";
    const perByte = el("span", "cmp-per");
    perByte.dataset.testid = "compare-bytes-per-token";
    const perWord = el("span", "cmp-per");
    perWord.dataset.testid = "compare-tokens-per-word";
    const cuts = el("p", "cmp-cuts hint");
    cuts.dataset.testid = "compare-cuts";
    counts.append(count, el("span", "cmp-sep", " · "), per, el("span", "cmp-sep", " · "), perByte,
      el("span", "cmp-sep", " · "), perWord);
    const tokens = el("div", "cmp-tokens");
    tokens.dataset.testid = "compare-tokens";
    tokens.setAttribute("role", "group");
    box.append(label, counts, cuts, tokens);
    select.addEventListener("change", () => this.changed());
    this.grid.append(box);
    return { box, select, count, per, perByte, perWord, cuts, tokens };
  }

  fillSelects(keys) {
    const labels = new Map((this.context.manifest.presets || []).map((p) => [p.id, p.label]));
    this.columns.forEach((col, i) => {
      const options = [];
      if (i === MAX_COLUMNS - 1) {
        const none = el("option", "", t("cmp.none"));
        none.value = "";
        options.push(none);
      }
      for (const id of this.options()) {
        const option = el("option", "", labels.get(id) || id);
        option.value = id;
        options.push(option);
      }
      col.select.replaceChildren(...options);
      col.select.value = keys[i] || "";
    });
  }

  changed() {
    tell(this.unknown, "");
    const keys = this.columns.map((c) => c.select.value).filter(Boolean);
    this.context.urlState.set({ tokenizers: keys.join(",") });
    this.load();
  }

  activate() {
    this.context.placePlayer(null);
    const url = this.context.urlState;
    const wanted = (url.get("tokenizers", null) || PRESETS.join(",")).split(",").filter(Boolean);
    const known = this.options();
    const keys = wanted.filter((key) => known.includes(key)).slice(0, MAX_COLUMNS);
    tell(this.unknown, wanted.filter((key) => !known.includes(key)).map((name) => t("cmp.unknown", { name })).join(" "));
    while (keys.length < 2) keys.push(PRESETS.find((p) => !keys.includes(p)));
    this.fillSelects(keys);
    this.input.value = url.get("text", DEFAULT_TEXT);
    this.load();
  }

  deactivate() { this.run++; }

  settled() { return this.settledPromise; }

  say(key, params) {
    this.status.textContent = key ? t(key, params) : "";
    this.status.hidden = !key;
  }

  load() {
    const run = ++this.run;
    this.settledPromise = this.go(run).catch((error) => {
      if (run === this.run) this.say("cmp.error", { message: error.message || String(error) });
    });
    return this.settledPromise;
  }

  async go(run) {
    const { engine } = this.context;
    if (engine.stage !== "ready") this.say("cmp.waiting");
    await engine.ready;
    if (run !== this.run) return;
    this.say("cmp.loading");
    for (const col of this.columns) col.box.dataset.status = "pending";
    const text = this.input.value;
    const results = await Promise.all(this.columns.map(async (col) => {
      const key = col.select.value;
      if (!key) return null;
      const info = await loadTokenizer(this.context, key);
      const result = await engine.request("encode", { key, text, limit: null });
      return { key, info, result };
    }));
    if (run !== this.run) return;
    this.say(null);
    const measure = { chars: Array.from(text).length, bytes: new TextEncoder().encode(text).length,
      words: (text.match(/\S+/g) || []).length };
    const cuts = results.map((entry) => entry && cutsOf(entry.result));
    this.columns.forEach((col, i) => {
      const others = cuts.filter((c, j) => c && j !== i);
      this.draw(col, results[i], measure, (end) => others.some((c) => !c.has(end)));
    });
  }

  draw(col, entry, { chars, bytes, words }, differs) {
    col.box.dataset.status = "done";
    // An empty third slot stays on screen (its select adds a tokenizer) but is no column.
    col.box.dataset.testid = entry ? "compare-column" : "compare-empty-column";
    col.box.classList.toggle("empty", !entry);
    if (!entry) {
      delete col.box.dataset.tokenizer;
      col.count.textContent = col.per.textContent = col.perByte.textContent = "";
      col.perWord.textContent = col.cuts.textContent = "";
      col.tokens.replaceChildren();
      return;
    }
    const { key, info, result } = entry;
    const n = result.ids.length;
    col.box.dataset.tokenizer = key;
    col.count.dataset.count = String(n);
    col.count.textContent = t("cmp.tokens", { n });
    const per = n ? chars / n : 0;
    col.per.dataset.value = per.toFixed(2);
    col.per.textContent = t("cmp.perToken", { n: formatNumber(per, undefined, { maximumFractionDigits: 2, minimumFractionDigits: 2 }) });
    const fixed = (x) => formatNumber(x, undefined, { maximumFractionDigits: 2, minimumFractionDigits: 2 });
    col.perByte.dataset.value = (n ? bytes / n : 0).toFixed(2);
    col.perByte.textContent = t("cmp.perByte", { n: fixed(n ? bytes / n : 0) });
    col.perWord.dataset.value = (words ? n / words : 0).toFixed(2);
    col.perWord.textContent = t("cmp.perWord", { n: fixed(words ? n / words : 0) });
    let different = 0;
    col.tokens.setAttribute("aria-label", t("cmp.tokenList", { name: key }));
    const chips = [];
    for (let i = 0; i < Math.min(n, CHIPS); i++) {
      const chip = tokenChip(result.tokens[i], result.ids[i], info, { testid: "compare-token", special: Boolean(result.special?.[i]) });
      chip.dataset.start = String(result.offsets[i][0]);
      chip.dataset.end = String(result.offsets[i][1]);
      // Cuts fall between tokens: the end of every token but the last one.
      if (i < n - 1 && result.offsets[i][1] > result.offsets[i][0] && differs(result.offsets[i][1])) {
        chip.classList.add("cmp-diff");
        chip.dataset.cut = "differs";
        chip.title = `${chip.title ? `${chip.title} — ` : ""}${t("cmp.cutNote")}`;
        different += 1;
      }
      chips.push(chip);
    }
    col.cuts.dataset.count = String(different);
    col.cuts.textContent = t(different ? "cmp.cuts" : "cmp.cutsNone", { n: different });
    if (n > CHIPS) chips.push(el("p", "hint", t("cmp.more", { n: n - CHIPS })));
    col.tokens.replaceChildren(...chips);
  }
}

// The text positions where a tokenizer cuts (the ends of its tokens with text, not the last).
function cutsOf(result) {
  const ends = new Set();
  const n = result.ids.length;
  for (let i = 0; i < n - 1; i++) {
    const [start, end] = result.offsets[i];
    if (end > start) ends.add(end);
  }
  return ends;
}

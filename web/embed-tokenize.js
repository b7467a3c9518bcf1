// The tokenize view for <subword-lab>: a text box, the tokens and their counts. The page's own
// tokenize view is tied to index.html's ids; this one builds its DOM with classes only, so a
// course page can hold several. It encodes with the shared worker (context.engine).
import { hueOf, pieces } from "./lib/tokens.js";
import { register, t, formatNumber } from "./i18n/index.js";
import { el } from "./lib/dom.js";
import { precomputed } from "./lib/precomputed.js";

precomputed.warm(); // the default text's tokens come with its index (tools/precompute.py)

register({
  en: {
    "etok.tokenizer": "Tokenizer", "etok.text": "Text", "etok.tokens": "Tokens",
    "etok.chars": "Characters", "etok.ratio": "Characters per token", "etok.list": "Tokens",
    "etok.waiting": "Tokens appear here as soon as Python is ready.", "etok.none": "No tokens.",
    "etok.error": "Could not tokenize: {message}",
  },
  vi: {
    "etok.tokenizer": "Bộ tách từ", "etok.text": "Văn bản", "etok.tokens": "Số token",
    "etok.chars": "Số ký tự", "etok.ratio": "Ký tự mỗi token", "etok.list": "Các token",
    "etok.waiting": "Các token sẽ hiện ở đây ngay khi Python sẵn sàng.", "etok.none": "Không có token nào.",
    "etok.error": "Không tách được: {message}",
  },
  zh: {
    "etok.tokenizer": "分词器", "etok.text": "文本", "etok.tokens": "词元数",
    "etok.chars": "字符数", "etok.ratio": "每个词元的字符数", "etok.list": "词元",
    "etok.waiting": "Python 就绪后，词元会显示在这里。", "etok.none": "没有词元。",
    "etok.error": "无法分词：{message}",
  },
});

const DEFAULT_TOKENIZER = "gpt2";
const DEFAULT_TEXT = "Tokenizers read pieces, not words: see how unbelievably comes apart.";


let counter = 0; // unique ids inside one shadow root are enough, but keep them unique anyway

export class TokenizeWidget {
  constructor(context) {
    this.context = context;
    this.run = 0;
    this.settledPromise = Promise.resolve();
    this.build();
  }

  build() {
    const { root, urlState, tokenize } = this.context;
    const id = `sl-tok-${++counter}`;
    root.classList.add("sl-tokenize");
    const ids = tokenize.tokenizerIds();
    this.key = urlState.get("tokenizer") || (ids.includes(DEFAULT_TOKENIZER) ? DEFAULT_TOKENIZER : ids[0]);
    this.select = el("select");
    this.select.id = `${id}-select`;
    this.select.dataset.testid = "embed-tokenizer";
    for (const key of ids) {
      const option = el("option", "", tokenize.labelOf ? tokenize.labelOf(key) : key);
      option.value = key;
      this.select.append(option);
    }
    this.select.value = this.key;
    const selectLabel = el("label", "", t("etok.tokenizer"));
    selectLabel.htmlFor = this.select.id;
    this.text = el("textarea", "sl-text");
    this.text.id = `${id}-text`;
    this.text.rows = 2;
    this.text.spellcheck = false;
    this.text.dataset.testid = "embed-text";
    this.text.value = urlState.get("text", DEFAULT_TEXT);
    const textLabel = el("label", "", t("etok.text"));
    textLabel.htmlFor = this.text.id;
    const bar = el("div", "sl-bar");
    const field = el("div", "field");
    field.append(selectLabel, this.select);
    this.counts = el("dl", "counts");
    this.count = this.stat("etok.tokens", "token-count");
    this.chars = this.stat("etok.chars", "char-count");
    this.ratio = this.stat("etok.ratio", "chars-per-token");
    bar.append(field, this.counts);
    this.tokens = el("div", "tokens");
    this.tokens.dataset.testid = "tokens";
    this.tokens.setAttribute("role", "list");
    this.tokens.setAttribute("aria-label", t("etok.list"));
    this.tokens.dataset.status = "pending";
    this.tokens.append(el("p", "placeholder", t("etok.waiting")));
    root.append(bar, textLabel, this.text, this.tokens);
    let timer = 0;
    this.text.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.encode(), 120);
      urlState.set({ text: this.text.value });
    });
    this.select.addEventListener("change", () => {
      this.key = this.select.value;
      urlState.set({ tokenizer: this.key });
      this.encode();
    });
  }

  stat(key, testid) {
    const box = el("div");
    const value = el("dd", "", "–");
    value.dataset.testid = testid;
    box.append(el("dt", "", t(key)), value);
    this.counts.append(box);
    return value;
  }

  activate() { return this.encode(); }
  deactivate() { this.run++; }
  settled() { return this.settledPromise; }

  encode() {
    const run = ++this.run;
    this.settledPromise = this.go(run).catch((error) => {
      if (run !== this.run) return;
      this.tokens.dataset.status = "error";
      this.tokens.replaceChildren(el("p", "placeholder error", t("etok.error", { message: error.message })));
    });
    return this.settledPromise;
  }

  async go(run) {
    const { engine, tokenize } = this.context;
    if (!this.drawn) await this.showStored(run, this.text.value);
    await engine.ready;
    const info = await tokenize.ensureLoaded(this.key);
    const text = this.text.value;
    const result = await engine.request("encode", { key: this.key, text, limit: 20000 });
    if (run !== this.run) return;
    this.draw(result, info, text);
  }

  // Before Python is ready: the default text's tokens as the build computed them (the same
  // answer Python gives; drawn again by it once ready). Other texts wait for Python.
  async showStored(run, text) {
    const stored = await precomputed.lookup("encode_preset", { key: this.key, text });
    if (stored && run === this.run && !this.drawn && this.text.value === text) {
      this.draw(stored.result, stored.details, text);
    }
  }

  draw(result, info, text) {
    this.drawn = true;
    const chips = result.ids.map((tokenId, i) => this.chip(result, i, info));
    if (!chips.length) chips.push(el("p", "placeholder", t("etok.none")));
    this.tokens.replaceChildren(...chips);
    this.tokens.dataset.status = "done";
    const n = result.ids.length;
    this.count.textContent = formatNumber(n);
    this.chars.textContent = formatNumber(text.length);
    this.ratio.textContent = n ? formatNumber(text.length / n, undefined, { maximumFractionDigits: 2 }) : "–";
  }

  chip(result, i, info) {
    const token = result.tokens[i];
    const tokenId = result.ids[i];
    const chip = el("span", "tok");
    chip.dataset.testid = "token";
    chip.dataset.tokenId = String(tokenId);
    chip.setAttribute("role", "listitem");
    const [start, end] = result.offsets[i];
    chip.dataset.start = String(start);
    chip.dataset.end = String(end);
    chip.style.setProperty("--h", String(hueOf(tokenId)));
    const special = Boolean(result.special[i]);
    const unknown = info.unk_id !== null && info.unk_id !== undefined && tokenId === info.unk_id;
    if (special) chip.classList.add("special");
    if (unknown) chip.classList.add("unknown");
    const body = el("span", "t");
    for (const part of pieces(token, { special, unknown, model: info.model || "", byteLevel: Boolean(info.byte_level) })) {
      if (part.mark === "spelling") chip.dataset.spelling = token;
      else body.append(part.mark && part.mark !== "bytes" ? el("span", "mark", part.text) : document.createTextNode(part.text));
    }
    chip.append(body);
    chip.title = `${token} (id ${tokenId})`;
    return chip;
  }
}

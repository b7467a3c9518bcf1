// The encode view (?view=encode): one text encoded step by step by its tokenizer's model.
//
// The view owns the text box, the tokenizer choice and the loading state; the drawing of
// each step belongs to a renderer chosen by the model type (webapi.describe says which):
// WordPiece (encode-wordpiece.js), BPE (encode-bpe.js), Unigram (encode-unigram.js).
// A renderer is created with {root, player, engine}; its show(trace) returns the timeline
// the shared player plays: {length, render(k), narrate(k)}, k indexing the model events.
//
// This module also exports the small helpers the pipeline and compare views share
// (tracing an encode, loading a tokenizer, drawing a token).
import { t, register } from "../i18n.js";
import { hueOf, pieces } from "../tokens.js";
import { precomputed } from "../precomputed.js";

register({
  en: {
    "encode.title": "Encode step by step",
    "encode.intro": "Watch the model turn each word into tokens. Use the player below to step through.",
    "encode.tokenizer": "Tokenizer",
    "encode.text": "Text to encode",
    "encode.toyGroup": "Course toy vocabularies",
    "encode.presetGroup": "Pretrained tokenizers",
    "encode.toy.wordpiece": "Course toy (WordPiece)",
    "encode.toy.bpe": "Course toy (BPE)",
    "encode.toy.unigram": "Course toy (Unigram)",
    "encode.vocab": "Vocabulary ({n} tokens):",
    "encode.vocabNote.wordpiece": "This is the vocabulary the course lists for its toy corpus. Recomputing the scores, the third merge would be hu + ##gs → hugs (1/15), not hu + ##g → hug (2/45); the course's list is kept so its examples come out.",
    "encode.vocabNote.bpe": "Trained here on the toy word counts (hug 10, pug 5, pun 12, bun 4, hugs 5): the alphabet plus the first three merges.",
    "encode.loading": "Loading the tokenizer…",
    "encode.waiting": "Python is starting; the steps appear when it is ready.",
    "encode.tracing": "Encoding…",
    "encode.error": "Could not encode: {message}",
    "encode.unsupported": "Step-by-step drawing is not available for the {model} model.",
    "encode.empty": "Type a text to see how it is encoded.",
    "encode.words": "Words the model sees",
    "encode.result": "Tokens so far",
    "encode.resultFinal": "Final tokens",
    "encode.earlier": "… {n} earlier tokens",
    "encode.noSteps": "The model had nothing to do: no words.",
    "encode.start": "Press ▶ or → to start: the model takes the words one by one.",
    "encode.finished": "Done: {n} tokens.",
    "encode.wordState.done": "done",
    "encode.wordState.current": "now",
    "encode.wordState.todo": "waiting",
    "encode.offsets": "characters {start}–{end}",
  },
  vi: {
    "encode.title": "Mã hóa từng bước",
    "encode.intro": "Xem mô hình biến từng từ thành token. Dùng trình phát bên dưới để đi qua từng bước.",
    "encode.tokenizer": "Bộ tách token",
    "encode.text": "Văn bản cần mã hóa",
    "encode.toyGroup": "Bộ từ vựng đồ chơi của khóa học",
    "encode.presetGroup": "Bộ tách token đã huấn luyện",
    "encode.toy.wordpiece": "Ví dụ đồ chơi của khóa học (WordPiece)",
    "encode.toy.bpe": "Ví dụ đồ chơi của khóa học (BPE)",
    "encode.toy.unigram": "Ví dụ đồ chơi của khóa học (Unigram)",
    "encode.vocab": "Bộ từ vựng ({n} token):",
    "encode.vocabNote.wordpiece": "Đây là bộ từ vựng mà khóa học liệt kê cho kho ngữ liệu đồ chơi. Nếu tính lại điểm, lần gộp thứ ba sẽ là hu + ##gs → hugs (1/15), chứ không phải hu + ##g → hug (2/45); chúng tôi giữ danh sách của khóa học để các ví dụ của nó cho đúng kết quả.",
    "encode.vocabNote.bpe": "Được huấn luyện ngay tại đây trên số lần xuất hiện của các từ đồ chơi (hug 10, pug 5, pun 12, bun 4, hugs 5): bảng chữ cái cộng ba lần gộp đầu tiên.",
    "encode.loading": "Đang tải bộ tách token…",
    "encode.waiting": "Python đang khởi động; các bước sẽ hiện ra khi sẵn sàng.",
    "encode.tracing": "Đang mã hóa…",
    "encode.error": "Không mã hóa được: {message}",
    "encode.unsupported": "Chưa thể vẽ từng bước cho mô hình {model}.",
    "encode.empty": "Hãy nhập một văn bản để xem nó được mã hóa thế nào.",
    "encode.words": "Các từ mà mô hình nhận",
    "encode.result": "Các token cho đến giờ",
    "encode.resultFinal": "Các token cuối cùng",
    "encode.earlier": "… {n} token trước đó",
    "encode.noSteps": "Mô hình không có việc gì để làm: không có từ nào.",
    "encode.start": "Nhấn ▶ hoặc → để bắt đầu: mô hình lần lượt xử lý từng từ.",
    "encode.finished": "Xong: {n} token.",
    "encode.wordState.done": "xong",
    "encode.wordState.current": "đang xử lý",
    "encode.wordState.todo": "đang chờ",
    "encode.offsets": "ký tự {start}–{end}",
  },
  zh: {
    "encode.title": "逐步编码",
    "encode.intro": "观察模型如何把每个词变成词元。用下方的播放器逐步查看。",
    "encode.tokenizer": "分词器",
    "encode.text": "要编码的文本",
    "encode.toyGroup": "课程中的玩具词表",
    "encode.presetGroup": "预训练分词器",
    "encode.toy.wordpiece": "课程玩具示例（WordPiece）",
    "encode.toy.bpe": "课程玩具示例（BPE）",
    "encode.toy.unigram": "课程玩具示例（Unigram）",
    "encode.vocab": "词表（{n} 个词元）：",
    "encode.vocabNote.wordpiece": "这是课程为玩具语料列出的词表。按公式重新计算，第三次合并应是 hu + ##gs → hugs（1/15），而不是 hu + ##g → hug（2/45）；这里沿用课程的词表，好让课程里的例子得到相同结果。",
    "encode.vocabNote.bpe": "在此用玩具词频（hug 10、pug 5、pun 12、bun 4、hugs 5）训练得到：字母表加上前三次合并。",
    "encode.loading": "正在加载分词器…",
    "encode.waiting": "Python 正在启动；准备好后会显示各个步骤。",
    "encode.tracing": "正在编码…",
    "encode.error": "无法编码：{message}",
    "encode.unsupported": "暂不支持逐步展示 {model} 模型。",
    "encode.empty": "输入一段文本，看看它是如何被编码的。",
    "encode.words": "模型看到的词",
    "encode.result": "目前得到的词元",
    "encode.resultFinal": "最终词元",
    "encode.earlier": "… 前面还有 {n} 个词元",
    "encode.noSteps": "模型无事可做：没有词。",
    "encode.start": "按 ▶ 或 → 开始：模型会逐个处理每个词。",
    "encode.finished": "完成：共 {n} 个词元。",
    "encode.wordState.done": "已完成",
    "encode.wordState.current": "当前",
    "encode.wordState.todo": "等待中",
    "encode.offsets": "第 {start}–{end} 个字符",
  },
});

// ------------------------------------------------------------------ shared helpers

const loadedCss = new Set();
// Each view's stylesheet, added to the document once (the page's CSP allows our own files).
export function ensureCss(file) {
  if (loadedCss.has(file)) return;
  loadedCss.add(file);
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL(file, import.meta.url).href;
  document.head.append(link);
}

export function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null && text !== undefined) node.textContent = String(text);
  return node;
}

// Encode `text` with the events of docs/events.md. The worker sends a call's events in
// batches before its reply, and runs one call at a time, so everything that arrives
// between the request and the reply belongs to it.
export async function traceEncode(engine, key, text) {
  const events = [];
  const stop = engine.onEvents((batch) => { for (const e of batch) events.push(e); });
  try {
    const result = await engine.request("call", { name: "trace_encode", args: { key, text } });
    return { events, ids: result.ids, tokens: result.tokens, offsets: result.offsets, text, key };
  } finally {
    stop();
  }
}

export const PRESETS = ["bert-base-uncased", "gpt2", "botchan-unigram"];
export const TOYS = { wordpiece: "course-toy-wordpiece", bpe: "course-toy-bpe", unigram: "course-toy-unigram" };
const TOY_ALGO = Object.fromEntries(Object.entries(TOYS).map(([algo, key]) => [key, algo]));
export const DEFAULT_FOR_ALGO = { wordpiece: "bert-base-uncased", bpe: "gpt2", unigram: "botchan-unigram" };

// Open a tokenizer by key (a preset, a file the tokenize view opened, or a course toy) and
// return its description {key, model, vocab_size, unk_id, byte_level, vocab?}.
const toyInfo = new Map();
export async function loadTokenizer(context, key) {
  const algo = TOY_ALGO[key];
  if (algo) {
    if (!toyInfo.has(key)) {
      const request = context.engine.request("call", { name: "open_toy", args: { corpus: "course-toy", algo } });
      request.catch(() => toyInfo.delete(key));
      toyInfo.set(key, request);
    }
    return toyInfo.get(key);
  }
  const info = await context.tokenize.ensureLoaded(key);
  if (info && info.model) return info;
  return context.engine.request("describe", { key });
}

export function tokenOptions(info, id, { special = false } = {}) {
  return {
    special,
    model: info?.model || "",
    unknown: info?.unk_id !== null && info?.unk_id !== undefined && id === info.unk_id,
    byteLevel: Boolean(info?.byte_level),
  };
}

// A token drawn as the tokenize view draws it (style.css's .tok): coloured by id, markers visible.
export function tokenChip(token, id, info, { testid = null, special = false } = {}) {
  const chip = el("span", "tok");
  if (testid) chip.dataset.testid = testid;
  if (id !== null && id !== undefined) {
    chip.dataset.tokenId = String(id);
    chip.style.setProperty("--h", String(hueOf(id)));
  }
  const body = el("span", "t");
  for (const piece of pieces(token, tokenOptions(info, id, { special }))) {
    if (piece.mark === "special" || piece.mark === "unknown") {
      chip.classList.add(piece.mark);
      body.append(piece.text);
    } else if (piece.mark && piece.mark !== "bytes") {
      body.append(el("span", "mark", piece.text));
    } else body.append(piece.text);
  }
  chip.append(body);
  return chip;
}

// Spaces and line breaks inside a piece, made visible (the pre-tokenizer's ▁ and Ġ already are).
export function visible(text) {
  return text.replace(/[ \n\t\r]/g, (ch) => ({ " ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍" })[ch]);
}

// The words (model_piece events) and each word's model events, from a trace.
export function wordsOf(trace, prefix) {
  const words = [];
  for (const event of trace.events) {
    if (event.type === "model_piece") {
      words.push({ text: event.text, offsets: event.offsets, events: [], tokens: [] });
    } else if (event.type.startsWith(prefix) && words.length) {
      const word = words[words.length - 1];
      word.events.push(event);
      if (event.type === `${prefix}done`) word.tokens = event.tokens;
    }
  }
  return words;
}

// The strip of words: finished ones, the current one (marked in words, not colour only), and those waiting.
export function wordStrip(words, current, finished) {
  const box = el("section", "enc-words");
  box.append(el("h3", "enc-h", t("encode.words")));
  const list = el("ol", "enc-word-list");
  words.forEach((word, i) => {
    const state = finished || i < current ? "done" : i === current ? "current" : "todo";
    const item = el("li", `enc-word ${state}`);
    item.dataset.testid = "encode-word";
    item.dataset.state = state;
    item.append(el("span", "enc-word-text", visible(word.text)));
    item.append(el("span", "enc-word-state", t(`encode.wordState.${state}`)));
    if (state === "current") item.setAttribute("aria-current", "step");
    list.append(item);
  });
  box.append(list);
  return box;
}

const RESULT_LIMIT = 120; // chips drawn at most; older ones are counted, not drawn
// The tokens produced so far: every finished word's, then `partial` (the current word's).
export function resultRow(words, current, partial, info, final) {
  const rows = [];
  for (let i = 0; i < Math.min(current, words.length); i++) rows.push(...words[i].tokens);
  rows.push(...partial);
  const box = el("section", "enc-result");
  box.dataset.testid = "encode-result";
  box.dataset.final = String(final);
  box.append(el("h3", "enc-h", t(final ? "encode.resultFinal" : "encode.result")));
  const list = el("div", "enc-result-tokens");
  const skip = Math.max(0, rows.length - RESULT_LIMIT);
  if (skip) list.append(el("span", "enc-earlier", t("encode.earlier", { n: skip })));
  for (const [value, id] of rows.slice(skip)) list.append(tokenChip(value, id, info, { testid: "result-token" }));
  box.append(list);
  return box;
}

// ------------------------------------------------------------------ the view

const RENDERERS = {
  WordPiece: () => import("./encode-wordpiece.js").then((m) => m.createWordPieceEncodeRenderer),
  BPE: () => import("./encode-bpe.js").then((m) => m.createBpeEncodeRenderer),
  Unigram: () => import("./encode-unigram.js").then((m) => m.createUnigramEncodeRenderer),
};

const DEFAULT_TEXT = { wordpiece: "hugs", bpe: "hugs", unigram: "unhug" };

// The frame both word-by-word renderers (WordPiece, BPE) draw after k steps: the word
// strip, the current word's panel (or the start hint), the tokens so far, a legend.
// `wordStep(word, index)` gives the renderer's own part: {panel, partial tokens}.
export function renderWordSteps(root, { steps, words, info, legend, wordStep }, k) {
  if (steps.length === 0) {
    root.replaceChildren(el("p", "hint", t("encode.noSteps")));
    return;
  }
  const final = k >= steps.length;
  const current = k === 0 ? 0 : steps[k - 1].word;
  const parts = [wordStrip(words, k === 0 ? -1 : current, final)];
  let partial = [];
  if (k > 0) {
    const step = wordStep(words[current], steps[k - 1].index);
    partial = step.partial;
    parts.push(step.panel);
  } else {
    parts.push(el("p", "hint enc-start", t("encode.start")));
  }
  parts.push(resultRow(words, final ? words.length : current, final ? [] : partial, info, final));
  parts.push(el("p", "hint enc-legend", t(legend)));
  root.replaceChildren(...parts);
}

export function createView(context) {
  return new EncodeView(context);
}

class EncodeView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.renderers = new Map();
    this.run = 0;
    this.settledPromise = Promise.resolve();
    ensureCss("./encode.css");
    this.build();
  }

  build() {
    const root = this.root;
    root.classList.add("enc-view");
    const head = el("header", "enc-head");
    head.append(el("h2", "enc-title", t("encode.title")), el("p", "hint", t("encode.intro")));
    const controls = el("div", "enc-controls");
    const pick = el("label", "enc-field");
    pick.append(el("span", "enc-label", t("encode.tokenizer")));
    this.select = el("select", "enc-select");
    this.select.dataset.testid = "encode-tokenizer";
    const toys = el("optgroup");
    toys.label = t("encode.toyGroup");
    for (const [algo, key] of Object.entries(TOYS)) {
      const option = el("option", "", t(`encode.toy.${algo}`));
      option.value = key;
      toys.append(option);
    }
    const presets = el("optgroup");
    presets.label = t("encode.presetGroup");
    for (const p of this.context.manifest.presets || []) {
      const option = el("option", "", p.label);
      option.value = p.id;
      option.disabled = !p.file;
      presets.append(option);
    }
    this.select.append(toys, presets);
    pick.append(this.select);
    const field = el("label", "enc-field enc-text-field");
    field.append(el("span", "enc-label", t("encode.text")));
    this.input = el("input", "enc-text");
    this.input.type = "text";
    this.input.spellcheck = false;
    this.input.dataset.testid = "encode-text";
    field.append(this.input);
    controls.append(pick, field);
    this.vocabBox = el("div", "enc-vocab");
    this.vocabBox.dataset.testid = "encode-vocab";
    this.status = el("p", "enc-status");
    this.status.dataset.testid = "encode-status";
    this.status.setAttribute("role", "status");
    this.stage = el("div", "enc-stage");
    this.stage.dataset.testid = "encode-stage";
    this.playerBox = el("div", "enc-player");
    root.replaceChildren(head, controls, this.vocabBox, this.status, this.playerBox, this.stage);
    this.select.addEventListener("change", () => this.choose(this.select.value));
    let timer = 0;
    this.input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.context.urlState.set({ text: this.input.value, step: null });
        this.load({ step: 0 });
      }, 250);
    });
  }

  // The key from the URL: corpus=course-toy with algo= gives a toy; else tokenizer=.
  keyFromUrl() {
    const url = this.context.urlState;
    const algo = url.get("algo", null);
    if (url.get("corpus", null) === "course-toy" && TOYS[algo]) return TOYS[algo];
    const wanted = url.get("tokenizer", null);
    if (wanted) return wanted;
    return DEFAULT_FOR_ALGO[algo] || "course-toy-wordpiece";
  }

  activate() {
    this.context.placePlayer(this.playerBox);
    const url = this.context.urlState;
    this.key = this.keyFromUrl();
    this.select.value = this.key;
    const algo = TOY_ALGO[this.key];
    this.input.value = url.get("text", null) ?? (DEFAULT_TEXT[algo] || "Tokenizers split unbelievable words.");
    const step = Number(url.get("step", "0")) || 0;
    this.load({ step });
  }

  deactivate() {
    this.run++;
    this.context.player.pause();
  }

  settled() { return this.settledPromise; }

  choose(key) {
    this.key = key;
    const algo = TOY_ALGO[key];
    if (algo) this.context.urlState.set({ corpus: "course-toy", algo, tokenizer: null, step: null });
    else this.context.urlState.set({ corpus: null, algo: null, tokenizer: key, step: null });
    this.load({ step: 0 });
  }

  say(key, params) {
    this.status.textContent = key ? t(key, params) : "";
    this.status.hidden = !key;
  }

  load({ step }) {
    const run = ++this.run;
    this.settledPromise = this.trace(run, step).catch((error) => {
      if (run === this.run) {
        this.say("encode.error", { message: error.message || String(error) });
        this.context.player.load({ length: 0, render: () => {}, narrate: () => "" });
        this.stage.replaceChildren();
      }
    });
    return this.settledPromise;
  }

  // A course toy with its default text was traced at build time by the same Python code
  // (tools/precompute.py): draw that at once. Python still opens the toy in the background,
  // for what renderers ask it later (the Unigram n-best list).
  async storedTrace(key, text) {
    const algo = TOY_ALGO[key];
    if (!algo) return null;
    const [opened, traced] = await Promise.all([
      precomputed.lookup("open_toy", { corpus: "course-toy", algo }),
      precomputed.lookup("trace_encode", { key, text }),
    ]);
    if (!opened || !traced) return null;
    loadTokenizer(this.context, key).catch(() => {});
    const { ids, tokens, offsets } = traced.result;
    return { info: opened.result, trace: { events: traced.events, ids, tokens, offsets, text, key } };
  }

  async trace(run, step) {
    const { engine, player } = this.context;
    const key = this.key;
    const text = this.input.value;
    const stored = await this.storedTrace(key, text);
    if (run !== this.run) return;
    if (!stored && engine.stage !== "ready") this.say("encode.waiting");
    if (!stored) await engine.ready;
    if (run !== this.run) return;
    this.say("encode.loading");
    const info = stored ? stored.info : await loadTokenizer(this.context, key);
    if (run !== this.run) return;
    this.showVocab(key, info);
    if (!text.trim()) {
      this.say("encode.empty");
      player.load({ length: 0, render: () => this.stage.replaceChildren(), narrate: () => "" });
      return;
    }
    this.say("encode.tracing");
    const trace = stored ? stored.trace : await traceEncode(engine, key, text);
    if (run !== this.run) return;
    trace.info = info;
    const factory = RENDERERS[info.model];
    if (!factory) {
      this.say("encode.unsupported", { model: info.model });
      return;
    }
    const renderer = await this.renderer(info.model, factory);
    if (run !== this.run) return;
    this.say(null);
    player.load(renderer.show(trace), step);
    await new Promise((resolve) => requestAnimationFrame(resolve)); // the player draws in this frame
  }

  async renderer(model, factory) {
    if (!this.renderers.has(model)) {
      const create = await factory();
      const root = el("div", "enc-renderer");
      this.renderers.set(model, create({ root, player: this.context.player, engine: this.context.engine }));
      this.renderers.get(model).root = root;
    }
    const renderer = this.renderers.get(model);
    this.stage.replaceChildren(renderer.root);
    return renderer;
  }

  showVocab(key, info) {
    const algo = TOY_ALGO[key];
    if (!algo || !Array.isArray(info.vocab)) {
      this.vocabBox.replaceChildren();
      this.vocabBox.hidden = true;
      return;
    }
    this.vocabBox.hidden = false;
    const list = el("div", "enc-vocab-list");
    info.vocab.forEach((token, id) => list.append(tokenChip(token, id, info, { testid: "vocab-token" })));
    const parts = [el("p", "enc-vocab-title", t("encode.vocab", { n: info.vocab.length })), list];
    if (algo === "wordpiece" || algo === "bpe") parts.push(el("p", "hint", t(`encode.vocabNote.${algo}`)));
    this.vocabBox.replaceChildren(...parts);
  }
}

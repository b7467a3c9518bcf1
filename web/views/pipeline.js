// The pipeline view (?view=pipeline): one text through every stage of a tokenizer.
//
// Five positions for the player: 0 the input, 1 normalized (before and after, aligned
// column by column from the normalize event's alignment), 2 pre-tokenized (the pieces
// with their offsets, spaces, Ġ and ▁ visible), 3 the model's tokens per piece, 4 the
// post-processed encoding. render(k) rebuilds the stages from the trace alone.
import { t, register } from "../i18n/index.js";
import { el, loadCss } from "../lib/dom.js";
import { tokenChip, visible } from "../lib/tokens.js";
import { traceEncode, loadTokenizer, PRESETS } from "../lib/tokenizers.js";

register({
  en: {
    "pipe.title": "The tokenization pipeline",
    "pipe.intro": "A text goes through normalization, pre-tokenization, the model and post-processing. Step through the stages with the player.",
    "pipe.tokenizer": "Tokenizer",
    "pipe.text": "Text",
    "pipe.stage.input": "1. Input",
    "pipe.stage.normalize": "2. Normalization",
    "pipe.stage.pretokenize": "3. Pre-tokenization",
    "pipe.stage.model": "4. Model",
    "pipe.stage.post": "5. Post-processing",
    "pipe.narr.input": "The raw input: {n} characters, exactly as typed.",
    "pipe.narr.normalize": "Normalization cleans the text: {changed} characters changed, {removed} removed, {added} added.",
    "pipe.narr.noNormalizer": "This tokenizer has no normalizer: the text goes on unchanged.",
    "pipe.narr.pretokenize": "Pre-tokenization cuts the text into {n} pieces; the model never looks across their borders.",
    "pipe.narr.model": "The model splits each piece into vocabulary tokens: {n} tokens.",
    "pipe.narr.post": "Post-processing gives the final encoding: {n} tokens ({added} added by the tokenizer).",
    "pipe.noNormalizer": "No normalizer: the text is used as it is.",
    "pipe.before": "before",
    "pipe.after": "after",
    "pipe.normalized": "Normalized text:",
    "pipe.legend.changed": "≠ changed character",
    "pipe.legend.removed": "− removed character",
    "pipe.legend.added": "+ added character",
    "pipe.legend.same": "= unchanged",
    "pipe.alignment": "Each column pairs normalized characters with the input characters they came from.",
    "pipe.offsets": "offsets {start}–{end}",
    "pipe.original": "from “{text}”",
    "pipe.mark.space": "␣ is a space, ↵ a line break, ⇥ a tab: made visible here.",
    "pipe.mark.G": "Ġ is how byte-level BPE (GPT-2) writes a space: the piece starts with its space.",
    "pipe.mark.meta": "▁ is how SentencePiece (Metaspace) writes a space: it marks the start of a word.",
    "pipe.mark.gap": "Whitespace between pieces that no piece covers was removed by the pre-tokenizer.",
    "pipe.addedToken": "special token, skips the model",
    "pipe.addedByPost": "added by post-processing",
    "pipe.loading": "Loading the tokenizer…",
    "pipe.waiting": "Python is starting; the pipeline appears when it is ready.",
    "pipe.error": "Could not run the pipeline: {message}",
    "pipe.empty": "Type a text to see it go through the pipeline.",
    "pipe.later": "Step forward to see this stage.",
  },
  vi: {
    "pipe.title": "Quy trình tách token",
    "pipe.intro": "Văn bản đi qua chuẩn hóa, tiền tách token, mô hình và hậu xử lý. Dùng trình phát để đi qua từng giai đoạn.",
    "pipe.tokenizer": "Bộ tách token",
    "pipe.text": "Văn bản",
    "pipe.stage.input": "1. Đầu vào",
    "pipe.stage.normalize": "2. Chuẩn hóa",
    "pipe.stage.pretokenize": "3. Tiền tách token",
    "pipe.stage.model": "4. Mô hình",
    "pipe.stage.post": "5. Hậu xử lý",
    "pipe.narr.input": "Đầu vào thô: {n} ký tự, đúng như khi gõ.",
    "pipe.narr.normalize": "Chuẩn hóa làm sạch văn bản: {changed} ký tự bị đổi, {removed} bị bỏ, {added} được thêm.",
    "pipe.narr.noNormalizer": "Bộ tách token này không có bước chuẩn hóa: văn bản được giữ nguyên.",
    "pipe.narr.pretokenize": "Tiền tách token cắt văn bản thành {n} mảnh; mô hình không bao giờ nhìn qua ranh giới giữa chúng.",
    "pipe.narr.model": "Mô hình chia mỗi mảnh thành các token trong bộ từ vựng: {n} token.",
    "pipe.narr.post": "Hậu xử lý cho ra kết quả cuối cùng: {n} token ({added} do bộ tách token thêm vào).",
    "pipe.noNormalizer": "Không có bước chuẩn hóa: văn bản được dùng nguyên vẹn.",
    "pipe.before": "trước",
    "pipe.after": "sau",
    "pipe.normalized": "Văn bản đã chuẩn hóa:",
    "pipe.legend.changed": "≠ ký tự bị thay đổi",
    "pipe.legend.removed": "− ký tự bị bỏ",
    "pipe.legend.added": "+ ký tự được thêm",
    "pipe.legend.same": "= không đổi",
    "pipe.alignment": "Mỗi cột ghép các ký tự sau chuẩn hóa với những ký tự đầu vào mà chúng đến từ đó.",
    "pipe.offsets": "vị trí {start}–{end}",
    "pipe.original": "từ “{text}”",
    "pipe.mark.space": "␣ là dấu cách, ↵ là xuống dòng, ⇥ là tab: được hiện ra ở đây.",
    "pipe.mark.G": "Ġ là cách BPE mức byte (GPT-2) viết dấu cách: mảnh này bắt đầu bằng dấu cách của nó.",
    "pipe.mark.meta": "▁ là cách SentencePiece (Metaspace) viết dấu cách: nó đánh dấu đầu một từ.",
    "pipe.mark.gap": "Khoảng trắng giữa các mảnh mà không mảnh nào bao gồm đã bị bộ tiền tách token bỏ đi.",
    "pipe.addedToken": "token đặc biệt, không qua mô hình",
    "pipe.addedByPost": "do hậu xử lý thêm vào",
    "pipe.loading": "Đang tải bộ tách token…",
    "pipe.waiting": "Python đang khởi động; quy trình sẽ hiện ra khi sẵn sàng.",
    "pipe.error": "Không chạy được quy trình: {message}",
    "pipe.empty": "Hãy nhập một văn bản để xem nó đi qua quy trình.",
    "pipe.later": "Tiến thêm một bước để xem giai đoạn này.",
  },
  zh: {
    "pipe.title": "分词流水线",
    "pipe.intro": "文本依次经过规范化、预分词、模型和后处理。用播放器逐个阶段查看。",
    "pipe.tokenizer": "分词器",
    "pipe.text": "文本",
    "pipe.stage.input": "1. 输入",
    "pipe.stage.normalize": "2. 规范化",
    "pipe.stage.pretokenize": "3. 预分词",
    "pipe.stage.model": "4. 模型",
    "pipe.stage.post": "5. 后处理",
    "pipe.narr.input": "原始输入：{n} 个字符，与输入时完全一样。",
    "pipe.narr.normalize": "规范化清理文本：改动 {changed} 个字符，删除 {removed} 个，新增 {added} 个。",
    "pipe.narr.noNormalizer": "这个分词器没有规范化步骤：文本原样传下去。",
    "pipe.narr.pretokenize": "预分词把文本切成 {n} 段；模型不会跨越这些边界。",
    "pipe.narr.model": "模型把每一段切成词表中的词元：共 {n} 个词元。",
    "pipe.narr.post": "后处理得到最终编码：共 {n} 个词元（其中 {added} 个由分词器添加）。",
    "pipe.noNormalizer": "没有规范化步骤：文本原样使用。",
    "pipe.before": "之前",
    "pipe.after": "之后",
    "pipe.normalized": "规范化后的文本：",
    "pipe.legend.changed": "≠ 被改动的字符",
    "pipe.legend.removed": "− 被删除的字符",
    "pipe.legend.added": "+ 新增的字符",
    "pipe.legend.same": "= 未改动",
    "pipe.alignment": "每一列把规范化后的字符与它们来自的输入字符对应起来。",
    "pipe.offsets": "偏移 {start}–{end}",
    "pipe.original": "来自“{text}”",
    "pipe.mark.space": "␣ 表示空格，↵ 表示换行，⇥ 表示制表符：在这里显示出来。",
    "pipe.mark.G": "Ġ 是字节级 BPE（GPT-2）对空格的写法：这一段以它的空格开头。",
    "pipe.mark.meta": "▁ 是 SentencePiece（Metaspace）对空格的写法：它标记一个词的开头。",
    "pipe.mark.gap": "各段之间没有被任何一段覆盖的空白已被预分词器删除。",
    "pipe.addedToken": "特殊词元，不经过模型",
    "pipe.addedByPost": "由后处理添加",
    "pipe.loading": "正在加载分词器…",
    "pipe.waiting": "Python 正在启动；准备好后会显示流水线。",
    "pipe.error": "无法运行流水线：{message}",
    "pipe.empty": "输入一段文本，看看它如何经过流水线。",
    "pipe.later": "前进一步查看这个阶段。",
  },
});

const STAGES = ["input", "normalize", "pretokenize", "model", "post"];
const DEFAULT_TEXT = "Héllo  WORLD! Don't panic.";

export function createView(context) {
  return new PipelineView(context);
}

// Columns pairing normalized characters with their input span (docs/events.md, normalize).
export function alignColumns(event, input) {
  const chars = Array.from(input);
  const after = Array.from(event.after);
  const start = event.offset;
  const end = start + Array.from(event.before).length;
  const spans = event.alignment || after.map((_, i) => [start + i, start + i + 1]);
  const columns = [];
  let cursor = start;
  let i = 0;
  while (i < after.length) {
    const [s, e] = spans[i];
    let j = i + 1;
    while (j < after.length && spans[j][0] === s && spans[j][1] === e) j++;
    for (; cursor < s; cursor++) columns.push({ before: chars[cursor], after: "", kind: "removed" });
    const before = chars.slice(Math.max(s, cursor), e).join("");
    const text = after.slice(i, j).join("");
    const kind = !before ? "added" : before === text ? "same" : "changed";
    columns.push({ before, after: text, kind });
    cursor = Math.max(cursor, e);
    i = j;
  }
  for (; cursor < end; cursor++) columns.push({ before: chars[cursor], after: "", kind: "removed" });
  return columns;
}

const KIND_MARK = { same: "=", changed: "≠", removed: "−", added: "+" };

class PipelineView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.run = 0;
    this.trace = null;
    this.settledPromise = Promise.resolve();
    loadCss(new URL("./encode.css", import.meta.url)); // the shared control classes
    loadCss(new URL("./pipeline.css", import.meta.url));
    this.build();
  }

  build() {
    const head = el("header", "pipe-head");
    head.append(el("h2", "", t("pipe.title")), el("p", "hint", t("pipe.intro")));
    const controls = el("div", "enc-controls pipe-controls");
    const pick = el("label", "enc-field");
    pick.append(el("span", "enc-label", t("pipe.tokenizer")));
    this.select = el("select", "enc-select");
    this.select.dataset.testid = "pipeline-tokenizer";
    for (const p of this.context.manifest.presets || []) {
      const option = el("option", "", p.label);
      option.value = p.id;
      option.disabled = !p.file;
      this.select.append(option);
    }
    pick.append(this.select);
    const field = el("label", "enc-field enc-text-field");
    field.append(el("span", "enc-label", t("pipe.text")));
    this.input = el("input", "enc-text");
    this.input.type = "text";
    this.input.spellcheck = false;
    this.input.dataset.testid = "pipeline-text";
    field.append(this.input);
    controls.append(pick, field);
    this.status = el("p", "enc-status");
    this.status.dataset.testid = "pipeline-status";
    this.status.setAttribute("role", "status");
    this.playerBox = el("div", "enc-player");
    this.stage = el("div", "pipe-stages");
    this.stage.dataset.testid = "pipeline-stages";
    this.root.replaceChildren(head, controls, this.status, this.playerBox, this.stage);
    this.select.addEventListener("change", () => {
      this.context.urlState.set({ tokenizer: this.select.value, step: null });
      this.load(0);
    });
    let timer = 0;
    this.input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.context.urlState.set({ text: this.input.value, step: null });
        this.load(this.context.player.k);
      }, 250);
    });
  }

  activate() {
    const url = this.context.urlState;
    this.context.placePlayer(this.playerBox);
    const wanted = url.get("tokenizer", "bert-base-uncased");
    this.select.value = PRESETS.includes(wanted) ? wanted : "bert-base-uncased";
    this.input.value = url.get("text", DEFAULT_TEXT);
    this.load(Number(url.get("step", String(STAGES.length - 1))) || 0);
  }

  deactivate() { this.run++; this.context.player.pause(); }

  settled() { return this.settledPromise; }

  say(key, params) {
    this.status.textContent = key ? t(key, params) : "";
    this.status.hidden = !key;
  }

  load(step) {
    const run = ++this.run;
    this.settledPromise = this.go(run, step).catch((error) => {
      if (run !== this.run) return;
      this.say("pipe.error", { message: error.message || String(error) });
      this.stage.replaceChildren();
      this.context.player.load({ length: 0, render: () => {}, narrate: () => "" });
    });
    return this.settledPromise;
  }

  async go(run, step) {
    const { engine, player } = this.context;
    if (engine.stage !== "ready") this.say("pipe.waiting");
    await engine.ready;
    if (run !== this.run) return;
    this.say("pipe.loading");
    const key = this.select.value;
    const info = await loadTokenizer(this.context, key);
    if (run !== this.run) return;
    const text = this.input.value;
    if (!text) {
      this.say("pipe.empty");
      this.stage.replaceChildren();
      player.load({ length: 0, render: () => {}, narrate: () => "" });
      return;
    }
    const trace = await traceEncode(engine, key, text);
    if (run !== this.run) return;
    this.say(null);
    this.model = digest(trace, info);
    player.load({ length: STAGES.length - 1, render: (k) => this.render(k), narrate: (k) => this.narrate(k) }, step);
    await new Promise((resolve) => requestAnimationFrame(resolve)); // the player draws in this frame
  }

  render(k) {
    const sections = STAGES.map((name, i) => {
      const box = el("section", `pipe-stage ${i <= k ? "shown" : "later"}`);
      box.dataset.testid = `pipeline-${name}`;
      box.dataset.stage = name;
      if (i === k) box.setAttribute("aria-current", "step");
      box.append(el("h3", "enc-h", t(`pipe.stage.${name}`)));
      if (i <= k) box.append(...this[`draw_${name}`]());
      else box.append(el("p", "hint", t("pipe.later")));
      return box;
    });
    this.stage.replaceChildren(...sections);
  }

  draw_input() {
    const box = el("div", "pipe-text");
    box.dataset.testid = "input-text";
    box.textContent = visible(this.model.text);
    return [box];
  }

  draw_normalize() {
    const m = this.model;
    if (!m.normalize.length) return [el("p", "hint", t("pipe.noNormalizer"))];
    const out = [];
    const grid = el("div", "pipe-align");
    grid.setAttribute("role", "list");
    grid.setAttribute("aria-label", t("pipe.alignment"));
    for (const column of m.columns) {
      const col = el("div", `pipe-col ${column.kind}`);
      col.setAttribute("role", "listitem");
      col.dataset.testid = "norm-col";
      col.dataset.kind = column.kind;
      col.dataset.before = column.before;
      col.dataset.after = column.after;
      col.append(el("span", "pipe-before", visible(column.before) || "\u00a0"));
      col.append(el("span", "pipe-link", KIND_MARK[column.kind]));
      col.append(el("span", "pipe-after", visible(column.after) || "\u00a0"));
      grid.append(col);
    }
    const rows = el("div", "pipe-align-wrap");
    const labels = el("div", "pipe-row-labels");
    labels.setAttribute("aria-hidden", "true");
    labels.append(el("span", "", t("pipe.before")), el("span", "", "\u00a0"), el("span", "", t("pipe.after")));
    rows.append(labels, grid);
    out.push(rows);
    const legend = el("ul", "pipe-legend");
    for (const kind of ["same", "changed", "removed", "added"]) legend.append(el("li", kind, t(`pipe.legend.${kind}`)));
    out.push(legend);
    const result = el("p", "pipe-normalized");
    result.append(el("span", "", t("pipe.normalized")), " ");
    const code = el("code", "", visible(m.normalized));
    code.dataset.testid = "normalized-text";
    code.dataset.text = m.normalized;
    result.append(code);
    out.push(result, el("p", "hint", t("pipe.alignment")));
    return out;
  }

  draw_pretokenize() {
    const m = this.model;
    const list = el("ol", "pipe-pieces");
    const marks = new Set();
    let last = 0;
    const chars = Array.from(m.text);
    for (const piece of m.pieces) {
      const [start, end] = piece.offsets;
      if (chars.slice(last, start).some((ch) => /\s/.test(ch))) marks.add("gap");
      last = end;
      const item = el("li", `pipe-piece${piece.added ? " added" : ""}`);
      item.dataset.testid = "pretoken";
      item.dataset.text = piece.text;
      item.dataset.start = String(start);
      item.dataset.end = String(end);
      const shown = el("code", "pipe-piece-text");
      for (const ch of Array.from(piece.text)) {
        if (ch === "Ġ" && m.byteLevel) { marks.add("G"); shown.append(el("span", "mark", ch)); }
        else if (ch === "▁") { marks.add("meta"); shown.append(el("span", "mark", ch)); }
        else if (/[ \n\t\r]/.test(ch)) { marks.add("space"); shown.append(el("span", "mark", visible(ch))); }
        else shown.append(ch);
      }
      item.append(shown);
      item.append(el("span", "pipe-offsets", t("pipe.offsets", { start, end })));
      item.append(el("span", "pipe-orig", t("pipe.original", { text: visible(chars.slice(start, end).join("")) })));
      if (piece.added) item.append(el("span", "pipe-orig", t("pipe.addedToken")));
      list.append(item);
    }
    if (chars.slice(last).some((ch) => /\s/.test(ch))) marks.add("gap");
    const notes = el("ul", "pipe-marks");
    for (const mark of ["space", "G", "meta", "gap"]) if (marks.has(mark)) notes.append(el("li", "", t(`pipe.mark.${mark}`)));
    return notes.childElementCount ? [list, notes] : [list];
  }

  draw_model() {
    const m = this.model;
    const list = el("ol", "pipe-model");
    for (const word of m.words) {
      const item = el("li", "pipe-model-word");
      item.append(el("code", "pipe-piece-text", visible(word.text)), el("span", "pipe-arrow", "→"));
      for (const [value, id] of word.tokens) item.append(tokenChip(value, id, m.info, { testid: "model-token" }));
      list.append(item);
    }
    return [list];
  }

  draw_post() {
    const m = this.model;
    const row = el("div", "pipe-final");
    m.final.tokens.forEach((token, i) => {
      const added = Boolean(m.final.added_by_post_processor?.[i]);
      const chip = tokenChip(token, m.final.ids[i], m.info, { testid: "final-token", special: added || Boolean(m.final.special_tokens_mask?.[i]) });
      if (added) {
        chip.dataset.added = "true";
        chip.title = t("pipe.addedByPost");
        chip.append(el("span", "pipe-added-note", t("pipe.addedByPost")));
      }
      row.append(chip);
    });
    return [row];
  }

  narrate(k) {
    const m = this.model;
    if (!m) return "";
    const stage = STAGES[k];
    if (stage === "input") return t("pipe.narr.input", { n: Array.from(m.text).length });
    if (stage === "normalize") {
      if (!m.normalize.length) return t("pipe.narr.noNormalizer");
      const count = (kind) => m.columns.filter((c) => c.kind === kind).length;
      return t("pipe.narr.normalize", { changed: count("changed"), removed: count("removed"), added: count("added") });
    }
    if (stage === "pretokenize") return t("pipe.narr.pretokenize", { n: m.pieces.length });
    if (stage === "model") return t("pipe.narr.model", { n: m.words.reduce((s, w) => s + w.tokens.length, 0) });
    const added = (m.final.added_by_post_processor || []).filter(Boolean).length;
    return t("pipe.narr.post", { n: m.final.ids.length, added });
  }
}

// What the stages need, computed once per trace (render only draws).
function digest(trace, info) {
  const model = { text: trace.text, info, byteLevel: Boolean(info.byte_level), normalize: [], pieces: [],
    words: [], final: { ids: trace.ids, tokens: trace.tokens } };
  for (const e of trace.events) {
    if (e.sequence !== undefined && e.sequence !== 0) continue; // the pair is not shown here
    if (e.type === "normalize") model.normalize.push(e);
    else if (e.type === "pre_tokenize") model.pieces = e.pieces;
    else if (e.type === "model_piece") model.words.push({ text: e.text, tokens: [] });
    else if (e.type.endsWith(".done") && model.words.length) model.words[model.words.length - 1].tokens = e.tokens;
    else if (e.type === "encoding") model.final = e;
  }
  // Text between normalize events (added tokens) is kept as it is.
  model.columns = model.normalize.flatMap((e) => alignColumns(e, trace.text));
  model.normalized = model.normalize.map((e) => e.after).join("");
  return model;
}

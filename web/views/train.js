// The train view (view=train): an options form, training in a worker of its own
// (web/trainer.js, so Cancel works at any moment), and the run shown step by step with
// the shared player. BPE and WordPiece are drawn by train-merges.js; Unigram by
// train-unigram.js (createUnigramTrainRenderer(context) -> {show(events, k), timeline(events)}).
//
// URL: view=train&algo=..&corpus=..&vocab_size=..&tie_break=..&method=..&step=k. A link
// with algo or corpus trains at once (the course presets take a moment) and opens step k.
import { t, register } from "../i18n/index.js";
import { Trainer, TrainingCancelled } from "../lib/trainer.js";
import { precomputed } from "../lib/precomputed.js";
import { el, loadCss } from "../lib/dom.js";
import { MergesRenderer } from "./train/merges.js";

precomputed.warm(); // the index is tiny; fetch it while the view is being built

register({
  en: {
    "train.title": "Train a tokenizer",
    "train.intro": "Choose a corpus and an algorithm, then watch the vocabulary being learned one step at a time.",
    "train.form": "Training options",
    "train.corpus.label": "Corpus",
    "train.corpus.course-toy": "Course toy corpus (hug, pug, pun, bun, hugs)",
    "train.corpus.course-sentences": "Course sentences (4 sentences)",
    "train.corpus.botchan": "Botchan (a novel, 280 KB)",
    "train.corpus.custom": "Your own text",
    "train.algo.label": "Algorithm",
    "train.algo.bpe": "BPE", "train.algo.wordpiece": "WordPiece", "train.algo.unigram": "Unigram",
    "train.vocab.label": "Vocabulary size",
    "train.tie.label": "When pairs tie",
    "train.tie.optionHf": "hf: smallest ids", "train.tie.optionFirst": "first: first in the corpus",
    "train.tie.helpHf": "hf: the pair whose token ids are smallest wins, as Hugging Face tokenizers does.",
    "train.tie.helpFirst": "first: the pair that appears first in the corpus wins, as the course's code does.",
    "train.tie.usedHf": "Ties were broken by smallest ids (hf).",
    "train.tie.usedFirst": "Ties were broken by first occurrence in the corpus (first).",
    "train.method.label": "Unigram method",
    "train.method.em": "em: SentencePiece's EM", "train.method.exact": "exact: the course's trainer",
    "train.method.help": "em estimates probabilities with expectation–maximisation; exact recomputes the loss for every token, as the course does.",
    "train.text.label": "Text to train on",
    "train.text.placeholder": "Type or paste text here, or drop a .txt file.",
    "train.text.file": "Or choose a .txt file",
    "train.text.drop": "You can also drop a .txt file on this box.",
    "train.text.loaded": "Loaded {name} ({n} characters).",
    "train.text.tooBig": "{name} is too large (at most 20 MB).",
    "train.train": "Train", "train.cancel": "Cancel",
    "train.status.python": "Python is starting…",
    "train.status.idle": "Choose the options and press Train.",
    "train.status.starting": "Starting the training worker…",
    "train.status.training": "Training…",
    "train.status.cancelled": "Training was cancelled after {n} steps. You can change the options and train again.",
    "train.status.done": "Done: {steps} steps, {size} tokens in the vocabulary ({seconds} s).",
    "train.error": "Training failed: {message}",
    "train.error.noBotchan": "botchan.txt is missing from this build.",
    "train.use": "Use in Tokenize", "train.download": "Download tokenizer.json",
    "train.used": "{name} is now in the tokenizer picker.",
    "train.summary": "{algo} on {corpus}: {size} tokens.",
    "train.unigram.coming": "The Unigram training view is coming soon.",
    "train.quote": "‘{s}’",
    "train.words.title": "Corpus words and their current split",
    "train.words.hintStart": "{n} distinct words, split into their first tokens.",
    "train.words.hintStep": "{n} distinct words. Words changed by this merge are marked ◆.",
    "train.words.hintChanged": "{n} distinct words; this merge changed {changed} of them (marked ◆).",
    "train.words.changed": "changed by this merge",
    "train.pairs.title": "Pair table",
    "train.pairs.titleNext": "Pairs before the first merge",
    "train.pairs.titleStep": "Pairs counted for step {step}",
    "train.pairs.pair": "Pair", "train.pairs.count": "Count", "train.pairs.score": "Score",
    "train.pairs.result": "Result",
    "train.pairs.winner": "✓ merged into {token}",
    "train.pairs.nextWinner": "→ will be merged into {token}",
    "train.pairs.tiedLost": "tied, lost",
    "train.tie.none": "No tie: the winner had the best value alone.",
    "train.tie.text": "Tie: {winner} and {pairs} had the same value. {rule}",
    "train.tie.textMore": "Tie: {winner}, {pairs} and possibly more had the same value. {rule}",
    "train.tie.first": "Rule “first”: the pair that appears first in the corpus won.",
    "train.tie.hf": "Rule “hf”: the pair with the smallest token ids won.",
    "train.vocab.title": "Learned tokens, in order",
    "train.vocab.note": "{n} learned tokens; vocabulary size {size}.",
    "train.vocab.noteWindow": "{n} learned tokens (the latest {shown} shown); vocabulary size {size}.",
    "train.alphabet.summary": "Starting vocabulary: {specials} special tokens and {n} characters",
    "train.chart.title": "Vocabulary size against corpus length",
    "train.chart.x": "vocabulary size", "train.chart.y": "corpus in tokens",
    "train.chart.now": "Now: {size} tokens in the vocabulary, the corpus is {tokens} tokens long.",
    "train.narrate.start": "Start: {words} distinct words, a vocabulary of {size} tokens, the corpus is {tokens} tokens long. {total} merges follow.",
    "train.narrate.merge": "Step {step} of {total}: merged {left} + {right} into {token} ({count} times in the corpus).",
    "train.narrate.score": "Score {score}.",
    "train.narrate.notNew": "That token was already in the vocabulary, so it did not grow.",
    "train.narrate.tie": "{n} pairs tied; the tie-break rule chose this one.",
  },
  vi: {
    "train.title": "Huấn luyện một bộ tách từ",
    "train.intro": "Chọn kho ngữ liệu và thuật toán, rồi xem bộ từ vựng được học từng bước một.",
    "train.form": "Tùy chọn huấn luyện",
    "train.corpus.label": "Kho ngữ liệu",
    "train.corpus.course-toy": "Kho ngữ liệu nhỏ của khóa học (hug, pug, pun, bun, hugs)",
    "train.corpus.course-sentences": "Các câu của khóa học (4 câu)",
    "train.corpus.botchan": "Botchan (một cuốn tiểu thuyết, 280 KB)",
    "train.corpus.custom": "Văn bản của bạn",
    "train.algo.label": "Thuật toán",
    "train.algo.bpe": "BPE", "train.algo.wordpiece": "WordPiece", "train.algo.unigram": "Unigram",
    "train.vocab.label": "Kích thước từ vựng",
    "train.tie.label": "Khi các cặp hòa nhau",
    "train.tie.optionHf": "hf: id nhỏ nhất", "train.tie.optionFirst": "first: xuất hiện trước trong kho",
    "train.tie.helpHf": "hf: cặp có id token nhỏ nhất thắng, như thư viện tokenizers của Hugging Face.",
    "train.tie.helpFirst": "first: cặp xuất hiện trước nhất trong kho ngữ liệu thắng, như mã của khóa học.",
    "train.tie.usedHf": "Khi hòa, cặp có id nhỏ nhất được chọn (hf).",
    "train.tie.usedFirst": "Khi hòa, cặp xuất hiện trước trong kho được chọn (first).",
    "train.method.label": "Phương pháp Unigram",
    "train.method.em": "em: EM của SentencePiece", "train.method.exact": "exact: bộ huấn luyện của khóa học",
    "train.method.help": "em ước lượng xác suất bằng thuật toán kỳ vọng–cực đại; exact tính lại mất mát cho từng token, như khóa học.",
    "train.text.label": "Văn bản để huấn luyện",
    "train.text.placeholder": "Gõ hoặc dán văn bản vào đây, hoặc thả một tệp .txt.",
    "train.text.file": "Hoặc chọn một tệp .txt",
    "train.text.drop": "Bạn cũng có thể thả một tệp .txt vào ô này.",
    "train.text.loaded": "Đã tải {name} ({n} ký tự).",
    "train.text.tooBig": "{name} quá lớn (tối đa 20 MB).",
    "train.train": "Huấn luyện", "train.cancel": "Hủy",
    "train.status.python": "Python đang khởi động…",
    "train.status.idle": "Chọn các tùy chọn rồi nhấn Huấn luyện.",
    "train.status.starting": "Đang khởi động tiến trình huấn luyện…",
    "train.status.training": "Đang huấn luyện…",
    "train.status.cancelled": "Đã hủy huấn luyện sau {n} bước. Bạn có thể đổi tùy chọn và huấn luyện lại.",
    "train.status.done": "Xong: {steps} bước, từ vựng có {size} token ({seconds} giây).",
    "train.error": "Huấn luyện thất bại: {message}",
    "train.error.noBotchan": "Bản dựng này thiếu tệp botchan.txt.",
    "train.use": "Dùng trong Tách từ", "train.download": "Tải tokenizer.json",
    "train.used": "{name} đã có trong danh sách bộ tách từ.",
    "train.summary": "{algo} trên {corpus}: {size} token.",
    "train.unigram.coming": "Màn hình huấn luyện Unigram sẽ sớm có.",
    "train.quote": "‘{s}’",
    "train.words.title": "Các từ trong kho và cách tách hiện tại",
    "train.words.hintStart": "{n} từ khác nhau, tách thành các token ban đầu.",
    "train.words.hintStep": "{n} từ khác nhau. Các từ bị phép gộp này thay đổi được đánh dấu ◆.",
    "train.words.hintChanged": "{n} từ khác nhau; phép gộp này thay đổi {changed} từ (đánh dấu ◆).",
    "train.words.changed": "bị phép gộp này thay đổi",
    "train.pairs.title": "Bảng các cặp",
    "train.pairs.titleNext": "Các cặp trước phép gộp đầu tiên",
    "train.pairs.titleStep": "Các cặp được đếm ở bước {step}",
    "train.pairs.pair": "Cặp", "train.pairs.count": "Số lần", "train.pairs.score": "Điểm",
    "train.pairs.result": "Kết quả",
    "train.pairs.winner": "✓ gộp thành {token}",
    "train.pairs.nextWinner": "→ sẽ được gộp thành {token}",
    "train.pairs.tiedLost": "hòa, bị loại",
    "train.tie.none": "Không hòa: cặp thắng có giá trị tốt nhất một mình.",
    "train.tie.text": "Hòa: {winner} và {pairs} có cùng giá trị. {rule}",
    "train.tie.textMore": "Hòa: {winner}, {pairs} và có thể cả những cặp khác có cùng giá trị. {rule}",
    "train.tie.first": "Quy tắc “first”: cặp xuất hiện trước trong kho ngữ liệu thắng.",
    "train.tie.hf": "Quy tắc “hf”: cặp có id token nhỏ nhất thắng.",
    "train.vocab.title": "Các token đã học, theo thứ tự",
    "train.vocab.note": "{n} token đã học; kích thước từ vựng {size}.",
    "train.vocab.noteWindow": "{n} token đã học (hiển thị {shown} token gần nhất); kích thước từ vựng {size}.",
    "train.alphabet.summary": "Từ vựng ban đầu: {specials} token đặc biệt và {n} ký tự",
    "train.chart.title": "Kích thước từ vựng so với độ dài kho ngữ liệu",
    "train.chart.x": "kích thước từ vựng", "train.chart.y": "số token của kho",
    "train.chart.now": "Hiện tại: từ vựng có {size} token, kho ngữ liệu dài {tokens} token.",
    "train.narrate.start": "Bắt đầu: {words} từ khác nhau, từ vựng {size} token, kho ngữ liệu dài {tokens} token. Tiếp theo là {total} phép gộp.",
    "train.narrate.merge": "Bước {step}/{total}: gộp {left} + {right} thành {token} ({count} lần trong kho ngữ liệu).",
    "train.narrate.score": "Điểm {score}.",
    "train.narrate.notNew": "Token này đã có trong từ vựng nên từ vựng không tăng.",
    "train.narrate.tie": "{n} cặp hòa nhau; quy tắc phá hòa đã chọn cặp này.",
  },
  zh: {
    "train.title": "训练分词器",
    "train.intro": "选择语料和算法，然后逐步观察词表是如何学出来的。",
    "train.form": "训练选项",
    "train.corpus.label": "语料",
    "train.corpus.course-toy": "课程的小语料（hug、pug、pun、bun、hugs）",
    "train.corpus.course-sentences": "课程的句子（4 句）",
    "train.corpus.botchan": "《哥儿》（一部小说，280 KB）",
    "train.corpus.custom": "你自己的文本",
    "train.algo.label": "算法",
    "train.algo.bpe": "BPE", "train.algo.wordpiece": "WordPiece", "train.algo.unigram": "Unigram",
    "train.vocab.label": "词表大小",
    "train.tie.label": "得分相同时",
    "train.tie.optionHf": "hf：编号最小", "train.tie.optionFirst": "first：语料中最先出现",
    "train.tie.helpHf": "hf：词元编号最小的那一对胜出，与 Hugging Face tokenizers 相同。",
    "train.tie.helpFirst": "first：在语料中最先出现的那一对胜出，与课程代码相同。",
    "train.tie.usedHf": "平局按编号最小处理（hf）。",
    "train.tie.usedFirst": "平局按语料中首次出现的顺序处理（first）。",
    "train.method.label": "Unigram 方法",
    "train.method.em": "em：SentencePiece 的 EM", "train.method.exact": "exact：课程的训练方法",
    "train.method.help": "em 用期望最大化估计概率；exact 像课程那样为每个词元重新计算损失。",
    "train.text.label": "用于训练的文本",
    "train.text.placeholder": "在这里输入或粘贴文本，或拖入一个 .txt 文件。",
    "train.text.file": "或选择一个 .txt 文件",
    "train.text.drop": "也可以把 .txt 文件拖到这个框里。",
    "train.text.loaded": "已载入 {name}（{n} 个字符）。",
    "train.text.tooBig": "{name} 太大（最多 20 MB）。",
    "train.train": "训练", "train.cancel": "取消",
    "train.status.python": "Python 正在启动…",
    "train.status.idle": "选好选项后按“训练”。",
    "train.status.starting": "正在启动训练进程…",
    "train.status.training": "正在训练…",
    "train.status.cancelled": "训练在 {n} 步后已取消。可以修改选项后重新训练。",
    "train.status.done": "完成：{steps} 步，词表共 {size} 个词元（{seconds} 秒）。",
    "train.error": "训练失败：{message}",
    "train.error.noBotchan": "此版本缺少 botchan.txt。",
    "train.use": "在分词中使用", "train.download": "下载 tokenizer.json",
    "train.used": "{name} 已加入分词器列表。",
    "train.summary": "{algo}，语料：{corpus}，共 {size} 个词元。",
    "train.unigram.coming": "Unigram 训练视图即将推出。",
    "train.quote": "“{s}”",
    "train.words.title": "语料中的词及其当前切分",
    "train.words.hintStart": "{n} 个不同的词，切分为初始词元。",
    "train.words.hintStep": "{n} 个不同的词。被这次合并改变的词标有 ◆。",
    "train.words.hintChanged": "{n} 个不同的词；这次合并改变了其中 {changed} 个（标有 ◆）。",
    "train.words.changed": "被这次合并改变",
    "train.pairs.title": "词元对表",
    "train.pairs.titleNext": "第一次合并之前的词元对",
    "train.pairs.titleStep": "第 {step} 步统计的词元对",
    "train.pairs.pair": "词元对", "train.pairs.count": "次数", "train.pairs.score": "得分",
    "train.pairs.result": "结果",
    "train.pairs.winner": "✓ 合并为 {token}",
    "train.pairs.nextWinner": "→ 将合并为 {token}",
    "train.pairs.tiedLost": "并列，落选",
    "train.tie.none": "没有并列：胜出的词元对独占最佳值。",
    "train.tie.text": "并列：{winner} 与 {pairs} 的值相同。{rule}",
    "train.tie.textMore": "并列：{winner}、{pairs}，可能还有其他词元对的值相同。{rule}",
    "train.tie.first": "规则 “first”：在语料中最先出现的词元对胜出。",
    "train.tie.hf": "规则 “hf”：词元编号最小的词元对胜出。",
    "train.vocab.title": "按学习顺序排列的新词元",
    "train.vocab.note": "已学到 {n} 个词元；词表大小 {size}。",
    "train.vocab.noteWindow": "已学到 {n} 个词元（显示最近的 {shown} 个）；词表大小 {size}。",
    "train.alphabet.summary": "初始词表：{specials} 个特殊词元和 {n} 个字符",
    "train.chart.title": "词表大小与语料长度的关系",
    "train.chart.x": "词表大小", "train.chart.y": "语料词元数",
    "train.chart.now": "当前：词表有 {size} 个词元，语料长 {tokens} 个词元。",
    "train.narrate.start": "开始：{words} 个不同的词，词表有 {size} 个词元，语料长 {tokens} 个词元。接下来共 {total} 次合并。",
    "train.narrate.merge": "第 {step} 步（共 {total} 步）：把 {left} + {right} 合并为 {token}（在语料中出现 {count} 次）。",
    "train.narrate.score": "得分 {score}。",
    "train.narrate.notNew": "这个词元已在词表中，所以词表没有变大。",
    "train.narrate.tie": "{n} 个词元对并列；由平局规则选中了这一对。",
  },
});

const ALGOS = ["bpe", "wordpiece", "unigram"];
const CORPORA = ["course-toy", "course-sentences", "botchan", "custom"];
const MAX_FILE = 20 * 1024 * 1024;


function field(labelKey, control, hintText) {
  const wrap = el("div", "train-field");
  const label = el("label", "train-label");
  label.append(el("span", "", t(labelKey)), control);
  wrap.append(label);
  if (hintText) wrap.append(el("p", "hint", hintText));
  return wrap;
}

function select(testid, options) {
  const s = el("select");
  s.dataset.testid = testid;
  for (const [value, key] of options) {
    const o = el("option", "", t(key));
    o.value = value;
    s.append(o);
  }
  return s;
}

class TrainView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.url = context.urlState;
    this.trainer = context.trainer || new Trainer(); // <subword-lab> shares one per page
    this.info = null;          // corpus_info from Python: defaults per corpus and algorithm
    this.events = [];
    this.result = null;
    this.usedKeys = 0;
    this.waiters = [];
    this.busy = false;
    loadCss(new URL("./train.css", import.meta.url));
    this.build();
  }

  // ------------------------------------------------------------------ form
  build() {
    const root = this.root;
    root.replaceChildren();
    root.classList.add("train-view");
    const title = el("h2", "view-title", t("train.title"));
    const intro = el("p", "hint train-intro", t("train.intro"));
    const form = el("form", "train-form");
    form.setAttribute("aria-label", t("train.form"));
    form.addEventListener("submit", (e) => { e.preventDefault(); this.train(); });

    this.corpus = select("train-corpus", CORPORA.map((c) => [c, `train.corpus.${c}`]));
    this.algo = select("train-algo", ALGOS.map((a) => [a, `train.algo.${a}`]));
    this.vocab = el("input");
    this.vocab.type = "number";
    this.vocab.min = "1";
    this.vocab.max = "100000";
    this.vocab.dataset.testid = "train-vocab-size";
    this.tie = select("train-tie-break", [["hf", "train.tie.optionHf"], ["first", "train.tie.optionFirst"]]);
    this.method = select("train-method", [["em", "train.method.em"], ["exact", "train.method.exact"]]);

    this.textBox = el("textarea", "train-text");
    this.textBox.dataset.testid = "train-text";
    this.textBox.rows = 5;
    this.textBox.placeholder = t("train.text.placeholder");
    this.fileInput = el("input");
    this.fileInput.type = "file";
    this.fileInput.accept = ".txt,text/plain";
    this.fileInput.dataset.testid = "train-file";
    this.fileInput.addEventListener("change", () => {
      if (this.fileInput.files.length) this.readFile(this.fileInput.files[0]);
    });
    this.customBox = el("div", "train-custom");
    const drop = el("p", "hint", t("train.text.drop"));
    const fileLabel = el("label", "train-file-label");
    fileLabel.append(el("span", "", t("train.text.file")), this.fileInput);
    this.customBox.append(field("train.text.label", this.textBox), fileLabel, drop);
    this.bindDrop(this.customBox);

    this.tieField = field("train.tie.label", this.tie);
    const tieHelp = el("ul", "hint train-tie-help");
    tieHelp.append(el("li", "", t("train.tie.helpHf")), el("li", "", t("train.tie.helpFirst")));
    this.tieField.append(tieHelp);
    this.methodField = field("train.method.label", this.method, t("train.method.help"));

    this.trainButton = el("button", "button primary", t("train.train"));
    this.trainButton.type = "submit";
    this.trainButton.dataset.testid = "train-button";
    this.cancelButton = el("button", "button", t("train.cancel"));
    this.cancelButton.type = "button";
    this.cancelButton.dataset.testid = "train-cancel";
    this.cancelButton.disabled = true;
    this.cancelButton.addEventListener("click", () => this.cancel());
    const buttons = el("div", "train-buttons");
    buttons.append(this.trainButton, this.cancelButton);

    const row = el("div", "train-form-row");
    row.append(field("train.corpus.label", this.corpus), field("train.algo.label", this.algo),
      field("train.vocab.label", this.vocab), this.tieField, this.methodField);
    form.append(row, this.customBox, buttons);

    this.status = el("p", "train-status");
    this.status.dataset.testid = "train-status";
    this.status.setAttribute("role", "status");
    this.error = el("p", "train-error");
    this.error.dataset.testid = "train-error";
    this.error.setAttribute("role", "alert");

    this.actions = el("div", "train-actions");
    this.actions.hidden = true;
    this.useButton = el("button", "button", t("train.use"));
    this.useButton.type = "button";
    this.useButton.dataset.testid = "train-use";
    this.useButton.addEventListener("click", () => this.useInTokenize());
    this.download = el("a", "button", t("train.download"));
    this.download.dataset.testid = "train-download";
    this.summary = el("p", "hint train-summary");
    this.summary.dataset.testid = "train-summary";
    this.actions.append(this.useButton, this.download, this.summary);

    this.playerBox = el("div", "train-player");
    this.stage = el("div", "train-stage");
    this.merges = new MergesRenderer(this.stage);
    this.unigramBox = el("div", "train-unigram");
    this.stage.append(this.unigramBox);

    root.append(title, intro, form, this.status, this.error, this.actions, this.playerBox, this.stage);

    this.corpus.addEventListener("change", () => this.optionsChanged(true));
    this.algo.addEventListener("change", () => this.optionsChanged(true));
    this.updateFields();
  }

  bindDrop(zone) {
    zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("dragging"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("dragging");
      const file = e.dataTransfer?.files?.[0];
      if (file) this.readFile(file);
    });
  }

  async readFile(file) {
    if (file.size > MAX_FILE) { this.showError(t("train.text.tooBig", { name: file.name })); return; }
    this.textBox.value = await file.text();
    this.showError("");
    this.status.textContent = t("train.text.loaded", { name: file.name, n: this.textBox.value.length });
  }

  defaults(corpus = this.corpus.value, algo = this.algo.value) {
    const entry = this.info?.corpora.find((c) => c.id === corpus);
    return entry ? entry.defaults[algo] : null;
  }

  // A new corpus or algorithm: its own default size and rule (computed in Python).
  optionsChanged(resetValues) {
    const d = this.defaults();
    if (resetValues && d) {
      this.vocab.value = String(d.vocab_size);
      if (d.tie_break) this.tie.value = d.tie_break;
      if (d.method) this.method.value = d.method;
    }
    this.updateFields();
  }

  updateFields() {
    const algo = this.algo.value;
    this.tieField.hidden = algo === "unigram";
    this.methodField.hidden = algo !== "unigram";
    this.customBox.hidden = this.corpus.value !== "custom";
  }

  // ------------------------------------------------------------------ view lifecycle
  async activate() {
    this.active = true;
    this.context.placePlayer(this.loadedTimeline ? this.playerBox : null);
    if (this.started) return;
    this.started = true;
    this.status.textContent = t("train.status.python");
    try {
      this.info = await this.corpusInfo();
    } catch (error) {
      this.showError(t("train.error", { message: error.message }));
      return;
    }
    this.status.textContent = "";
    const get = (key) => this.url.get(key);
    const linked = get("algo") !== null || get("corpus") !== null;
    if (ALGOS.includes(get("algo"))) this.algo.value = get("algo");
    if (CORPORA.includes(get("corpus"))) this.corpus.value = get("corpus");
    this.optionsChanged(true);
    if (get("vocab_size") && /^\d+$/.test(get("vocab_size"))) this.vocab.value = get("vocab_size");
    if (["hf", "first"].includes(get("tie_break"))) this.tie.value = get("tie_break");
    if (["em", "exact"].includes(get("method"))) this.method.value = get("method");
    const step = get("step");
    if (linked && this.corpus.value !== "custom") await this.train({ step: step === null ? null : Number(step) });
    else this.status.textContent = t("train.status.idle");
    // Start the training worker now, not before: a precomputed run is drawn first, and
    // booting a second Python would compete with it for the processor.
    this.trainer.warm();
    this.resolveWaiters();
  }

  // The form's defaults: stored at build time when available, so a course link plays
  // before Python is ready (tools/precompute.py makes the same call).
  async corpusInfo() {
    const stored = await precomputed.lookup("corpus_info", {});
    if (stored) return stored.result;
    await this.context.engine.ready;
    return this.context.engine.request("call", { name: "corpus_info", args: {} });
  }

  deactivate() {
    this.active = false;
    this.context.player.pause();
  }

  // Resolves when no training is running and the requested step is drawn.
  settled() {
    if (!this.busy && this.started && this.info) return Promise.resolve(true);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  resolveWaiters() {
    if (this.busy) return;
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((fn) => fn(true));
  }

  // ------------------------------------------------------------------ training
  args() {
    const args = {
      algo: this.algo.value, corpus: this.corpus.value,
      vocab_size: Number(this.vocab.value) || undefined,
    };
    if (args.algo === "unigram") args.method = this.method.value;
    else args.tie_break = this.tie.value;
    return args;
  }

  async corpusText(corpus) {
    if (corpus === "custom") return this.textBox.value;
    if (corpus !== "botchan") return undefined;
    const entry = (this.context.manifest.corpora || []).find((c) => c.id === "botchan");
    if (!entry || !entry.file) throw new Error(t("train.error.noBotchan"));
    if (!this.botchan) {
      this.botchan = fetch(new URL(`../${entry.file}`, import.meta.url)).then((r) => {
        if (!r.ok) throw new Error(`${entry.file}: HTTP ${r.status}`);
        return r.text();
      });
      this.botchan.catch(() => { this.botchan = null; });
    }
    return this.botchan;
  }

  async train({ step = null } = {}) {
    const args = this.args();
    this.url.set({ algo: args.algo, corpus: args.corpus, vocab_size: args.vocab_size,
      tie_break: args.tie_break ?? null, method: args.method ?? null, step: null });
    this.busy = true;
    this.showError("");
    this.actions.hidden = true;
    this.result = null;
    this.events = [];
    this.cancelButton.disabled = false;
    this.trainButton.disabled = true;
    this.status.textContent = this.trainer.stage === "ready" ? t("train.status.training") : t("train.status.starting");
    const runId = (this.runId = (this.runId || 0) + 1);
    const renderer = await this.rendererFor(args.algo);
    try {
      const text = await this.corpusText(args.corpus);
      if (text !== undefined) args.text = text;
      // A course preset at its default options was trained at build time by the same
      // Python code: its stored events and result are what this run would give.
      const stored = text === undefined ? await precomputed.lookup("train", args) : null;
      if (runId !== this.runId) return;
      renderer.begin();
      if (stored) renderer.add(stored.events);
      const result = stored ? stored.result : await this.trainer.run(args, (batch) => {
        if (runId !== this.runId) return;
        if (this.status.textContent === t("train.status.starting")) this.status.textContent = t("train.status.training");
        renderer.add(batch);
      });
      if (runId !== this.runId) return;
      this.finished(result, renderer, step);
    } catch (error) {
      if (runId !== this.runId) return;
      if (error instanceof TrainingCancelled || error.kind === "cancelled") {
        this.status.textContent = t("train.status.cancelled", { n: renderer.length() });
      } else {
        this.status.textContent = "";
        this.showError(t("train.error", { message: error.message }));
      }
      renderer.stopped();
    } finally {
      if (runId === this.runId) {
        this.busy = false;
        this.cancelButton.disabled = true;
        this.trainButton.disabled = false;
        this.resolveWaiters();
      }
    }
  }

  cancel() {
    if (!this.busy) return;
    this.trainer.cancel();
  }

  finished(result, renderer, step) {
    this.result = result;
    const s = result.summary;
    this.status.textContent = t("train.status.done", { steps: s.steps, size: s.vocab_size, seconds: s.seconds.toFixed(2) });
    this.summary.textContent = this.ruleText(s);
    const blob = new Blob([result.tokenizer_json], { type: "application/json" });
    if (this.download.href) URL.revokeObjectURL(this.download.href);
    this.download.href = URL.createObjectURL(blob);
    this.download.download = `trained-${s.algo}.json`;
    this.actions.hidden = false;
    renderer.done(step);
  }

  ruleText(s) {
    const base = t("train.summary", { algo: t(`train.algo.${s.algo}`), corpus: t(`train.corpus.${s.corpus}`), size: s.vocab_size });
    if (s.tie_break) return `${base} ${t(s.tie_break === "first" ? "train.tie.usedFirst" : "train.tie.usedHf")}`;
    return base;
  }

  // The timeline glue shared by both renderers: grow while streaming, load at the end.
  async rendererFor(algo) {
    const player = this.context.player;
    const view = this;
    if (algo !== "unigram") {
      this.unigramBox.hidden = true;
      const m = this.merges;
      const timeline = { length: 0, render: (k) => m.render(k), narrate: (k) => m.narrate(k) };
      return {
        begin() { m.reset(algo); view.showPlayer(timeline); },
        add(batch) { player.grow(m.add(batch)); },
        length: () => m.length,
        stopped() { player.grow(m.length); },
        done(step) { timeline.length = m.length; player.load(timeline, step ?? m.length); view.url.set({ step: player.k }); },
      };
    }
    this.merges.reset("unigram");
    this.unigramBox.hidden = false;
    let unigram = null;
    try {
      const module = await import("./train/unigram.js");
      unigram = module.createUnigramTrainRenderer({ ...this.context, root: this.unigramBox });
    } catch {
      this.unigramBox.replaceChildren(el("p", "hint", t("train.unigram.coming")));
    }
    const events = [];
    const empty = { length: 0, render: () => {}, narrate: () => "" };
    const timeline = () => {
      if (!unigram) return empty;
      const tl = unigram.timeline(events);
      return { length: tl.length, render: (k) => unigram.show(events, k), narrate: tl.narrate || (() => "") };
    };
    return {
      begin() { events.length = 0; },
      add(batch) { events.push(...batch); },
      length: () => events.length,
      stopped() {},
      done(step) {
        const tl = timeline();
        view.showPlayer(tl);
        player.load(tl, step ?? tl.length);
      },
    };
  }

  showPlayer(timeline) {
    this.loadedTimeline = timeline;
    if (this.active) this.context.placePlayer(this.playerBox);
    this.context.player.load(timeline, 0);
  }

  async useInTokenize() {
    if (!this.result) return;
    const s = this.result.summary;
    const name = `trained-${s.algo}-${++this.usedKeys}.json`;
    const file = new File([this.result.tokenizer_json], name, { type: "application/json" });
    try {
      await this.context.tokenize.openFile(file);
      this.status.textContent = t("train.used", { name });
      window.subwordLab?.showView?.("tokenize");
    } catch (error) {
      this.showError(t("train.error", { message: error.message }));
    }
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }
}

export function createView(context) {
  const view = new TrainView(context);
  return {
    activate: (options) => view.activate(options),
    deactivate: () => view.deactivate(),
    settled: () => view.settled(),
    view,
  };
}


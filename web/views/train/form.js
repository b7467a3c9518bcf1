// The train view's form, in the pieces it is made of. Each function returns the elements
// the view keeps (it assigns them to itself); the callbacks are the view's own methods.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { unknownLine, tell } from "../../lib/controls.js";
import "./strings.js";

export const ALGOS = ["bpe", "wordpiece", "unigram"];
export const CORPORA = ["course-toy", "course-sentences", "botchan", "custom"];

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

function button(className, key, testid, type = "button") {
  const node = el("button", className, t(key));
  node.type = type;
  node.dataset.testid = testid;
  return node;
}

// Corpus, algorithm, vocabulary size, and the tie-break rule (BPE, WordPiece) or the
// pruning method (Unigram), in one row.
export function optionControls() {
  const corpus = select("train-corpus", CORPORA.map((c) => [c, `train.corpus.${c}`]));
  const algo = select("train-algo", ALGOS.map((a) => [a, `train.algo.${a}`]));
  const vocab = el("input");
  vocab.type = "number";
  vocab.min = "1";
  vocab.max = "100000";
  vocab.dataset.testid = "train-vocab-size";
  const tie = select("train-tie-break", [["hf", "train.tie.optionHf"], ["first", "train.tie.optionFirst"]]);
  const method = select("train-method", [["em", "train.method.em"], ["exact", "train.method.exact"]]);
  const tieField = field("train.tie.label", tie);
  // The two rules, one click away: the form stays one short row on a large screen.
  const tieHelp = el("details", "hint train-tie-help");
  const rules = el("ul");
  rules.append(el("li", "", t("train.tie.helpHf")), el("li", "", t("train.tie.helpFirst")));
  tieHelp.append(el("summary", "", t("train.tie.what")), rules);
  tieField.append(tieHelp);
  const methodField = field("train.method.label", method, t("train.method.help"));
  const optionRow = el("div", "train-form-row");
  optionRow.append(field("train.corpus.label", corpus), field("train.algo.label", algo),
    field("train.vocab.label", vocab), tieField, methodField);
  return { corpus, algo, vocab, tie, method, tieField, methodField, optionRow };
}

// The "your own text" box: typed, chosen as a file, or dropped on the box.
export function customTextBox(onFile) {
  const textBox = el("textarea", "train-text");
  textBox.dataset.testid = "train-text";
  textBox.rows = 5;
  textBox.placeholder = t("train.text.placeholder");
  const fileInput = el("input");
  fileInput.type = "file";
  fileInput.accept = ".txt,text/plain";
  fileInput.dataset.testid = "train-file";
  fileInput.addEventListener("change", () => {
    if (fileInput.files.length) onFile(fileInput.files[0]);
  });
  const customBox = el("div", "train-custom");
  const drop = el("p", "hint", t("train.text.drop"));
  const fileLabel = el("label", "train-file-label");
  fileLabel.append(el("span", "", t("train.text.file")), fileInput);
  customBox.append(field("train.text.label", textBox), fileLabel, drop);
  customBox.addEventListener("dragover", (e) => { e.preventDefault(); customBox.classList.add("dragging"); });
  customBox.addEventListener("dragleave", () => customBox.classList.remove("dragging"));
  customBox.addEventListener("drop", (e) => {
    e.preventDefault();
    customBox.classList.remove("dragging");
    const file = e.dataTransfer?.files?.[0];
    if (file) onFile(file);
  });
  return { textBox, fileInput, customBox };
}

export function formButtons(onCancel) {
  const trainButton = button("button primary", "train.train", "train-button", "submit");
  const cancelButton = button("button", "train.cancel", "train-cancel");
  cancelButton.disabled = true;
  cancelButton.addEventListener("click", onCancel);
  const buttons = el("div", "train-buttons");
  buttons.append(trainButton, cancelButton);
  return { trainButton, cancelButton, buttons };
}

export function statusLines() {
  const status = el("p", "train-status");
  status.dataset.testid = "train-status";
  status.setAttribute("role", "status");
  const error = el("p", "train-error");
  error.dataset.testid = "train-error";
  error.setAttribute("role", "alert");
  return { status, error, unknown: unknownLine("train-unknown") };
}

// A link's algo= and corpus=: each one the form has is chosen; one it lacks is said on
// `line` (with what shows instead), not dropped without a word.
export function chooseLinked({ algo, corpus }, get, line) {
  const said = [];
  for (const [select, name, known, key] of [[algo, get("algo"), ALGOS, "train.unknownAlgo"],
    [corpus, get("corpus"), CORPORA, "train.unknownCorpus"]]) {
    if (known.includes(name)) select.value = name;
    else if (name) said.push(t(key, { name, fallback: select.selectedOptions[0]?.textContent || "" }));
    select.addEventListener("change", () => tell(line, ""), { once: true }); // a choice of one's own
  }
  tell(line, said.join(" "));
}

// What a finished run offers: use it in the tokenize view, download it, its summary.
export function resultActions(onUse) {
  const actions = el("div", "train-actions");
  actions.hidden = true;
  const useButton = button("button", "train.use", "train-use");
  useButton.addEventListener("click", onUse);
  const download = el("a", "button", t("train.download"));
  download.dataset.testid = "train-download";
  const summary = el("p", "hint train-summary");
  summary.dataset.testid = "train-summary";
  actions.append(useButton, download, summary);
  return { actions, useButton, download, summary };
}

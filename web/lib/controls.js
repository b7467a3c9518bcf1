// The form controls the encode, pipeline and compare views share (encode.css's enc-* classes).
import { t } from "../i18n/index.js";
import "../i18n/tokenize.js"; // tok.unknownPreset
import { el } from "./dom.js";

// <label class="enc-field …"><span class="enc-label">text</span>control</label>
export function labelled(text, control, extraClass = "") {
  const label = el("label", extraClass ? `enc-field ${extraClass}` : "enc-field");
  label.append(el("span", "enc-label", text), control);
  return label;
}

// A one-line text box; with `lines`, a box of that many lines that keeps newlines (a text
// from the tokenize view then stays the same text).
export function textInput(testid, { lines = 0 } = {}) {
  const input = el(lines ? "textarea" : "input", "enc-text");
  if (lines) input.rows = lines;
  else input.type = "text";
  input.spellcheck = false;
  input.dataset.testid = testid;
  return input;
}

// The line that says what the view is doing (loading, encoding, an error), read out politely.
export function statusLine(testid) {
  const status = el("p", "enc-status");
  status.dataset.testid = testid;
  status.setAttribute("role", "status");
  return status;
}

// The line that says a link named something this page does not have (a tokenizer, an
// algorithm, a corpus) and what shows instead: hidden until `tell` has something to say.
export function unknownLine(testid) {
  const line = el("p", "error"); // as the tokenize view says it (style.css)
  line.dataset.testid = testid;
  line.setAttribute("role", "status");
  line.hidden = true;
  return line;
}

// Say `text` on a line (hidden when there is nothing to say).
export function tell(line, text) {
  line.textContent = text;
  line.hidden = !text;
}

// The link's tokenizer `name`, unless `known`: not here, and `select`'s choice shows instead.
export function tellStandIn(line, name, known, select) {
  tell(line, known ? "" : t("tok.unknownPreset", { name, fallback: select.selectedOptions[0]?.textContent || "" }));
}

export function option(value, text, disabled = false) {
  const node = el("option", "", text);
  node.value = value;
  node.disabled = disabled;
  return node;
}

// The manifest's presets as options; a preset whose file is missing is shown, disabled.
export function presetOptions(presets) {
  return (presets || []).map((p) => option(p.id, p.label, !p.file));
}

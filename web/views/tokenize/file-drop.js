// Opening a tokenizer file by dropping it anywhere on the page, and the hint that says so.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import "../../i18n/tokenize.js";

// "or drop a {files} file…": the file names are <code> elements inside the sentence.
export function fillDropHint(root) {
  const hint = root.querySelector("#drop-hint");
  if (!hint) return;
  const [before, after = ""] = t("tok.dropHint").split("{files}");
  const files = ["tokenizer.json", "vocab.txt", ".tiktoken", ".model", ".gguf"];
  const names = [];
  files.forEach((name, i) => {
    if (i) names.push(t(i === files.length - 1 ? "tok.fileOr" : "tok.fileSep"));
    names.push(el("code", "", name));
  });
  names.push(after);
  hint.replaceChildren(before, ...names);
}

// A file dropped anywhere on the window goes to onFile(file); the drop zone lights up meanwhile.
export function bindDrop(onFile) {
  const zone = document.getElementById("dropzone");
  const hasFiles = (event) => event.dataTransfer && [...event.dataTransfer.types].includes("Files");
  let depth = 0;
  window.addEventListener("dragenter", (event) => {
    if (!hasFiles(event)) return;
    depth += 1;
    zone.classList.add("active");
  });
  window.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) zone.classList.remove("active");
  });
  window.addEventListener("dragover", (event) => {
    if (hasFiles(event)) event.preventDefault();
  });
  window.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth = 0;
    zone.classList.remove("active");
    const dropped = [...event.dataTransfer.files]; // two files at once: a vocabulary and its merges
    if (dropped.length) onFile(dropped.length === 1 ? dropped[0] : dropped);
  });
}

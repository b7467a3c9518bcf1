// How far a training run has come, from the events it streams: how much of a long corpus
// has been read (the facade's corpus_read events, before the trainer's first), then
// merges done of the merges wanted (BPE, WordPiece), or the vocabulary's way down from
// its seed size to the size asked for (Unigram). Drawn as a line of text and a <progress> bar.
import { t, formatNumber } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";

export class TrainProgress {
  constructor() {
    this.bar = el("progress", "train-progress");
    this.bar.dataset.testid = "train-progress";
    this.bar.hidden = true;
  }

  // A new run towards `target` tokens.
  start(target) {
    this.target = target;
    this.from = null; // the vocabulary size training starts from
    this.done = 0;
    this.mode = null;
    this.bar.hidden = false;
    this.bar.removeAttribute("value"); // indeterminate until the first events say more
  }

  // Events in; returns the line to show, or null when nothing new is known.
  add(batch) {
    let changed = false;
    for (const event of batch) {
      if (event.type === "corpus_read") { this.read = event; this.mode = "read"; changed = true; }
      else if (event.type === "alphabet") { this.from = event.vocab_size; this.mode = "merges"; changed = true; }
      else if (event.type === "merge") { this.done += 1; changed = true; }
      else if (event.type === "unigram_seed") { this.from = event.size; this.now = event.size; this.mode = "prune"; changed = true; }
      else if (event.type === "unigram_em" || event.type === "unigram_exact_round") {
        if (this.mode !== "prune") { this.from = event.vocab_size; this.mode = "prune"; }
        this.now = event.vocab_size;
        changed = true;
      }
    }
    return changed ? this.line() : null;
  }

  line() {
    if (this.mode === "read") {
      const { chars, total } = this.read;
      this.show(chars, Math.max(1, total));
      const percent = formatNumber(chars / Math.max(1, total), undefined, { style: "percent", maximumFractionDigits: 0 });
      return t("train.progress.read", { percent });
    }
    if (this.mode === "merges") {
      const total = Math.max(1, this.target - this.from);
      this.show(this.done, total);
      return t("train.progress.merges", { n: this.done, total });
    }
    if (this.mode === "prune" && this.from) {
      const span = Math.max(1, this.from - this.target);
      this.show(Math.min(span, Math.max(0, this.from - this.now)), span);
      return t("train.progress.prune", { size: this.now, target: this.target });
    }
    return null;
  }

  show(value, max) {
    this.bar.max = max;
    this.bar.value = value;
  }

  stop() { this.bar.hidden = true; }
}

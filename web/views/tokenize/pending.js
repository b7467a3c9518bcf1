// What the tokenize view shows while a new result is on its way: `tokens` says
// data-status="pending" at once (docs/automation.md), but the list is dimmed and
// "tokenizing…" shown only when the answer is slow. Shown at every key press, they
// made the browser restyle and repaint the whole list and the counts twice a key,
// for an answer that comes within a frame or two (issue 14).
const SLOW_MS = 300;

export class PendingCue {
  constructor(tokens, busy) {
    this.tokens = tokens;
    this.busy = busy;
    this.timer = 0;
  }

  pending() {
    this.tokens.dataset.status = "pending";
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = 0;
      if (this.tokens.dataset.status !== "pending") return;
      this.busy.hidden = false;
      this.tokens.classList.add("slow");
    }, SLOW_MS);
  }

  // Nothing more on its way.
  settled() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (!this.busy.hidden) this.busy.hidden = true;
    if (this.tokens.classList.contains("slow")) this.tokens.classList.remove("slow");
  }
}

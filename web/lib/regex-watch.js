// The page's half of the bound on user regexes (py/subword_lab/core/regex/guard.py).
// In the browser nothing can interrupt Python from inside its worker (that takes
// SharedArrayBuffer, which plain static hosts cannot enable), so the worker says when a
// match that may backtrack starts and ends, and this watch gives each one a time limit.
// A match still running at its limit means the worker must be ended: `onStuck(match)`.
import { t } from "../i18n/index.js";
import "./engine-strings.js";

export const REGEX_MS = 1200; // a match on a short text: the error shows within 2 s
const REGEX_MS_PER_CHAR = 0.01; // and longer texts get more (10 ms per thousand characters)
const LATE_MS = 100; // a timer this late means the page itself was busy: look again

export class RegexWatch {
  // fileName(key): the name the user knows tokenizer `key` by, for a match that names none.
  /** @param {(match: any) => void} onStuck @param {(key: string) => string | null} fileName */
  constructor(onStuck, fileName) {
    this.onStuck = onStuck;
    this.fileName = fileName;
    this.match = null; // {pattern, field, file, size, digest, key, limit} while one runs
    this.timer = null;
    this.refused = null; // the text Python just refused at once, having been stopped on it before
  }

  // A {type: "regex"} message from the worker.
  receive(data) {
    this.clear();
    const match = { ...data, file: data.file || (data.key ? this.fileName(data.key) : null) };
    if (data.phase === "refused") this.refused = match;
    if (data.phase !== "start") return;
    const limit = Math.round(REGEX_MS + (data.size || 0) * REGEX_MS_PER_CHAR);
    this.match = { ...match, limit };
    this.arm(limit);
  }

  arm(ms) {
    const due = performance.now() + ms;
    this.timer = setTimeout(() => this.due(due), ms);
  }

  // A timer that fires late shows the page was busy, not that Python was: the worker's
  // "end" may be waiting in the queue behind it, so give the queue a moment first.
  due(expected) {
    this.timer = null;
    if (!this.match) return;
    if (performance.now() - expected > LATE_MS && !this.match.recheck) {
      this.match.recheck = true;
      this.arm(LATE_MS);
      return;
    }
    const match = this.match;
    this.match = null;
    this.onStuck(match);
  }

  // What Python refused since the last answer (its error is that answer), once.
  takeRefused() {
    const refused = this.refused;
    this.refused = null;
    return refused;
  }

  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.match = null;
  }
}

// What the page says about a match it had to stop: the file, the field and the pattern.
export function regexMessage(match, key = "engine.regex.error") {
  const where = [match.file, match.field].filter(Boolean).join(": ");
  const pattern = match.pattern.length > 160 ? `${match.pattern.slice(0, 160)}…` : match.pattern;
  const text = t(key, { pattern, seconds: (match.limit / 1000).toFixed(1) });
  return where ? `${where}: ${text}` : text;
}

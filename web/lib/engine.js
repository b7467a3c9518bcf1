// The page's side of the worker protocol: requests with ids, status and event streams,
// and recovery. Python cannot be interrupted from outside on a plain static host (that
// needs SharedArrayBuffer, which needs cross-origin isolation headers), so stopping
// work means ending the worker: the engine then starts a new one and opens again every
// tokenizer the page had opened (their file bytes are kept here), in the same order.
// A user regex that backtracks without end is ended the same way (web/lib/regex-watch.js),
// and the new Python is told which text hung, so that text fails at once next time.
import { RegexWatch, regexMessage } from "./regex-watch.js";
import { t } from "../i18n/index.js";
import "./engine-strings.js";

const BUSY_AFTER_MS = 300; // a Stop control shows once a request has taken this long

// The worker's name says "nosnapshot" when the page's address has ?nosnapshot or ?nosw:
// web/worker.js then neither reads nor makes a memory snapshot (its own address may be
// the service worker's copy, without the query, so the name carries it).
function workerName() {
  const params = new URLSearchParams(globalThis.location ? location.search : "");
  return params.has("nosnapshot") || params.has("nosw") ? "subword-lab nosnapshot" : "subword-lab";
}

export class Engine {
  // timeouts: ms per command before the worker counts as stuck and is restarted.
  constructor(workerUrl, { timeouts = { default: 20000, openPreset: 60000, openFile: 60000 } } = {}) {
    this.url = workerUrl;
    this.name = workerName();
    this.timeouts = timeouts;
    this.nextId = 1;
    this.pending = new Map();
    this.statusListeners = new Set();
    this.eventListeners = new Set();
    this.busyListeners = new Set();
    this.restoreListeners = new Set();
    this.snapshotListeners = new Set();
    this.journal = new Map(); // what to replay on a new worker: key -> {cmd, args}
    // Settles once every request sent so far has: Python answers one at a time, so a
    // request's clock starts only when those before it are done (a long training before
    // it is not this request being stuck).
    /** @type {Promise<unknown>} */
    this.earlier = Promise.resolve();
    this.hung = []; // the regex matches a worker was ended for: {pattern, digest, seconds}
    this.watch = new RegexWatch((match) => this.regexStuck(match), (key) => this.fileName(key));
    this.gate = null; // while a new worker reopens the tokenizers, requests wait for it
    this.restarts = 0;
    this.stage = "runtime";
    this.boot();
  }

  boot() {
    this.worker = new Worker(this.url, { type: "module", name: this.name });
    this.booted = new Promise((resolve, reject) => { this.bootDone = { resolve, reject }; });
    this.booted.catch(() => {});
    if (!this.ready) this.ready = this.booted; // the first start is the page's readiness
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.setStage("error", { message: event.message || "the Python worker could not start" });
    };
  }

  receive(data) {
    if (data.type === "status") return this.setStage(data.stage, data.detail);
    if (data.type === "events") return this.eventListeners.forEach((fn) => fn(data.batch));
    if (data.type === "regex") return this.watch.receive(data);
    if (data.type === "snapshot") return this.snapshotListeners.forEach((fn) => fn(data));
    const refused = this.watch.takeRefused();
    const entry = this.pending.get(data.id);
    if (!entry) return;
    this.settle(data.id);
    if (data.ok) entry.resolve(data.result);
    else entry.reject(this.refusal(data.error, refused) || errorWithKind(data.error.message, data.error.kind));
  }

  // Python refused at once a text this page had stopped a regex on (core/regex/guard.py):
  // the page says so in the same words as when it stopped it, in the page's language,
  // rather than with Python's own (English) message.
  refusal(error, refused) {
    if (!refused || error.kind !== "RegexTooSlow") return null;
    const hung = this.hung.find((h) => h.pattern === refused.pattern && h.digest === refused.digest);
    if (!hung) return null;
    const match = { ...refused, limit: hung.seconds * 1000 };
    return errorWithKind(regexMessage(match), error.kind, match);
  }

  setStage(stage, detail) {
    this.stage = stage;
    if (stage === "ready") this.bootDone.resolve(detail);
    if (stage === "error") this.bootDone.reject(new Error(detail && detail.message ? detail.message : "Python failed to start"));
    this.statusListeners.forEach((fn) => fn(stage, detail));
  }

  onStatus(fn) { this.statusListeners.add(fn); }
  onEvents(fn) { this.eventListeners.add(fn); return () => this.eventListeners.delete(fn); }
  // fn(busy: boolean): true once work has run longer than BUSY_AFTER_MS, false when none is left.
  onBusy(fn) { this.busyListeners.add(fn); }
  // fn({reason, message}): a new worker is up again with the page's tokenizers reopened.
  onRestored(fn) { this.restoreListeners.add(fn); }
  // fn({state: "stored"|"failed", size, stored, makeMs, storeMs}): what became of the
  // memory snapshot a fresh start made (web/lib/snapshot.js).
  onSnapshot(fn) { this.snapshotListeners.add(fn); }

  // timeout: ms before the worker counts as stuck (default: this.timeouts; 0: never, for
  // work the user watches and can stop, such as training).
  /** @param {string} cmd @param {any} [args] @param {Transferable[]} [transfer]
   *  @param {{timeout?: number}} [options] */
  request(cmd, args = {}, transfer = [], { timeout } = {}) {
    const memo = this.remember(cmd, args);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const limit = timeout ?? this.timeouts[cmd] ?? this.timeouts.default;
      const entry = { cmd, reject };
      const before = this.earlier;
      this.earlier = Promise.all([before, new Promise((done) => { entry.done = done; })]);
      // Only an open that worked goes into the journal: one that failed or hung is not
      // replayed into the next worker.
      entry.resolve = (value) => { if (memo) this.journal.set(memo.key, memo.entry); resolve(value); };
      entry.busyTimer = setTimeout(() => { entry.slow = true; this.updateBusy(); }, BUSY_AFTER_MS);
      this.pending.set(id, entry);
      const send = () => {
        if (this.pending.get(id) !== entry) return;
        this.worker.postMessage({ id, cmd, args }, transfer);
        // The clock starts once Python is up and has answered every request sent before
        // this one: neither is this request's fault.
        if (limit > 0) Promise.all([this.booted, before]).then(() => {
          if (this.pending.get(id) === entry) entry.deadline = setTimeout(() => this.stuck(cmd, limit), limit);
        }, () => {});
      };
      if (this.gate) this.gate.then(send, send);
      else send();
    });
  }

  // Requests that put state into Python are replayed on a new worker. A file's bytes
  // are copied before they are handed to the worker (a transfer empties the original).
  remember(cmd, args) {
    if (cmd === "openPreset") return { key: `tok:${args.key}`, entry: { cmd, args } };
    if (cmd === "openFile") return { key: `tok:${args.key}`, entry: { cmd, args: copyFiles(args) } };
    if (cmd === "call" && args.name === "open_toy") {
      return { key: `toy:${JSON.stringify(args.args)}`, entry: { cmd, args } };
    }
    return null;
  }

  // Open a tokenizer again from what the journal holds for it, with other loader
  // options ({pattern}); the journal then holds the new options for any replay.
  reopenWith(key, options) {
    const entry = this.journal.get(`tok:${key}`);
    if (!entry) return Promise.reject(new Error(`nothing to reopen under ${key}`));
    if (entry.cmd !== "openFile") return this.request(entry.cmd, { ...entry.args, options });
    const args = copyFiles(entry.args); // a fresh copy to transfer; the journal keeps its own
    return this.request(entry.cmd, { ...args, options }, args.blobs || [args.bytes]);
  }

  settle(id) {
    const entry = this.pending.get(id);
    clearTimeout(entry.busyTimer);
    clearTimeout(entry.deadline);
    entry.done?.(); // none for the replay's own requests (requestRaw)
    this.pending.delete(id);
    this.updateBusy();
  }

  // Busy: some request has run past BUSY_AFTER_MS and is still running.
  get busy() {
    return [...this.pending.values()].some((entry) => entry.slow);
  }

  updateBusy() {
    const now = this.busy;
    if (now === this.wasBusy) return;
    this.wasBusy = now;
    this.busyListeners.forEach((fn) => fn(now));
  }

  stuck(cmd, limit) {
    this.restart("timeout", { command: cmd, seconds: Math.round(limit / 1000) });
  }

  // A user regex ran past its limit (web/lib/regex-watch.js): end the worker, and have
  // the next one refuse that pattern on that text at once.
  regexStuck(match) {
    const seconds = Number((match.limit / 1000).toFixed(1));
    this.hung.push({ pattern: match.pattern, digest: match.digest, seconds });
    this.restart("regex", {
      seconds, pattern: match.pattern, field: match.field, file: match.file, key: match.key,
      error: regexMessage(match), message: regexMessage(match, "engine.regex.stuck"),
      restoredMessage: regexMessage(match, "engine.regex.restored"),
    });
  }

  // The name the user knows an opened tokenizer by (its file), from the journal.
  fileName(key) {
    const entry = this.journal.get(`tok:${key}`);
    if (!entry) return null;
    const { name, names, file } = entry.args;
    return names ? names.join(" + ") : name || (file ? file.split("/").pop() : null);
  }

  // Stop whatever Python is doing now (subwordLab.cancel(), the Stop button).
  cancel() {
    if (this.pending.size === 0) return false;
    this.restart("cancelled", {});
    return true;
  }

  // End the worker, fail what it was doing, start a new one and reopen the tokenizers.
  restart(reason, detail) {
    this.worker.terminate();
    this.watch.clear();
    this.restarts += 1;
    const failed = [...this.pending.keys()];
    const kind = reason === "cancelled" ? "cancelled" : "timeout";
    const message = reason === "cancelled" ? t("engine.cancelled")
      : reason === "regex" ? detail.error : t("engine.noAnswer", { seconds: detail.seconds });
    for (const id of failed) {
      const entry = this.pending.get(id);
      this.settle(id);
      entry.reject(errorWithKind(message, kind, reason === "regex" ? detail : undefined));
    }
    this.setStage("restarting", { reason, ...detail });
    this.boot();
    // Requests made meanwhile wait until the tokenizers they name are open again.
    const gate = (this.gate = this.replay());
    gate.then(
      () => {
        if (this.gate !== gate) return;
        this.gate = null;
        this.restoreListeners.forEach((fn) => fn({ reason, ...detail }));
      },
      (error) => {
        if (this.gate !== gate) return; // a later restart (Stop pressed meanwhile) took over
        this.gate = null;
        this.setStage("error", { message: String(error.message || error) });
      },
    );
  }

  // End this worker for good (the trainer's, after Cancel): what it was doing fails with
  // `error`, and no timer of it is left to fire later.
  terminate(error) {
    this.worker.terminate();
    this.watch.clear();
    for (const id of [...this.pending.keys()]) {
      const entry = this.pending.get(id);
      this.settle(id);
      entry.reject(error);
    }
  }

  async replay() {
    await this.booted;
    for (const hung of this.hung) await this.requestRaw("call", { name: "refuse_regex", args: hung });
    for (const { cmd, args } of this.journal.values()) {
      const copy = cmd === "openFile" ? copyFiles(args) : args;
      await this.requestRaw(cmd, copy);
    }
  }

  // A request outside the journal and the watchdog (the replay itself).
  requestRaw(cmd, args) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, cmd });
      this.worker.postMessage({ id, cmd, args });
    });
  }
}

function errorWithKind(message, kind, regex) {
  const error = /** @type {Error & {kind?: string, regex?: object}} */ (new Error(message));
  error.kind = kind;
  if (regex) error.regex = { pattern: regex.pattern, field: regex.field, file: regex.file };
  return error;
}

// A file's bytes (or several files' blobs) copied, so that a transfer leaves ours whole.
function copyFiles(args) {
  return args.blobs ? { ...args, blobs: args.blobs.map((b) => b.slice(0)) } : { ...args, bytes: args.bytes.slice(0) };
}

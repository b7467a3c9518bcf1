// The page's side of the worker protocol: requests with ids, status and event streams,
// and recovery. Python cannot be interrupted from outside on a plain static host (that
// needs SharedArrayBuffer, which needs cross-origin isolation headers), so stopping
// work means ending the worker: the engine then starts a new one and opens again every
// tokenizer the page had opened (their file bytes are kept here), in the same order.
const BUSY_AFTER_MS = 300; // a Stop control shows once a request has taken this long

export class Engine {
  // timeouts: ms per command before the worker counts as stuck and is restarted.
  constructor(workerUrl, { timeouts = { default: 20000, openPreset: 60000, openFile: 60000 } } = {}) {
    this.url = workerUrl;
    this.timeouts = timeouts;
    this.nextId = 1;
    this.pending = new Map();
    this.statusListeners = new Set();
    this.eventListeners = new Set();
    this.busyListeners = new Set();
    this.restoreListeners = new Set();
    this.journal = new Map(); // what to replay on a new worker: key -> {cmd, args}
    this.restarts = 0;
    this.stage = "runtime";
    this.boot();
  }

  boot() {
    this.worker = new Worker(this.url, { type: "module" });
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
    const entry = this.pending.get(data.id);
    if (!entry) return;
    this.settle(data.id);
    if (data.ok) entry.resolve(data.result);
    else entry.reject(errorWithKind(data.error.message, data.error.kind));
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

  request(cmd, args = {}, transfer = []) {
    this.remember(cmd, args);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const limit = this.timeouts[cmd] ?? this.timeouts.default;
      const entry = { resolve, reject, cmd };
      entry.busyTimer = setTimeout(() => { entry.slow = true; this.updateBusy(); }, BUSY_AFTER_MS);
      // The clock starts once Python is up: starting it is not this request's fault.
      this.booted.then(() => {
        if (this.pending.get(id) === entry) entry.deadline = setTimeout(() => this.stuck(cmd, limit), limit);
      }, () => {});
      this.pending.set(id, entry);
      this.worker.postMessage({ id, cmd, args }, transfer);
    });
  }

  // Requests that put state into Python are replayed on a new worker. A file's bytes
  // are copied before they are handed to the worker (a transfer empties the original).
  remember(cmd, args) {
    if (cmd === "openPreset") this.journal.set(`tok:${args.key}`, { cmd, args });
    else if (cmd === "openFile") {
      this.journal.set(`tok:${args.key}`, { cmd, args: copyFiles(args) });
    } else if (cmd === "call" && args.name === "open_toy") {
      this.journal.set(`toy:${JSON.stringify(args.args)}`, { cmd, args });
    }
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

  // Stop whatever Python is doing now (subwordLab.cancel(), the Stop button).
  cancel() {
    if (this.pending.size === 0) return false;
    this.restart("cancelled", {});
    return true;
  }

  // End the worker, fail what it was doing, start a new one and reopen the tokenizers.
  restart(reason, detail) {
    this.worker.terminate();
    this.restarts += 1;
    const failed = [...this.pending.keys()];
    const kind = reason === "cancelled" ? "cancelled" : "timeout";
    for (const id of failed) {
      const entry = this.pending.get(id);
      this.settle(id);
      entry.reject(errorWithKind(kind === "cancelled" ? "stopped" : `no answer in ${detail.seconds} s`, kind));
    }
    this.setStage("restarting", { reason, ...detail });
    this.boot();
    this.replay().then(
      () => this.restoreListeners.forEach((fn) => fn({ reason, ...detail })),
      (error) => this.setStage("error", { message: String(error.message || error) }),
    );
  }

  async replay() {
    await this.booted;
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

function errorWithKind(message, kind) {
  const error = new Error(message);
  error.kind = kind;
  return error;
}

// A file's bytes (or several files' blobs) copied, so that a transfer leaves ours whole.
function copyFiles(args) {
  return args.blobs ? { ...args, blobs: args.blobs.map((b) => b.slice(0)) } : { ...args, bytes: args.bytes.slice(0) };
}

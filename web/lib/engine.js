// The page's side of the worker protocol: requests with ids, status and event streams.
export class Engine {
  constructor(workerUrl) {
    this.worker = new Worker(workerUrl, { type: "module" });
    this.nextId = 1;
    this.pending = new Map();
    this.statusListeners = new Set();
    this.eventListeners = new Set();
    this.stage = "runtime";
    this.ready = new Promise((resolve, reject) => {
      this.onStatus((stage, detail) => {
        if (stage === "ready") resolve(detail);
        if (stage === "error") reject(new Error(detail && detail.message ? detail.message : "Python failed to start"));
      });
    });
    this.ready.catch(() => {}); // the page reports it; no unhandled rejection
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
    this.pending.delete(data.id);
    if (data.ok) entry.resolve(data.result);
    else {
      const error = new Error(data.error.message);
      error.kind = data.error.kind;
      entry.reject(error);
    }
  }

  setStage(stage, detail) {
    this.stage = stage;
    this.statusListeners.forEach((fn) => fn(stage, detail));
  }

  onStatus(fn) { this.statusListeners.add(fn); }
  onEvents(fn) { this.eventListeners.add(fn); return () => this.eventListeners.delete(fn); }

  request(cmd, args = {}, transfer = []) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, cmd, args }, transfer);
    });
  }
}

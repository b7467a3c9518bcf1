// Training runs in a Python worker of its own, so that Cancel can terminate it at any
// moment (Python cannot be interrupted mid-loop from outside) while the page's main worker
// keeps serving the tokenize view. The worker is started on demand, kept for the next run,
// and replaced after a cancel.
import { Engine } from "./engine.js";

export class TrainingCancelled extends Error {
  constructor() {
    super("training was cancelled");
    this.kind = "cancelled";
  }
}

const INTENT = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown", "dragenter"];

export class Trainer {
  constructor(workerUrl = new URL("../worker.js", import.meta.url)) {
    this.workerUrl = workerUrl;
    this.engine = null;
    this.running = null; // {reject, unsubscribe} while a run is in flight
  }

  // Start the worker early (Python takes a few seconds to boot); harmless if it runs.
  warm() {
    if (!this.engine) this.engine = new Engine(this.workerUrl);
    return this.engine;
  }

  // Start the worker once the learner turns to `form` (a pointer over it, a touch, focus, a
  // key, a file dragged in), after `ready` (the page's own Python, which starts first: two
  // Pythons starting at once share the processor). Soon enough that Python is up, or nearly,
  // when Train is pressed; never for a visitor who only watches a stored run, to whom a
  // second Python would cost about a core-second and 30 MB. A run asked for first starts it.
  warmOnIntent(form, ready) {
    const start = () => {
      for (const type of INTENT) form.removeEventListener(type, start, true);
      ready.then(() => this.warm(), () => {});
    };
    for (const type of INTENT) form.addEventListener(type, start, { capture: true, passive: true });
  }

  get stage() { return this.engine ? this.engine.stage : "stopped"; }

  // Train with webapi.train(args); onEvents(batch) receives the events as they stream.
  // Resolves to {tokenizer_json, summary}; rejects with TrainingCancelled after cancel().
  run(args, onEvents) {
    if (this.running) this.cancel();
    const engine = this.warm();
    const unsubscribe = engine.onEvents(onEvents);
    return new Promise((resolve, reject) => {
      const run = { reject, unsubscribe };
      this.running = run;
      const done = (fn) => (value) => {
        unsubscribe();
        if (this.running === run) this.running = null;
        fn(value);
      };
      engine.ready
        // No deadline: a long run shows its progress and the user can cancel it.
        .then(() => engine.request("call", { name: "train", args }, [], { timeout: 0 }))
        .then(done(resolve), done(reject));
    });
  }

  // Stop the run now: the worker is terminated, not asked.
  cancel() {
    const run = this.running;
    if (this.engine) {
      this.engine.terminate(new TrainingCancelled());
      this.engine = null;
    }
    if (run) {
      this.running = null;
      run.unsubscribe();
      run.reject(new TrainingCancelled());
    }
    return Boolean(run);
  }
}

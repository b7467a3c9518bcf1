// The train view (view=train): an options form, training in a worker of its own
// (web/lib/trainer.js, so Cancel works at any moment), and the run shown step by step with
// the shared player. BPE and WordPiece are drawn by train/merges.js; Unigram by
// train/unigram.js (createUnigramTrainRenderer(context) -> {show(events, k), timeline(events)}).
//
// URL: view=train&algo=..&corpus=..&vocab_size=..&tie_break=..&method=..&step=k. A link
// with algo or corpus trains at once (the course presets take a moment) and opens step k.
import { t, formatNumber } from "../i18n/index.js";
import { Trainer, TrainingCancelled } from "../lib/trainer.js";
import { precomputed } from "../lib/precomputed.js";
import { el, loadCss } from "../lib/dom.js";
import { createCodePanel } from "../lib/code-panel.js";
import { MergesRenderer } from "./train/merges.js";
import { STEP_TYPES as UNIGRAM_STEPS } from "./train/unigram-log.js";
import { TRAIN_EVENTS, loadTrainCode, loadUnigramCode } from "./train/code.js";
import { TrainProgress } from "./train/progress.js";
import { chooseLinked, optionControls, customTextBox, formButtons, statusLines, resultActions } from "./train/form.js";
import "./train/strings.js";

precomputed.warm(); // the index is tiny; fetch it while the view is being built

const MAX_FILE = 20 * 1024 * 1024;
// A text box redraws slowly with a long text (seconds for a megabyte), so a longer file
// is kept aside and trained on as it is; typing in the box puts the box's text back in use.
const SHOWN_CHARS = 100_000;
class TrainView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.url = context.urlState;
    this.trainer = context.trainer || new Trainer(); // <subword-lab> shares one per page
    this.info = null;          // corpus_info from Python: defaults per corpus and algorithm
    this.events = [];
    this.result = null;
    this.usedKeys = 0;
    this.waiters = [];
    this.busy = false;
    loadCss(new URL("./train.css", import.meta.url));
    loadCss(new URL("./code.css", import.meta.url));
    this.code = createCodePanel();
    /** @type {Promise<void> | null} the Code panel of the shown run, once it is filled */
    this.codeSettled = null;
    this.code.clear();
    this.build();
  }

  // ------------------------------------------------------------------ form
  build() {
    const root = this.root;
    root.replaceChildren();
    root.classList.add("train-view");
    const title = el("h2", "view-title", t("train.title"));
    const intro = el("p", "hint train-intro", t("train.intro"));
    const form = this.form = el("form", "train-form");
    form.setAttribute("aria-label", t("train.form"));
    // Pressing Train plays the run from its first step (a link to a step opens that step).
    form.addEventListener("submit", (e) => { e.preventDefault(); this.train({ play: true }); });
    // Named one by one (not Object.assign) so that tsc knows the view's fields.
    const options = optionControls(), custom = customTextBox((file) => this.readFile(file));
    const buttons = formButtons(() => this.cancel()), lines = statusLines();
    const results = resultActions(() => this.useInTokenize());
    this.corpus = options.corpus; this.algo = options.algo; this.vocab = options.vocab;
    this.tie = options.tie; this.method = options.method; this.tieField = options.tieField;
    this.methodField = options.methodField; this.optionRow = options.optionRow;
    this.textBox = custom.textBox; this.fileInput = custom.fileInput; this.customBox = custom.customBox;
    this.trainButton = buttons.trainButton; this.cancelButton = buttons.cancelButton;
    this.buttons = buttons.buttons; this.status = lines.status; this.error = lines.error; this.unknown = lines.unknown;
    this.actions = results.actions; this.useButton = results.useButton;
    this.download = results.download; this.summary = results.summary;
    form.append(this.optionRow, this.customBox, this.buttons);
    this.playerBox = el("div", "train-player");
    this.stage = el("div", "train-stage");
    this.merges = new MergesRenderer(this.stage);
    this.unigramBox = el("div", "train-unigram");
    this.stage.append(this.unigramBox);
    this.progress = new TrainProgress();
    root.append(title, intro, this.unknown, form, this.status, this.progress.bar, this.error, this.actions, this.playerBox, this.stage,
      this.code.root);
    this.textBox.addEventListener("input", () => this.keepFile(null));
    this.corpus.addEventListener("change", () => this.optionsChanged(true));
    this.algo.addEventListener("change", () => this.optionsChanged(true));
    this.updateFields();
  }

  async readFile(file) {
    if (file.size > MAX_FILE) { this.showError(t("train.text.tooBig", { name: file.name })); return; }
    const text = await file.text();
    this.showError("");
    this.status.textContent = t("train.text.loaded", { name: file.name, n: text.length });
    if (text.length <= SHOWN_CHARS) {
      this.keepFile(null);
      this.textBox.value = text;
      return;
    }
    this.textBox.value = "";
    this.keepFile({ name: file.name, text });
  }

  // A long file trained on as it is, or null: the text box's own text.
  keepFile(kept) {
    this.keptFile = kept;
    this.textBox.placeholder = kept ? t("train.text.kept", { name: kept.name, n: kept.text.length })
      : t("train.text.placeholder");
  }

  defaults(corpus = this.corpus.value, algo = this.algo.value) {
    const entry = this.info?.corpora.find((c) => c.id === corpus);
    return entry ? entry.defaults[algo] : null;
  }

  // A new corpus or algorithm: its own default size and rule (computed in Python).
  optionsChanged(resetValues) {
    const d = this.defaults();
    if (resetValues && d) {
      this.vocab.value = String(d.vocab_size);
      if (d.tie_break) this.tie.value = d.tie_break;
      if (d.method) this.method.value = d.method;
    }
    this.updateFields();
  }

  updateFields() {
    const algo = this.algo.value;
    this.tieField.hidden = algo === "unigram";
    this.methodField.hidden = algo !== "unigram";
    this.customBox.hidden = this.corpus.value !== "custom";
  }

  // ------------------------------------------------------------------ view lifecycle
  async activate(_options = {}) {
    this.active = true;
    this.context.placePlayer(this.loadedTimeline ? this.playerBox : null);
    if (this.started) return;
    this.started = true;
    this.status.textContent = t("train.status.python");
    try {
      this.info = await this.corpusInfo();
    } catch (error) {
      this.showError(t("train.error", { message: error.message }));
      return;
    }
    this.status.textContent = "";
    const get = (key) => this.url.get(key);
    const linked = get("algo") !== null || get("corpus") !== null;
    chooseLinked(this, get, this.unknown); // algo= and corpus=, or a line saying what is not here
    this.optionsChanged(true);
    if (get("vocab_size") && /^\d+$/.test(get("vocab_size"))) this.vocab.value = get("vocab_size");
    if (["hf", "first"].includes(get("tie_break"))) this.tie.value = get("tie_break");
    if (["em", "exact"].includes(get("method"))) this.method.value = get("method");
    const step = get("step");
    if (linked && this.corpus.value !== "custom") await this.train({ step: step === null ? null : Number(step) });
    else this.status.textContent = t("train.status.idle");
    this.trainer.warmOnIntent(this.form, this.context.engine.ready); // the training worker
    this.resolveWaiters();
  }

  // The form's defaults: stored at build time when available, so a course link plays
  // before Python is ready (tools/precompute.py makes the same call).
  async corpusInfo() {
    const stored = await precomputed.lookup("corpus_info", {});
    if (stored) return stored.result;
    await this.context.engine.ready;
    return this.context.engine.request("call", { name: "corpus_info", args: {} });
  }

  deactivate() {
    this.active = false;
    this.context.player.pause();
  }

  // Resolves when no training is running and the requested step is drawn (player.drawNow).
  settled() {
    const idle = !this.busy && this.started && this.info ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
    return idle.then(() => { this.context.player.drawNow(); return true; });
  }

  resolveWaiters() {
    if (this.busy) return;
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((fn) => fn(true));
  }

  // ------------------------------------------------------------------ training
  args() {
    const args = {
      algo: this.algo.value, corpus: this.corpus.value,
      vocab_size: Number(this.vocab.value) || undefined,
    };
    if (args.algo === "unigram") args.method = this.method.value;
    else args.tie_break = this.tie.value;
    return args;
  }

  async corpusText(corpus) {
    if (corpus === "custom") return this.keptFile ? this.keptFile.text : this.textBox.value;
    if (corpus !== "botchan") return undefined;
    const entry = (this.context.manifest.corpora || []).find((c) => c.id === "botchan");
    if (!entry || !entry.file) throw new Error(t("train.error.noBotchan"));
    if (!this.botchan) {
      this.botchan = fetch(new URL(`../${entry.file}`, import.meta.url)).then((r) => {
        if (!r.ok) throw new Error(`${entry.file}: HTTP ${r.status}`);
        return r.text();
      });
      this.botchan.catch(() => { this.botchan = null; });
    }
    return this.botchan;
  }

  async train({ step = null, play = false } = {}) {
    const args = this.args();
    this.url.set({ algo: args.algo, corpus: args.corpus, vocab_size: args.vocab_size,
      tie_break: args.tie_break ?? null, method: args.method ?? null, step: null });
    this.busy = true;
    this.showError("");
    this.actions.hidden = true;
    this.result = null;
    this.events = [];
    this.cancelButton.disabled = false;
    this.trainButton.disabled = true;
    this.status.textContent = this.trainer.stage === "ready" ? t("train.status.training") : t("train.status.starting");
    const runId = (this.runId = (this.runId || 0) + 1);
    const renderer = await this.rendererFor(args.algo, args);
    try {
      const text = await this.corpusText(args.corpus);
      if (text !== undefined) args.text = text;
      // A course preset at its default options was trained at build time by the same
      // Python code: its stored events and result are what this run would give.
      const stored = text === undefined ? await precomputed.lookup("train", args) : null;
      if (runId !== this.runId) return;
      renderer.begin();
      if (stored) renderer.add(stored.events);
      if (!stored) this.progress.start(args.vocab_size);
      const result = stored ? stored.result : await this.trainer.run(args, (batch) => {
        if (runId !== this.runId) return;
        if (this.status.textContent === t("train.status.starting")) this.status.textContent = t("train.status.training");
        const line = this.progress.add(batch);
        if (line) this.status.textContent = line;
        renderer.add(batch);
      });
      this.progress.stop();
      if (runId !== this.runId) return;
      this.finished(result, renderer, play ? 0 : step);
      if (play) this.context.player.play();
    } catch (error) {
      if (runId !== this.runId) return;
      this.progress.stop();
      if (error instanceof TrainingCancelled || error.kind === "cancelled") {
        this.status.textContent = t("train.status.cancelled", { n: renderer.length() });
      } else {
        this.status.textContent = "";
        this.showError(t("train.error", { message: error.message }));
      }
      renderer.stopped();
    } finally {
      if (runId === this.runId) {
        this.busy = false;
        this.cancelButton.disabled = true;
        this.trainButton.disabled = false;
        this.resolveWaiters();
      }
    }
  }

  cancel() {
    if (!this.busy) return;
    this.trainer.cancel();
  }

  finished(result, renderer, step) {
    this.result = result;
    const s = result.summary;
    // The steps the player shows (its timeline), so the two numbers agree.
    this.status.textContent = t("train.status.done", {
      n: renderer.length(), size: s.vocab_size,
      seconds: formatNumber(s.seconds, undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) });
    this.summary.textContent = this.ruleText(s);
    const blob = new Blob([result.tokenizer_json], { type: "application/json" });
    if (this.download.href) URL.revokeObjectURL(this.download.href);
    this.download.href = URL.createObjectURL(blob);
    // A tokenizer.json, as the button says; the algorithm in its name keeps several apart.
    this.download.download = `tokenizer-${s.algo}.json`;
    this.actions.hidden = false;
    renderer.done(step);
  }

  ruleText(s) {
    const base = t("train.summary", { algo: t(`train.algo.${s.algo}`), corpus: t(`train.corpus.${s.corpus}`), size: s.vocab_size });
    if (s.tie_break) return `${base} ${t(s.tie_break === "first" ? "train.tie.usedFirst" : "train.tie.usedHf")}`;
    return base;
  }

  // The timeline glue shared by both renderers: grow while streaming, load at the end.
  async rendererFor(algo, args) {
    const player = this.context.player;
    const view = this;
    if (algo !== "unigram") {
      this.unigramBox.hidden = true;
      const m = this.merges;
      const log = [];    // the run's training events, for the Code panel
      const merges = []; // step k shows the state after merges[k - 1]
      const render = (k) => { m.render(k); view.code.show(k > 0 ? merges[k - 1] ?? null : null); };
      const timeline = { length: 0, render, narrate: (k) => m.narrate(k) };
      return {
        begin() { log.length = 0; merges.length = 0; view.code.clear(); m.reset(algo); view.showPlayer(timeline); },
        add(batch) {
          for (const e of batch) if (TRAIN_EVENTS.has(e.type)) { log.push(e); if (e.type === "merge") merges.push(e); }
          player.grow(m.add(batch));
        },
        length: () => m.length,
        stopped() { player.grow(m.length); },
        done(step) {
          timeline.length = m.length;
          player.load(timeline, step ?? m.length);
          view.url.set({ step: player.k });
          view.codeSettled = loadTrainCode(view, algo, log, merges).catch(() => view.code.clear());
        },
      };
    }
    this.code.clear();
    this.merges.reset("unigram");
    this.unigramBox.hidden = false;
    let unigram = null;
    try {
      const module = await import("./train/unigram.js");
      unigram = module.createUnigramTrainRenderer({ ...this.context, root: this.unigramBox });
    } catch (error) {
      // The view's modules did not arrive (offline, a half-updated site): say so, not "soon".
      const message = el("p", "hint error", t("train.unigram.failed", { message: error.message }));
      message.dataset.testid = "train-view-error";
      message.setAttribute("role", "alert");
      this.unigramBox.replaceChildren(message);
    }
    const events = [];
    const empty = { length: 0, render: () => {}, narrate: () => "" };
    // The Code panel shows, at step k, the event the renderer draws there (0: the seed).
    const atStep = (k) => {
      const steps = events.filter((e) => UNIGRAM_STEPS.has(e.type));
      return k > 0 ? steps[k - 1] ?? null : events.find((e) => e.type === "unigram_seed") ?? null;
    };
    const timeline = () => {
      if (!unigram) return empty;
      const tl = unigram.timeline(events);
      const render = (k) => { unigram.show(events, k); view.code.show(atStep(k)); };
      return { length: tl.length, render, narrate: tl.narrate || (() => "") };
    };
    return {
      begin() { events.length = 0; view.code.clear(); },
      add(batch) { events.push(...batch); },
      length: () => timeline().length, // the player's steps, not the events
      stopped() {},
      done(step) {
        const tl = timeline();
        view.showPlayer(tl);
        player.load(tl, step ?? tl.length);
        view.codeSettled = loadUnigramCode(view, events, args, atStep).catch(() => view.code.clear());
      },
    };
  }

  showPlayer(timeline) {
    this.loadedTimeline = timeline;
    if (this.active) this.context.placePlayer(this.playerBox);
    this.context.player.load(timeline, 0);
  }

  async useInTokenize() {
    if (!this.result) return;
    const s = this.result.summary;
    const name = `trained-${s.algo}-${++this.usedKeys}.json`;
    const file = new File([this.result.tokenizer_json], name, { type: "application/json" });
    try {
      await this.context.tokenize.openFile(file);
      this.status.textContent = t("train.used", { name });
      window.subwordLab?.showView?.("tokenize");
    } catch (error) {
      this.showError(t("train.error", { message: error.message }));
    }
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }
}

export function createView(context) {
  const view = new TrainView(context);
  return {
    activate: (options) => view.activate(options),
    deactivate: () => view.deactivate(),
    settled: () => view.settled(),
    view,
  };
}


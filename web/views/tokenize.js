// The tokenize view: a text box, a tokenizer picker, and the tokens, kept in step as you type.
//
// This module owns the tokenizers (presets and opened files) and the encode loop; the
// drawing is tokenize/token-list.js, the text-to-token highlighting tokenize/linking.js,
// dropping a file tokenize/file-drop.js. Unlike the other views it is built at start-up
// on the page's own markup (index.html), and app.js exposes its methods as the automation
// contract (docs/automation.md).
import { t } from "../i18n/index.js";
import { el } from "../lib/dom.js";
import "../i18n/tokenize.js";
import { TokenList } from "./tokenize/token-list.js";
import { TokenLinks, whyDetail } from "./tokenize/linking.js";
import { fillDropHint, bindDrop } from "./tokenize/file-drop.js";
import { Picker, missingNote } from "./tokenize/picker.js";
import { RulesLine } from "./tokenize/rules.js";
import { presetBytes } from "../lib/presets.js";
import { TokenExport } from "./tokenize/export.js";
import { WholeCount } from "./tokenize/counter.js";
import { followAnswer } from "./tokenize/live.js";
import { PendingCue } from "./tokenize/pending.js";
import { openFileRequest, withoutName } from "./tokenize/open-file.js";

// The sample promises no particular split: each tokenizer cuts it its own way, and
// the chips below show how. (Common words stay whole; rare ones come apart.)
const SAMPLE = "Tokenizers don't read words: they read pieces. Common words stay whole, while rarer " +
  "ones such as unbelievably or Ōkuninushi come apart. Try typing here, or paste a page of text.";
const WINDOW_CHARS = 20000; // a long paste is tokenized this many characters at a time
const DEFAULT_PRESET = "gpt2";

const $ = (root, id) => root.querySelector(`#${id}`);

export class TokenizeView {
  constructor({ engine, urlState, manifest, root }) {
    this.engine = engine;
    this.url = urlState;
    this.manifest = manifest;
    this.root = root;
    this.el = {
      select: $(root, "tokenizer-select"), presets: $(root, "preset-group"), opened: $(root, "opened-group"),
      openButton: $(root, "open-file"), file: $(root, "file-input"), error: $(root, "error"),
      note: $(root, "preset-note"), text: $(root, "text-input"), backdrop: $(root, "backdrop"),
      tokens: $(root, "tokens"), count: $(root, "token-count"), chars: $(root, "char-count"),
      ratio: $(root, "chars-per-token"), bytes: $(root, "bytes-per-token"), uncovered: $(root, "uncovered"), busy: $(root, "busy"), inspector: $(root, "inspector"),
      more: $(root, "more"), hidden: $(root, "hidden-count"), showMore: $(root, "show-more"),
      legend: $(root, "legend-list"), filter: $(root, "tokenizer-filter"),
      details: $(root, "preset-details"), progress: $(root, "preset-progress"),
    };
    this.picker = new Picker({
      select: this.el.select, presetsGroup: this.el.presets, filter: this.el.filter,
      details: this.el.details, progress: this.el.progress,
      onPick: (key) => this.selectTokenizer(key).catch(() => {}),
    });
    this.rules = new RulesLine({
      root: $(root, "rules-line"), choice: $(root, "special-tokens"), text: $(root, "rules-text"),
      pattern: { root: $(root, "pattern-choice"), select: $(root, "pattern-select") },
      onChange: () => this.schedule(), onError: (message) => this.showError(message),
    });
    this.info = new Map(); // tokenizer key -> {key, label, name, model, vocab_size, preset?}
    Object.assign(this.rules, { engine: this.engine, infos: this.info }); // for its reopen
    this.loaded = new Map(); // key -> promise of the open request
    this.current = null; // the key in use
    this.switching = null; // promise of a tokenizer change under way
    this.fileCount = 0;
    this.windowChars = WINDOW_CHARS;
    this.live = null; // the encoding Python's live encode last answered (web/live.py), kept in step
    this.inflight = false;
    this.dirty = false;
    this.result = null;
    this.waiters = [];
    this.list = new TokenList(this.el);
    this.links = new TokenLinks(this);
    this.exporter = new TokenExport(this, this.el.tokens);
    this.counts = new WholeCount(this.el, engine);
    this.cue = new PendingCue(this.el.tokens, this.el.busy);
  }

  // ------------------------------------------------------------------ set-up
  start() {
    fillDropHint(this.root);
    this.fillPresets();
    const wanted = this.url.get("tokenizer");
    const available = this.manifest.presets.filter((p) => p.file).map((p) => p.id);
    const initial = available.includes(wanted) ? wanted : available.includes(DEFAULT_PRESET) ? DEFAULT_PRESET : available[0];
    const fallback = this.manifest.presets.find((p) => p.id === initial)?.label || t("tok.nothing");
    // Said again once the stand-in has opened (opening one clears the error line).
    const unknown = wanted && !available.includes(wanted) ? () => this.showError(t("tok.unknownPreset", { name: wanted, fallback })) : null;
    unknown?.();
    this.el.text.value = this.url.get("text", SAMPLE);
    if (initial) this.el.select.value = initial;
    this.bind();
    this.counts.clear();
    if (initial) this.selectTokenizer(initial).then(unknown, () => {});
    this.engine.ready.catch((error) => {
      this.el.tokens.dataset.status = "error";
      this.el.tokens.replaceChildren(el("p", "placeholder", t("tok.noTokensError", { message: error.message })));
      this.list.reset();
      this.resolveWaiters();
    });
  }

  // Why a preset is not in this build is said only for the entry the learner asks for
  // (chosen, named in the link, or matched by the filter), not on every visit (issue 24).
  fillPresets() {
    this.picker.fill(this.manifest.presets);
    for (const preset of this.manifest.presets) {
      this.info.set(preset.id, { key: preset.id, label: preset.label, preset });
    }
    this.el.filter.addEventListener("input", () => {
      const asked = this.el.filter.value.trim() ? this.manifest.presets.filter(
        (p) => !p.file && !this.el.select.querySelector(`option[value="${CSS.escape(p.id)}"]`)?.hidden) : [];
      this.showMissing(asked);
    });
    this.showMissing([]);
  }

  // The note for the missing presets `asked` (the same reason once, after all the presets
  // it keeps out), and always the list of presets that failed to load.
  showMissing(asked) {
    this.el.note.textContent = missingNote(asked, this.manifest.error);
    this.el.note.hidden = !this.el.note.textContent;
  }

  bind() {
    const { text, select, openButton, file, showMore, backdrop } = this.el;
    text.addEventListener("input", () => this.textChanged());
    text.addEventListener("scroll", () => {
      backdrop.scrollTop = text.scrollTop;
      backdrop.scrollLeft = text.scrollLeft;
    });
    select.addEventListener("change", () => this.selectTokenizer(select.value).catch(() => {}));
    openButton.addEventListener("click", () => file.click());
    file.addEventListener("change", () => {
      if (file.files.length) this.openFile([...file.files]).catch(() => {});
      file.value = "";
    });
    this.links.bind();
    showMore.addEventListener("click", () => this.showMore());
    bindDrop((file) => this.openFile(file).catch(() => {}));
  }

  // ------------------------------------------------------------------ tokenizers
  tokenizerIds() {
    return [...this.info.keys()].filter((key) => !this.info.get(key).preset || this.info.get(key).preset.file);
  }

  ensureLoaded(key) {
    const info = this.info.get(key);
    if (!info) return Promise.reject(new Error(t("tok.noSuch", { key })));
    if (info.preset && !info.preset.file) {
      return Promise.reject(new Error(t("tok.missingPreset", { label: info.label, missing: info.preset.missing })));
    }
    if (!this.loaded.has(key)) {
      const request = this.openPreset(key, info);
      request.catch(() => this.loaded.delete(key));
      this.loaded.set(key, request);
    }
    return this.loaded.get(key);
  }

  // A preset is downloaded only now (from the Cache API after the first time), then opened.
  async openPreset(key, info) {
    const progress = (p) => this.picker.showProgress(key, p);
    try {
      const root = new URL("../", import.meta.url); // the site's root: views/ is one level down
      const { file, bytes, config } = await presetBytes(info.preset, root, progress);
      progress({ stage: "opening" });
      const details = await this.engine.request("openPreset", { key, file, bytes, config });
      return Object.assign(info, details, { label: info.label });
    } finally {
      progress({ stage: "done" });
    }
  }

  // Switch to a tokenizer; on failure the previous one stays in use.
  selectTokenizer(key) {
    const previous = this.current;
    const run = this.ensureLoaded(key).then(
      () => {
        this.current = key;
        this.el.select.value = key;
        this.picker.showDetails(key);
        this.rules.show(key, this.info.get(key));
        this.clearError();
        if (this.el.note.textContent && !this.el.filter.value.trim()) this.showMissing([]);
        this.url.set({ tokenizer: this.info.get(key).preset ? key : null });
        this.schedule();
      },
      (error) => {
        const preset = this.info.get(key)?.preset;
        if (preset && !preset.file) this.showMissing([preset]);
        this.el.select.value = previous || key;
        this.showError(t("tok.couldNotUse", { label: this.info.get(key)?.label || key, message: error.message })
          + this.stillUsing(previous));
        throw error;
      },
    );
    this.switching = run.catch(() => {}).finally(() => {
      if (this.switching === pending) this.switching = null;
      if (!this.inflight && !this.dirty) this.resolveWaiters();
    });
    const pending = this.switching;
    return run;
  }

  // One file, or several opened together (vocab.json + merges.txt, encoder.json + vocab.bpe).
  async openFile(fileOrFiles) {
    const files = [fileOrFiles].flat();
    const name = files.map((f) => f.name).join(" + ");
    const key = `file-${++this.fileCount}`;
    const previous = this.current;
    this.clearError();
    let details;
    try {
      const { args, buffers } = await openFileRequest(files, key);
      details = await this.engine.request("openFile", args, buffers);
    } catch (error) {
      this.showError(t("tok.couldNotOpen", { name, message: withoutName(error.message, files[0].name) })
        + this.stillUsing(previous));
      throw error;
    }
    const label = t("tok.fileLabel", { name, model: details.model, n: details.vocab_size });
    const info = { ...details, key, label };
    this.info.set(key, info);
    this.loaded.set(key, Promise.resolve(info));
    const option = document.createElement("option");
    option.value = key;
    option.textContent = label;
    this.el.opened.append(option);
    this.el.opened.hidden = false;
    return this.selectTokenizer(key);
  }

  stillUsing(key) {
    return key ? t("tok.stillUsing", { label: this.info.get(key).label }) : "";
  }

  // encodeError: about this text, so the next text that tokenizes clears it.
  showError(message, encodeError = false) {
    this.encodeFailed = encodeError;
    this.el.error.textContent = message;
    this.el.error.classList.add("shown");
  }

  clearError() {
    this.el.error.textContent = "";
    this.el.error.classList.remove("shown");
  }

  // ------------------------------------------------------------------ encoding
  textChanged() {
    this.windowChars = WINDOW_CHARS;
    this.url.set({ text: this.el.text.value });
    this.schedule();
  }

  setText(text) {
    this.el.text.value = text;
    this.textChanged();
    return this.settled();
  }

  // Latest wins: one request in flight at a time; keystrokes that arrive
  // meanwhile collapse into one more request, and replies for old text are dropped.
  schedule() {
    this.dirty = true;
    this.cue.pending();
    if (!this.inflight) this.run();
  }

  async run() {
    if (!this.current) return;
    this.dirty = false;
    this.inflight = true;
    const [key, text, limit] = [this.current, this.el.text.value, this.windowChars];
    // Send only what will be tokenized (plus one character, so Python sees the cut).
    const head = text.length > limit + 1 ? text.slice(0, limit + 2) : text;
    try {
      const special = this.rules.specialTokens(key) || null;
      const live = this.live;
      const base = live && live.key === key && live.specialTokens === special ? live.version : null;
      const asked = this.engine.request("call", {
        name: "encode_live", args: { key, text: head, limit, special, base },
      });
      if (head !== text) this.counts.start(text, key, special); // counted while the chips draw
      const result = this.follow(await asked, key, special);
      if (result && !this.dirty) this.render(result, text, key);
      if (result && !this.dirty && this.encodeFailed) this.clearError(); // that text's error is no longer true
    } catch (error) {
      if (error.kind === "cancelled" || error.kind === "timeout") this.lastFailure = { text, key };
      if (!this.dirty) {
        this.showError(t("tok.couldNotTokenize", { message: error.message }), true);
        this.el.tokens.dataset.status = "error";
        this.counts.unknown(text); // not the last text's figures beside this one
      }
    } finally {
      this.inflight = false;
      if (this.dirty) this.run();
      else {
        this.cue.settled();
        if (!this.switching) this.resolveWaiters();
      }
    }
  }

  // Every answer is followed, drawn or not, so the page's copy stays Python's.
  follow(answer, key, special) {
    this.live = answer.length === undefined ? null : followAnswer(this.live, answer, { key, special });
    if (!this.live) this.dirty = true; // out of step (never seen): ask again for all of it
    return this.live;
  }

  // Python came back after a restart (web/lib/engine.js reopened the tokenizers): draw
  // the tokens again. After a stop or a hang, wait for the next edit rather than run the
  // same work into the same wall.
  restored() {
    this.clearError();
    if (this.lastFailure?.text === this.el.text.value && this.lastFailure?.key === this.current) {
      this.showError(t("tok.notRetried"), true);
      this.counts.unknown(this.el.text.value);
      this.resolveWaiters();
      return;
    }
    this.schedule();
  }

  settled() {
    if (!this.inflight && !this.dirty && !this.switching && this.current) return Promise.resolve(this.state());
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  resolveWaiters() {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((resolve) => resolve(this.state()));
  }

  state() {
    const r = this.result;
    return {
      tokenizer: this.current,
      specialTokens: this.current ? this.rules.specialTokens(this.current) : null,
      text: this.el.text.value,
      ids: r ? r.ids.slice() : [],
      tokens: r ? r.tokens.slice() : [],
      offsets: r ? r.offsets.map((o) => o.slice()) : [],
      encodedChars: r ? r.encoded_chars : 0,
      shownTokens: r ? r.ids.length : 0,
      drawn: this.list.drawn(),
      renderedAt: this.renderedAt ?? null,
      paintedAt: this.paintedAt ?? null,
    };
  }

  // Without a key, the page's tokenizer, once a choice under way (at start-up: the first) ended.
  async encodeWith(text, key) {
    while (key == null && this.switching) await this.switching;
    key ??= this.current;
    if (!key) throw new Error(t("tok.noneOpen"));
    await this.ensureLoaded(key);
    const r = await this.engine.request("encode", { key, text, limit: null });
    return { ids: r.ids, tokens: r.tokens, offsets: r.offsets };
  }

  // "Why this token?": the token goes to the encode step view (the view switcher listens
  // for this event; no view imports another). Back calls returnTo.
  why(index) {
    const detail = whyDetail(this, index);
    if (detail) this.root.dispatchEvent(new CustomEvent("subwordlab:why", { bubbles: true, detail }));
  }

  // Back from the encode view: the same text, tokenizer and token as before.
  returnTo(index) {
    this.url.set({ text: this.el.text.value, tokenizer: this.info.get(this.current)?.preset ? this.current : null });
    this.links.focusToken(index);
  }

  // The chips scroll through every token encoded; "show more" encodes more of a long text.
  showMore() {
    this.windowChars += WINDOW_CHARS * 5;
    this.dirty = true;
    if (!this.inflight) this.run();
  }

  // ------------------------------------------------------------------ drawing
  render(result, text, key) {
    if (this.links.highlighted >= 0) this.links.highlight(-1);
    this.result = result;
    this.resultText = text;
    this.list.draw(result, text, key, this.info.get(key) || {});
    this.counts.follow(result, text, key);
    this.exporter.update();
    // For bench/bench_page.py: when the DOM was updated, and when it was painted
    // (the first task after the next animation frame runs after the paint).
    this.renderedAt = performance.now();
    const stamp = this.renderedAt;
    requestAnimationFrame(() => setTimeout(() => {
      if (this.renderedAt === stamp) this.paintedAt = performance.now();
    }, 0));
  }
}

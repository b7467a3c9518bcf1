// The encode view (?view=encode): one text encoded step by step by its tokenizer's model.
//
// The view owns the text box, the tokenizer choice and the loading state; the drawing of
// each step belongs to a renderer chosen by the model type (webapi.describe says which):
// WordPiece (encode/wordpiece.js), BPE (encode/bpe.js), Unigram (encode/unigram.js).
// A renderer is created with {root, player, engine}; its show(trace) returns the timeline
// the shared player plays: {length, render(k), narrate(k)}, k indexing the model events.
import { t } from "../i18n/index.js";
import { el, loadCss } from "../lib/dom.js";
import { labelled, textInput, statusLine, option, presetOptions, unknownLine, tell, tellStandIn } from "../lib/controls.js";
import { tokenChip } from "../lib/tokens.js";
import { precomputed } from "../lib/precomputed.js";
import { traceEncode, traceWhy, loadTokenizer, TOYS, TOY_ALGO, DEFAULT_FOR_ALGO } from "../lib/tokenizers.js";
import { createCodePanel, ENCODE_EVENT_PREFIX, playerWithCode } from "../lib/code-panel.js";
import "./encode/strings.js";

// ------------------------------------------------------------------ the view

const RENDERERS = {
  WordPiece: () => import("./encode/wordpiece.js").then((m) => m.createWordPieceEncodeRenderer),
  BPE: () => import("./encode/bpe.js").then((m) => m.createBpeEncodeRenderer),
  Unigram: () => import("./encode/unigram.js").then((m) => m.createUnigramEncodeRenderer),
};

const DEFAULT_TEXT = { wordpiece: "hugs", bpe: "hugs", unigram: "unhug" };

export function createView(context) {
  return new EncodeView(context);
}

class EncodeView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.renderers = new Map();
    this.run = 0;
    this.settledPromise = Promise.resolve();
    loadCss(new URL("./encode.css", import.meta.url));
    loadCss(new URL("./code.css", import.meta.url));
    this.code = createCodePanel();
    this.timeline = null; // the timeline on the player, whose events the Code panel shows
    // The player the renderers are given: the Code panel follows every timeline on it.
    this.codePlayer = playerWithCode(context.player, this.code, (timeline) => { this.timeline = timeline; });
    this.codeSettled = Promise.resolve();
    this.build();
  }

  build() {
    const root = this.root;
    root.classList.add("enc-view");
    const head = el("header", "enc-head");
    head.append(el("h2", "enc-title", t("encode.title")), el("p", "hint", t("encode.intro")));
    const controls = el("div", "enc-controls");
    this.select = el("select", "enc-select");
    this.select.dataset.testid = "encode-tokenizer";
    const toys = el("optgroup");
    toys.label = t("encode.toyGroup");
    toys.append(...Object.entries(TOYS).map(([algo, key]) => option(key, t(`encode.toy.${algo}`))));
    const presets = el("optgroup");
    presets.label = t("encode.presetGroup");
    presets.append(...presetOptions(this.context.manifest.presets));
    this.select.append(toys, presets);
    this.input = textInput("encode-text");
    // A word of "why this token?" with line breaks: the one-line box drops them, so it says so.
    this.breaks = el("p", "hint enc-breaks", t("encode.lineBreaks"));
    this.breaks.dataset.testid = "encode-line-breaks";
    this.breaks.hidden = true;
    controls.append(labelled(t("encode.tokenizer"), this.select),
      labelled(t("encode.text"), this.input, "enc-text-field"));
    this.vocabBox = el("div", "enc-vocab");
    this.vocabBox.dataset.testid = "encode-vocab";
    this.status = statusLine("encode-status");
    this.unknown = unknownLine("encode-unknown");
    this.stage = el("div", "enc-stage");
    this.stage.dataset.testid = "encode-stage";
    this.playerBox = el("div", "enc-player");
    this.back = el("button", "button enc-back", t("encode.back"));
    this.back.type = "button";
    this.back.dataset.testid = "why-back";
    this.back.hidden = true;
    head.prepend(this.back);
    this.code.clear();
    root.replaceChildren(head, controls, this.unknown, this.breaks, this.vocabBox, this.status, this.playerBox, this.stage, this.code.root);
    this.select.addEventListener("change", () => { tell(this.unknown, ""); this.choose(this.select.value); });
    let timer = 0;
    this.input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.context.urlState.set({ text: this.input.value, step: null });
        this.why = null;
        this.load({ step: 0 });
      }, 250);
    });
  }

  // The key from the URL: corpus=course-toy with algo= gives a toy; else tokenizer=.
  keyFromUrl() {
    const url = this.context.urlState;
    const algo = url.get("algo", null);
    if (url.get("corpus", null) === "course-toy" && TOYS[algo]) return TOYS[algo];
    const wanted = url.get("tokenizer", null);
    if (wanted) return wanted;
    return DEFAULT_FOR_ALGO[algo] || "course-toy-wordpiece";
  }

  // "Why this token?" asks for the steps of one token of the tokenize view's text
  // ({key, text, index, limit, special}); the next activation traces that, not the word alone.
  focusOn(focus) {
    this.focus = focus;
  }

  activate() {
    this.why = this.focus || null;
    this.focus = null;
    this.context.placePlayer(this.playerBox);
    const url = this.context.urlState;
    this.key = this.keyFromUrl();
    // A name that is neither an option nor a file opened in the page: the course's toy instead.
    const asked = this.key;
    const known = [...this.select.options].some((o) => o.value === asked) || this.context.tokenize.info?.has(asked);
    if (!known) this.key = "course-toy-wordpiece";
    this.ensureOption(this.key);
    this.select.value = this.key;
    tellStandIn(this.unknown, asked, known, this.select);
    this.offerBack(null);
    const algo = TOY_ALGO[this.key];
    this.input.value = url.get("text", null) ?? (DEFAULT_TEXT[algo] || "Tokenizers split unbelievable words.");
    const step = Number(url.get("step", "0")) || 0;
    this.load({ step });
  }

  // A tokenizer opened in the page (file-N) has no option until it is asked for.
  ensureOption(key) {
    if ([...this.select.options].some((o) => o.value === key)) return;
    const info = this.context.tokenize.info?.get(key);
    this.select.append(option(key, info?.label || key));
  }

  // "Why this token?" came here: a Back button returns to the token in the text.
  offerBack(back) {
    this.back.hidden = !back;
    this.back.onclick = back;
  }

  deactivate() {
    this.run++;
    this.context.player.pause();
  }

  settled() { return this.settledPromise.then((value) => { this.context.player.drawNow(); return value; }); }

  choose(key) {
    this.key = key;
    this.why = null;
    const algo = TOY_ALGO[key];
    if (algo) this.context.urlState.set({ corpus: "course-toy", algo, tokenizer: null, step: null });
    else this.context.urlState.set({ corpus: null, algo: null, tokenizer: key, step: null });
    this.load({ step: 0 });
  }

  say(key, params) {
    this.status.textContent = key ? t(key, params) : "";
    this.status.hidden = !key;
  }

  load({ step }) {
    const run = ++this.run;
    this.code.clear();
    this.breaks.hidden = true;
    this.settledPromise = this.trace(run, step).catch((error) => {
      if (run === this.run) {
        this.say("encode.error", { message: error.message || String(error) });
        this.context.player.load({ length: 0, render: () => {}, narrate: () => "" });
        this.stage.replaceChildren();
      }
    });
    return this.settledPromise;
  }

  // A course toy with its default text was traced at build time by the same Python code
  // (tools/precompute.py): draw that at once. Python still opens the toy in the background,
  // for what renderers ask it later (the Unigram n-best list).
  async storedTrace(key, text) {
    const algo = TOY_ALGO[key];
    if (!algo) return null;
    const [opened, traced] = await Promise.all([
      precomputed.lookup("open_toy", { corpus: "course-toy", algo }),
      precomputed.lookup("trace_encode", { key, text }),
    ]);
    if (!opened || !traced) return null;
    loadTokenizer(this.context, key).catch(() => {});
    const { ids, tokens, offsets } = traced.result;
    return { info: opened.result, trace: { events: traced.events, ids, tokens, offsets, text, key } };
  }

  async trace(run, step) {
    const { engine, player } = this.context;
    const key = this.key;
    const text = this.input.value;
    const stored = await this.storedTrace(key, text);
    if (run !== this.run) return;
    if (!stored && engine.stage !== "ready") this.say("encode.waiting");
    if (!stored) await engine.ready;
    if (run !== this.run) return;
    this.say("encode.loading");
    const info = stored ? stored.info : await loadTokenizer(this.context, key);
    if (run !== this.run) return;
    this.showVocab(key, info);
    // Spaces alone are a text (byte-level models give them tokens), and "why this token?"
    // on a line break has one though the one-line box cannot hold it.
    const why = this.why?.key === key ? this.why : null;
    if (!text && !why) {
      this.say("encode.empty");
      player.load({ length: 0, render: () => this.stage.replaceChildren(), narrate: () => "" });
      return;
    }
    this.say("encode.tracing");
    const trace = stored ? stored.trace : why ? await traceWhy(engine, why) : await traceEncode(engine, key, text);
    if (run !== this.run) return;
    trace.info = info;
    if (trace.why) {
      this.input.value = trace.why.text;
      this.breaks.hidden = !/[\r\n]/.test(trace.why.text);
      if (trace.why.added) {
        this.say("encode.added", { token: trace.tokens[0] });
        player.load({ length: 0, render: () => this.stage.replaceChildren(), narrate: () => "" });
        return;
      }
    }
    const factory = RENDERERS[info.model];
    if (!factory) {
      this.say("encode.unsupported", { model: info.model });
      return;
    }
    const renderer = await this.renderer(info.model, factory);
    if (run !== this.run) return;
    this.say(null);
    this.codePlayer.load(renderer.show(trace), step);
    this.codeSettled = this.loadCode(run, trace, info.model).catch(() => this.code.clear());
    await new Promise((resolve) => requestAnimationFrame(resolve)); // the player draws in this frame
  }

  // The reference's steps for this trace (webapi.reference_encode): after the drawing,
  // since a toy's stored trace is drawn before Python is ready.
  async loadCode(run, trace, model) {
    const prefix = ENCODE_EVENT_PREFIX[model];
    if (!prefix) return;
    const { engine } = this.context;
    this.code.wait();
    await engine.ready;
    await loadTokenizer(this.context, trace.key);
    if (run !== this.run) return;
    const answer = await engine.request("call", { name: "reference_encode", args: { key: trace.key, text: trace.text } });
    if (run !== this.run) return;
    this.code.load(answer, trace.events.filter((e) => e.type.startsWith(prefix)));
    this.code.show(this.timeline?.event?.(this.context.player.k) ?? null);
  }

  async renderer(model, factory) {
    if (!this.renderers.has(model)) {
      const create = await factory();
      const root = el("div", "enc-renderer");
      this.renderers.set(model, create({ root, player: this.codePlayer, engine: this.context.engine }));
      this.renderers.get(model).root = root;
    }
    const renderer = this.renderers.get(model);
    this.stage.replaceChildren(renderer.root);
    return renderer;
  }

  showVocab(key, info) {
    const algo = TOY_ALGO[key];
    if (!algo || !Array.isArray(info.vocab)) {
      this.vocabBox.replaceChildren();
      this.vocabBox.hidden = true;
      return;
    }
    this.vocabBox.hidden = false;
    const list = el("div", "enc-vocab-list");
    info.vocab.forEach((token, id) => list.append(tokenChip(token, id, info, { testid: "vocab-token" })));
    const parts = [el("p", "enc-vocab-title", t("encode.vocab", { n: info.vocab.length })), list];
    if (algo === "wordpiece" || algo === "bpe") parts.push(el("p", "hint", t(`encode.vocabNote.${algo}`)));
    this.vocabBox.replaceChildren(...parts);
  }
}

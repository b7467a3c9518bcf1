// <subword-lab>: Subword Lab inside someone else's page, with one <script type="module">.
//
//   <script type="module" src="https://example.org/subword-lab/embed.js"></script>
//   <subword-lab view="train" algo="wordpiece" corpus="course-toy" vocab-size="12" step="3"></subword-lab>
//
// Every asset is resolved from this module's own URL, so the host page may live on another
// origin. All widgets on a page share one Python worker (and one training worker). A browser
// only starts a Worker from the page's own origin, so for a foreign page the worker is a
// same-origin blob: module whose one line imports our worker.js (served with CORS).
// The only global is window.SubwordLab (counters and the shared engine, for tests and hosts).
import { Engine } from "./lib/engine.js";
import { Trainer } from "./lib/trainer.js";
import { Player } from "./lib/player.js";
import { register, setLang, t, LANGUAGES } from "./i18n/index.js";
import { TokenizeWidget } from "./embed-tokenize.js";
import { el, keepSheetsOutOfHead } from "./lib/dom.js";
import { fetchViewModules } from "./lib/view-modules.js";
import { follow, hostIsDark, unfollow } from "./embed-theme.js";

const BASE = new URL("./", import.meta.url);
const asset = (path) => new URL(path, BASE).href;

register({
  en: {
    "embed.loading": "Starting Subword Lab…",
    "embed.badView": "Subword Lab: unknown view “{value}”. Use one of: {list}.",
    "embed.badChoice": "Subword Lab: “{value}” is not a valid {name}. Use one of: {list}.",
    "embed.badNumber": "Subword Lab: {name} must be a whole number, not “{value}”.",
    "embed.badTokenizer": "Subword Lab: there is no tokenizer preset called “{value}”. Available: {list}.",
    "embed.failed": "Subword Lab could not start: {message}",
    "embed.openFull": "Open Subword Lab in its own page",
    "embed.noFiles": "A tokenizer you train here can be used in the full Subword Lab page, not in this embedded one.",
  },
  vi: {
    "embed.loading": "Đang khởi động Subword Lab…",
    "embed.badView": "Subword Lab: không có chế độ xem “{value}”. Hãy dùng một trong: {list}.",
    "embed.badChoice": "Subword Lab: “{value}” không phải là {name} hợp lệ. Hãy dùng một trong: {list}.",
    "embed.badNumber": "Subword Lab: {name} phải là số nguyên, không phải “{value}”.",
    "embed.badTokenizer": "Subword Lab: không có bộ tách từ mẫu nào tên “{value}”. Có sẵn: {list}.",
    "embed.failed": "Subword Lab không khởi động được: {message}",
    "embed.openFull": "Mở Subword Lab trong trang riêng",
    "embed.noFiles": "Bộ tách từ bạn huấn luyện ở đây dùng được trong trang Subword Lab đầy đủ, không dùng được trong bản nhúng này.",
  },
  zh: {
    "embed.loading": "正在启动 Subword Lab…",
    "embed.badView": "Subword Lab：没有名为“{value}”的视图。可用：{list}。",
    "embed.badChoice": "Subword Lab：“{value}”不是有效的 {name}。可用：{list}。",
    "embed.badNumber": "Subword Lab：{name} 必须是整数，而不是“{value}”。",
    "embed.badTokenizer": "Subword Lab：没有名为“{value}”的预设分词器。可用：{list}。",
    "embed.failed": "Subword Lab 无法启动：{message}",
    "embed.openFull": "在单独的页面中打开 Subword Lab",
    "embed.noFiles": "在这里训练的分词器可以在完整的 Subword Lab 页面中使用，不能在这个嵌入版本中使用。",
  },
});

// ------------------------------------------------------------------ shared, once per page
const namespace = (window.SubwordLab ??= { version: 1, workers: 0, elements: 0 });
keepSheetsOutOfHead(); // each widget's frame links the views' sheets itself (CSS below)

function workerUrl() {
  const url = asset("./worker.js");
  if (new URL(url).origin === location.origin) return url;
  const source = `import ${JSON.stringify(url)};\n`;
  return URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
}

let shared = null;
function sharedEngine() {
  if (!shared) {
    const url = workerUrl();
    namespace.workers += 1;
    shared = { engine: new Engine(url), url, trainer: null, manifest: null, tokenizers: null };
    namespace.engine = shared.engine;
  }
  return shared;
}

function sharedManifest() {
  const s = sharedEngine();
  s.manifest ??= fetch(asset("./presets/presets.json"), { credentials: "omit" }).then((r) => {
    if (!r.ok) throw new Error(`presets.json: HTTP ${r.status}`);
    return r.json();
  });
  return s.manifest;
}

// One training worker for every train widget; runs take turns instead of cancelling each other.
class SharedTrainer {
  constructor(trainer) { this.trainer = trainer; this.queue = Promise.resolve(); }
  warmOnIntent(form, ready) { return this.trainer.warmOnIntent(form, ready); }
  get stage() { return this.trainer.stage; }
  run(args, onEvents) {
    const turn = this.queue.then(() => this.trainer.run(args, onEvents));
    this.queue = turn.catch(() => {});
    return turn;
  }
  cancel() { return this.trainer.cancel(); }
}
function sharedTrainer() {
  const s = sharedEngine();
  s.trainer ??= new SharedTrainer(new Trainer(s.url));
  return s.trainer;
}

// What the views call "tokenize": the presets, opened once in the shared worker.
function sharedTokenizers(manifest) {
  const s = sharedEngine();
  if (s.tokenizers) return s.tokenizers;
  const loaded = new Map();
  const presets = () => (manifest.presets || []).filter((p) => p.file);
  s.tokenizers = {
    tokenizerIds: () => presets().map((p) => p.id),
    // What a reader sees in a picker: the preset's name, not its id, and the notice its
    // licence asks to show where the model is used ("Built with Meta Llama 3").
    labelOf: (key) => {
      const preset = presets().find((p) => p.id === key);
      if (!preset) return key;
      return preset.notice ? `${preset.label} (${preset.notice})` : preset.label;
    },
    ensureLoaded(key) {
      const preset = presets().find((p) => p.id === key);
      if (!preset) return Promise.reject(new Error(t("embed.badTokenizer", { value: key, list: presets().map((p) => p.id).join(", ") })));
      if (!loaded.has(key)) {
        const request = s.engine.request("openPreset", { key, file: (preset.pack || preset).file })
          .then((details) => ({ ...details, label: preset.label, key }));
        request.catch(() => loaded.delete(key));
        loaded.set(key, request);
      }
      return loaded.get(key);
    },
    async encodeWith(text, key) {
      await this.ensureLoaded(key);
      return s.engine.request("encode", { key, text, limit: 20000 });
    },
    openFile: () => Promise.reject(new Error(t("embed.noFiles"))),
  };
  return s.tokenizers;
}

// ------------------------------------------------------------------ configuration
export const VIEWS = ["tokenize", "pipeline", "train", "encode", "compare"];
const MODULES = {
  pipeline: "./views/pipeline.js", train: "./views/train.js",
  encode: "./views/encode.js", compare: "./views/compare.js",
};

// The page's sheets, then the widget's own. frame() puts the palette before them, and
// palette-dark.css, which applies for theme="dark", or, with no theme (or "auto"), when
// the host page around the widget is dark (see hostIsDark).
const CSS = ["./style.css", "./textbox.css", "./views/encode.css", "./views/pipeline.css", "./views/compare.css",
  "./views/train.css", "./views/unigram.css", "./views/code.css", "./embed.css"];
// attribute -> the URL key the views read (the app's own link parameters)
const KEYS = {
  view: "view", algo: "algo", corpus: "corpus", "vocab-size": "vocab_size", text: "text",
  tokenizer: "tokenizer", tokenizers: "tokenizers", step: "step", "tie-break": "tie_break",
  method: "method",
};
const CHOICES = {
  algo: ["bpe", "wordpiece", "unigram"],
  corpus: ["course-toy", "course-sentences", "botchan"],
  "tie-break": ["hf", "first"],
  method: ["em", "exact"],
  theme: ["light", "dark", "auto"],
  lang: LANGUAGES,
};
const NUMBERS = ["vocab-size", "step", "height"];
export const ATTRIBUTES = [...Object.keys(KEYS), "autoplay", "lang", "theme", "height"];

class ConfigError extends Error {}

function check(attrs, manifest) {
  const view = attrs.view ?? "tokenize";
  if (!VIEWS.includes(view)) throw new ConfigError(t("embed.badView", { value: view, list: VIEWS.join(", ") }));
  for (const [name, list] of Object.entries(CHOICES)) {
    if (attrs[name] != null && !list.includes(attrs[name])) {
      throw new ConfigError(t("embed.badChoice", { value: attrs[name], name, list: list.join(", ") }));
    }
  }
  for (const name of NUMBERS) {
    const value = attrs[name];
    if (value != null && !/^\s*\d+\s*(px)?\s*$/.test(value)) throw new ConfigError(t("embed.badNumber", { name, value }));
  }
  const ids = (manifest.presets || []).filter((p) => p.file).map((p) => p.id);
  const wanted = [attrs.tokenizer, ...(attrs.tokenizers || "").split(",")].filter(Boolean);
  for (const id of wanted) {
    if (!ids.includes(id)) throw new ConfigError(t("embed.badTokenizer", { value: id, list: ids.join(", ") }));
  }
  return view;
}

// The views' URL state, kept in the element instead of the address bar.
function attributeState(attrs, onSet) {
  const values = new Map();
  for (const [attr, key] of Object.entries(KEYS)) if (attrs[attr] != null) values.set(key, attrs[attr].trim?.() ?? attrs[attr]);
  if (attrs.text != null) values.set("text", attrs.text); // the text keeps its spaces
  if (attrs.view === "train" && !values.has("corpus") && !values.has("algo")) values.set("corpus", "course-toy");
  return {
    get: (key, fallback = null) => (values.has(key) ? values.get(key) : fallback),
    set(changes) {
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === undefined || value === "") values.delete(key);
        else values.set(key, String(value));
      }
      onSet?.(changes);
    },
    values,
  };
}

// ------------------------------------------------------------------ the element

const BASE_SHEET = (() => {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(":host { display: block; min-height: 2.5rem; } :host([hidden]) { display: none; }");
    return sheet;
  } catch {
    return null;
  }
})();

export class SubwordLabElement extends HTMLElement {
  static get observedAttributes() { return ATTRIBUTES; }

  constructor() {
    super();
    this.shadow = this.attachShadow({ mode: "open" });
    // A block from the first frame, before embed.css has arrived (no inline <style>: CSP-safe).
    if (BASE_SHEET) this.shadow.adoptedStyleSheets = [BASE_SHEET];
    this.generation = 0;
    this.instance = null;
  }

  connectedCallback() {
    if (!this.counted) { namespace.elements += 1; this.counted = true; }
    this.schedule();
  }

  disconnectedCallback() { this.teardown(); unfollow(this); }

  attributeChangedCallback(name, before, after) {
    if (before !== after && this.isConnected) this.schedule();
  }

  // Several attributes set in a row give one rebuild.
  schedule() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      if (this.isConnected) this.build().catch((error) => this.fail(error));
    });
  }

  attrs() {
    return Object.fromEntries(ATTRIBUTES.filter((a) => this.hasAttribute(a)).map((a) => [a, this.getAttribute(a)]));
  }

  teardown() {
    this.generation += 1;
    this.instance?.deactivate?.();
    this.instance = null;
    this.player?.pause();
  }

  frame() {
    const files = ["./palette.css", "./palette-dark.css", ...CSS];
    const links = files.map((file) => {
      const link = el("link");
      link.rel = "stylesheet";
      link.href = asset(file);
      return link;
    });
    this.darkSheet = links[1];
    this.applyTheme();
    const frame = el("div", "sl-frame");
    frame.dataset.testid = "embed-frame";
    this.shadow.replaceChildren(...links, frame);
    return frame;
  }

  async build() {
    this.teardown();
    const run = this.generation;
    const attrs = this.attrs();
    const lang = LANGUAGES.includes(attrs.lang) ? attrs.lang : null;
    if (lang) setLang(lang);
    this.applyBox(attrs);
    const frame = this.frame();
    frame.lang = lang || document.documentElement.lang || "en";
    const status = el("p", "sl-status hint", t("embed.loading"));
    status.dataset.testid = "embed-status";
    frame.append(status);
    this.dataset.state = "loading";
    const { engine } = sharedEngine();
    // The view's modules download while the manifest comes (import() is fetched once).
    fetchViewModules(attrs.view ?? "tokenize"); // while the manifest comes
    const manifest = await sharedManifest();
    if (run !== this.generation) return;
    const view = check(attrs, manifest);
    this.dataset.view = view;
    const state = attributeState(attrs);
    const root = el("section", "view sl-view");
    root.dataset.view = view;
    const slot = el("div", "player-slot");
    slot.hidden = true;
    status.remove();
    frame.append(root);
    const player = new Player({
      container: slot, scope: frame,
      onPosition: (k) => this.stepped(k, state),
    });
    this.player = player;
    const context = {
      engine, manifest, urlState: state, tokenize: sharedTokenizers(manifest), player, root,
      trainer: view === "train" ? sharedTrainer() : undefined,
      placePlayer: (container) => {
        if (container) container.append(slot);
        slot.hidden = !container;
      },
    };
    let instance;
    if (view === "tokenize") {
      instance = new TokenizeWidget(context);
    } else {
      const module = await import(MODULES[view]);
      if (run !== this.generation) return;
      instance = module.createView(context);
    }
    this.instance = instance;
    await instance.activate({ initial: true });
    await instance.settled?.();
    await engine.ready;
    if (run !== this.generation) return;
    const error = frame.querySelector(".train-error:not([hidden]):not(:empty), .error:not(:empty)");
    this.dataset.state = "ready";
    this.dispatchEvent(new CustomEvent("subwordlab:ready", {
      bubbles: true, composed: true, detail: { view, error: error ? error.textContent : null },
    }));
    if (attrs.autoplay != null && player.length > 0) player.play();
  }

  stepped(k, state) {
    state.values.set("step", String(k));
    const tl = this.player?.timeline;
    let narration = "";
    try { narration = tl ? String(tl.narrate(k) ?? "") : ""; } catch { narration = ""; }
    this.dataset.step = String(k);
    this.dispatchEvent(new CustomEvent("subwordlab:step", {
      bubbles: true, composed: true, detail: { step: k, length: tl ? tl.length : 0, narration },
    }));
  }

  // data-theme (light or dark) says which palette the widget shows now.
  applyTheme() {
    const theme = this.getAttribute("theme");
    const follows = theme !== "light" && theme !== "dark";
    if (follows) {
      follow(this);
    } else unfollow(this);
    const dark = follows ? hostIsDark(this) : theme === "dark";
    this.dataset.theme = dark ? "dark" : "light";
    if (this.darkSheet) this.darkSheet.media = dark ? "all" : "not all";
  }

  applyBox(attrs) {
    const height = attrs.height && /^\s*\d+\s*(px)?\s*$/.test(attrs.height) ? parseInt(attrs.height, 10) : null;
    this.style.height = height ? `${height}px` : "";
  }

  fail(error) {
    const message = error instanceof ConfigError ? error.message : t("embed.failed", { message: error.message || String(error) });
    const frame = this.frame();
    const box = el("p", "sl-error", message);
    box.dataset.testid = "embed-error";
    box.setAttribute("role", "alert");
    if (!(error instanceof ConfigError)) {
      // The widget could not start (often a host that does not allow it, see
      // docs/hosting.md): the full page may still work, so offer it.
      const link = el("a", "", t("embed.openFull"));
      link.href = new URL("index.html", BASE).href;
      link.target = "_blank";
      link.rel = "noopener";
      box.append(" ", link);
    }
    frame.append(box);
    this.dataset.state = "error";
    this.dispatchEvent(new CustomEvent("subwordlab:error", { bubbles: true, composed: true, detail: { message } }));
  }
}

if (!customElements.get("subword-lab")) customElements.define("subword-lab", SubwordLabElement);
namespace.assetBase = BASE.href;

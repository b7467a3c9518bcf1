// Subword Lab's page: start the Python worker, draw the views, publish the automation API.
import { engine } from "./start.js";
import { lang, missing, t, translate } from "./i18n/index.js";
import "./i18n/page.js";
import "./i18n/tokenize.js";
import * as urlState from "./lib/urlstate.js";
import { TokenizeView } from "./views/tokenize.js";
import { showPrecomputed } from "./views/tokenize/first-paint.js";
import { precomputed } from "./lib/precomputed.js";
import { ViewSwitcher } from "./view-switcher.js";
import { fetchViewModules } from "./lib/view-modules.js";
import { localizePresets } from "./i18n/presets.js";

const root = document.documentElement;
root.dataset.engine = "loading";
// The language: ?lang=, else the browser's, else English (web/i18n/index.js). Static markup first.
root.lang = lang();
translate(document);
bindLanguageSelect();

// How Python started (data-start: "snapshot" or "fresh") and what became of the snapshot
// a fresh start made (data-snapshot: "stored" or "failed"); docs/automation.md.
const started = { start: null, snapshot: null };
engine.ready.then((versions) => { started.start = root.dataset.start = versions.start; }, () => {});
engine.onSnapshot((report) => { started.snapshot = report; root.dataset.snapshot = report.state; });
const STAGES = ["runtime", "python", "install"];

function showStage(stage, detail) {
  const box = document.getElementById("engine");
  const reached = STAGES.indexOf(stage);
  for (const item of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll("[data-stage]"))) {
    const index = STAGES.indexOf(item.dataset.stage);
    item.classList.toggle("done", stage === "ready" || (reached >= 0 && index < reached));
    item.classList.toggle("active", index === reached);
    if (index === reached) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  if (stage === "ready") markReady();
  if (stage === "error") {
    root.dataset.engine = "error";
    document.getElementById("engine-error").textContent =
      t("engine.error", { message: detail && detail.message ? detail.message : t("engine.unknownError") });
  }
  box.dataset.stage = stage;
}
// data-engine="ready" promises window.subwordLab too (docs/automation.md). Python can be up
// before it exists (a snapshot start while presets.json still loads, below), so the
// attribute waits for it: set here once both hold.
function markReady() {
  if (engine.stage === "ready" && window.subwordLab) root.dataset.engine = "ready";
}
engine.onStatus(showStage);
showStage(engine.stage);
bindRecovery();

// Long work can be stopped (the Stop button, subwordLab.cancel()), and a worker that
// stops answering is replaced; either way the page says what happened, and the
// tokenizers and the text come back by themselves.
function bindRecovery() {
  const stop = document.getElementById("engine-stop");
  const note = document.getElementById("engine-note");
  stop.addEventListener("click", () => engine.cancel());
  engine.onBusy((busy) => { stop.hidden = !busy; });
  engine.onStatus((stage, detail) => {
    if (stage !== "restarting") return;
    root.dataset.engine = "restarting";
    // A regex that hung: the engine's message names the file, the field and the pattern.
    note.textContent = detail.reason === "regex" ? detail.message
      : t(detail.reason === "cancelled" ? "engine.stopped" : "engine.stuck", { seconds: detail.seconds ?? 0 });
  });
  engine.onRestored((detail) => {
    root.dataset.engine = "ready";
    note.textContent = detail.reason === "regex" ? detail.restoredMessage : t("engine.restored");
    tokenize.restored();
  });
}

// Switching language reloads the page with the same state and ?lang= (every string is
// drawn once from the catalogs, so a reload is the honest way to redraw them all).
function bindLanguageSelect() {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("lang-select"));
  select.value = lang();
  select.addEventListener("change", () => {
    const params = new URLSearchParams(location.search);
    params.set("lang", select.value);
    location.search = params.toString();
  });
}

async function loadManifest() {
  try {
    const response = await fetch(new URL("./presets/presets.json", import.meta.url));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return localizePresets(await response.json());
  } catch (error) {
    return { presets: [], corpora: [], error: String(error.message || error) };
  }
}

precomputed.warm(); // the default text's tokens come with its index (tools/precompute.py)
fetchViewModules(urlState.get("view", "tokenize")); // a link to a view: its modules come with the manifest
const manifest = await loadManifest();
const tokenize = new TokenizeView({ engine, urlState, manifest, root: document.getElementById("view-tokenize") });
tokenize.start();
const firstPaint = showPrecomputed(tokenize, tokenize.el.select.value).catch(() => false);
const views = new ViewSwitcher({ engine, urlState, manifest, tokenize });
views.start();
import("./share.js").then((share) => share.mount()); // Copy link / Copy embed code (issue 6)
performance.mark("subwordlab:interface"); // controls drawn and wired (bench/bench_page.py)
// The tokenize view is shown once drawn, stored tokens included (style.css: data-drawn).
firstPaint.then(() => { root.dataset.drawn = "true"; });
engine.ready.then(() => performance.mark("subwordlab:ready"), () => {});
engine.ready.then(keepOffline, () => {});

// A second visit, and a visit offline, start from the service worker's cache (web/sw.js),
// registered once Python is up so that filling it competes with nothing. ?nosw removes it.
function keepOffline() {
  const container = navigator.serviceWorker;
  if (!container) return; // an insecure origin, or a browser without service workers
  if (new URLSearchParams(location.search).has("nosw")) {
    container.getRegistration().then((r) => r && r.unregister()).catch(() => {});
    return;
  }
  container.register(new URL("./sw.js", import.meta.url)).catch(() => {}); // the page works without
}

// The automation contract (docs/automation.md). Stable: add, never change.
// `ready` rejects when Python cannot start; the page shows that itself, so an
// unobserved rejection must not also surface as an uncaught error.
const ready = engine.ready.then(() => true);
ready.catch(() => {});
window.subwordLab = {
  version: 1,
  ready,
  presets: () => manifest.presets.map((p) => p.id),
  tokenizers: () => tokenize.tokenizerIds(),
  encode: (text, tokenizer) => tokenize.encodeWith(String(text), tokenizer),
  setText: (text) => tokenize.setText(String(text)),
  setTokenizer: (id) => tokenize.selectTokenizer(id),
  settled: () => tokenize.settled(),
  state: () => tokenize.state(),
  onEvents: (fn) => engine.onEvents(fn),
  call: (name, args) => engine.request("call", { name, args }),
  view: () => views.current,
  showView: (name) => views.show(name),
  player: () => views.player,
  lang: () => lang(),
  missingStrings: () => missing(),
  // Stop what Python is doing now; resolves true if something was stopped.
  cancel: () => Promise.resolve(engine.cancel()),
  restarts: () => engine.restarts,
  // {start: "snapshot"|"fresh", snapshot: {state, size, stored, makeMs, storeMs} | null}
  started: () => ({ ...started }),
};
markReady(); // Python may have been up before the API above existed

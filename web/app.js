// Subword Lab's page: start the Python worker, draw the views, publish the automation API.
import { Engine } from "./engine.js";
import * as urlState from "./urlstate.js";
import { TokenizeView } from "./views/tokenize.js";
import { ViewSwitcher } from "./views.js";

const root = document.documentElement;
root.dataset.engine = "loading";

const engine = new Engine(new URL("./worker.js", import.meta.url));
const STAGES = ["runtime", "python", "install"];

function showStage(stage, detail) {
  const box = document.getElementById("engine");
  const reached = STAGES.indexOf(stage);
  for (const item of box.querySelectorAll("[data-stage]")) {
    const index = STAGES.indexOf(item.dataset.stage);
    item.classList.toggle("done", stage === "ready" || (reached >= 0 && index < reached));
    item.classList.toggle("active", index === reached);
    if (index === reached) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  if (stage === "ready") root.dataset.engine = "ready";
  if (stage === "error") {
    root.dataset.engine = "error";
    document.getElementById("engine-error").textContent =
      `Python could not start: ${detail && detail.message ? detail.message : "unknown error"}. Reload the page to try again.`;
  }
  box.dataset.stage = stage;
}
engine.onStatus(showStage);
showStage(engine.stage);

async function loadManifest() {
  try {
    const response = await fetch(new URL("./presets/presets.json", import.meta.url));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.json();
  } catch (error) {
    return { presets: [], corpora: [], error: String(error.message || error) };
  }
}

const manifest = await loadManifest();
const tokenize = new TokenizeView({ engine, urlState, manifest, root: document.getElementById("view-tokenize") });
tokenize.start();
const views = new ViewSwitcher({ engine, urlState, manifest, tokenize });
views.start();
performance.mark("subwordlab:interface"); // controls drawn and wired (bench/bench_page.py)
engine.ready.then(() => performance.mark("subwordlab:ready"), () => {});

// The automation contract (docs/automation.md). Stable: add, never change.
window.subwordLab = {
  version: 1,
  ready: engine.ready.then(() => true),
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
};

// Subword Lab's widgets in a notebook (anywidget: JupyterLab, Notebook 7, VS Code, marimo).
// The kernel computes with the CPython library; these modules draw with the page's own parts
// (lib/tokens.js's chips, lib/player.js, the train view's renderers). The Python side
// (subword_lab/notebook/) packs this module and its imports into the widget's _esm; its
// loader calls useSheets() once, then initialize() per widget model and render() per view.
//
// Each view lives in a shadow root holding the page's sheets, so the notebook's styles and
// ours never meet. The palette follows the notebook's theme (dark when the host is dark).
import { el, keepSheetsOutOfHead } from "./lib/dom.js";
import { hostIsDark, follow, unfollow } from "./embed-theme.js";
import { renderTokens } from "./notebook-tokens.js";
import { renderTraining, initializeTraining } from "./notebook-training.js";
import { renderSteps } from "./notebook-steps.js";
import { renderCompare } from "./notebook-compare.js";

keepSheetsOutOfHead(); // the views must not link sheets into the notebook's own page

let sheets = [];
export function useSheets(list) { sheets = list; }

// A view's frame: a shadow root with the sheets, and the widget's root inside it.
export function frame(host, kind) {
  const box = el("div", "subword-lab-notebook");
  host.append(box);
  const shadow = box.attachShadow({ mode: "open" });
  const styles = sheets.map(([name, text]) => {
    const style = document.createElement("style");
    style.dataset.sheet = name;
    style.textContent = text;
    return style;
  });
  const dark = styles.find((s) => s.dataset.sheet === "palette-dark.css");
  const root = el("div", `nb-widget nb-${kind}`);
  root.dataset.testid = `notebook-${kind}`;
  shadow.append(...styles, root);
  const follower = {
    applyTheme() {
      // JupyterLab says it on <body>; elsewhere (VS Code, marimo) the background behind us does
      const light = document.body?.dataset.jpThemeLight;
      const isDark = light ? light === "false" : hostIsDark(box);
      if (dark) dark.media = isDark ? "all" : "not all";
      root.dataset.theme = isDark ? "dark" : "light";
    },
  };
  follower.applyTheme();
  follow(follower); // looks again when <body>'s class or style changes, as a theme switch does
  // A view is drawn before the notebook puts it in the page: look again once it is there.
  let frame = 0;
  const untilPlaced = () => { frame = box.isConnected ? 0 : requestAnimationFrame(untilPlaced); if (!frame) follower.applyTheme(); };
  untilPlaced();
  return { root, box, close() { cancelAnimationFrame(frame); unfollow(follower); box.remove(); } };
}

export function initialize({ model }) {
  if (model.get("widget") === "training") initializeTraining(model);
}

export function render({ model, el: host }) {
  const kind = model.get("widget");
  const view = frame(host, kind);
  const draw = { training: renderTraining, steps: renderSteps, compare: renderCompare, tokens: renderTokens }[kind];
  const close = draw(model, view.root);
  return () => { close(); view.close(); };
}

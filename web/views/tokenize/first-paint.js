// The tokenize view's first paint: the default text's tokens in the default preset, as
// the build computed them (tools/precompute.py, "encode_preset"), drawn through the
// view's own render() before Python is ready. Python's answer for the same text is drawn
// over them the same way; the chips it keeps equal stay in place, so nothing moves.
//
// While they are the stored ones, the tokens box carries data-source="precomputed"
// (docs/automation.md); the attribute goes once Python has drawn.
import { precomputed } from "../../lib/precomputed.js";

// view: the TokenizeView (after start()); key: the preset it opened with.
export async function showPrecomputed(view, key) {
  const text = view.el.text.value;
  const info = view.info.get(key);
  if (info && info.preset) view.picker.showDetails(key); // the manifest has them: no need to wait
  const stored = key ? await precomputed.lookup("encode_preset", { key, text }) : null;
  // Python was quicker, the reader typed, or another tokenizer is in use: nothing to draw.
  if (!stored || !info || view.result || view.el.text.value !== text) return false;
  if (view.current && view.current !== key) return false;
  // What opening the preset will say (vocabulary, rules), so its lines are drawn now too.
  Object.assign(info, stored.details, { label: info.label });
  view.rules.show(key, info);
  view.render(stored.result, text, key);
  const box = view.el.tokens;
  box.dataset.source = "precomputed";
  view.settled().then(() => {
    if (view.result !== null && box.dataset.source === "precomputed" && view.current) delete box.dataset.source;
  });
  return true;
}

// Answers computed at build time (tools/precompute.py), so the default animations can be
// shown before Python has started. Each entry is what the worker would return for one
// facade call, plus the events it would stream: {result, events}.
//
//   import { precomputed } from "../lib/precomputed.js";
//   const stored = await precomputed.lookup("train", {algo, corpus, vocab_size, tie_break});
//   // stored is {result, events} or null (not precomputed, or the files are missing)
//
// Arguments match when they have the same keys and values (undefined and null are left out),
// whatever their order.
const base = new URL("../precomputed/", import.meta.url);
let index = null;
const files = new Map();

function canonical(kind, args) {
  const keys = Object.keys(args || {}).filter((k) => args[k] !== undefined && args[k] !== null).sort();
  return `${kind}\n${JSON.stringify(keys.map((k) => [k, args[k]]))}`;
}

async function getJson(url) {
  const response = await fetch(url, { credentials: "omit" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

function loadIndex() {
  if (!index) {
    index = getJson(new URL("index.json", base))
      .then((data) => new Map((data.entries || []).map((e) => {
        // A small entry comes inlined (the tokens the page shows at its first paint).
        if (e.payload) files.set(e.file, Promise.resolve(e.payload));
        return [canonical(e.kind, e.args), e.file];
      })))
      .catch(() => new Map()); // no precomputed data: every lookup is a miss, Python answers
  }
  return index;
}

async function lookup(kind, args = {}) {
  const file = (await loadIndex()).get(canonical(kind, args));
  if (!file) return null;
  if (!files.has(file)) files.set(file, getJson(new URL(file, base)).catch(() => null));
  const stored = await files.get(file);
  return stored && structuredClone(stored); // each caller may keep and change its copy
}

// Start fetching the index now: it is small and every view asks it first.
function warm() { loadIndex(); }

export const precomputed = { lookup, warm };

// The train view's Code panel (lib/code-panel.js) for a finished run: the plain reference
// trains again in the worker (webapi.reference_train) when the run is small, and the panel
// then shows the reference's own steps; a longer run is followed by its fast events.
//
// API (web/views/train.js):
//   loadTrainCode(view, algo, log, merges)      BPE / WordPiece: log = the run's TRAIN_EVENTS
//   loadUnigramCode(view, events, args, atStep) Unigram: args = the training arguments,
//                                               atStep(k) = the event drawn at step k
// view: the TrainView (its code panel, context, runId, player).

export const TRAIN_EVENTS = new Set(["train_start", "alphabet", "words", "merge", "train_end"]);
// BPE and WordPiece runs trained again with the reference only this small.
const REFERENCE_MERGES = 400;
const REFERENCE_WORDS = 3000;
// A Unigram run (the reference rebuilds every lattice at every step) only this small.
const REFERENCE_UNIGRAM_WORDS = 400;
const REFERENCE_UNIGRAM_CHARS = 20_000;
export const UNIGRAM_CODE_EVENTS = new Set(["train_start", "unigram_seed", "unigram_em", "unigram_prune",
  "unigram_exact_round", "train_end"]);

// Ask the worker for the panel's answer and show the player's current step, unless
// another run started meanwhile.
async function ask(view, args, events, eventAt) {
  const runId = view.runId;
  view.code.wait();
  const { engine } = view.context;
  await engine.ready;
  if (runId !== view.runId) return;
  const answer = await engine.request("call", { name: "reference_train", args });
  if (runId !== view.runId) return;
  view.code.load(answer, events);
  view.code.show(eventAt(view.context.player.k));
}

export function loadTrainCode(view, algo, log, merges) {
  const words = log.find((e) => e.type === "words");
  const small = merges.length <= REFERENCE_MERGES && (words?.words.length ?? 0) <= REFERENCE_WORDS;
  const events = small ? log.slice() : [];
  return ask(view, { algorithm: algo, events }, events, (k) => (k > 0 ? merges[k - 1] ?? null : null));
}

export function loadUnigramCode(view, events, args, atStep) {
  const start = events.find((e) => e.type === "train_start");
  const small = (start?.unique_words ?? Infinity) <= REFERENCE_UNIGRAM_WORDS
    && (args.text ?? "").length <= REFERENCE_UNIGRAM_CHARS;
  const log = small ? events.filter((e) => UNIGRAM_CODE_EVENTS.has(e.type)) : [];
  return ask(view, { algorithm: "unigram", events: log, train: small ? args : null }, log, atStep);
}

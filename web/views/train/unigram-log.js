// The Unigram training log: the events cut into the player's steps, the numbers each step
// needs (loss and vocabulary size over time, when each piece was removed), and the
// narration of a step. No DOM here.
import { formatNumber, lang } from "../../i18n/index.js";
import { visible as shown } from "../../lib/tokens.js";

export const STEP_TYPES = new Set(["unigram_em", "unigram_prune", "unigram_exact_round", "train_end"]);

// A float as a reader takes it in: three decimals (four significant digits below 1), in
// the locale's form. The exact value stays in the element's data-value and title.
export function shortNumber(x) {
  if (Number.isInteger(x)) return formatNumber(x, lang());
  const options = Math.abs(x) >= 1 ? { maximumFractionDigits: 3 } : { maximumSignificantDigits: 4 };
  return formatNumber(x, lang(), options);
}

// The log cut into steps, with what every step needs precomputed once.
export function indexEvents(events) {
  const log = { start: null, seed: null, steps: [], end: null, removedAt: new Map() };
  for (const e of events) {
    if (e.type === "train_start") log.start = e;
    else if (e.type === "unigram_seed") log.seed = e;
    if (!STEP_TYPES.has(e.type)) continue;
    log.steps.push(e);
    if (e.type === "train_end") log.end = e;
    const k = log.steps.length;
    const gone = e.type === "unigram_prune" ? [...e.removed.map((r) => r[0]), ...e.unused]
      : e.type === "unigram_exact_round" ? e.removed.map((r) => r[0])
        : e.type === "unigram_em" ? e.dropped_pieces || [] : [];
    for (const piece of gone) if (!log.removedAt.has(piece)) log.removedAt.set(piece, k);
  }
  log.method = log.start?.method || log.seed?.method || "em";
  const lossType = log.method === "exact" ? "unigram_exact_round" : "unigram_em";
  log.loss = [];
  log.size = [{ step: 0, y: log.seed ? log.seed.size : 0 }];
  log.steps.forEach((e, i) => {
    const step = i + 1;
    if (e.type === lossType) log.loss.push({ step, y: e.type === "unigram_em" ? e.objective : e.loss });
    log.size.push({ step, y: sizeAfter(e) });
  });
  return log;
}

function sizeAfter(e) {
  if (e.type === "unigram_prune") return e.kept;
  if (e.type === "unigram_exact_round") return e.vocab_size - e.remove;
  return e.vocab_size;
}


// The line the player shows under step k of the log (`t` is the renderer's translator).
export function narrateStep(log, k, t) {
  if (k === 0) {
    const s = log.seed;
    if (!s) return t("utrain.waiting");
    return t("utrain.n0", { size: s.size, chars: s.characters, subs: s.substrings, score: s.score,
      target: log.start?.vocab_size ?? "–" });
  }
  const e = log.steps[k - 1];
  if (!e) return "";
  if (e.type === "unigram_em") {
    return t("utrain.nEm", { round: e.round, sub: e.sub_iteration, obj: shortNumber(e.objective), dropped: e.dropped, size: e.vocab_size });
  }
  if (e.type === "unigram_prune") {
    return t("utrain.nPrune", { round: e.round, removed: e.removed_count, before: e.vocab_size_before, unused: e.unused_count, kept: e.kept });
  }
  if (e.type === "unigram_exact_round") {
    if (!e.remove) return t("utrain.nExactLast", { round: e.round, loss: shortNumber(e.loss), size: e.vocab_size });
    return t(e.remove === 1 ? "utrain.nExactOne" : "utrain.nExact", { round: e.round, loss: shortNumber(e.loss), size: e.vocab_size, remove: e.remove,
      piece: shown(e.removed[0][0]), inc: shortNumber(e.removed[0][1]) });
  }
  return t("utrain.nEnd", { size: e.vocab_size });
}


// The Unigram training renderer: loss per EM iteration (or per exact round), each pruning
// round with the removed tokens and their loss increase, vocabulary size over time, and the
// current vocabulary.
//
// API (web/views/train.js lazy-imports this for algo=unigram):
//   const r = createUnigramTrainRenderer({root, player, t?});
//   const tl = r.timeline(events);   // events: the training events (docs/events.md "### Unigram")
//   tl = {length, render(k), narrate(k)}; r.show(events, k) draws step k of the same log.
//   r.destroy()
// Steps: 0 is the seed vocabulary; then one per `unigram_em` (EM iteration), `unigram_prune`
// (pruning round) or `unigram_exact_round` event; the last step is `train_end` (the final
// vocabulary with its scores), when the log has it. Every number shown comes from the events.
import { t as translate, formatNumber, lang } from "../../i18n/index.js";
import { el, loadCss } from "../../lib/dom.js";
import { visible as shown } from "../../lib/tokens.js";
import { shortNumber, indexEvents, narrateStep } from "./unigram-log.js";
import { VirtualList, lineChart } from "./unigram-widgets.js";
import "./unigram-strings.js";

// The renderer's panels, built once: facts, the two charts, pruning rounds, the vocabulary.
function buildPanels(box, t) {
  const panel = (title, cls = "") => {
    const section = el("section", `ut-panel ${cls}`);
    const heading = el("h3", "", title);
    section.append(heading);
    box.append(section);
    return { section, heading };
  };
  const readout = (testid) => {
    const node = el("p", "ut-readout");
    node.dataset.testid = testid;
    return node;
  };
  const p = {};
  p.factList = el("dl", "ut-facts");
  panel(t("utrain.facts"), "wide").section.append(p.factList);
  p.lossPanel = panel(t("utrain.lossChart"));
  p.lossBox = el("div");
  p.lossReadout = readout("unigram-loss");
  p.lossPanel.section.append(p.lossBox, p.lossReadout);
  const sizePanel = panel(t("utrain.sizeChart"));
  p.sizeBox = el("div");
  p.sizeReadout = readout("unigram-vocab-size");
  sizePanel.section.append(p.sizeBox, p.sizeReadout);
  p.rounds = el("ol", "ut-rounds");
  p.rounds.dataset.testid = "unigram-rounds";
  p.removedTitle = el("p", "ut-note");
  p.removedList = new VirtualList(t("utrain.removedNow"), "unigram-removed");
  p.unusedTitle = el("p", "ut-note", t("utrain.unusedList"));
  p.unusedList = new VirtualList(t("utrain.unusedList"), "unigram-unused");
  panel(t("utrain.pruning")).section.append(p.rounds, p.removedTitle, p.removedList.box, p.unusedTitle, p.unusedList.box);
  p.vocabNote = el("p", "ut-note");
  p.vocabList = new VirtualList(t("utrain.vocab"), "unigram-vocab-item");
  panel(t("utrain.vocab")).section.append(p.vocabNote, p.vocabList.box);
  return p;
}

function fact(label, value, testid, exact = null) {
  const div = el("div");
  const dd = el("dd", "", value);
  if (testid) dd.dataset.testid = testid;
  if (exact !== null) dd.title = String(exact);
  div.append(el("dt", "", label), dd);
  return div;
}

// The vocabulary after k steps: the seed's pieces not yet removed (then the final ones).
function vocabAt(log, k, memo) {
  if (memo.has(k)) return memo.get(k);
  let items;
  if (log.end && k === log.steps.length) items = log.end.vocab.map(([p, s]) => [p, s, false]);
  else {
    const seen = new Set();
    items = [];
    for (const [p, v] of log.seed?.top || []) {
      if ((log.removedAt.get(p) ?? Infinity) > k) items.push([p, v, false]);
      seen.add(p);
    }
    for (const [p, s] of log.end?.vocab || []) if (!seen.has(p)) items.push([p, s, false]);
  }
  if (memo.size > 64) memo.clear();
  memo.set(k, items);
  return items;
}

// What the vocabulary list's numbers are at step k: the seed's counts (exact method) or
// seed scores (EM) until the end, then the final log-probabilities.
function vocabColumn(log, k) {
  if (log.end && k === log.steps.length) return "utrain.col.logprob";
  return log.method === "exact" ? "utrain.col.count" : "utrain.col.seedScore";
}

// The panels after step k (`p`: the panels from buildPanels; `t`: the translator).
function drawFacts(p, t, log, k, size, loss) {
  const target = log.start?.vocab_size;
  p.factList.replaceChildren(
    fact(t("utrain.method"), t(`utrain.method.${log.method}`)),
    fact(t("utrain.step"), `${formatNumber(k, lang())} / ${formatNumber(log.steps.length, lang())}`),
    fact(t("utrain.size"), formatNumber(size, lang()), "unigram-size-now"),
    fact(t("utrain.target"), target === undefined ? "–" : formatNumber(target, lang())),
    fact(t("utrain.loss"), loss === null ? "–" : shortNumber(loss), "unigram-loss-now", loss),
  );
}

function drawCharts(p, t, log, k, size, loss) {
  p.lossPanel.heading.textContent = t(log.method === "exact" ? "utrain.lossChart.exact" : "utrain.lossChart.em");
  lineChart(p.lossBox, p.lossPanel.heading.textContent, log.loss, k);
  p.lossReadout.textContent = loss === null ? "" : `${t("utrain.loss")}: ${shortNumber(loss)}`;
  if (loss !== null) p.lossReadout.dataset.value = p.lossReadout.title = loss;
  else { delete p.lossReadout.dataset.value; p.lossReadout.removeAttribute("title"); }
  lineChart(p.sizeBox, t("utrain.sizeChart"), log.size.map((q) => ({ ...q })), k);
  p.sizeReadout.textContent = `${t("utrain.size")}: ${formatNumber(size, lang())}`;
  p.sizeReadout.dataset.value = size;
}

function drawRounds(p, t, log, k) {
  const items = [];
  log.steps.slice(0, k).forEach((e, i) => {
    if (e.type !== "unigram_prune" && !(e.type === "unigram_exact_round" && e.remove)) return;
    const count = e.type === "unigram_prune" ? e.removed_count : e.remove;
    const first = e.removed[0];
    const li = el("li", i === k - 1 ? "is-current" : "", first
      ? t("utrain.roundItemFirst", { round: e.round, count, piece: shown(first[0]), loss: shortNumber(first[1]) })
      : t("utrain.roundItem", { round: e.round, count }));
    if (i === k - 1) li.setAttribute("aria-current", "step");
    items.push(li);
  });
  p.rounds.replaceChildren(...items);
  // Keep the current round in view inside the list (not by scrolling the page).
  const current = p.rounds.querySelector("[aria-current]");
  if (current) {
    const box = p.rounds.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.bottom > box.bottom) p.rounds.scrollTop += item.bottom - box.bottom;
    else if (item.top < box.top) p.rounds.scrollTop -= box.top - item.top;
  }
}

function drawRemoved(p, t, e) {
  p.unusedTitle.hidden = p.unusedList.box.hidden = true;
  if (e && e.type === "unigram_exact_round" && e.scores.length) {
    const gone = new Set(e.removed.map((r) => r[0]));
    p.removedTitle.textContent = t("utrain.candidates");
    p.removedList.columns(t("utrain.col.loss"));
    p.removedList.set(e.scores.map(([q, v]) => [q, v, gone.has(q)]));
    p.removedList.box.hidden = false;
  } else if (e && e.type === "unigram_prune") {
    p.removedTitle.textContent = t("utrain.removedList");
    p.removedList.columns(t("utrain.col.loss"));
    p.removedList.set(e.removed.map(([q, v]) => [q, v, true]));
    p.removedList.box.hidden = false;
    if (e.unused.length) {
      p.unusedTitle.hidden = p.unusedList.box.hidden = false;
      p.unusedList.set(e.unused.map((q) => [q, "", true]));
    }
  } else {
    p.removedTitle.textContent = t("utrain.noRemoval");
    p.removedList.set([]);
    p.removedList.box.hidden = true;
  }
}

export function createUnigramTrainRenderer({ root, player = null, t = translate }) {
  loadCss(new URL("../unigram.css", import.meta.url));
  const box = el("div", "unigram-train");
  box.dataset.testid = "unigram-train";
  root.append(box);
  const p = buildPanels(box, t);

  let cached = { events: null, count: -1, log: null };
  const logOf = (events) => {
    if (cached.events !== events || cached.count !== events.length) {
      cached = { events, count: events.length, log: indexEvents(events), vocab: new Map() };
    }
    return cached.log;
  };

  function show(events, k) {
    const log = logOf(events);
    k = Math.max(0, Math.min(k, log.steps.length));
    const size = log.size[k]?.y ?? 0;
    const lossPoints = log.loss.filter((q) => q.step <= k);
    const loss = lossPoints.length ? lossPoints[lossPoints.length - 1].y : null;
    drawFacts(p, t, log, k, size, loss);
    drawCharts(p, t, log, k, size, loss);
    drawRounds(p, t, log, k);
    drawRemoved(p, t, k ? log.steps[k - 1] : null);
    const vocab = vocabAt(log, k, cached.vocab);
    p.vocabList.columns(t(vocabColumn(log, k)));
    p.vocabList.set(vocab);
    p.vocabNote.textContent = log.end && k === log.steps.length ? t("utrain.vocabFinal", { size: vocab.length })
      : t("utrain.vocabNote", { shown: formatNumber(vocab.length, lang()), size: formatNumber(size, lang()) });
  }

  function narrate(events, k) {
    return narrateStep(logOf(events), k, t);
  }

  function timeline(events) {
    const log = logOf(events);
    return {
      length: log.steps.length,
      render: (k) => show(events, k),
      narrate: (k) => narrate(events, k),
    };
  }

  return { timeline, show, narrate, destroy() { box.remove(); } };
}

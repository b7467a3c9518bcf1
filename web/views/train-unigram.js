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
import { t as translate, register, formatNumber, lang } from "../i18n.js";
import { loadUnigramCss } from "./encode-unigram.js";

register({
  en: {
    "utrain.waiting": "Training events will appear here.",
    "utrain.facts": "This step", "utrain.method": "Method", "utrain.method.em": "EM (SentencePiece)",
    "utrain.method.exact": "exact (the course's trainer)", "utrain.step": "Step",
    "utrain.size": "Vocabulary size", "utrain.loss": "Loss", "utrain.target": "Target size",
    "utrain.lossChart": "Loss per step", "utrain.lossChart.em": "Objective (negative log-likelihood per word) per EM iteration",
    "utrain.lossChart.exact": "Corpus loss per pruning round",
    "utrain.sizeChart": "Vocabulary size over time",
    "utrain.pruning": "Pruning rounds", "utrain.removedNow": "Removed at this step",
    "utrain.candidates": "Loss increase of every candidate (smallest first); ✕ marks the ones removed at this step",
    "utrain.removedList": "Removed for their loss increase (smallest first)",
    "utrain.unusedList": "Removed because no best path used them",
    "utrain.noRemoval": "No tokens are removed at this step.",
    "utrain.vocab": "Current vocabulary", "utrain.vocabNote": "{shown} pieces listed (the events name these); the vocabulary has {size}.",
    "utrain.vocabFinal": "Final vocabulary: {size} pieces with their log-probability scores.",
    "utrain.col.count": "count", "utrain.col.score": "score", "utrain.col.loss": "loss increase",
    "utrain.roundItem": "round {round}: {count} removed", "utrain.roundItemFirst": "round {round}: {count} removed (first: {piece}, {loss})",
    "utrain.n0": "Seed: {size} pieces ({chars} characters and {subs} substrings, scored by {score}). The target is {target} pieces.",
    "utrain.nEm": "Round {round}, EM iteration {sub}: objective {obj}; the M step dropped {dropped} pieces expected less than half a time; {size} pieces remain.",
    "utrain.nPrune": "Pruning round {round}: {removed} of {before} pieces removed ({unused} never on a best path); {kept} kept.",
    "utrain.nExact": "Round {round}: corpus loss {loss} with {size} tokens. Removing the {remove} whose removal raises the loss least (first “{piece}”, +{inc}).",
    "utrain.nExactLast": "Round {round}: final corpus loss {loss} with {size} tokens; nothing more to remove.",
    "utrain.nEnd": "Done: the final vocabulary has {size} pieces, each scored by its log-probability.",
    "utrain.listLabel": "{title}: {n} rows",
  },
  vi: {
    "utrain.waiting": "Các sự kiện huấn luyện sẽ hiện ở đây.",
    "utrain.facts": "Bước này", "utrain.method": "Phương pháp", "utrain.method.em": "EM (SentencePiece)",
    "utrain.method.exact": "chính xác (bộ huấn luyện của khóa học)", "utrain.step": "Bước",
    "utrain.size": "Kích thước từ vựng", "utrain.loss": "Mất mát", "utrain.target": "Kích thước mục tiêu",
    "utrain.lossChart": "Mất mát theo từng bước", "utrain.lossChart.em": "Hàm mục tiêu (log-likelihood âm trên mỗi từ) theo từng vòng lặp EM",
    "utrain.lossChart.exact": "Mất mát trên kho ngữ liệu theo từng vòng cắt tỉa",
    "utrain.sizeChart": "Kích thước từ vựng theo thời gian",
    "utrain.pruning": "Các vòng cắt tỉa", "utrain.removedNow": "Bị loại ở bước này",
    "utrain.candidates": "Mức tăng mất mát của mọi ứng viên (nhỏ nhất trước); ✕ đánh dấu những token bị loại ở bước này",
    "utrain.removedList": "Bị loại theo mức tăng mất mát (nhỏ nhất trước)",
    "utrain.unusedList": "Bị loại vì không đường tốt nhất nào dùng chúng",
    "utrain.noRemoval": "Không có token nào bị loại ở bước này.",
    "utrain.vocab": "Từ vựng hiện tại", "utrain.vocabNote": "Liệt kê {shown} mẩu (những mẩu mà sự kiện nêu tên); từ vựng có {size}.",
    "utrain.vocabFinal": "Từ vựng cuối cùng: {size} mẩu với điểm log xác suất.",
    "utrain.col.count": "số lần", "utrain.col.score": "điểm", "utrain.col.loss": "mức tăng mất mát",
    "utrain.roundItem": "vòng {round}: loại {count}", "utrain.roundItemFirst": "vòng {round}: loại {count} (đầu tiên: {piece}, {loss})",
    "utrain.n0": "Khởi tạo: {size} mẩu ({chars} ký tự và {subs} chuỗi con, chấm điểm bằng {score}). Mục tiêu là {target} mẩu.",
    "utrain.nEm": "Vòng {round}, lần lặp EM {sub}: hàm mục tiêu {obj}; bước M bỏ {dropped} mẩu có kỳ vọng dưới một nửa lần; còn {size} mẩu.",
    "utrain.nPrune": "Vòng cắt tỉa {round}: loại {removed} trên {before} mẩu ({unused} mẩu không nằm trên đường tốt nhất nào); giữ {kept}.",
    "utrain.nExact": "Vòng {round}: mất mát {loss} với {size} token. Loại {remove} token làm mất mát tăng ít nhất (đầu tiên “{piece}”, +{inc}).",
    "utrain.nExactLast": "Vòng {round}: mất mát cuối cùng {loss} với {size} token; không còn gì để loại.",
    "utrain.nEnd": "Xong: từ vựng cuối cùng có {size} mẩu, mỗi mẩu được chấm bằng log xác suất.",
    "utrain.listLabel": "{title}: {n} dòng",
  },
  zh: {
    "utrain.waiting": "训练事件会显示在这里。",
    "utrain.facts": "当前步骤", "utrain.method": "方法", "utrain.method.em": "EM（SentencePiece）",
    "utrain.method.exact": "精确（课程中的训练器）", "utrain.step": "步骤",
    "utrain.size": "词表大小", "utrain.loss": "损失", "utrain.target": "目标大小",
    "utrain.lossChart": "每一步的损失", "utrain.lossChart.em": "每次 EM 迭代的目标函数（每个词的负对数似然）",
    "utrain.lossChart.exact": "每轮剪枝的语料损失",
    "utrain.sizeChart": "词表大小随时间的变化",
    "utrain.pruning": "剪枝轮次", "utrain.removedNow": "本步移除",
    "utrain.candidates": "每个候选的损失增量（从小到大）；✕ 标出本步移除的词元",
    "utrain.removedList": "因损失增量而移除（从小到大）",
    "utrain.unusedList": "因没有任何最佳路径使用而移除",
    "utrain.noRemoval": "本步没有移除词元。",
    "utrain.vocab": "当前词表", "utrain.vocabNote": "列出 {shown} 个片段（事件中点名的那些）；词表共有 {size} 个。",
    "utrain.vocabFinal": "最终词表：{size} 个片段及其对数概率得分。",
    "utrain.col.count": "次数", "utrain.col.score": "得分", "utrain.col.loss": "损失增量",
    "utrain.roundItem": "第 {round} 轮：移除 {count} 个", "utrain.roundItemFirst": "第 {round} 轮：移除 {count} 个（第一个：{piece}，{loss}）",
    "utrain.n0": "初始：{size} 个片段（{chars} 个字符和 {subs} 个子串，按 {score} 打分）。目标是 {target} 个片段。",
    "utrain.nEm": "第 {round} 轮，第 {sub} 次 EM 迭代：目标函数 {obj}；M 步丢弃了 {dropped} 个期望出现次数不足一半的片段；剩余 {size} 个。",
    "utrain.nPrune": "第 {round} 轮剪枝：从 {before} 个片段中移除 {removed} 个（其中 {unused} 个不在任何最佳路径上）；保留 {kept} 个。",
    "utrain.nExact": "第 {round} 轮：语料损失 {loss}，共 {size} 个词元。移除其中 {remove} 个使损失增加最少的词元（第一个“{piece}”，+{inc}）。",
    "utrain.nExactLast": "第 {round} 轮：最终语料损失 {loss}，共 {size} 个词元；没有可再移除的了。",
    "utrain.nEnd": "完成：最终词表有 {size} 个片段，每个按其对数概率打分。",
    "utrain.listLabel": "{title}：{n} 行",
  },
});

const STEP_TYPES = new Set(["unigram_em", "unigram_prune", "unigram_exact_round", "train_end"]);
const ROW = 26;
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};
const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
};
const shown = (s) => String(s).replace(/ /g, "␣").replace(/\n/g, "↵").replace(/\t/g, "⇥");

// A float exactly as Python printed it (shortest round-trip form), with the locale's decimal mark.
export function exactNumber(x) {
  if (Number.isInteger(x)) return formatNumber(x, lang());
  const mark = formatNumber(1.5, lang()).replace(/[15]/g, "");
  return String(x).replace(".", mark);
}

// A scrolling list that draws only the rows in view (rows are [piece, value, removed?]).
class VirtualList {
  constructor(title, testid) {
    this.title = title;
    this.box = el("div", "ut-list");
    this.box.tabIndex = 0;
    this.box.setAttribute("role", "list");
    this.inner = el("div", "ut-list-inner");
    this.inner.setAttribute("role", "presentation");
    this.box.append(this.inner);
    this.testid = testid;
    this.items = [];
    this.box.addEventListener("scroll", () => this.draw());
  }

  set(items) {
    if (items === this.items) return;
    this.items = items;
    this.inner.style.height = `${items.length * ROW}px`;
    this.box.setAttribute("aria-label", translate("utrain.listLabel", { title: this.title, n: items.length }));
    this.draw();
  }

  draw() {
    const height = this.box.clientHeight || 16 * 16;
    const first = Math.max(0, Math.floor(this.box.scrollTop / ROW) - 5);
    const last = Math.min(this.items.length, first + Math.ceil(height / ROW) + 10);
    const rows = [];
    for (let i = first; i < last; i++) {
      const [piece, value, removed] = this.items[i];
      const row = el("div", removed ? "ut-row is-removed" : "ut-row");
      row.setAttribute("role", "listitem");
      row.style.top = `${i * ROW}px`;
      row.dataset.testid = this.testid;
      row.dataset.piece = piece;
      row.dataset.value = value;
      if (removed) row.dataset.removed = "true";
      row.append(el("span", "n", formatNumber(i + 1, lang())), el("span", "piece", shown(piece)),
        el("span", "value", exactNumber(value)));
      rows.push(row);
    }
    this.inner.replaceChildren(...rows);
  }
}

// A small line chart of [x, y] points; the point at `current` is marked.
function lineChart(box, label, points, current) {
  const w = 420, h = 170, left = 64, right = 12, top = 12, bottom = 26;
  const chart = svg("svg", { class: "ut-chart", viewBox: `0 0 ${w} ${h}`, role: "img" });
  const drawn = points.filter((p) => p.step <= current);
  const at = drawn[drawn.length - 1];
  chart.setAttribute("aria-label", at ? `${label}: ${exactNumber(at.y)}` : label);
  if (!points.length) return box.replaceChildren(chart);
  const ys = points.map((p) => p.y);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (lo === hi) { lo -= 1; hi += 1; }
  const n = Math.max(1, points.length - 1);
  const X = (i) => left + ((w - left - right) * i) / n;
  const Y = (y) => top + (h - top - bottom) * (1 - (y - lo) / (hi - lo));
  for (const y of [lo, hi]) {
    chart.append(svg("line", { class: "grid", x1: left, x2: w - right, y1: Y(y), y2: Y(y) }));
    const tick = svg("text", { x: left - 6, y: Y(y) + 4, "text-anchor": "end" });
    tick.textContent = formatNumber(y, lang(), { maximumFractionDigits: 2 });
    chart.append(tick);
  }
  const first = svg("text", { x: left, y: h - 8 });
  first.textContent = "1";
  const lastTick = svg("text", { x: w - right, y: h - 8, "text-anchor": "end" });
  lastTick.textContent = formatNumber(points.length, lang());
  chart.append(first, lastTick);
  if (drawn.length) {
    const d = drawn.map((p, i) => `${i ? "L" : "M"} ${X(i)} ${Y(p.y)}`).join(" ");
    chart.append(svg("path", { class: "line", d }));
    drawn.forEach((p, i) => chart.append(svg("circle", {
      class: i === drawn.length - 1 ? "dot current" : "dot", cx: X(i), cy: Y(p.y), r: 3 })));
  }
  box.replaceChildren(chart);
}

// The log cut into steps, with what every step needs precomputed once.
function indexEvents(events) {
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

export function createUnigramTrainRenderer({ root, player = null, t = translate }) {
  loadUnigramCss();
  const box = el("div", "unigram-train");
  box.dataset.testid = "unigram-train";
  root.append(box);
  const panel = (title, cls = "") => {
    const section = el("section", `ut-panel ${cls}`);
    const heading = el("h3", "", title);
    section.append(heading);
    box.append(section);
    return { section, heading };
  };
  const facts = panel(t("utrain.facts"), "wide");
  const factList = el("dl", "ut-facts");
  facts.section.append(factList);
  const lossPanel = panel(t("utrain.lossChart"));
  const lossBox = el("div");
  const lossReadout = el("p", "ut-readout");
  lossReadout.dataset.testid = "unigram-loss";
  lossPanel.section.append(lossBox, lossReadout);
  const sizePanel = panel(t("utrain.sizeChart"));
  const sizeBox = el("div");
  const sizeReadout = el("p", "ut-readout");
  sizeReadout.dataset.testid = "unigram-vocab-size";
  sizePanel.section.append(sizeBox, sizeReadout);
  const prunePanel = panel(t("utrain.pruning"));
  const rounds = el("ol", "ut-rounds");
  rounds.dataset.testid = "unigram-rounds";
  const removedTitle = el("p", "ut-note");
  const removedList = new VirtualList(t("utrain.removedNow"), "unigram-removed");
  const unusedTitle = el("p", "ut-note", t("utrain.unusedList"));
  const unusedList = new VirtualList(t("utrain.unusedList"), "unigram-unused");
  prunePanel.section.append(rounds, removedTitle, removedList.box, unusedTitle, unusedList.box);
  const vocabPanel = panel(t("utrain.vocab"));
  const vocabNote = el("p", "ut-note");
  const vocabList = new VirtualList(t("utrain.vocab"), "unigram-vocab-item");
  vocabPanel.section.append(vocabNote, vocabList.box);

  let cached = { events: null, count: -1, log: null };
  const logOf = (events) => {
    if (cached.events !== events || cached.count !== events.length) {
      cached = { events, count: events.length, log: indexEvents(events), vocab: new Map() };
    }
    return cached.log;
  };

  function fact(label, value, testid) {
    const div = el("div");
    const dd = el("dd", "", value);
    if (testid) dd.dataset.testid = testid;
    div.append(el("dt", "", label), dd);
    return div;
  }

  function vocabAt(log, k) {
    if (cached.vocab.has(k)) return cached.vocab.get(k);
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
    if (cached.vocab.size > 64) cached.vocab.clear();
    cached.vocab.set(k, items);
    return items;
  }

  function show(events, k) {
    const log = logOf(events);
    k = Math.max(0, Math.min(k, log.steps.length));
    const e = k ? log.steps[k - 1] : null;
    const target = log.start?.vocab_size;
    const size = log.size[k]?.y ?? 0;
    const lossPoints = log.loss.filter((p) => p.step <= k);
    const loss = lossPoints.length ? lossPoints[lossPoints.length - 1].y : null;
    factList.replaceChildren(
      fact(t("utrain.method"), t(`utrain.method.${log.method}`)),
      fact(t("utrain.step"), `${formatNumber(k, lang())} / ${formatNumber(log.steps.length, lang())}`),
      fact(t("utrain.size"), formatNumber(size, lang()), "unigram-size-now"),
      fact(t("utrain.target"), target === undefined ? "–" : formatNumber(target, lang())),
      fact(t("utrain.loss"), loss === null ? "–" : exactNumber(loss), "unigram-loss-now"),
    );
    lossPanel.heading.textContent = t(log.method === "exact" ? "utrain.lossChart.exact" : "utrain.lossChart.em");
    lineChart(lossBox, lossPanel.heading.textContent, log.loss, k);
    lossReadout.textContent = loss === null ? "" : `${t("utrain.loss")}: ${exactNumber(loss)}`;
    if (loss !== null) lossReadout.dataset.value = loss; else delete lossReadout.dataset.value;
    lineChart(sizeBox, t("utrain.sizeChart"), log.size.map((p) => ({ ...p })), k);
    sizeReadout.textContent = `${t("utrain.size")}: ${formatNumber(size, lang())}`;
    sizeReadout.dataset.value = size;
    drawRounds(log, k);
    drawRemoved(e);
    const vocab = vocabAt(log, k);
    vocabList.set(vocab);
    vocabNote.textContent = log.end && k === log.steps.length ? t("utrain.vocabFinal", { size: vocab.length })
      : t("utrain.vocabNote", { shown: formatNumber(vocab.length, lang()), size: formatNumber(size, lang()) });
  }

  function drawRounds(log, k) {
    const items = [];
    log.steps.slice(0, k).forEach((e, i) => {
      if (e.type !== "unigram_prune" && !(e.type === "unigram_exact_round" && e.remove)) return;
      const count = e.type === "unigram_prune" ? e.removed_count : e.remove;
      const first = e.removed[0];
      const li = el("li", i === k - 1 ? "is-current" : "", first
        ? t("utrain.roundItemFirst", { round: e.round, count, piece: shown(first[0]), loss: exactNumber(first[1]) })
        : t("utrain.roundItem", { round: e.round, count }));
      if (i === k - 1) li.setAttribute("aria-current", "step");
      items.push(li);
    });
    rounds.replaceChildren(...items);
  }

  function drawRemoved(e) {
    unusedTitle.hidden = unusedList.box.hidden = true;
    if (e && e.type === "unigram_exact_round" && e.scores.length) {
      const gone = new Set(e.removed.map((r) => r[0]));
      removedTitle.textContent = t("utrain.candidates");
      removedList.set(e.scores.map(([p, v]) => [p, v, gone.has(p)]));
      removedList.box.hidden = false;
    } else if (e && e.type === "unigram_prune") {
      removedTitle.textContent = t("utrain.removedList");
      removedList.set(e.removed.map(([p, v]) => [p, v, true]));
      removedList.box.hidden = false;
      if (e.unused.length) {
        unusedTitle.hidden = unusedList.box.hidden = false;
        unusedList.set(e.unused.map((p) => [p, "", true]));
      }
    } else {
      removedTitle.textContent = t("utrain.noRemoval");
      removedList.set([]);
      removedList.box.hidden = true;
    }
  }

  function narrate(events, k) {
    const log = logOf(events);
    if (k === 0) {
      const s = log.seed;
      if (!s) return t("utrain.waiting");
      return t("utrain.n0", { size: s.size, chars: s.characters, subs: s.substrings, score: s.score,
        target: log.start?.vocab_size ?? "–" });
    }
    const e = log.steps[k - 1];
    if (!e) return "";
    if (e.type === "unigram_em") {
      return t("utrain.nEm", { round: e.round, sub: e.sub_iteration, obj: exactNumber(e.objective), dropped: e.dropped, size: e.vocab_size });
    }
    if (e.type === "unigram_prune") {
      return t("utrain.nPrune", { round: e.round, removed: e.removed_count, before: e.vocab_size_before, unused: e.unused_count, kept: e.kept });
    }
    if (e.type === "unigram_exact_round") {
      if (!e.remove) return t("utrain.nExactLast", { round: e.round, loss: exactNumber(e.loss), size: e.vocab_size });
      return t("utrain.nExact", { round: e.round, loss: exactNumber(e.loss), size: e.vocab_size, remove: e.remove,
        piece: shown(e.removed[0][0]), inc: exactNumber(e.removed[0][1]) });
    }
    return t("utrain.nEnd", { size: e.vocab_size });
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

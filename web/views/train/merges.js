// The BPE and WordPiece training renderer: the corpus words with their splits, the pair
// table of each merge, the vocabulary growing, and a chart of vocabulary size against the
// corpus length in tokens. Everything is drawn from the trainer's events (docs/events.md,
// "Training"); render(k) shows the state after k merges and is exact in both directions.
//
// Speed (a 5,000-merge run on botchan must never block the page for 50 ms):
// - taking an event is cheap: a merge only appends its step to the words it changed (the
//   `words` field of the full trace); a word's split at step k is rebuilt when its row is
//   drawn, by replaying the few merges that changed it, from a per-word cache;
// - only the visible rows of the word list exist, and drawing reuses their nodes;
// - the learned-token list is updated at its two ends instead of being rebuilt, and its
//   scroller is anchored at the bottom by CSS, so drawing never forces a layout.
import { t, formatNumber } from "../../i18n/index.js";
import { el, svg, setText } from "../../lib/dom.js";
import "./strings.js";
import { scoreText, applyMerge, countAtOrBefore } from "./merges-math.js";
import { sizeChart } from "./merges-chart.js";

const ROW = 34;           // px, one word row (the list is virtualised)
const BIG = 200;          // more words than this: sort by count, frequent words first
const VOCAB_WINDOW = 400; // learned tokens drawn at most (the latest ones)
const CHART_EVERY = 250;  // ms: while events stream in, the chart line is redrawn at most this often

const quote = (s) => t("train.quote", { s });

export class MergesRenderer {
  constructor(container) {
    this.container = container;
    this.build();
    this.reset();
  }

  reset(algo = "bpe") {
    this.algo = algo;
    this.start = null;     // train_start
    this.alphabet = null;  // alphabet event
    this.words = [];       // {word, count, tokens (the first split), steps (that changed it), cache}
    this.order = [];       // word indices in display order
    this.merges = [];
    this.learned = [];     // {token, step}
    this.learnedAt = [0];  // learned tokens after k steps
    this.corpusTokens = [];
    this.vocabSizes = [];
    this.end = null;
    this.chartLength = -1;
    this.chartAt = 0;
    this.pairsKey = null;
    this.k = 0;
    this.clearVocab();
    this.rowKeys = [];
    this.list.replaceChildren();
    this.root.hidden = true;
  }

  get length() { return this.merges.length; }

  // ------------------------------------------------------------------ events in
  add(batch) {
    for (const event of batch) {
      switch (event.type) {
        case "train_start": this.start = event; this.algo = event.algorithm; break;
        case "alphabet": this.alphabet = event; this.showAlphabet(); break;
        case "words": this.takeWords(event); break;
        case "merge": this.takeMerge(event); break;
        case "train_end": this.end = event; break;
        default: break;
      }
    }
    return this.length;
  }

  takeWords(event) {
    this.words = event.words.map((w) => ({ word: w.word, count: w.count, tokens: w.tokens, steps: [], cache: null }));
    this.latest = null; // the current splits, kept only for a trace without `words` (see takeMerge)
    this.order = this.words.map((_, i) => i);
    if (this.words.length > BIG) this.order.sort((a, b) => this.words[b].count - this.words[a].count || a - b);
    this.corpusTokens = [event.corpus_tokens];
    this.vocabSizes = [this.alphabet ? this.alphabet.vocab_size : 0];
    this.list.style.height = `${this.words.length * ROW}px`;
    this.viewport.classList.toggle("scrolls", this.words.length > 12);
    this.root.hidden = false;
  }

  takeMerge(event) {
    const step = this.merges.length + 1;
    this.merges.push(event);
    // The full trace names the words this merge changed; without it, find them by
    // applying the merge to every word's current split.
    if (event.words) {
      for (const i of event.words) this.words[i].steps.push(step);
    } else {
      this.latest ??= this.words.map((w) => w.tokens);
      const [a, b] = event.pair;
      this.latest.forEach((before, i) => {
        const after = applyMerge(before, a, b, event.token);
        if (after.length !== before.length) { this.latest[i] = after; this.words[i].steps.push(step); }
      });
    }
    if (event.new) this.learned.push({ token: event.token, step });
    this.learnedAt.push(this.learned.length);
    this.corpusTokens.push(event.corpus_tokens);
    this.vocabSizes.push(event.vocab_size);
  }

  // A word's split after the first `done` of the merges that changed it: replayed from
  // the cached split when moving forward, from the first split when moving back.
  splitAfter(w, done) {
    let c = w.cache;
    if (!c || c.done > done) c = { done: 0, tokens: w.tokens };
    let tokens = c.tokens;
    for (let j = c.done; j < done; j++) {
      const m = this.merges[w.steps[j] - 1];
      tokens = applyMerge(tokens, m.pair[0], m.pair[1], m.token);
    }
    w.cache = { done, tokens };
    return tokens;
  }

  // ------------------------------------------------------------------ the DOM
  build() {
    const root = el("div", "train-merges");
    const left = el("div", "train-col train-col-words");
    const right = el("div", "train-col train-col-side");

    const wordsBox = el("section", "train-box train-words");
    this.wordsTitle = el("h3", "train-box-title", t("train.words.title"));
    this.wordsHint = el("p", "hint", "");
    this.viewport = el("div", "train-words-viewport");
    this.viewport.tabIndex = 0;
    this.viewport.setAttribute("role", "region");
    this.viewport.setAttribute("aria-label", t("train.words.title"));
    this.list = el("ul", "train-words-list");
    this.viewport.append(this.list);
    this.viewport.addEventListener("scroll", () => this.drawRows(), { passive: true });
    wordsBox.append(this.wordsTitle, this.wordsHint, this.viewport);
    left.append(wordsBox);

    const pairsBox = el("section", "train-box train-pairs");
    this.pairsTitle = el("h3", "train-box-title", t("train.pairs.title"));
    this.pairsTable = el("table", "train-pairs-table");
    this.pairsTable.dataset.testid = "pair-table";
    this.tieText = el("p", "train-tie");
    this.tieText.dataset.testid = "tie-break";
    pairsBox.append(this.pairsTitle, this.pairsTable, this.tieText);

    const vocabBox = el("section", "train-box train-vocab");
    this.vocabTitle = el("h3", "train-box-title", t("train.vocab.title"));
    this.alphabetLine = el("details", "train-alphabet");
    this.vocabNote = el("p", "hint");
    this.vocabList = el("ol", "train-vocab-list");
    this.vocabList.setAttribute("aria-label", t("train.vocab.title"));
    // column-reverse: the scroller starts at its end, so the newest token stays in view
    // without scrollIntoView (which would force a layout on every step).
    this.vocabScroller = el("div", "train-vocab-scroller");
    this.vocabScroller.tabIndex = 0;
    this.vocabScroller.setAttribute("role", "region");
    this.vocabScroller.setAttribute("aria-label", t("train.vocab.title"));
    this.vocabScroller.append(this.vocabList);
    vocabBox.append(this.vocabTitle, this.alphabetLine, this.vocabNote, this.vocabScroller);

    const chartBox = el("section", "train-box train-chart");
    chartBox.append(el("h3", "train-box-title", t("train.chart.title")));
    this.chart = svg("svg", { viewBox: "0 0 360 200", class: "train-chart-svg", role: "img" });
    this.chartTitle = svg("title");
    this.chart.append(this.chartTitle);
    this.chartCaption = el("p", "hint train-chart-caption");
    chartBox.append(this.chart, this.chartCaption);

    right.append(pairsBox, vocabBox, chartBox);
    root.append(left, right);
    this.root = root;
    this.container.append(root);
  }

  showAlphabet() {
    const a = this.alphabet;
    const summary = el("summary", "", t("train.alphabet.summary", {
      specials: t("train.alphabet.specials", { n: a.special_tokens.length }),
      chars: t("train.alphabet.chars", { n: a.alphabet.length }) }));
    const chips = el("div", "train-chips");
    for (const token of [...a.special_tokens, ...a.alphabet]) chips.append(el("span", "chip chip-small", token));
    this.alphabetLine.replaceChildren(summary, chips);
  }

  // ------------------------------------------------------------------ drawing
  render(k) {
    this.k = k;
    if (!this.words.length) return;
    const merge = k > 0 ? this.merges[k - 1] : null;
    const changed = merge && merge.words ? merge.words.length : null;
    setText(this.wordsHint, merge
      ? t(changed === null ? "train.words.hintStep" : "train.words.hintChanged",
        { n: this.words.length, changed: changed ?? 0, token: merge.token })
      : t("train.words.hintStart", { n: this.words.length }));
    this.drawRows();
    this.drawPairs(k);
    this.drawVocab(k);
    this.drawChart(k);
  }

  drawRows() {
    const k = this.k;
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW) - 4);
    const last = Math.min(this.order.length, Math.ceil((top + height) / ROW) + 4);
    const nodes = this.list.children;
    while (nodes.length > Math.max(0, last - first)) { this.list.lastChild.remove(); this.rowKeys.pop(); }
    while (nodes.length < last - first) { this.list.append(this.rowNode()); this.rowKeys.push(""); }
    for (let r = first; r < last; r++) this.row(nodes[r - first], r - first, this.order[r], r, k);
  }

  // One reusable row: mark, word, count, chips, and a hidden "changed" note.
  rowNode() {
    const li = el("li", "train-word");
    li.dataset.testid = "train-word";
    const mark = el("span", "train-word-mark");
    const hidden = el("span", "visually-hidden", t("train.words.changed"));
    hidden.hidden = true;
    li.append(mark, el("span", "train-word-text"), el("span", "train-word-count"), el("span", "train-chips"), hidden);
    return li;
  }

  row(li, slot, index, position, k) {
    const w = this.words[index];
    const done = countAtOrBefore(w.steps, k);
    const changed = k > 0 && done > 0 && w.steps[done - 1] === k;
    const key = `${index} ${position} ${done} ${changed}`;
    if (this.rowKeys[slot] === key) return; // drawn already: nothing to touch
    this.rowKeys[slot] = key;
    const [mark, word, count, chips, hidden] = li.children;
    li.className = changed ? "train-word changed" : "train-word";
    li.style.top = `${position * ROW}px`;
    li.dataset.word = w.word;
    if (changed) li.dataset.changed = "true"; else delete li.dataset.changed;
    mark.textContent = changed ? "◆" : "";
    if (changed) mark.title = t("train.words.changed"); else mark.removeAttribute("title");
    word.textContent = w.word;
    count.textContent = `× ${formatNumber(w.count)}`;
    const current = changed ? this.merges[k - 1].token : null;
    chips.replaceChildren(...this.splitAfter(w, done).map(
      (token) => el("span", token === current ? "chip chip-new" : "chip", token)));
    hidden.hidden = !changed;
  }

  drawPairs(k) {
    const merge = this.merges[Math.max(0, k - 1)];
    const table = this.pairsTable;
    const key = merge ? `${this.algo} ${k}` : "";
    if (key === this.pairsKey) return; // the same step's table is on screen
    this.pairsKey = key;
    if (!merge) { table.replaceChildren(); this.tieText.textContent = ""; return; }
    const next = k === 0;
    this.pairsTitle.textContent = next ? t("train.pairs.titleNext") : t("train.pairs.titleStep", { step: k });
    const wordpiece = this.algo === "wordpiece";
    const caption = el("caption", "visually-hidden", this.pairsTitle.textContent);
    const head = el("thead");
    const hr = el("tr");
    for (const key of ["train.pairs.pair", wordpiece ? "train.pairs.score" : "train.pairs.count", "train.pairs.result"]) {
      const th = el("th", "", t(key));
      th.scope = "col";
      hr.append(th);
    }
    head.append(hr);
    const body = el("tbody");
    const tiedKeys = new Set((merge.tie?.tied || []).map((p) => p.join("\u0000")));
    const rows = [{ ...merge, winner: true }, ...(merge.candidates || [])];
    for (const cand of rows) {
      const tr = el("tr", cand.winner ? "winner" : "");
      tr.dataset.testid = "pair-row";
      tr.dataset.pair = cand.pair.join(" ");
      if (cand.winner) tr.dataset.winner = "true";
      const pairCell = el("td", "train-pair");
      pairCell.append(el("span", "chip", cand.pair[0]), el("span", "plus", "+"), el("span", "chip", cand.pair[1]));
      const value = wordpiece
        ? scoreText(cand.count, cand.left_count, cand.right_count)
        : formatNumber(cand.count);
      const valueCell = el("td", "train-pair-value", value);
      valueCell.dataset.testid = "pair-score";
      let result = "";
      if (cand.winner) result = next ? t("train.pairs.nextWinner", { token: cand.token }) : t("train.pairs.winner", { token: cand.token });
      else if (tiedKeys.has(cand.pair.join("\u0000"))) result = t("train.pairs.tiedLost");
      tr.append(pairCell, valueCell, el("td", "train-pair-result", result));
      body.append(tr);
    }
    table.replaceChildren(caption, head, body);
    this.tieText.textContent = this.tieSentence(merge);
  }

  tieSentence(merge) {
    const tie = merge.tie;
    if (!tie) return t("train.tie.none");
    const pairs = tie.tied.map((p) => `${p[0]} + ${p[1]}`).join(", ");
    const rule = tie.rule === "first_occurrence" ? t("train.tie.first") : t("train.tie.hf");
    return t(tie.more ? "train.tie.textMore" : "train.tie.text", { pairs, winner: `${merge.pair[0]} + ${merge.pair[1]}`, rule });
  }

  clearVocab() {
    this.vocabList.replaceChildren();
    this.vocabFrom = this.vocabTo = 0; // the learned tokens [from, to) are on screen
    this.vocabCurrent = null;
  }

  vocabItem(i) {
    const li = el("li", "vocab-item", this.learned[i].token);
    li.dataset.testid = "vocab-item";
    li.dataset.step = String(this.learned[i].step);
    return li;
  }

  // Show the learned tokens [from, n): keep the items already there, add and remove at
  // the two ends (a step adds or removes one), rebuild only after a long jump.
  drawVocab(k) {
    const n = this.learnedAt[k] ?? this.learned.length;
    const from = Math.max(0, n - VOCAB_WINDOW);
    const list = this.vocabList;
    if (from >= this.vocabTo || n <= this.vocabFrom) this.clearVocab();
    if (list.firstChild === null) this.vocabFrom = this.vocabTo = from;
    for (; this.vocabTo > n; this.vocabTo--) list.lastChild.remove();
    for (; this.vocabFrom < from; this.vocabFrom++) list.firstChild.remove();
    const tail = document.createDocumentFragment();
    for (; this.vocabTo < n; this.vocabTo++) tail.append(this.vocabItem(this.vocabTo));
    list.append(tail);
    const head = document.createDocumentFragment();
    for (let i = from; i < this.vocabFrom; i++) head.append(this.vocabItem(i));
    list.prepend(head);
    this.vocabFrom = from;
    const current = k > 0 && this.merges[k - 1].new ? list.lastChild : null;
    if (current !== this.vocabCurrent) {
      this.vocabCurrent?.classList.remove("current");
      this.vocabCurrent?.removeAttribute("aria-current");
      current?.classList.add("current");
      current?.setAttribute("aria-current", "true");
      this.vocabCurrent = current;
    }
    list.start = from + 1;
    const size = this.vocabSizes[k] ?? 0;
    setText(this.vocabNote, from > 0
      ? t("train.vocab.noteWindow", { n, shown: n - from, size })
      : t("train.vocab.note", { n, size }));
  }

  drawChart(k) {
    const n = this.corpusTokens.length;
    // While the run streams in, the line is redrawn a few times a second, not every frame.
    const now = performance.now();
    if (n !== this.chartLength && (!this.marker || this.end || now - this.chartAt > CHART_EVERY)) {
      this.chartAt = now;
      this.drawChartLine();
    }
    const x = this.scaleX(this.vocabSizes[k]);
    const y = this.scaleY(this.corpusTokens[k]);
    this.marker.setAttribute("cx", x);
    this.marker.setAttribute("cy", y);
    const text = t("train.chart.now", { size: this.vocabSizes[k], tokens: this.corpusTokens[k] });
    setText(this.chartTitle, `${t("train.chart.title")}. ${text}`);
    setText(this.chartCaption, text);
  }

  drawChartLine() {
    this.chartLength = this.corpusTokens.length;
    const drawn = sizeChart(this.vocabSizes, this.corpusTokens, this.chartTitle);
    this.scaleX = drawn.scaleX;
    this.scaleY = drawn.scaleY;
    this.marker = drawn.marker;
    this.chart.replaceChildren(...drawn.parts);
  }

  narrate(k) {
    if (!this.words.length) return "";
    const total = this.length;
    if (k === 0) {
      return t("train.narrate.start", { words: this.words.length, size: this.vocabSizes[0], tokens: this.corpusTokens[0], total });
    }
    const m = this.merges[k - 1];
    const params = { step: k, total, left: quote(m.pair[0]), right: quote(m.pair[1]), token: quote(m.token), count: m.count, n: m.count };
    let text = t("train.narrate.merge", params);
    if (this.algo === "wordpiece") text += " " + t("train.narrate.score", { score: scoreText(m.count, m.left_count, m.right_count) });
    if (!m.new) text += " " + t("train.narrate.notNew");
    if (m.tie) text += " " + t("train.narrate.tie", { n: m.tie.tied.length + 1 });
    return text;
  }
}

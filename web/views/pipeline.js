// The pipeline view (?view=pipeline): one text through every stage of a tokenizer.
//
// Five positions for the player: 0 the input, 1 normalized (before and after, aligned
// column by column from the normalize event's alignment), 2 pre-tokenized (the pieces
// with their offsets, spaces, Ġ and ▁ visible), 3 the model's tokens per piece, 4 the
// post-processed encoding. render(k) draws the stages from the trace alone, each once.
import { t } from "../i18n/index.js";
import { el, loadCss } from "../lib/dom.js";
import { labelled, textInput, statusLine, presetOptions, unknownLine, tell, tellStandIn } from "../lib/controls.js";
import { tokenChip, visible, visibleParts } from "../lib/tokens.js";
import { traceEncode, loadTokenizer, PRESETS } from "../lib/tokenizers.js";
import "./pipeline/strings.js";

const STAGES = ["input", "normalize", "pretokenize", "model", "post"];
const DEFAULT_TEXT = "Héllo  WORLD! Don't panic.";

export function createView(context) {
  return new PipelineView(context);
}

// Columns pairing normalized characters with their input span (docs/events.md, normalize).
export function alignColumns(event, input) {
  const chars = Array.from(input);
  const after = Array.from(event.after);
  const start = event.offset;
  const end = start + Array.from(event.before).length;
  const spans = event.alignment || after.map((_, i) => [start + i, start + i + 1]);
  const columns = [];
  let cursor = start;
  let i = 0;
  while (i < after.length) {
    const [s, e] = spans[i];
    let j = i + 1;
    while (j < after.length && spans[j][0] === s && spans[j][1] === e) j++;
    for (; cursor < s; cursor++) columns.push({ before: chars[cursor], after: "", kind: "removed" });
    const before = chars.slice(Math.max(s, cursor), e).join("");
    const text = after.slice(i, j).join("");
    const kind = !before ? "added" : before === text ? "same" : "changed";
    columns.push({ before, after: text, kind });
    cursor = Math.max(cursor, e);
    i = j;
  }
  for (; cursor < end; cursor++) columns.push({ before: chars[cursor], after: "", kind: "removed" });
  return columns;
}

const KIND_MARK = { same: "=", changed: "≠", removed: "−", added: "+" };

class PipelineView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.run = 0;
    this.trace = null;
    this.sections = null; // the stages drawn for this.model (render)
    this.settledPromise = Promise.resolve();
    loadCss(new URL("./encode.css", import.meta.url)); // the shared control classes
    loadCss(new URL("./pipeline.css", import.meta.url));
    this.build();
  }

  build() {
    const head = el("header", "pipe-head");
    head.append(el("h2", "", t("pipe.title")), el("p", "hint", t("pipe.intro")));
    const controls = el("div", "enc-controls pipe-controls");
    this.select = el("select", "enc-select");
    this.select.dataset.testid = "pipeline-tokenizer";
    this.select.append(...presetOptions(this.context.manifest.presets));
    this.input = textInput("pipeline-text", { lines: 3 });
    controls.append(labelled(t("pipe.tokenizer"), this.select),
      labelled(t("pipe.text"), this.input, "enc-text-field"));
    this.status = statusLine("pipeline-status");
    this.unknown = unknownLine("pipeline-unknown");
    this.playerBox = el("div", "enc-player");
    this.stage = el("div", "pipe-stages");
    this.stage.dataset.testid = "pipeline-stages";
    this.root.replaceChildren(head, controls, this.unknown, this.status, this.playerBox, this.stage);
    this.select.addEventListener("change", () => {
      tell(this.unknown, "");
      this.context.urlState.set({ tokenizer: this.select.value, step: null });
      this.load(0);
    });
    let timer = 0;
    this.input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.context.urlState.set({ text: this.input.value, step: null });
        this.load(this.context.player.k);
      }, 250);
    });
  }

  activate() {
    const url = this.context.urlState;
    this.context.placePlayer(this.playerBox);
    const wanted = url.get("tokenizer", "bert-base-uncased");
    const shipped = (this.context.manifest.presets || []).filter((p) => p.file).map((p) => p.id);
    const known = [...PRESETS, ...shipped].includes(wanted);
    this.select.value = known ? wanted : "bert-base-uncased";
    tellStandIn(this.unknown, wanted, known, this.select);
    // The tokenize view's text, newlines and all, also when it is too long for the URL.
    this.input.value = url.get("text") ?? this.context.tokenize?.el.text.value ?? DEFAULT_TEXT;
    if (!this.input.value) this.input.value = DEFAULT_TEXT;
    this.load(Number(url.get("step", String(STAGES.length - 1))) || 0);
  }

  deactivate() { this.run++; this.context.player.pause(); }

  settled() { return this.settledPromise.then((value) => { this.context.player.drawNow(); return value; }); }

  say(key, params) {
    this.status.textContent = key ? t(key, params) : "";
    this.status.hidden = !key;
  }

  load(step) {
    const run = ++this.run;
    this.settledPromise = this.go(run, step).catch((error) => {
      if (run !== this.run) return;
      this.say("pipe.error", { message: error.message || String(error) });
      this.clearStages();
      this.context.player.load({ length: 0, render: () => {}, narrate: () => "" });
    });
    return this.settledPromise;
  }

  async go(run, step) {
    const { engine, player } = this.context;
    if (engine.stage !== "ready") this.say("pipe.waiting");
    await engine.ready;
    if (run !== this.run) return;
    this.say("pipe.loading");
    const key = this.select.value;
    const info = await loadTokenizer(this.context, key);
    if (run !== this.run) return;
    const text = this.input.value;
    if (!text) {
      this.say("pipe.empty");
      this.clearStages();
      player.load({ length: 0, render: () => {}, narrate: () => "" });
      return;
    }
    const trace = await traceEncode(engine, key, text, { steps: "stages" });
    if (run !== this.run) return;
    this.say(null);
    this.model = digest(trace, info);
    this.sections = null; // a new trace: its stages are drawn anew
    player.load({ length: STAGES.length - 1, render: (k) => this.render(k), narrate: (k) => this.narrate(k) }, step);
    await new Promise((resolve) => requestAnimationFrame(resolve)); // the player draws in this frame
  }

  // Each stage is drawn once per trace and kept: a step only shows what is drawn or hides
  // it behind the "later" hint. (Rebuilding every stage on each step cost seconds of style
  // and layout with a page of text: some 50,000 elements drawn again per step.)
  render(k) {
    if (!this.sections) {
      this.sections = STAGES.map((name) => {
        const box = el("section", "pipe-stage");
        box.dataset.testid = `pipeline-${name}`;
        box.dataset.stage = name;
        return { name, box, head: el("h3", "enc-h", t(`pipe.stage.${name}`)), body: null, hint: null, shown: null };
      });
      this.stage.replaceChildren(...this.sections.map((section) => section.box));
    }
    this.sections.forEach((section, i) => {
      const { box } = section;
      const shown = i <= k;
      box.className = `pipe-stage ${shown ? "shown" : "later"}`;
      if (i === k) box.setAttribute("aria-current", "step");
      else box.removeAttribute("aria-current");
      if (shown === section.shown) return;
      section.shown = shown;
      if (shown) section.body ??= this[`draw_${section.name}`]();
      else section.hint ??= el("p", "hint", t("pipe.later"));
      box.replaceChildren(section.head, ...(shown ? section.body : [section.hint]));
    });
  }

  clearStages() {
    this.sections = null;
    this.stage.replaceChildren();
  }

  draw_input() {
    const box = el("div", "pipe-text");
    box.dataset.testid = "input-text";
    box.textContent = visible(this.model.text);
    box.translate = false; // the user's text: data in every language
    return [box];
  }

  draw_normalize() {
    const m = this.model;
    if (!m.normalize.length) return [el("p", "hint", t("pipe.noNormalizer"))];
    const out = [];
    const grid = el("div", "pipe-align");
    grid.setAttribute("role", "list");
    grid.setAttribute("aria-label", t("pipe.alignment"));
    for (const column of m.columns) {
      const col = el("div", `pipe-col ${column.kind}`);
      col.setAttribute("role", "listitem");
      col.dataset.testid = "norm-col";
      col.dataset.kind = column.kind;
      col.dataset.before = column.before;
      col.dataset.after = column.after;
      col.append(el("span", "pipe-before", visible(column.before) || "\u00a0"));
      col.append(el("span", "pipe-link", KIND_MARK[column.kind]));
      col.append(el("span", "pipe-after", visible(column.after) || "\u00a0"));
      grid.append(col);
    }
    const rows = el("div", "pipe-align-wrap");
    const labels = el("div", "pipe-row-labels");
    labels.setAttribute("aria-hidden", "true");
    labels.append(el("span", "", t("pipe.before")), el("span", "", "\u00a0"), el("span", "", t("pipe.after")));
    rows.append(labels, grid);
    out.push(rows);
    const legend = el("ul", "pipe-legend");
    for (const kind of ["same", "changed", "removed", "added"]) legend.append(el("li", kind, t(`pipe.legend.${kind}`)));
    out.push(legend);
    const result = el("p", "pipe-normalized");
    result.append(el("span", "", t("pipe.normalized")), " ");
    const code = el("code", "", visible(m.normalized));
    code.dataset.testid = "normalized-text";
    code.dataset.text = m.normalized;
    result.append(code);
    out.push(result, el("p", "hint", t("pipe.alignment")));
    return out;
  }

  draw_pretokenize() {
    const m = this.model;
    const list = el("ol", "pipe-pieces");
    const marks = new Set();
    let last = 0;
    const chars = Array.from(m.text);
    for (const piece of m.pieces) {
      const [start, end] = piece.offsets;
      if (chars.slice(last, start).some((ch) => /\s/.test(ch))) marks.add("gap");
      last = end;
      const item = el("li", `pipe-piece${piece.added ? " added" : ""}`);
      item.dataset.testid = "pretoken";
      item.dataset.text = piece.text;
      item.dataset.start = String(start);
      item.dataset.end = String(end);
      const shown = el("code", "pipe-piece-text");
      for (const { text: ch, mark } of visibleParts(piece.text)) {
        const kind = ch === "Ġ" && m.byteLevel ? "G" : ch === "▁" ? "meta" : mark === "␣" ? "space" : mark ? "hidden" : null;
        if (kind) marks.add(kind);
        shown.append(kind ? el("span", "mark", ch) : ch);
      }
      item.append(shown);
      item.append(el("span", "pipe-offsets", t("pipe.offsets", { start, end })));
      item.append(original(visible(chars.slice(start, end).join(""))));
      if (piece.added) item.append(el("span", "pipe-orig", t("pipe.addedToken")));
      list.append(item);
    }
    if (chars.slice(last).some((ch) => /\s/.test(ch))) marks.add("gap");
    const notes = el("ul", "pipe-marks");
    for (const mark of ["space", "hidden", "G", "meta", "gap"]) if (marks.has(mark)) notes.append(el("li", "", t(`pipe.mark.${mark}`)));
    return notes.childElementCount ? [list, notes] : [list];
  }

  draw_model() {
    const m = this.model;
    const list = el("ol", "pipe-model");
    for (const word of m.words) {
      const item = el("li", "pipe-model-word");
      item.append(el("code", "pipe-piece-text", visible(word.text)), el("span", "pipe-arrow", "→"));
      for (const [value, id] of word.tokens) item.append(tokenChip(value, id, m.info, { testid: "model-token" }));
      list.append(item);
    }
    return [list];
  }

  draw_post() {
    const m = this.model;
    const row = el("div", "pipe-final");
    m.final.tokens.forEach((token, i) => {
      const added = Boolean(m.final.added_by_post_processor?.[i]);
      const chip = tokenChip(token, m.final.ids[i], m.info, { testid: "final-token", special: added || Boolean(m.final.special_tokens_mask?.[i]) });
      if (added) {
        chip.dataset.added = "true";
        chip.title = t("pipe.addedByPost");
        chip.append(el("span", "pipe-added-note", t("pipe.addedByPost")));
      }
      row.append(chip);
    });
    return [row];
  }

  narrate(k) {
    const m = this.model;
    if (!m) return "";
    const stage = STAGES[k];
    if (stage === "input") return t("pipe.narr.input", { n: Array.from(m.text).length });
    if (stage === "normalize") {
      if (!m.normalize.length) return t("pipe.narr.noNormalizer");
      const count = (kind) => m.columns.filter((c) => c.kind === kind).length;
      return t("pipe.narr.normalize", { changed: count("changed"), removed: count("removed"), added: count("added") });
    }
    if (stage === "pretokenize") return t("pipe.narr.pretokenize", { n: m.pieces.length });
    if (stage === "model") return t("pipe.narr.model", { n: m.words.reduce((s, w) => s + w.tokens.length, 0) });
    const added = (m.final.added_by_post_processor || []).filter(Boolean).length;
    return t(added ? "pipe.narr.post" : "pipe.narr.postNone", { n: m.final.ids.length, added });
  }
}

// "from “…”": the sentence in the page's language around the user's text, marked as data.
function original(text) {
  const [before, after = ""] = t("pipe.original", { text: "\u0000" }).split("\u0000");
  const data = el("span", "", text);
  data.translate = false;
  const out = el("span", "pipe-orig");
  out.append(before, data, after);
  return out;
}

// What the stages need, computed once per trace (render only draws).
function digest(trace, info) {
  const model = { text: trace.text, info, byteLevel: Boolean(info.byte_level), normalize: [], pieces: [],
    words: [], final: { ids: trace.ids, tokens: trace.tokens } };
  for (const e of trace.events) {
    if (e.sequence !== undefined && e.sequence !== 0) continue; // the pair is not shown here
    if (e.type === "normalize") model.normalize.push(e);
    else if (e.type === "pre_tokenize") model.pieces = e.pieces;
    else if (e.type === "model_piece") model.words.push({ text: e.text, tokens: [] });
    else if (e.type.endsWith(".done") && model.words.length) model.words[model.words.length - 1].tokens = e.tokens;
    else if (e.type === "encoding") model.final = e;
  }
  // Text between normalize events (added tokens) is kept as it is.
  model.columns = model.normalize.flatMap((e) => alignColumns(e, trace.text));
  model.normalized = model.normalize.map((e) => e.after).join("");
  return model;
}

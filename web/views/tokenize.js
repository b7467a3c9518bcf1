// The tokenize view: a text box, a tokenizer picker, and the tokens, kept in step as you type.
import { hueOf, pieces, explain, markText } from "../lib/tokens.js";
import { t, formatNumber } from "../i18n/index.js";
import "../i18n/tokenize.js";

const SAMPLE = "Tokenizers don't read words: they read pieces. “Unbelievably” may become un + believ + ably, " +
  "and a rare name like Ōkuninushi falls apart into bytes. Try typing here, or paste a page of text.";
const WINDOW_CHARS = 20000; // a long paste is tokenized this many characters at a time
const TOKEN_PAGE = 4000; // and drawn this many tokens at a time
const DEFAULT_PRESET = "gpt2";

const fmt = (n) => formatNumber(n);
const RATIO = { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false };
const $ = (root, id) => root.querySelector(`#${id}`);

export class TokenizeView {
  constructor({ engine, urlState, manifest, root }) {
    this.engine = engine;
    this.url = urlState;
    this.manifest = manifest;
    this.root = root;
    this.el = {
      select: $(root, "tokenizer-select"), presets: $(root, "preset-group"), opened: $(root, "opened-group"),
      openButton: $(root, "open-file"), file: $(root, "file-input"), error: $(root, "error"),
      note: $(root, "preset-note"), text: $(root, "text-input"), backdrop: $(root, "backdrop"),
      tokens: $(root, "tokens"), count: $(root, "token-count"), chars: $(root, "char-count"),
      ratio: $(root, "chars-per-token"), busy: $(root, "busy"), inspector: $(root, "inspector"),
      more: $(root, "more"), hidden: $(root, "hidden-count"), showMore: $(root, "show-more"),
      legend: $(root, "legend-list"),
    };
    this.info = new Map(); // tokenizer key -> {key, label, name, model, vocab_size, preset?}
    this.loaded = new Map(); // key -> promise of the open request
    this.current = null; // the key in use
    this.switching = null; // promise of a tokenizer change under way
    this.fileCount = 0;
    this.windowChars = WINDOW_CHARS;
    this.tokenLimit = TOKEN_PAGE;
    this.inflight = false;
    this.dirty = false;
    this.result = null;
    this.waiters = [];
    this.highlighted = -1;
  }

  // ------------------------------------------------------------------ set-up
  start() {
    this.fillDropHint();
    this.fillPresets();
    const wanted = this.url.get("tokenizer");
    const available = this.manifest.presets.filter((p) => p.file).map((p) => p.id);
    const initial = available.includes(wanted) ? wanted
      : available.includes(DEFAULT_PRESET) ? DEFAULT_PRESET : available[0];
    if (wanted && !available.includes(wanted)) {
      this.showError(t("tok.unknownPreset", { name: wanted, fallback: initial || t("tok.nothing") }));
    }
    this.el.text.value = this.url.get("text", SAMPLE);
    if (initial) this.el.select.value = initial;
    this.bind();
    this.updateCounts(null);
    if (initial) this.selectTokenizer(initial).catch(() => {});
    this.engine.ready.catch((error) => {
      this.el.tokens.dataset.status = "error";
      this.el.tokens.replaceChildren(paragraph("placeholder", t("tok.noTokensError", { message: error.message })));
      this.items = null;
      this.resolveWaiters();
    });
  }

  // "or drop a {files} file…": the file names are <code> elements inside the sentence.
  fillDropHint() {
    const hint = $(this.root, "drop-hint");
    if (!hint) return;
    const [before, after = ""] = t("tok.dropHint").split("{files}");
    const files = ["tokenizer.json", "vocab.txt", ".tiktoken", ".model"];
    const names = [];
    files.forEach((name, i) => {
      if (i) names.push(t(i === files.length - 1 ? "tok.fileOr" : "tok.fileSep"));
      const code = document.createElement("code");
      code.textContent = name;
      names.push(code);
    });
    names.push(after);
    hint.replaceChildren(before, ...names);
  }

  fillPresets() {
    const notes = [];
    for (const preset of this.manifest.presets) {
      const option = document.createElement("option");
      option.value = preset.id;
      option.textContent = preset.file ? preset.label : t("tok.unavailable", { label: preset.label });
      option.disabled = !preset.file;
      this.el.presets.append(option);
      this.info.set(preset.id, { key: preset.id, label: preset.label, preset });
      if (!preset.file) notes.push(t("tok.missingPreset", { label: preset.label, missing: preset.missing }));
    }
    if (this.manifest.error) notes.push(t("tok.presetsFailed", { error: this.manifest.error }));
    if (notes.length) {
      this.el.note.textContent = [...notes, t("tok.ownFile")].join(" ");
      this.el.note.hidden = false;
    }
  }

  bind() {
    const { text, select, openButton, file, tokens, showMore, backdrop } = this.el;
    text.addEventListener("input", () => this.textChanged());
    text.addEventListener("scroll", () => {
      backdrop.scrollTop = text.scrollTop;
      backdrop.scrollLeft = text.scrollLeft;
    });
    for (const type of ["keyup", "click", "select"]) text.addEventListener(type, () => this.caretMoved());
    text.addEventListener("mousemove", (event) => this.pointAtText(event));
    text.addEventListener("mouseleave", () => this.caretMoved());
    select.addEventListener("change", () => this.selectTokenizer(select.value).catch(() => {}));
    openButton.addEventListener("click", () => file.click());
    file.addEventListener("change", () => {
      if (file.files.length) this.openFile(file.files[0]).catch(() => {});
      file.value = "";
    });
    tokens.addEventListener("pointerover", (event) => {
      const el = event.target.closest("[data-testid=token]");
      if (el) this.highlight(Number(el.dataset.index), { from: "token" });
    });
    tokens.addEventListener("pointerleave", () => {
      const focused = document.activeElement;
      if (tokens.contains(focused) && focused.dataset.index) this.highlight(Number(focused.dataset.index), {});
      else this.highlight(-1);
    });
    tokens.addEventListener("focusin", (event) => {
      const el = event.target.closest("[data-testid=token]");
      if (el) this.highlight(Number(el.dataset.index), { from: "token", reveal: true });
    });
    tokens.addEventListener("keydown", (event) => this.tokenKey(event));
    showMore.addEventListener("click", () => this.showMore());
    this.bindDrop();
  }

  bindDrop() {
    const zone = document.getElementById("dropzone");
    const hasFiles = (event) => event.dataTransfer && [...event.dataTransfer.types].includes("Files");
    let depth = 0;
    window.addEventListener("dragenter", (event) => {
      if (!hasFiles(event)) return;
      depth += 1;
      zone.classList.add("active");
    });
    window.addEventListener("dragleave", () => {
      depth = Math.max(0, depth - 1);
      if (!depth) zone.classList.remove("active");
    });
    window.addEventListener("dragover", (event) => {
      if (hasFiles(event)) event.preventDefault();
    });
    window.addEventListener("drop", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      zone.classList.remove("active");
      const dropped = event.dataTransfer.files[0];
      if (dropped) this.openFile(dropped).catch(() => {});
    });
  }

  // ------------------------------------------------------------------ tokenizers
  tokenizerIds() {
    return [...this.info.keys()].filter((key) => !this.info.get(key).preset || this.info.get(key).preset.file);
  }

  ensureLoaded(key) {
    const info = this.info.get(key);
    if (!info) return Promise.reject(new Error(t("tok.noSuch", { key })));
    if (info.preset && !info.preset.file) {
      return Promise.reject(new Error(t("tok.missingPreset", { label: info.label, missing: info.preset.missing })));
    }
    if (!this.loaded.has(key)) {
      const request = this.engine.request("openPreset", { key, file: info.preset.file }).then((details) => {
        Object.assign(info, details, { label: info.label });
        return info;
      });
      request.catch(() => this.loaded.delete(key));
      this.loaded.set(key, request);
    }
    return this.loaded.get(key);
  }

  // Switch to a tokenizer; on failure the previous one stays in use.
  selectTokenizer(key) {
    const previous = this.current;
    const run = this.ensureLoaded(key).then(
      () => {
        this.current = key;
        this.el.select.value = key;
        this.clearError();
        this.url.set({ tokenizer: this.info.get(key).preset ? key : null });
        this.schedule();
      },
      (error) => {
        this.el.select.value = previous || key;
        this.showError(t("tok.couldNotUse", { label: this.info.get(key)?.label || key, message: error.message })
          + this.stillUsing(previous));
        throw error;
      },
    );
    this.switching = run.catch(() => {}).finally(() => {
      if (this.switching === pending) this.switching = null;
      if (!this.inflight && !this.dirty) this.resolveWaiters();
    });
    const pending = this.switching;
    return run;
  }

  async openFile(file) {
    const key = `file-${++this.fileCount}`;
    const previous = this.current;
    this.clearError();
    let details;
    try {
      const bytes = await file.arrayBuffer();
      details = await this.engine.request("openFile", { key, name: file.name, bytes }, [bytes]);
    } catch (error) {
      this.showError(t("tok.couldNotOpen", { name: file.name, message: error.message }) + this.stillUsing(previous));
      throw error;
    }
    const label = t("tok.fileLabel", { name: file.name, model: details.model, n: details.vocab_size });
    const info = { ...details, key, label };
    this.info.set(key, info);
    this.loaded.set(key, Promise.resolve(info));
    const option = document.createElement("option");
    option.value = key;
    option.textContent = label;
    this.el.opened.append(option);
    this.el.opened.hidden = false;
    return this.selectTokenizer(key);
  }

  stillUsing(key) {
    return key ? t("tok.stillUsing", { label: this.info.get(key).label }) : "";
  }

  showError(message) {
    this.el.error.textContent = message;
    this.el.error.classList.add("shown");
  }

  clearError() {
    this.el.error.textContent = "";
    this.el.error.classList.remove("shown");
  }

  // ------------------------------------------------------------------ encoding
  textChanged() {
    this.windowChars = WINDOW_CHARS;
    this.tokenLimit = TOKEN_PAGE;
    this.url.set({ text: this.el.text.value });
    this.schedule();
  }

  setText(text) {
    this.el.text.value = text;
    this.textChanged();
    return this.settled();
  }

  // Latest wins: one request in flight at a time; keystrokes that arrive
  // meanwhile collapse into one more request, and replies for old text are dropped.
  schedule() {
    this.dirty = true;
    this.el.tokens.dataset.status = "pending";
    if (!this.inflight) this.run();
  }

  async run() {
    if (!this.current) return;
    this.dirty = false;
    this.inflight = true;
    this.el.busy.hidden = false;
    const key = this.current;
    const text = this.el.text.value;
    const limit = this.windowChars;
    // Send only what will be tokenized (plus one character, so Python sees the cut).
    const head = text.length > limit + 1 ? text.slice(0, limit + 2) : text;
    try {
      const result = await this.engine.request("encode", { key, text: head, limit });
      if (!this.dirty) this.render(result, text, key);
    } catch (error) {
      if (!this.dirty) {
        this.showError(t("tok.couldNotTokenize", { message: error.message }));
        this.el.tokens.dataset.status = "error";
      }
    } finally {
      this.inflight = false;
      if (this.dirty) this.run();
      else {
        this.el.busy.hidden = true;
        if (!this.switching) this.resolveWaiters();
      }
    }
  }

  settled() {
    if (!this.inflight && !this.dirty && !this.switching && this.current) return Promise.resolve(this.state());
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  resolveWaiters() {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((resolve) => resolve(this.state()));
  }

  state() {
    const r = this.result;
    return {
      tokenizer: this.current,
      text: this.el.text.value,
      ids: r ? r.ids.slice() : [],
      tokens: r ? r.tokens.slice() : [],
      offsets: r ? r.offsets.map((o) => o.slice()) : [],
      encodedChars: r ? r.encoded_chars : 0,
      shownTokens: r ? Math.min(this.tokenLimit, r.ids.length) : 0,
      renderedAt: this.renderedAt ?? null,
      paintedAt: this.paintedAt ?? null,
    };
  }

  async encodeWith(text, key = this.current) {
    await this.ensureLoaded(key);
    const r = await this.engine.request("encode", { key, text, limit: null });
    return { ids: r.ids, tokens: r.tokens, offsets: r.offsets };
  }

  showMore() {
    const r = this.result;
    if (r && r.ids.length > this.tokenLimit) {
      this.tokenLimit += TOKEN_PAGE;
      this.render(r, this.el.text.value, this.current);
      return;
    }
    this.windowChars += WINDOW_CHARS * 5;
    this.tokenLimit += TOKEN_PAGE;
    this.dirty = true;
    if (!this.inflight) this.run();
  }

  // ------------------------------------------------------------------ drawing
  // Draw a result. Typing changes a few tokens, so the elements of the unchanged
  // head and tail are kept and only the middle is rebuilt: fresh elements cost
  // the browser layout and text shaping, which is most of the time here.
  render(result, text, key) {
    if (this.highlighted >= 0) this.highlight(-1);
    this.result = result;
    this.resultText = text;
    const info = this.info.get(key) || {};
    const shown = Math.min(result.ids.length, this.tokenLimit);
    const { keys, parts } = this.itemKeys(result, text, shown);
    if (this.renderKey !== key || !this.items) this.resetItems();
    this.renderKey = key;
    const old = this.items;
    const oldKeys = this.keys;
    let head = 0;
    while (head < shown && head < old.length && keys[head] === oldKeys[head]) head++;
    let tail = 0;
    while (tail < shown - head && tail < old.length - head
           && keys[shown - 1 - tail] === oldKeys[old.length - 1 - tail]) tail++;
    // Replace the changed middle.
    for (const item of old.slice(head, old.length - tail)) {
      item.tok.remove();
      item.bd.remove();
    }
    const middle = [];
    const tokFragment = document.createDocumentFragment();
    const bdFragment = document.createDocumentFragment();
    for (let i = head; i < shown - tail; i++) {
      const item = this.makeItem(result, i, info, parts[i]);
      middle.push(item);
      tokFragment.append(item.tok);
      bdFragment.append(item.bd);
    }
    const after = old[old.length - tail];
    this.el.tokens.insertBefore(tokFragment, after ? after.tok : null);
    this.el.backdrop.insertBefore(bdFragment, after ? after.bd : this.bdTail);
    const items = old.slice(0, head).concat(middle, old.slice(old.length - tail));
    // The kept tail may have moved in the text and in the list.
    for (let i = shown - tail; i < shown; i++) this.placeItem(items[i], result, i);
    if (items[0]) items[0].tok.tabIndex = 0;
    if (old[0] && old[0] !== items[0] && old[0].tok.isConnected) old[0].tok.tabIndex = -1;
    this.items = items;
    this.keys = keys;
    this.bdTail.data = text.slice(parts.end, Math.max(result.encoded_chars, Math.min(text.length, 200000))) + "\u200b";
    this.el.backdrop.scrollTop = this.el.text.scrollTop;
    this.placeholder.hidden = shown > 0;
    this.placeholder.textContent = t(text ? "tok.noTokens" : "tok.typeSome");
    this.el.tokens.dataset.status = "done";
    this.el.tokens.dataset.textLength = String(text.length);
    this.updateCounts(result, text);
    this.updateMore(result, text, shown);
    this.updateLegend(new Set(items.flatMap((item) => item.marks)));
    // For bench/bench_page.py: when the DOM was updated, and when it was painted
    // (the first task after the next animation frame runs after the paint).
    this.renderedAt = performance.now();
    const stamp = this.renderedAt;
    requestAnimationFrame(() => setTimeout(() => {
      if (this.renderedAt === stamp) this.paintedAt = performance.now();
    }, 0));
  }

  resetItems() {
    this.items = [];
    this.keys = [];
    this.placeholder = paragraph("placeholder", "");
    this.el.tokens.replaceChildren(this.placeholder);
    this.bdTail = document.createTextNode("");
    this.el.backdrop.replaceChildren(this.bdTail);
  }

  // Per token: the text between it and the one before (gap) and its own text
  // (seg) in the text box; and a key that is equal when nothing drawn differs.
  itemKeys(result, text, shown) {
    const keys = new Array(shown);
    const parts = new Array(shown);
    let pos = 0;
    for (let i = 0; i < shown; i++) {
      const [s, e] = result.offsets[i];
      let gap = "";
      let seg = null; // null: no characters of its own (special, or bytes of one character)
      if (e > s && s >= pos) {
        gap = text.slice(pos, s);
        seg = text.slice(s, e);
        pos = e;
      }
      parts[i] = { gap, seg };
      keys[i] = `${result.ids[i]}\u0000${result.tokens[i]}\u0000${result.special[i]}\u0000${gap}\u0000${seg}`;
    }
    parts.end = pos;
    return { keys, parts };
  }

  makeItem(result, i, info, part) {
    const tok = this.tokenElement(result, i, info);
    const bd = document.createElement("span");
    if (part.gap) bd.append(part.gap);
    let seg = null;
    if (part.seg !== null) {
      seg = document.createElement("span");
      seg.className = "seg";
      seg.style.setProperty("--h", String(hueOf(result.ids[i])));
      seg.textContent = part.seg;
      bd.append(seg);
    }
    const item = { tok: tok.el, bd, seg, marks: tok.marks };
    this.placeItem(item, result, i);
    return item;
  }

  placeItem(item, result, i) {
    const [start, end] = result.offsets[i];
    const data = item.tok.dataset;
    data.start = String(start);
    data.end = String(end);
    data.index = String(i);
    if (item.seg) item.seg.dataset.index = String(i);
  }

  tokenOptions(result, i, info) {
    return {
      special: Boolean(result.special[i]),
      model: info.model || "",
      unknown: info.unk_id !== null && info.unk_id !== undefined && result.ids[i] === info.unk_id,
      byteLevel: Boolean(info.byte_level),
    };
  }

  tokenElement(result, i, info) {
    const el = document.createElement("span");
    const id = result.ids[i];
    el.className = "tok";
    el.setAttribute("role", "option");
    el.setAttribute("aria-selected", "false");
    el.tabIndex = -1;
    el.dataset.testid = "token";
    el.dataset.tokenId = String(id);
    el.style.setProperty("--h", String(hueOf(id)));
    const options = this.tokenOptions(result, i, info);
    if (options.special) el.classList.add("special");
    const body = document.createElement("span"); // the text; the id is drawn under it by CSS
    body.className = "t";
    el.append(body);
    const marks = [];
    for (const piece of pieces(result.tokens[i], options)) {
      if (piece.mark) marks.push(piece.mark);
      if (piece.mark === "special" || piece.mark === "unknown") {
        el.classList.add(piece.mark);
        body.append(piece.text);
      } else if (piece.mark && piece.mark !== "bytes") {
        const mark = document.createElement("span");
        mark.className = "mark";
        mark.textContent = piece.text;
        body.append(mark);
      } else body.append(piece.text);
    }
    return { el, marks };
  }

  // The highlight layer's element for token i: its own span, or the span of the
  // token it shares characters with (the bytes of one character).
  segmentOf(index) {
    for (let i = index; i >= 0 && this.items && i < this.items.length; i--) {
      if (this.items[i].seg) return this.items[i].seg;
      const [s, e] = this.result.offsets[i];
      if (i === index && e <= s) return null;
    }
    return null;
  }

  updateCounts(result, text = "") {
    const { count, chars, ratio } = this.el;
    if (!result) {
      count.textContent = "–";
      chars.textContent = "–";
      ratio.textContent = "–";
      return;
    }
    const n = result.ids.length;
    const codePoints = text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) || []).length;
    count.textContent = fmt(n);
    count.dataset.count = String(n);
    chars.textContent = fmt(codePoints);
    chars.dataset.count = String(codePoints);
    const encodedText = text.slice(0, result.encoded_chars);
    const encodedPoints = encodedText.length - (encodedText.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) || []).length;
    ratio.textContent = n ? formatNumber(encodedPoints / n, undefined, RATIO) : "–";
  }

  updateMore(result, text, shown) {
    const hiddenTokens = result.ids.length - shown;
    const hiddenChars = text.length - result.encoded_chars;
    const parts = [];
    if (hiddenTokens > 0) parts.push(t("tok.hiddenTokens", { n: hiddenTokens }));
    if (hiddenChars > 0) {
      parts.push(t("tok.hiddenChars", { n: hiddenChars, covered: result.encoded_chars }));
    }
    this.el.more.hidden = parts.length === 0;
    if (parts.length) {
      this.el.hidden.textContent = t("tok.showing", { n: shown, details: parts.join(t("tok.listSep")) });
    }
  }

  updateLegend(seen) {
    const items = [];
    for (const mark of ["Ġ", "Ċ", "ĉ", "bytes", "▁", "##", "<0x…>", "␣", "special", "unknown"]) {
      if (!seen.has(mark)) continue;
      const li = document.createElement("li");
      li.textContent = markText(mark);
      items.push(li);
    }
    if (!items.length) {
      const li = document.createElement("li");
      li.textContent = t("tok.noMarks");
      items.push(li);
    }
    this.el.legend.replaceChildren(...items);
  }

  // ------------------------------------------------------------------ linking text and tokens
  tokenAt(index) {
    return this.items?.[index]?.tok || null;
  }

  highlight(index, { from = "", reveal = false } = {}) {
    if (index === this.highlighted && !reveal) return;
    const old = this.highlighted;
    if (old >= 0) {
      this.tokenAt(old)?.classList.remove("hl");
      this.tokenAt(old)?.setAttribute("aria-selected", "false");
      this.segmentOf(old)?.classList.remove("hl");
    }
    this.highlighted = index;
    if (index < 0 || !this.result) {
      this.el.inspector.textContent = t("tok.inspector");
      return;
    }
    const el = this.tokenAt(index);
    el?.classList.add("hl");
    el?.setAttribute("aria-selected", "true");
    const seg = this.segmentOf(index);
    seg?.classList.add("hl");
    if (reveal && seg) this.revealInText(seg);
    if (from === "text" && el) this.revealToken(el);
    this.describe(index);
  }

  describe(index) {
    const r = this.result;
    const token = r.tokens[index];
    const [s, e] = r.offsets[index];
    const covered = this.resultText.slice(s, e);
    const where = e > s
      ? t("tok.covers", { start: s, end: e, text: JSON.stringify(covered) })
      : t("tok.coversNone");
    const note = explain(token, this.tokenOptions(r, index, this.info.get(this.current) || {}));
    this.el.inspector.textContent =
      t("tok.describe", { n: index + 1, total: r.ids.length, token: JSON.stringify(token), id: String(r.ids[index]), where }) +
      (note ? t("tok.note", { note: `${note[0].toUpperCase()}${note.slice(1)}` }) : "");
  }

  revealInText(seg) {
    const box = this.el.text;
    const top = seg.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }

  revealToken(el) {
    const list = this.el.tokens;
    const top = el.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - el.offsetHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }

  pointAtText(event) {
    if (this.pointerFrame) return;
    this.pointerFrame = requestAnimationFrame(() => {
      this.pointerFrame = 0;
      const seg = document.elementsFromPoint(event.clientX, event.clientY).find((el) => el.classList?.contains("seg"));
      if (seg) this.highlight(Number(seg.dataset.index), { from: "text" });
    });
  }

  caretMoved() {
    if (!this.result || document.activeElement !== this.el.text) return;
    const caret = this.el.text.selectionStart;
    const offsets = this.result.offsets;
    const shown = Math.min(offsets.length, this.tokenLimit);
    // The token whose span holds the caret (or the one that starts right at it).
    let found = -1;
    for (let i = 0; i < shown; i++) {
      const [s, e] = offsets[i];
      if (e > s && s <= caret && caret < e) { found = i; break; }
      if (s > caret) break;
    }
    this.highlight(found, { from: "text" });
  }

  tokenKey(event) {
    const el = event.target.closest("[data-testid=token]");
    if (!el) return;
    const all = this.el.tokens.querySelectorAll("[data-testid=token]");
    const index = Number(el.dataset.index);
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(all.length - 1, index + moves[event.key]));
    el.tabIndex = -1;
    all[next].tabIndex = 0;
    all[next].focus();
  }
}

function paragraph(className, text) {
  const p = document.createElement("p");
  p.className = className;
  p.textContent = text;
  return p;
}

// The Code panel: the plain reference of the algorithm (py/subword_lab/reference/) beside
// a step-by-step view, its source read from the installed package by the worker, the
// line that reported the current step highlighted and that step's named variables listed.
//
// API:
//   const code = createCodePanel();           // code.root goes into the view
//   code.load(answer, events)                 // answer: webapi.reference_encode (or
//                                             // reference_train); events: the events it
//                                             // describes, in order (same objects the
//                                             // view's timeline hands to show()); an event
//                                             // beyond them is placed by answer.lines
//   code.show(event)                          // the step of that event (null: none)
//   code.wait() / code.clear()                // "reading the code…" / nothing to show
//   playerWithCode(player, code, loaded)      // the player an encode renderer is given:
//                                             // the panel follows every timeline on it
//   ENCODE_EVENT_PREFIX[model]                // the prefix of the events an encode
//                                             // renderer's steps come from
// data-testid: code-panel (data-follows="reference"|"fast"), code-note, code-function,
// code-line (data-line = line number in the file; data-current="true" on the current one:
// the step's `focus`, the line that takes the step, e.g. the pick of the best pair;
// data-reports="true" on the line that reported the event, when it is another one),
// code-var (data-name, data-value = the value as JSON).
import { t, register } from "../i18n/index.js";
import { el, setText } from "./dom.js";

register({
  en: {
    "code.title": "Code",
    "code.intro": "The plain reference of this algorithm, as the page's Python runs it. The highlighted line takes the current step; when another line reports it, that line is dashed.",
    "code.follows.reference": "The reference ran on the same text and reported exactly these steps.",
    "code.follows.fast": "This run is not one the reference repeats (too large, or an option it leaves out): the panel follows the fast code's steps, at the reference line that takes each kind of step.",
    "code.function": "{module} · {function}()",
    "code.vars": "Variables at this line",
    "code.noVars": "No named variables yet.",
    "code.none": "This step is not a line of the reference.",
    "code.loading": "Reading the code from the Python package…",
    "code.unavailable": "No reference code for this model.",
  },
  vi: {
    "code.title": "Mã nguồn",
    "code.intro": "Bản tham chiếu đơn giản của thuật toán này, đúng như Python của trang chạy nó. Dòng được tô sáng thực hiện bước hiện tại; nếu một dòng khác báo bước đó, dòng ấy có viền nét đứt.",
    "code.follows.reference": "Bản tham chiếu đã chạy trên cùng văn bản và báo đúng các bước này.",
    "code.follows.fast": "Lần chạy này bản tham chiếu không lặp lại (quá lớn, hoặc dùng một tùy chọn nó bỏ qua): khung này theo các bước của mã nhanh, tại dòng của bản tham chiếu thực hiện từng loại bước.",
    "code.function": "{module} · {function}()",
    "code.vars": "Các biến tại dòng này",
    "code.noVars": "Chưa có biến nào được đặt tên.",
    "code.none": "Bước này không phải là một dòng của bản tham chiếu.",
    "code.loading": "Đang đọc mã từ gói Python…",
    "code.unavailable": "Không có mã tham chiếu cho mô hình này.",
  },
  zh: {
    "code.title": "代码",
    "code.intro": "这个算法的简明参考实现，即页面中的 Python 实际运行的代码。高亮的那一行执行当前这一步；若由另一行报告这一步，那一行带虚线框。",
    "code.follows.reference": "参考实现在同一段文本上运行，报告的步骤与这里完全一致。",
    "code.follows.fast": "参考实现不重复这次运行（规模太大，或用了它不涵盖的选项）：面板跟随快速代码的步骤，停在参考实现中执行该类步骤的那一行。",
    "code.function": "{module} · {function}()",
    "code.vars": "这一行的变量",
    "code.noVars": "还没有具名变量。",
    "code.none": "这一步不对应参考实现中的某一行。",
    "code.loading": "正在从 Python 包读取代码…",
    "code.unavailable": "这个模型没有参考代码。",
  },
});

// The prefix of each model's encode events (docs/events.md): the events the Code panel's
// steps describe, in order.
export const ENCODE_EVENT_PREFIX = { BPE: "bpe.", WordPiece: "wordpiece.", Unigram: "unigram." };

// A player for a renderer that moves `code` with every timeline loaded on it: the
// renderer's own, and those it loads itself (the Unigram piece picker). Step k shows the
// timeline's event(k); `loaded(timeline)` hears each timeline put on the player.
export function playerWithCode(player, code, loaded = (_timeline) => {}) {
  return {
    load: (timeline, k) => {
      loaded(timeline);
      player.load({ ...timeline, render: (i) => { timeline.render(i); code.show(timeline.event?.(i) ?? null); } }, k);
    },
    seek: (k) => player.seek(k),
    get k() { return player.k; },
  };
}

const SHORT = 160; // characters of a value shown; data-value keeps it whole

function shortJson(value) {
  const text = JSON.stringify(value);
  return text.length > SHORT ? `${text.slice(0, SHORT - 1)}…` : text;
}

export function createCodePanel() {
  const root = el("section", "code-panel");
  root.dataset.testid = "code-panel";
  root.setAttribute("aria-label", t("code.title"));
  const head = el("h3", "code-title", t("code.title"));
  const intro = el("p", "hint code-intro", t("code.intro"));
  const note = el("p", "hint code-note");
  note.dataset.testid = "code-note";
  const name = el("p", "code-function");
  name.dataset.testid = "code-function";
  name.translate = false; // a file path and a function name: code in every language
  const source = el("pre", "code-source");
  source.tabIndex = 0; // scrollable: reachable by keyboard
  const varsBox = el("div", "code-vars-box");
  const varsTitle = el("h4", "code-vars-title", t("code.vars"));
  const vars = el("dl", "code-vars");
  // What there is to say when no variable is named: beside the list, as a <dl> may hold
  // only its terms and values (a <p> inside one is what a screen reader cannot read as a list).
  const noVars = el("p", "hint code-no-vars");
  varsBox.append(varsTitle, vars, noVars);
  const body = el("div", "code-body");
  body.append(source, varsBox);
  root.append(head, intro, note, name, body);

  let stepOf = new WeakMap();
  let fallback = null; // {lines, shown}: a long run's events placed at their type's line
  let sources = new Map(); // function name -> {module, first_line, lines, node, rows}
  let shownFunction = null;
  let current = null;
  let reports = null; // the line that reported the step, when it is not the highlighted one

  function listing(src) {
    const code = el("code");
    const rows = src.lines.map((text, i) => {
      const row = el("span", "code-line");
      row.dataset.testid = "code-line";
      row.dataset.line = String(src.first_line + i);
      row.append(el("span", "code-no", src.first_line + i), el("span", "code-text", `${text}\n`));
      return row;
    });
    code.append(...rows);
    return { ...src, node: code, rows };
  }

  function load(answer, events) {
    stepOf = new WeakMap();
    fallback = null;
    sources = new Map();
    shownFunction = null;
    current = null;
    if (!answer || !answer.follows) { clear("code.unavailable"); return; }
    for (const src of answer.sources || []) sources.set(src.function, listing(src));
    (events || []).forEach((event, i) => { if (answer.steps[i]) stepOf.set(event, answer.steps[i]); });
    fallback = answer.lines ? { lines: answer.lines, shown: answer.shown || [] } : null;
    root.dataset.follows = answer.follows;
    root.hidden = false;
    setText(note, t(`code.follows.${answer.follows}`));
    show(null);
  }

  function showFunction(fn) {
    if (fn === shownFunction) return sources.get(fn);
    shownFunction = fn;
    const src = sources.get(fn);
    if (!src) { source.replaceChildren(); setText(name, ""); return null; }
    const file = src.module.replace(/\./g, "/") + ".py";
    setText(name, t("code.function", { module: file, function: fn }));
    source.replaceChildren(src.node);
    return src;
  }

  // A step for an event the answer did not list (a run too long to send): the line
  // that reports events of its type, the event's own fields as the variables.
  function placed(event) {
    const line = fallback?.lines?.[event.type];
    if (!line) return null;
    const vars = Object.fromEntries(fallback.shown.filter((k) => k in event).map((k) => [k, event[k]]));
    return { ...line, vars };
  }

  function show(event) {
    const step = event ? (stepOf.get(event) || placed(event)) : null;
    if (current) { current.classList.remove("current"); delete current.dataset.current; current.removeAttribute("aria-current"); }
    if (reports) { reports.classList.remove("reports"); delete reports.dataset.reports; }
    current = null;
    reports = null;
    const fn = step?.function || shownFunction || sources.keys().next().value;
    const src = fn ? showFunction(fn) : null;
    const focus = step?.focus || step?.line;
    root.dataset.line = focus ? String(focus) : "";
    if (step && step.line && step.line !== focus && src) {
      reports = src.rows[step.line - src.first_line] || null;
      if (reports) { reports.classList.add("reports"); reports.dataset.reports = "true"; }
    }
    if (focus && src) {
      const row = src.rows[focus - src.first_line];
      if (row) {
        row.classList.add("current");
        row.dataset.current = "true";
        row.setAttribute("aria-current", "step");
        current = row;
        // scroll the listing only (never the page) so the line sits in its upper third
        const top = row.offsetTop - source.clientHeight / 3;
        source.scrollTop = Math.max(0, top);
      }
    }
    vars.replaceChildren();
    const entries = step ? Object.entries(step.vars || {}) : [];
    for (const [key, value] of entries) {
      const item = el("div", "code-var");
      item.dataset.testid = "code-var";
      item.dataset.name = key;
      item.dataset.value = JSON.stringify(value);
      const term = el("dt");
      const shownValue = el("dd");
      term.append(el("code", "", key)); // names and values are code, not page text
      shownValue.append(el("code", "", shortJson(value)));
      item.append(term, shownValue);
      vars.append(item);
    }
    vars.hidden = !entries.length;
    noVars.hidden = entries.length > 0;
    noVars.textContent = entries.length ? "" : t(event && !step ? "code.none" : "code.noVars");
  }

  function clear(key = null) {
    stepOf = new WeakMap();
    fallback = null;
    sources = new Map();
    shownFunction = null;
    current = null;
    root.dataset.follows = "";
    source.replaceChildren();
    vars.replaceChildren();
    setText(name, "");
    setText(note, key ? t(key) : "");
    root.hidden = !key;
  }

  return { root, load, show, wait: () => clear("code.loading"), clear: () => clear(null) };
}

// notebook.training(): the train view's run on the player, fed live by the kernel while
// BPE, WordPiece or Unigram trains there (`tokenizer.train(..., on_event=widget)`). The
// renderers are the train view's own (views/train/merges.js, views/train/unigram.js).
//
// The kernel sends the events in batches, each with the index of its first event, as custom
// messages (subword_lab/notebook/training_widget.py). A model keeps every event it has
// received (initialize(), so views opened later draw the whole run); a batch that overlaps
// what is kept is trimmed, and one that leaves a gap (messages sent before the model
// listened) asks the kernel for the events from the first missing one. A new model asks
// the kernel how many events there are, and fetches any it lacks the same way.
// Below the drawing, the Code panel (lib/code-panel.js) shows the plain reference's line and
// variables for the step on the player, from the trait `code` the kernel sets at train_end
// (reference/panel.py's train_steps: the reference's own steps for a small run, else the
// fast events placed at their lines).
import { t, register, formatNumber } from "./i18n/index.js";
import { el, setText } from "./lib/dom.js";
import { Player } from "./lib/player.js";
import { createCodePanel } from "./lib/code-panel.js";
import { MergesRenderer } from "./views/train/merges.js";
import { createUnigramTrainRenderer } from "./views/train/unigram.js";
import { STEP_TYPES as UNIGRAM_STEPS } from "./views/train/unigram-log.js";
import { TRAIN_EVENTS, UNIGRAM_CODE_EVENTS } from "./views/train/code.js";
import "./views/train/strings.js";

register({
  en: { "nb.train.waiting": "Waiting for training events: pass this widget as on_event to train().",
        "nb.train.running": "Training {algo}: {n} events so far…",
        "nb.train.done": { one: "{algo}: {steps} step, vocabulary of {size} tokens.", other: "{algo}: {steps} steps, vocabulary of {size} tokens." } },
  vi: { "nb.train.waiting": "Đang chờ các sự kiện huấn luyện: hãy truyền widget này làm on_event cho train().",
        "nb.train.running": "Đang huấn luyện {algo}: đã có {n} sự kiện…",
        "nb.train.done": "{algo}: {steps} bước, bộ từ vựng {size} token." },
  zh: { "nb.train.waiting": "正在等待训练事件：把这个小部件作为 on_event 传给 train()。",
        "nb.train.running": "正在训练 {algo}：已收到 {n} 个事件…",
        "nb.train.done": "{algo}：{steps} 步，词表共 {size} 个词元。" },
});

const ALGO_NAMES = { bpe: "BPE", wordpiece: "WordPiece", unigram: "Unigram" };
const stores = new WeakMap();

function storeOf(model) {
  let store = stores.get(model);
  if (store) return store;
  store = { events: [], listeners: new Set() };
  stores.set(model, store);
  model.on("msg:custom", (message) => {
    if (message.kind === "total") {
      if (message.total > store.events.length) model.send({ kind: "replay", from: store.events.length });
      return;
    }
    if (message.kind !== "events") return;
    const have = store.events.length;
    if (message.start > have) { model.send({ kind: "replay", from: have }); return; }
    const batch = message.events.slice(have - message.start);
    if (!batch.length) return;
    store.events.push(...batch);
    for (const listener of store.listeners) listener(batch);
  });
  model.send({ kind: "hello" });
  return store;
}

export function initializeTraining(model) { storeOf(model); }

export function renderTraining(model, root) {
  const store = storeOf(model);
  root.classList.add("train-view");
  const status = el("p", "nb-status", t("nb.train.waiting"));
  status.dataset.testid = "training-status";
  const playerBox = el("div", "train-player");
  const stage = el("div", "train-stage");
  const merges = new MergesRenderer(stage);
  const unigramBox = el("div", "train-unigram");
  unigramBox.hidden = true;
  stage.append(unigramBox);
  const code = createCodePanel();
  code.clear();
  root.append(status, playerBox, stage, code.root);
  const player = new Player({ container: playerBox, scope: root });

  let algo = null, unigram = null, unigramEvents = [], seen = 0, ended = false;
  const log = []; // the run's training events the Code panel's steps describe, in order
  const mergeEvents = []; // step k shows the state after mergeEvents[k - 1]
  // The event step k draws: a merge, or a Unigram EM step or round (0: the seed).
  const eventAt = (k) => {
    if (algo !== "unigram") return k > 0 ? mergeEvents[k - 1] ?? null : null;
    if (k === 0) return unigramEvents.find((e) => e.type === "unigram_seed") ?? null;
    return unigramEvents.filter((e) => UNIGRAM_STEPS.has(e.type))[k - 1] ?? null;
  };
  const mergesTimeline = { length: 0, render: (k) => { merges.render(k); code.show(eventAt(k)); },
                           narrate: (k) => merges.narrate(k) };
  const withCode = (timeline) => ({ ...timeline, render: (k) => { timeline.render(k); code.show(eventAt(k)); } });
  // The kernel's answer, once the run has ended and its events are all here.
  const loadCode = () => {
    const answer = model.get("code");
    if (!ended || !answer || !answer.follows) { code.clear(); return; }
    code.load(answer, log);
    code.show(eventAt(player.k));
  };

  const start = (event) => {
    algo = event.algorithm;
    ended = false;
    log.length = 0;
    mergeEvents.length = 0;
    code.clear();
    if (algo === "unigram") {
      merges.reset("unigram");
      unigramBox.hidden = false;
      unigram ??= createUnigramTrainRenderer({ root: unigramBox });
      unigramEvents = [];
      player.load(withCode(unigram.timeline(unigramEvents)), 0);
    } else {
      unigramBox.hidden = true;
      merges.reset(algo);
      mergesTimeline.length = 0;
      player.load(mergesTimeline, 0);
    }
  };

  const take = (batch) => {
    let end = null;
    for (const event of batch) {
      seen += 1;
      if (event.type === "train_start") start(event);
      if (algo === null) continue;
      if (algo === "unigram") unigramEvents.push(event);
      else merges.add([event]);
      if ((algo === "unigram" ? UNIGRAM_CODE_EVENTS : TRAIN_EVENTS).has(event.type)) log.push(event);
      if (event.type === "merge") mergeEvents.push(event);
      if (event.type === "train_end") end = event;
    }
    if (algo === null) return;
    player.grow(algo === "unigram" ? unigram.timeline(unigramEvents).length : merges.length);
    const name = ALGO_NAMES[algo] || algo;
    if (end) {
      setText(status, t("nb.train.done", { algo: name, n: player.length, steps: formatNumber(player.length),
                                          size: formatNumber(end.vocab_size) }));
      status.dataset.state = "done";
      if (!player.playing) player.seek(player.length);
      ended = true;
      loadCode();
    } else {
      setText(status, t("nb.train.running", { algo: name, n: formatNumber(seen) }));
      status.dataset.state = "running";
    }
  };

  store.listeners.add(take);
  model.on("change:code", loadCode);
  if (store.events.length) take(store.events);
  return () => { store.listeners.delete(take); model.off("change:code", loadCode); player.pause(); };
}

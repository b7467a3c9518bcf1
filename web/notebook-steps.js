// notebook.steps(tokenizer, word): how the model cut one word, on the player, drawn by the
// encode view's own renderers (views/encode/): BPE's merges by rank, WordPiece's greedy
// match, Unigram's lattice. The kernel (subword_lab/notebook/steps_widget.py) sends the
// encode's events as the trait `events`; a new `word` sends new events and the view follows.
// Below the drawing, the Code panel (lib/code-panel.js) shows the plain reference's line and
// variables for the step on the player, from the trait `code` (reference/panel.py's answer).
import { t, register } from "./i18n/index.js";
import { el } from "./lib/dom.js";
import { Player } from "./lib/player.js";
import { createCodePanel } from "./lib/code-panel.js";
import { editable } from "./notebook-tokens.js";
import { createBpeEncodeRenderer } from "./views/encode/bpe.js";
import { createWordPieceEncodeRenderer } from "./views/encode/wordpiece.js";
import { createUnigramEncodeRenderer } from "./views/encode/unigram.js";

register({
  en: { "nb.word": "Word", "nb.nbest": "ask the Subword Lab page; the notebook widget shows the path taken." },
  vi: { "nb.word": "Từ", "nb.nbest": "hãy xem trên trang Subword Lab; widget trong notebook chỉ cho thấy đường đã chọn." },
  zh: { "nb.word": "单词", "nb.nbest": "请在 Subword Lab 网页中查看；笔记本小部件只显示所选的路径。" },
});

const RENDERERS = { BPE: createBpeEncodeRenderer, WordPiece: createWordPieceEncodeRenderer,
                    Unigram: createUnigramEncodeRenderer };
// The events of each model, the ones the Code panel's steps describe, in order.
const EVENT_PREFIX = { BPE: "bpe.", WordPiece: "wordpiece.", Unigram: "unigram." };

// The n best segmentations need the page's Python; here they say where to find them.
const noEngine = { request: () => Promise.reject(new Error(t("nb.nbest"))) };

export function renderSteps(model, root) {
  root.classList.add("enc-view");
  const word = el("input", "nb-word");
  word.type = "text";
  word.dataset.testid = "word";
  word.setAttribute("aria-label", t("nb.word"));
  const playerBox = el("div", "enc-player");
  const stage = el("div", "enc-stage");
  const code = createCodePanel();
  root.append(word, playerBox, stage, code.root);
  const player = new Player({ container: playerBox, scope: root });
  // Every timeline on the player (the renderer's, and those a renderer loads itself, as
  // the Unigram piece picker does) moves the Code panel with it.
  const withCode = (timeline) => ({ ...timeline,
    render: (k) => { timeline.render(k); code.show(timeline.event?.(k) ?? null); } });
  const viaCode = { load: (timeline, k) => player.load(withCode(timeline), k), seek: (k) => player.seek(k),
    get k() { return player.k; } };
  const kind = model.get("info").model;
  const renderer = RENDERERS[kind]({ root: stage, player: viaCode, engine: noEngine });
  if (renderer.root) stage.replaceChildren(renderer.root);

  const typed = editable(model, "word", word);
  const show = () => {
    const text = model.get("word");
    typed.show();
    const trace = { events: model.get("events"), ids: model.get("ids"), tokens: model.get("tokens"),
                    offsets: model.get("offsets"), text, key: null, info: model.get("info") };
    const timeline = renderer.show(trace);
    code.load(model.get("code"), trace.events.filter((e) => e.type.startsWith(EVENT_PREFIX[kind])));
    player.load(withCode(timeline), 0);
  };
  model.on("change:events", show);
  show();
  return () => { typed.stop(); player.pause(); model.off("change:events", show); };
}

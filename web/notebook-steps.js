// notebook.steps(tokenizer, word): how the model cut one word, on the player, drawn by the
// encode view's own renderers (views/encode/): BPE's merges by rank, WordPiece's greedy
// match, Unigram's lattice and, at its last step, the n best segmentations. The kernel
// (subword_lab/notebook/steps_widget.py) sends the encode's events as the trait `events`,
// and for Unigram the n best lists as `nbest`; a new `word` sends new ones and the view follows.
// Below the drawing, the Code panel (lib/code-panel.js) shows the plain reference's line and
// variables for the step on the player, from the trait `code` (reference/panel.py's answer).
// notebook.tokens draws its "why this token?" answer with the same panel (stepsPanel).
import { t, register } from "./i18n/index.js";
import { el } from "./lib/dom.js";
import { Player } from "./lib/player.js";
import { createCodePanel, ENCODE_EVENT_PREFIX, playerWithCode } from "./lib/code-panel.js";
import { editable } from "./notebook-editable.js";
import { createBpeEncodeRenderer } from "./views/encode/bpe.js";
import { createWordPieceEncodeRenderer } from "./views/encode/wordpiece.js";
import { createUnigramEncodeRenderer } from "./views/encode/unigram.js";

register({
  en: { "nb.word": "Word", "nb.nbest": "the kernel sent no list for this word." },
  vi: { "nb.word": "Từ", "nb.nbest": "kernel không gửi danh sách cho từ này." },
  zh: { "nb.word": "单词", "nb.nbest": "内核没有发来这个词的列表。" },
});

const RENDERERS = { BPE: createBpeEncodeRenderer, WordPiece: createWordPieceEncodeRenderer,
                    Unigram: createUnigramEncodeRenderer };

// What the Unigram renderer asks the page's worker for (webapi.unigram_nbest), answered
// from the lists the kernel sent with the events: `answers()` gives them, one per word.
function kernelLists(answers) {
  return {
    request(_kind, { args }) {
      const found = answers().find((answer) => answer.word === args.word);
      return found ? Promise.resolve(found) : Promise.reject(new Error(t("nb.nbest")));
    },
  };
}

// A player and the model's renderer in `root`, and below them `code` (a Code panel) if
// given; show({events, ids, tokens, offsets?, text}, nbest, steps) loads one trace on the
// player at its first step (`steps`: the Code panel's, from the trait `code`).
export function stepsPanel(root, info, { code = null } = {}) {
  const playerBox = el("div", "enc-player");
  const stage = el("div", "enc-stage");
  root.append(playerBox, stage);
  if (code) root.append(code.root);
  const player = new Player({ container: playerBox, scope: root });
  const viaCode = code ? playerWithCode(player, code) : player;
  let lists = [];
  const renderer = RENDERERS[info.model]({ root: stage, player: viaCode, engine: kernelLists(() => lists) });
  if (renderer.root) stage.replaceChildren(renderer.root);
  return {
    player,
    show(trace, nbest = [], steps = null) {
      lists = nbest;
      // the renderers key their n-best cache by tokenizer: here there is one, the kernel's
      const timeline = renderer.show({ ...trace, key: "kernel", info });
      if (code && steps) {
        code.load(steps, trace.events.filter((e) => e.type.startsWith(ENCODE_EVENT_PREFIX[info.model])));
      }
      viaCode.load(timeline, 0);
    },
  };
}

export function renderSteps(model, root) {
  root.classList.add("enc-view");
  const word = el("input", "nb-word");
  word.type = "text";
  word.dataset.testid = "word";
  word.setAttribute("aria-label", t("nb.word"));
  root.append(word);
  const panel = stepsPanel(root, model.get("info"), { code: createCodePanel() });

  const typed = editable(model, "word", word);
  const show = () => {
    typed.show();
    panel.show({ events: model.get("events"), ids: model.get("ids"), tokens: model.get("tokens"),
                 offsets: model.get("offsets"), text: model.get("word") }, model.get("nbest"),
               model.get("code"));
  };
  model.on("change:events", show);
  show();
  return () => { typed.stop(); panel.player.pause(); model.off("change:events", show); };
}

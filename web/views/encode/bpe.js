// BPE encoding, step by step: each word split into symbols, then merged pair by pair,
// always the adjacent pair whose merge was learned first (lowest rank).
//
// Steps are the model's events per word: bpe.word, bpe.unk, bpe.byte_fallback,
// bpe.symbols, bpe.merge, bpe.ignore_merges, bpe.dropout_skip. render(k) redraws the
// current word from its own events, so stepping back restores exactly what was shown.
import { t, register } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { tokenChip, face } from "../../lib/tokens.js";
import { wordPanel, wordStepsTimeline } from "./word-steps.js";

register({
  en: {
    "bpe.word": "Word {i} of {n}: “{word}”. BPE first splits it into single symbols.",
    "bpe.symbols": {
      one: "Start from {n} symbol: there is no pair to merge.",
      other: "Start from {n} symbols. Now merge adjacent pairs, always the one learned earliest (the lowest rank).",
    },
    "bpe.merge": "Merge {left} + {right} → {new} (rank {rank}: no adjacent pair has a lower rank).",
    "bpe.mergeLast": "Merge {left} + {right} → {new} (rank {rank}). No adjacent pair left has a merge rule: the word is done.",
    "bpe.whole": "“{token}” is in the vocabulary as a whole word: no merges needed.",
    "bpe.wholeMerged": "The merges by rank built the whole word: “{token}” is one token of the vocabulary.",
    "bpe.wholeTaken": "The merges by rank stop at {n} symbols, but “{token}” is in the vocabulary as a whole word, and this tokenizer takes such a word as one token (ignore_merges).",
    "bpe.unk": "“{symbol}” is not in the vocabulary: it becomes {token}.",
    "bpe.unkFused": "“{symbol}” is not in the vocabulary either: it joins the unknown token before it.",
    "bpe.unkDropped": "“{symbol}” is not in the vocabulary and there is no unknown token: it is dropped.",
    "bpe.byteFallback": "“{symbol}” is not in the vocabulary: it is spelled as its bytes {tokens}.",
    "bpe.dropout": "Dropout skips the merge that makes {new} (rank {rank}) this time.",
    "bpe.initial": "Initial symbols",
    "bpe.now": "Symbols now",
    "bpe.merges": "Merges applied to this word, in rank order",
    "bpe.colStep": "#",
    "bpe.colPair": "pair",
    "bpe.colRank": "rank",
    "bpe.colAfter": "symbols after",
    "bpe.newMark": "new",
    "bpe.notes": "Characters the vocabulary lacks",
    "bpe.legend": "Rank = the order in which training learned the merge; a lower rank is applied first.",
  },
  vi: {
    "bpe.word": "Từ {i}/{n}: “{word}”. Trước tiên BPE tách từ thành từng ký hiệu đơn.",
    "bpe.symbols": "Bắt đầu với {n} ký hiệu. Giờ gộp các cặp kề nhau, luôn chọn cặp được học sớm nhất (thứ hạng thấp nhất).",
    "bpe.merge": "Gộp {left} + {right} → {new} (thứ hạng {rank}: không cặp kề nào có thứ hạng thấp hơn).",
    "bpe.mergeLast": "Gộp {left} + {right} → {new} (thứ hạng {rank}). Không còn cặp kề nào có quy tắc gộp: xong từ này.",
    "bpe.whole": "“{token}” có sẵn trong bộ từ vựng dưới dạng cả từ: không cần gộp.",
    "bpe.wholeMerged": "Các phép gộp theo thứ hạng đã tạo nên cả từ: “{token}” là một token của bộ từ vựng.",
    "bpe.wholeTaken": "Các phép gộp theo thứ hạng dừng ở {n} ký hiệu, nhưng “{token}” có sẵn trong bộ từ vựng dưới dạng cả từ, và bộ tách từ này lấy cả từ đó làm một token (ignore_merges).",
    "bpe.unk": "“{symbol}” không có trong bộ từ vựng: nó trở thành {token}.",
    "bpe.unkFused": "“{symbol}” cũng không có trong bộ từ vựng: nó được nối vào token không xác định đứng trước.",
    "bpe.unkDropped": "“{symbol}” không có trong bộ từ vựng và không có token không xác định: nó bị bỏ đi.",
    "bpe.byteFallback": "“{symbol}” không có trong bộ từ vựng: nó được viết bằng các byte {tokens}.",
    "bpe.dropout": "Lần này dropout bỏ qua phép gộp tạo ra {new} (thứ hạng {rank}).",
    "bpe.initial": "Các ký hiệu ban đầu",
    "bpe.now": "Các ký hiệu hiện tại",
    "bpe.merges": "Các phép gộp đã áp dụng cho từ này, theo thứ hạng",
    "bpe.colStep": "#",
    "bpe.colPair": "cặp",
    "bpe.colRank": "thứ hạng",
    "bpe.colAfter": "ký hiệu sau đó",
    "bpe.newMark": "mới",
    "bpe.notes": "Các ký tự không có trong bộ từ vựng",
    "bpe.legend": "Thứ hạng = thứ tự mà quá trình huấn luyện học phép gộp; thứ hạng thấp hơn được áp dụng trước.",
  },
  zh: {
    "bpe.word": "第 {i} 个词（共 {n} 个）：“{word}”。BPE 先把它拆成单个符号。",
    "bpe.symbols": "从 {n} 个符号开始。接下来合并相邻的符号对，每次选最早学到的那条合并规则（排名最低）。",
    "bpe.merge": "合并 {left} + {right} → {new}（排名 {rank}：没有相邻符号对的排名更低）。",
    "bpe.mergeLast": "合并 {left} + {right} → {new}（排名 {rank}）。剩下的相邻符号对都没有合并规则：这个词处理完毕。",
    "bpe.whole": "“{token}”作为整词就在词表中：无需合并。",
    "bpe.wholeMerged": "按排名依次合并，拼出了整个词：“{token}”是词表中的一个词元。",
    "bpe.wholeTaken": "按排名合并到 {n} 个符号就停了，但“{token}”作为整词就在词表中，这个分词器会把这样的词直接当作一个词元（ignore_merges）。",
    "bpe.unk": "“{symbol}”不在词表中：它变成 {token}。",
    "bpe.unkFused": "“{symbol}”同样不在词表中：它并入前面的未知词元。",
    "bpe.unkDropped": "“{symbol}”不在词表中，而且没有未知词元：它被丢弃。",
    "bpe.byteFallback": "“{symbol}”不在词表中：改用它的字节 {tokens} 表示。",
    "bpe.dropout": "这一次 dropout 跳过了生成 {new} 的合并（排名 {rank}）。",
    "bpe.initial": "初始符号",
    "bpe.now": "当前符号",
    "bpe.merges": "这个词上应用过的合并（按排名顺序）",
    "bpe.colStep": "#",
    "bpe.colPair": "符号对",
    "bpe.colRank": "排名",
    "bpe.colAfter": "合并后的符号",
    "bpe.newMark": "新",
    "bpe.notes": "词表中没有的字符",
    "bpe.legend": "排名 = 训练时学到这条合并规则的先后顺序；排名越低越先应用。",
  },
});

const SILENT = new Set(["bpe.done"]);
const MERGES_SHOWN = 30;


function wordState(word, upto) {
  const state = { initial: null, ids: [], symbols: null, merges: [], notes: [], whole: null, last: null };
  for (let i = 0; i <= upto; i++) {
    const e = word.events[i];
    if (e.type === "bpe.symbols") {
      state.initial = e.symbols;
      state.ids = e.ids;
      state.symbols = e.symbols;
    } else if (e.type === "bpe.merge") {
      state.merges.push(e);
      state.symbols = e.symbols;
    } else if (e.type === "bpe.unk" || e.type === "bpe.byte_fallback") state.notes.push(e);
    else if (e.type === "bpe.ignore_merges") state.whole = e;
    state.last = e;
  }
  return state;
}

function wordStep(word, index, info) {
  const state = wordState(word, index);
  const wordDone = word.events.slice(index + 1).every((e) => SILENT.has(e.type));
  return { panel: statePanel(word, state, info), partial: wordDone ? word.tokens : [] };
}

function symbolRow(info, symbols, testid, highlight = -1) {
  const row = el("div", "enc-symbols");
  symbols.forEach((symbol, i) => {
    const chip = tokenChip(symbol, null, info, { testid });
    chip.classList.add("enc-symbol");
    if (i === highlight) {
      chip.classList.add("new");
      chip.append(el("span", "enc-new-mark", t("bpe.newMark")));
    }
    row.append(chip);
  });
  return row;
}

function statePanel(word, state, info) {
  const panel = wordPanel("bpe-word", word, info);
  if (state.whole && !state.symbols) {
    panel.append(tokenChip(state.whole.token, state.whole.id, info, { testid: "bpe-symbol" }));
    return panel;
  }
  if (state.notes.length) {
    const notes = el("ul", "enc-notes");
    notes.setAttribute("aria-label", t("bpe.notes"));
    for (const note of state.notes) {
      const item = el("li", "", noteText(note, info));
      item.dataset.testid = "bpe-note";
      notes.append(item);
    }
    panel.append(notes);
  }
  if (!state.symbols) return panel;
  panel.append(el("h4", "enc-h4", t("bpe.initial")), symbolRow(info, state.initial, "bpe-initial"));
  const latest = state.last.type === "bpe.merge" ? state.last.position : -1;
  panel.append(el("h4", "enc-h4", t("bpe.now")), symbolRow(info, state.symbols, "bpe-symbol", latest));
  if (state.merges.length) panel.append(mergeTable(state.merges, state.last, info));
  return panel;
}

// Symbols written as their chips show them; the vocabulary's spelling is each code's title.
function code(symbol, info) {
  const node = el("code", "", face(symbol, info));
  node.title = symbol;
  return node;
}

function mergeTable(merges, last, info) {
  const box = el("div", "enc-merges");
  const table = el("table", "enc-table");
  table.append(el("caption", "", t("bpe.merges")));
  const head = el("tr");
  for (const key of ["bpe.colStep", "bpe.colPair", "bpe.colRank", "bpe.colAfter"]) {
    const th = el("th", "", t(key));
    th.scope = "col";
    head.append(th);
  }
  table.append(el("thead"));
  table.tHead.append(head);
  const body = el("tbody");
  const skip = Math.max(0, merges.length - MERGES_SHOWN);
  merges.slice(skip).forEach((merge, i) => {
    const row = el("tr", merge === last ? "latest" : "");
    row.dataset.testid = "bpe-merge";
    row.dataset.rank = String(merge.rank);
    row.dataset.pair = merge.pair.join(" ");
    row.dataset.new = merge.new;
    row.append(el("td", "num", skip + i + 1));
    const pair = el("td", "enc-pair");
    pair.append(code(merge.pair[0], info), " + ", code(merge.pair[1], info), " → ", code(merge.new, info));
    row.append(pair, el("td", "num", merge.rank));
    const after = el("td", "enc-after", merge.symbols.map((s) => face(s, info)).join(" · "));
    row.append(after);
    body.append(row);
  });
  table.append(body);
  box.append(table);
  return box;
}

function noteText(e, info) {
  if (e.type === "bpe.byte_fallback") return t("bpe.byteFallback", { symbol: face(e.symbol, info), tokens: e.tokens.join(" ") });
  if (e.token === null || e.token === undefined) return t("bpe.unkDropped", { symbol: face(e.symbol, info) });
  return t(e.fused ? "bpe.unkFused" : "bpe.unk", { symbol: face(e.symbol, info), token: e.token });
}

function narrateEvent(word, step, e, wordCount, info) {
  if (e.type === "bpe.word") return t("bpe.word", { i: step.word + 1, n: wordCount, word: face(word.text, info) });
  if (e.type === "bpe.symbols") return t("bpe.symbols", { n: e.symbols.length });
  if (e.type === "bpe.merge") {
    const more = word.events.slice(step.index + 1).some((x) => x.type === "bpe.merge");
    return t(more ? "bpe.merge" : "bpe.mergeLast",
      { left: face(e.pair[0], info), right: face(e.pair[1], info), new: face(e.new, info), rank: e.rank });
  }
  if (e.type === "bpe.ignore_merges") {
    // Newer traces report the merges by rank before this event (docs/events.md).
    if (e.merged === undefined) return t("bpe.whole", { token: face(e.token, info) });
    const symbols = wordState(word, step.index).symbols || [];
    return t(e.merged ? "bpe.wholeMerged" : "bpe.wholeTaken", { token: face(e.token, info), n: symbols.length });
  }
  if (e.type === "bpe.dropout_skip") return t("bpe.dropout", { new: face(e.new, info), rank: e.rank });
  return noteText(e, info);
}

export function createBpeEncodeRenderer({ root }) {
  return {
    show: (trace) => wordStepsTimeline(root, trace, {
      prefix: "bpe.", isStep: (e) => !SILENT.has(e.type), legend: "bpe.legend", wordStep, narrateEvent,
    }),
  };
}

// How a token is drawn: its colour, its visible markers, and a plain-words explanation.
import { t } from "../i18n/index.js";
import "../i18n/tokenize.js";
import { el } from "./dom.js";

// Same id, same hue; neighbouring ids land far apart on the colour wheel.
export function hueOf(id) {
  return Math.round((id * 137.50776) % 360);
}

// Byte-level BPE (GPT-2) stores bytes as printable characters; these are the
// ones a learner meets most.
const BYTE_LEVEL = { "Ġ": "space", "Ċ": "newline", "ĉ": "tab", "č": "return" };
const LITERAL = { " ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍" };
const LITERAL_NAMES = { " ": "space", "\n": "newline", "\t": "tab", "\r": "return" };

// What each mark means, in our own words (web/i18n/tokenize.js). The legend lists the ones on screen.
const MARK_KEYS = {
  "Ġ": "marks.byteSpace", "Ċ": "marks.byteNewline", "ĉ": "marks.byteTab", "▁": "marks.metaspace",
  "##": "marks.continues", "<0x…>": "marks.byte", "special": "marks.special", "unknown": "marks.unknown",
  "bytes": "marks.bytes", "␣": "marks.literal",
};
export const MARKS = Object.keys(MARK_KEYS);

export function markText(mark) {
  return t(MARK_KEYS[mark]);
}

const BYTE_TOKEN = /^<0x[0-9A-Fa-f]{2}>$/;
const UNKNOWN = new Set(["[UNK]", "<unk>", "<UNK>"]);

// Split a token string into pieces to draw: {text, mark} where mark names the
// legend entry (null for ordinary text; "bytes" for text in a byte alphabet,
// drawn plainly but explained). The pieces' texts, joined, are the token "as
// shown" (literal whitespace drawn as ␣ ↵ ⇥ ␍).
export function pieces(token, { special = false, model = "", unknown = false, byteLevel = false } = {}) {
  const visible = token.replace(/[ \n\t\r]/g, (ch) => LITERAL[ch]);
  if (special) return [{ text: visible, mark: UNKNOWN.has(token) ? "unknown" : "special" }];
  if (unknown || UNKNOWN.has(token)) return [{ text: visible, mark: "unknown" }];
  if (BYTE_TOKEN.test(token)) return [{ text: token, mark: "<0x…>" }];
  const out = [];
  let rest = token;
  if (model === "WordPiece" && rest.startsWith("##") && rest.length > 2) {
    out.push({ text: "##", mark: "##" });
    rest = rest.slice(2);
  }
  let plain = "";
  const flush = () => {
    if (plain) out.push({ text: plain, mark: byteLevel && /[^\x00-\x7e]/.test(plain) ? "bytes" : null });
    plain = "";
  };
  for (const ch of rest) {
    let mark = null;
    let shownAs = ch;
    if (ch === "▁") mark = "▁";
    else if (byteLevel && ch in BYTE_LEVEL) mark = ch;
    else if (ch in LITERAL) { mark = "␣"; shownAs = LITERAL[ch]; }
    if (mark) {
      flush();
      out.push({ text: shownAs, mark });
    } else plain += ch;
  }
  flush();
  return out;
}

export function shown(token, options) {
  return pieces(token, options).map((p) => p.text).join("");
}

// One sentence about a token, for the inspector line.
export function explain(token, options) {
  const parts = pieces(token, options);
  const notes = [];
  for (const p of parts) {
    if (p.mark === "special") notes.push(t("note.special"));
    else if (p.mark === "unknown") notes.push(t("note.unknown"));
    else if (p.mark === "<0x…>") notes.push(t("note.byte", { hex: token.slice(3, 5).toUpperCase() }));
    else if (p.mark === "##") notes.push(t("note.continues"));
    else if (p.mark === "bytes") notes.push(t("note.bytes", { text: p.text }));
    else if (p.mark === "▁") notes.push(t("note.metaspace"));
    else if (p.mark in BYTE_LEVEL) notes.push(t("note.is", { mark: p.mark, name: t(`name.${BYTE_LEVEL[p.mark]}`) }));
    else if (p.mark === "␣") {
      const raw = Object.keys(LITERAL).find((k) => LITERAL[k] === p.text);
      notes.push(t("note.is", { mark: p.text, name: t(`name.${LITERAL_NAMES[raw]}`) }));
    }
  }
  return [...new Set(notes)].join(t("note.sep"));
}

export function marksIn(parts) {
  return parts.filter((p) => p.mark).map((p) => p.mark);
}

export function tokenOptions(info, id, { special = false } = {}) {
  return {
    special,
    model: info?.model || "",
    unknown: info?.unk_id !== null && info?.unk_id !== undefined && id === info.unk_id,
    byteLevel: Boolean(info?.byte_level),
  };
}

// A token drawn as the tokenize view draws it (style.css's .tok): coloured by id, markers visible.
export function tokenChip(token, id, info, { testid = null, special = false } = {}) {
  const chip = el("span", "tok");
  if (testid) chip.dataset.testid = testid;
  if (id !== null && id !== undefined) {
    chip.dataset.tokenId = String(id);
    chip.style.setProperty("--h", String(hueOf(id)));
  }
  chipBody(chip, token, tokenOptions(info, id, { special }));
  return chip;
}

// A chip's text: a span.t with the markers in span.mark (style.css draws the id under it);
// special and unknown tokens mark the chip itself. Returns the marks met, for a legend.
export function chipBody(chip, token, options) {
  const body = el("span", "t");
  const marks = [];
  for (const piece of pieces(token, options)) {
    if (piece.mark) marks.push(piece.mark);
    if (piece.mark === "special" || piece.mark === "unknown") {
      chip.classList.add(piece.mark);
      body.append(piece.text);
    } else if (piece.mark && piece.mark !== "bytes") {
      body.append(el("span", "mark", piece.text));
    } else body.append(piece.text);
  }
  chip.append(body);
  return marks;
}

// Spaces and line breaks inside a piece, made visible (the pre-tokenizer's ▁ and Ġ already are).
export function visible(text) {
  return String(text).replace(/[ \n\t\r]/g, (ch) => ({ " ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍" })[ch]);
}

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
  "bytes": "marks.bytes", "␣": "marks.literal", "partial": "marks.partial", "spelling": "marks.spelling",
  "invisible": "marks.invisible",
};
export const MARKS = Object.keys(MARK_KEYS);

export function markText(mark) {
  return t(MARK_KEYS[mark]);
}

const BYTE_TOKEN = /^<0x[0-9A-Fa-f]{2}>$/;

// Characters that draw as nothing or as a blank: a byte-order mark, zero-width spaces and
// joiners, direction marks, control characters, spaces other than U+0020. A token of one
// would be an empty chip, so they are named by code point, <U+FEFF>, as bytes are <E2 80>.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
// Joiners, variation selectors and emoji tags do show, in what they do to the character
// before them (an emoji family, an emoji's style, a flag), so there they stay as they are.
const JOINING = /[\u200D\uFE00-\uFE0F\u{E0020}-\u{E007F}\u{E0100}-\u{E01EF}]/u;

const codeName = (ch) => `<U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}>`;

// How each of `chars` is drawn: {text, mark} for whitespace (␣ ↵ ⇥ ␍) and for a hidden
// character (<U+200B>), null where it is drawn as itself. A joining character is drawn as
// itself after a character drawn as itself (and a joiner before one too). One pass, left to
// right: a piece may be a whole text of joiners.
function drawnAs(chars) {
  const out = new Array(chars.length).fill(null);
  let shownBefore = false;
  for (let k = 0; k < chars.length; k++) {
    const ch = chars[k];
    if (ch in LITERAL) out[k] = { text: LITERAL[ch], mark: "␣" };
    else if (HIDDEN.test(ch)) {
      const joinsHere = shownBefore && JOINING.test(ch)
        && (ch !== "\u200D" || (k + 1 < chars.length && !HIDDEN.test(chars[k + 1])));
      if (!joinsHere) out[k] = { text: codeName(ch), mark: "invisible" };
    }
    shownBefore = out[k] === null;
  }
  return out;
}
const UNKNOWN = new Set(["[UNK]", "<unk>", "<UNK>"]);

// GPT-2's byte alphabet, read backwards: character -> the byte it stands for.
// Printable bytes stand for themselves; the others were moved past U+00FF in order.
const BYTE_OF = (() => {
  const map = new Map();
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    map.set(String.fromCharCode(printable ? b : next++), b);
  }
  return map;
})();

// The bytes a token spells, where the vocabulary works on bytes: byte-level
// tokens (one character per byte) and <0xNN> byte-fallback tokens. Null otherwise.
export function tokenBytes(token, { byteLevel = false } = {}) {
  if (BYTE_TOKEN.test(token)) return [parseInt(token.slice(3, 5), 16)];
  if (!byteLevel) return null;
  const bytes = [];
  for (const ch of token) {
    const b = BYTE_OF.get(ch);
    if (b === undefined) return null;
    bytes.push(b);
  }
  return bytes;
}

// How many bytes the UTF-8 sequence that starts with byte b has (0: b cannot start one).
function sequenceLength(b) {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

// ignoreBOM: a token that holds the byte-order mark holds it; the decoder must not drop it.
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

// Bytes cut into whole characters and loose bytes: [{text} | {bytes}] in order.
// Loose bytes are the pieces of a character that this token does not hold whole.
export function utf8Runs(bytes) {
  const runs = [];
  const loose = (b) => {
    const last = runs[runs.length - 1];
    if (last && last.bytes) last.bytes.push(b);
    else runs.push({ bytes: [b] });
  };
  for (let i = 0; i < bytes.length;) {
    const n = sequenceLength(bytes[i]);
    let whole = n > 0 && i + n <= bytes.length;
    for (let k = i + 1; whole && k < i + n; k++) whole = (bytes[k] & 0xc0) === 0x80;
    if (!whole) {
      loose(bytes[i]);
      i += 1;
      continue;
    }
    const text = n === 1 ? String.fromCharCode(bytes[i]) : UTF8.decode(new Uint8Array(bytes.slice(i, i + n)));
    const last = runs[runs.length - 1];
    if (last && last.text !== undefined) last.text += text;
    else runs.push({ text });
    i += n;
  }
  return runs;
}

export const hexBytes = (bytes) => bytes.map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");

// Runs of neighbouring tokens whose bytes, together, make whole characters that
// none of them holds alone: [{first, last, text}] over token indexes.
export function byteJoins(tokens, optionsOf) {
  const joins = [];
  let open = null; // {first, bytes} while a character is incomplete
  tokens.forEach((token, i) => {
    const bytes = tokenBytes(token, optionsOf(i));
    if (!bytes) { open = null; return; }
    for (const b of bytes) {
      if (open && (b & 0xc0) === 0x80) {
        open.bytes.push(b);
        if (open.bytes.length === open.need) {
          if (open.first !== i) {
            joins.push({ first: open.first, last: i,
                         text: UTF8.decode(new Uint8Array(open.bytes)) });
          }
          open = null;
        }
        continue;
      }
      const need = sequenceLength(b);
      open = need > 1 ? { first: i, bytes: [b], need } : null;
    }
  });
  return joins;
}

// Split a token string into pieces to draw: {text, mark} where mark names the
// legend entry (null for ordinary text; "bytes" for text in a byte alphabet,
// drawn plainly but explained). The pieces' texts, joined, are the token "as
// shown" (literal whitespace drawn as ␣ ↵ ⇥ ␍).
export function pieces(token, { special = false, model = "", unknown = false, byteLevel = false } = {}) {
  const visible = token.replace(/[ \n\t\r]/g, (ch) => LITERAL[ch]);
  if (special) return [{ text: visible, mark: UNKNOWN.has(token) ? "unknown" : "special" }];
  if (unknown || UNKNOWN.has(token)) return [{ text: visible, mark: "unknown" }];
  const bytes = tokenBytes(token, { byteLevel });
  if (bytes) return decodedPieces(token, bytes);
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
  const chars = [...rest];
  const drawn = drawnAs(chars);
  chars.forEach((ch, k) => {
    const piece = ch === "▁" || (byteLevel && ch in BYTE_LEVEL) ? { text: ch, mark: ch } : drawn[k];
    if (piece) {
      flush();
      out.push(piece);
    } else plain += ch;
  });
  flush();
  return out;
}

// A token that spells bytes (byte-level, or a <0xNN> byte) is shown as what it decodes to:
// whole characters as text (spaces, line breaks and tabs as ␣ ↵ ⇥, characters that draw as
// nothing as <U+FEFF>), the bytes of part of a character as <E2 80>. An empty "spelling"
// piece says the vocabulary writes it otherwise (the chip's title and data-spelling give
// that spelling: Ġ, å¤©, <0xE5>).
function decodedPieces(token, bytes) {
  const out = [];
  for (const run of utf8Runs(bytes)) {
    if (run.bytes) {
      out.push({ text: `<${hexBytes(run.bytes)}>`, mark: "partial" });
      continue;
    }
    let plain = "";
    const chars = [...run.text];
    const drawn = drawnAs(chars);
    chars.forEach((ch, k) => {
      const piece = drawn[k];
      if (!piece) { plain += ch; return; }
      if (plain) out.push({ text: plain, mark: null });
      plain = "";
      out.push(piece);
    });
    if (plain) out.push({ text: plain, mark: null });
  }
  if (out.map((p) => p.text).join("") !== token) out.push({ text: "", mark: "spelling" });
  return out;
}

// The vocabulary's own spelling of a token, when its chip shows something else (else null).
export function spelling(token, options) {
  return pieces(token, options).some((p) => p.mark === "spelling") ? token : null;
}

export function shown(token, options) {
  return pieces(token, options).map((p) => p.text).join("");
}

// A symbol or token of a tokenizer described by `info`, written as its chip's face shows it.
export function face(token, info) {
  return shown(token, tokenOptions(info, null));
}

// One sentence about a token, for the inspector line.
export function explain(token, options) {
  const parts = pieces(token, options);
  const notes = [];
  for (const p of parts) {
    if (p.mark === "special") notes.push(t(options.inText ? "note.specialInText" : "note.special"));
    else if (p.mark === "unknown") notes.push(t("note.unknown"));
    else if (p.mark === "<0x…>") notes.push(t("note.byte", { hex: token.slice(3, 5).toUpperCase() }));
    else if (p.mark === "##") notes.push(t("note.continues"));
    else if (p.mark === "bytes") notes.push(t("note.bytes", { text: p.text }));
    else if (p.mark === "partial") notes.push(t("note.partial", { hex: p.text.slice(1, -1) }));
    else if (p.mark === "invisible") notes.push(t("note.invisible", { code: p.text.slice(1, -1) }));
    else if (p.mark === "spelling") notes.push(t("note.spelling", { spelling: token }));
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
    if (piece.mark === "spelling") {
      // hover shows the vocabulary's spelling (a joined character's title says more)
      chip.dataset.spelling = token;
      if (!chip.title) chip.title = token;
      continue;
    }
    if (piece.mark === "special" || piece.mark === "unknown") {
      chip.classList.add(piece.mark);
      body.append(piece.text);
    } else if (piece.mark === "partial" || piece.mark === "invisible") {
      body.append(el("span", `mark ${piece.mark}`, piece.text));
    } else if (piece.mark && piece.mark !== "bytes") {
      body.append(el("span", "mark", piece.text));
    } else body.append(piece.text);
  }
  chip.append(body);
  return marks;
}

// Text in quotes, as JSON writes it, with the characters that draw as nothing escaped too
// ("\uFEFF"): the inspector line's token and the text it covers.
export function quoted(text) {
  const chars = [...JSON.stringify(String(text))];
  const drawn = drawnAs(chars);
  const escape = (unit) => `\\u${unit.toString(16).toUpperCase().padStart(4, "0")}`;
  return chars.map((ch, k) => drawn[k]?.mark !== "invisible" ? ch
    : [...Array(ch.length).keys()].map((i) => escape(ch.charCodeAt(i))).join("")).join("");
}

// Spaces, line breaks and characters that draw as nothing inside a piece, made visible as a
// chip shows them (the pre-tokenizer's ▁ and Ġ already are).
export function visible(text) {
  return visibleParts(text).map((p) => p.text).join("");
}

// The characters of `text` as {text, mark}: "␣" for whitespace shown as ␣ ↵ ⇥ ␍, "invisible"
// for one named by code point (<U+200B>), null for one drawn as itself.
export function visibleParts(text) {
  const chars = [...String(text)];
  const drawn = drawnAs(chars);
  return chars.map((ch, k) => drawn[k] ?? { text: ch, mark: null });
}

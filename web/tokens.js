// How a token is drawn: its colour, its visible markers, and a plain-words explanation.

// Same id, same hue; neighbouring ids land far apart on the colour wheel.
export function hueOf(id) {
  return Math.round((id * 137.50776) % 360);
}

// Byte-level BPE (GPT-2) stores bytes as printable characters; these are the
// ones a learner meets most.
const BYTE_LEVEL = { "Ġ": "space", "Ċ": "newline", "ĉ": "tab", "č": "carriage return" };
const LITERAL = { " ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍" };
const LITERAL_NAMES = { " ": "space", "\n": "newline", "\t": "tab", "\r": "carriage return" };

// What each mark means, in our own words. The legend lists the ones on screen.
export const MARKS = {
  "Ġ": "Ġ stands for a space. GPT-2 works on bytes and writes the space byte as Ġ, so “Ġcat” is “ cat” with its leading space.",
  "Ċ": "Ċ stands for a line break (the newline byte, in GPT-2's byte alphabet).",
  "ĉ": "ĉ stands for a tab (the tab byte, in GPT-2's byte alphabet).",
  "▁": "▁ marks a space: SentencePiece turns spaces into ▁, so a piece starting with ▁ begins a new word.",
  "##": "## means “this piece continues the word before it” (WordPiece). “play ##ing” is “playing”.",
  "<0x…>": "<0xNN> is a single byte, used when a character is not in the vocabulary: the text is spelled out in its UTF-8 bytes.",
  "special": "Special tokens such as [CLS] and [SEP] are added by the tokenizer around your text; they do not come from the text itself.",
  "unknown": "An unknown token ([UNK], <unk>) stands for text the vocabulary cannot spell.",
  "bytes": "In a byte-level vocabulary every character stands for one byte, so a letter outside plain ASCII shows up as two to four odd characters: “é” is the two bytes Ã©, and “ is âĢľ.",
  "␣": "␣ ↵ ⇥ show a space, line break or tab that is part of the token itself.",
};

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
    if (p.mark === "special") notes.push("a special token the tokenizer adds; it is not in your text");
    else if (p.mark === "unknown") notes.push("the unknown token: the vocabulary could not spell this text");
    else if (p.mark === "<0x…>") notes.push(`one raw byte, 0x${token.slice(3, 5).toUpperCase()}`);
    else if (p.mark === "##") notes.push("## = continues the previous piece of the same word");
    else if (p.mark === "bytes") notes.push(`“${p.text}” is bytes in the byte alphabet, not letters`);
    else if (p.mark === "▁") notes.push("▁ = a space");
    else if (p.mark in BYTE_LEVEL) notes.push(`${p.mark} = a ${BYTE_LEVEL[p.mark]}`);
    else if (p.mark === "␣") {
      const raw = Object.keys(LITERAL).find((k) => LITERAL[k] === p.text);
      notes.push(`${p.text} = a ${LITERAL_NAMES[raw]}`);
    }
  }
  return [...new Set(notes)].join("; ");
}

export function marksIn(parts) {
  return parts.filter((p) => p.mark).map((p) => p.mark);
}

"""Byte-level pre-tokenization (GPT-2's): cut the text into pieces, then spell each
piece's UTF-8 bytes as printable characters.

1. Cut the text where GPT-2's pattern cuts it, trying at each position, in order:
   a contraction ('s 't 're 've 'm 'll 'd); an optional space then letters; an
   optional space then digits; an optional space then other symbols; a run of
   whitespace that keeps its last space for the word after it; any whitespace.
2. Spell every byte of a piece as one character: printable bytes stand for
   themselves, the others (space, newline, control bytes, ...) take a character
   from U+0100 on, so a space reads "Ġ" and a newline "Ċ".

BPE then merges those characters (`bpe.py`), so it works on bytes and needs no
unknown token. The fast code (`subword_lab.pre_tokenizers.ByteLevel`) runs a
translated regex; the tests prove both cut the same pieces.
"""
from __future__ import annotations

import unicodedata

__all__ = ["split", "byte_characters", "pre_tokenize"]

CONTRACTIONS = ("'s", "'t", "'re", "'ve", "'m", "'ll", "'d")
# The variables the Code panel shows (see steps.py).
SHOWN = ("text", "position", "piece")


def byte_characters():
    """byte -> the character that spells it (GPT-2's table)."""
    printable = [b for b in range(256)
                 if ord("!") <= b <= ord("~") or ord("¡") <= b <= ord("¬") or ord("®") <= b <= ord("ÿ")]
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)  # the bytes that are not printable, in order
            extra += 1
    return table


def kind(char):
    """"letter", "number", "space" or "other", as the pattern's classes see a character."""
    if char.isspace():
        return "space"
    category = unicodedata.category(char)[0]
    return {"L": "letter", "N": "number"}.get(category, "other")


def piece_at(text, position):
    """The piece of `text` that starts at `position` (step 1)."""
    for contraction in CONTRACTIONS:
        if text.startswith(contraction, position):
            return contraction
    start = position + 1 if text[position] == " " and position + 1 < len(text) else position
    if kind(text[start]) != "space":  # an optional space, then a run of one kind
        end = start
        while end < len(text) and kind(text[end]) == kind(text[start]):
            end += 1
        return text[position:end]
    end = position
    while end < len(text) and kind(text[end]) == "space":
        end += 1
    if end < len(text) and end - position > 1:
        end -= 1  # leave one space to the word that follows
    return text[position:end]


def split(text):
    """The pieces of `text` with their [start, end) character offsets (step 1)."""
    pieces = []
    position = 0
    while position < len(text):
        piece = piece_at(text, position)
        pieces.append((piece, [position, position + len(piece)]))
        position += len(piece)
    return pieces


def pre_tokenize(text, on_event=None):
    """The pieces BPE will see, as the "pre_tokenize" event reports them (steps 1 and 2)."""
    table = byte_characters()
    pieces = []
    for piece, offsets in split(text):
        spelled = "".join(table[b] for b in piece.encode("utf-8"))
        pieces.append({"text": spelled, "offsets": offsets, "added": False})
    if on_event is not None:
        on_event({"type": "pre_tokenize", "sequence": 0, "pieces": pieces})
    return pieces

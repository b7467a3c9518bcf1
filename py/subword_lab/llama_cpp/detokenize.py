"""llama.cpp's detokenize for GGUF vocabularies (io/vocab.py): each token's
piece by its attributes (control text only when asked, U+2581 read as a space,
GPT-2's byte characters read back as bytes, byte tokens as their byte), the first
piece's leading space dropped when the vocabulary adds one, then llama.cpp's
clean-up of spaces before punctuation for the vocabularies that ask for it.
"""
from __future__ import annotations

from ..core.tables import byte_level
from ..core.errors import SubwordLabError
from .attrs import BYTE, CONTROL, NORMAL, UNKNOWN, USER_DEFINED, SPACE as _SPACE

__all__ = ["piece", "decode_bytes"]


def piece(vocab, i, special):
    """llama.cpp's token_to_piece as bytes (empty for a control token unless
    `special`)."""
    attr = vocab.attrs[i]
    if not special and attr & (UNKNOWN | CONTROL):
        return b""
    text = vocab.tokens[i]
    if attr & (UNKNOWN | CONTROL | USER_DEFINED):
        return text.encode("utf-8", "surrogateescape")
    if attr & NORMAL:
        if vocab.kind != "BPE" or vocab.escape_whitespaces:
            return text.replace(_SPACE, " ").encode("utf-8", "surrogateescape")
        return _byte_decode(text)
    if attr & BYTE:
        try:
            return bytes([int(text[3:5], 16)])
        except ValueError:
            return b"\x00"
    return b""


def decode_bytes(vocab, ids, special=False):
    """llama_detokenize(ids, remove_special=False, unparse_special=special)."""
    out = bytearray()
    n = len(vocab.tokens)
    for k, i in enumerate(ids):
        if not 0 <= i < n:
            raise SubwordLabError(f"token id {i} is not in the vocabulary (0-{n - 1})",
                                  field="ids")
        text = piece(vocab, i, special)
        if k == 0 and vocab.add_space_prefix and text[:1] == b" ":
            text = text[1:]
        out += text
    if vocab.clean_spaces:
        out = _clean_spaces(bytes(out))
    return bytes(out)


_UNICODE_TO_BYTE = byte_level.unicode_to_bytes()


def _byte_decode(text):
    out = bytearray()
    for ch in text:
        b = _UNICODE_TO_BYTE.get(ch)
        if b is None:  # llama.cpp writes the unknown character out, marked
            raw = ch.encode("utf-8", "surrogateescape")
            out += b"[UNK_BYTE_0x" + raw.hex().encode() + text.encode("utf-8", "surrogateescape") + b"]"
        else:
            out.append(b)
    return bytes(out)


def _clean_spaces(data):
    """llama.cpp's clean-up after detokenizing (clean_spaces), pass for pass and in
    place as it does: " ?" " !" " ." " ," lose their space; " ' " loses both spaces;
    " 's" " 'm" " 're" " 've" lose theirs."""
    t = bytearray(data)
    total = len(t)
    end, total = total, 1 if total else 0
    for i in range(1, end):
        x = t[i]
        if t[i - 1] == 32 and x in (63, 33, 46, 44):
            total -= 1
        t[total] = x
        total += 1
    end, total, i = total, 1 if total else 0, 1
    while i < end:
        x = t[i]
        if x == 39 and i + 1 < end and t[i - 1] == 32 and t[i + 1] == 32:
            total -= 1
            i += 1
            t[i] = 0
        t[total] = x
        total += 1
        i += 1
    end, total = total, 1 if total else 0
    for i in range(1, end):
        x = t[i]
        if t[i - 1] == 32 and x == 39 and i + 1 < end:
            x1 = t[i + 1]
            if x1 in (115, 109):  # 's 'm
                total -= 1
            elif x1 not in (116, 100) and i + 2 < end and (x1, t[i + 2]) in ((114, 101),
                                                                              (118, 101)):
                total -= 1  # 're 've
        t[total] = x
        total += 1
    return bytes(t[:total])



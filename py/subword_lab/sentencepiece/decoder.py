"""sentencepiece's Decode: pieces back to text, as sentencepiece joins them."""
from __future__ import annotations

import re

from .pieces import BYTE, CONTROL, SPACE, UNKNOWN

__all__ = ["decode_pieces"]

_ESCAPED = re.compile("[\udc80-\udcff]")


def decode_pieces(pieces, types, spec, unk_surface, keep_control=False):
    """sentencepiece's Decode: control pieces vanish, an unknown piece reads as the
    unk surface, runs of byte pieces are decoded as UTF-8 (an invalid byte is
    U+FFFD), "▁" reads as a space and the first piece loses one leading "▁"."""
    out = []
    strip_first = spec.add_dummy_prefix or spec.remove_extra_whitespaces
    bos_ws = True
    seen_ws = False
    pending = bytearray()

    def flush():
        if pending:
            # sentencepiece replaces every invalid byte with one U+FFFD
            text = pending.decode("utf-8", "surrogateescape")
            out.append(_ESCAPED.sub("\ufffd", text))
            pending.clear()

    for piece, kind in zip(pieces, types):
        if kind == BYTE:
            pending.append(int(piece[3:5], 16))
            continue
        flush()
        if seen_ws or any(out):
            bos_ws = False
        if kind == CONTROL:
            text = piece if keep_control else ""
            seen_ws = False
        elif kind == UNKNOWN:
            text, seen_ws = unk_surface, False
        else:
            seen_ws = False
            if bos_ws and strip_first and piece.startswith(SPACE):
                piece = piece[1:]
                seen_ws = not spec.remove_extra_whitespaces
            text = piece.replace(SPACE, " ")
        out.append(text)
    flush()
    return "".join(out)

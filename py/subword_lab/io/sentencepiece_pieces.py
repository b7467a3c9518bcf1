"""The fast path of the .model reader: a run of pieces in their usual shape.

A 32,000-piece file is 32,000 small protobuf messages in a row. Reading them
one by one in Python is the slow part of opening a file, so a run of them is
read by two regex passes and whole-list operations instead; what does not fit
the usual shape is left to the general reader (sentencepiece_model.py).
"""
from __future__ import annotations

import re
import struct
from itertools import repeat
from operator import add, itemgetter, ne, or_, sub

__all__ = ["piece_run"]

# A piece in its usual shape: field 1 of the model, a message of at most 127
# bytes holding the piece (field 1, at most 127 bytes without a \n, \x15 or \x18
# byte), maybe the score (field 2, a float) and maybe a one-byte type (field 3).
_SHAPE = (rb"(\n[\x00-\x7f]\n[\x00-\x7f])([^\n\x15\x18]*+)"
          rb"((?:\x15.{4})?(?:\x18[\x00-\x7f])?)")
_PIECE = re.compile(_SHAPE, re.S)
_PIECE_RUN = re.compile(b"(?:" + _SHAPE.replace(b"(", b"(?:").replace(b"(?:?:", b"(?:")
                        + b")*+", re.S)
_NO_SCORE = b"\x15" + bytes(4)
_NORMAL_TYPE = b"\x18\x01"


def piece_run(data: bytes, pos: int, end: int):
    """The run of usually-shaped pieces at `pos`, found by two regex passes; the
    columns are then made by whole-list operations, not a Python loop per piece:
    (texts, scores, types, where the run stops). Each record is checked against
    its own length bytes; the run stops before the first that does not agree
    (the general reader takes it from there)."""
    stop = _PIECE_RUN.match(data, pos, end).end()
    if stop == pos:
        return [], [], [], pos
    found = _PIECE.findall(data, pos, stop)
    heads, texts, tails = [list(map(itemgetter(k), found)) for k in range(3)]
    heads = b"".join(heads)  # per record: "\n", its size, "\n", the piece's length
    text_sizes = list(map(len, texts))
    claimed = list(map(sub, heads[1::4], repeat(2, len(texts))))
    n = _agreeing(claimed, list(map(add, text_sizes, map(len, tails))),
                  list(heads[3::4]), text_sizes)
    try:
        decoded = b"\0".join(texts[:n]).decode("utf-8").split("\0")
    except UnicodeDecodeError:
        decoded = []
    if len(decoded) != n:  # a piece holds a NUL or is not UTF-8: one by one
        decoded = _decode_each(texts[:n])
        n = len(decoded)
    if not n:
        return [], [], [], pos
    tails = tails[:n]
    if bytes(map(len, tails)).count(7) != n:  # a score or a type left out: the defaults
        tails = [t if len(t) == 7 else t + _NORMAL_TYPE if len(t) == 5
                 else _NO_SCORE + (t or _NORMAL_TYPE) for t in tails]
    values = struct.unpack("<" + "xfxB" * n, b"".join(tails))
    return decoded, list(values[0::2]), list(values[1::2]), pos + sum(claimed[:n]) + 4 * n


def _agreeing(claimed, actual, lengths, text_sizes):
    """How many records, from the first, agree with their own size bytes."""
    if claimed == actual and lengths == text_sizes:
        return len(claimed)
    bad = list(map(or_, map(ne, claimed, actual), map(ne, lengths, text_sizes)))
    return bad.index(True)


def _decode_each(texts):
    """The texts up to the first that is not UTF-8 (the general reader reports it)."""
    out = []
    for t in texts:
        try:
            out.append(t.decode("utf-8"))
        except UnicodeDecodeError:
            break
    return out

"""The fast path of the .model reader: a run of pieces in their usual shape.

A 32,000-piece file is 32,000 small protobuf messages in a row. Reading them
one by one in Python is the slow part of opening a file, so a run of them is
read by two regex passes and whole-list operations instead; what does not fit
the usual shape is left to the general reader (sentencepiece_model.py).
"""
from __future__ import annotations

import re
import struct
from itertools import compress, count, repeat
from operator import add, itemgetter, ne, sub

__all__ = ["piece_run", "string_run"]

# A piece in its usual shape: field 1 of the model, a message of at most 127
# bytes holding the piece (field 1, at most 127 bytes without a \n, \x15 or \x18
# byte), maybe the score (field 2, a float) and maybe a one-byte type (field 3).
_SHAPE = (rb"(\n[\x00-\x7f]\n[\x00-\x7f])([^\n\x15\x18]*+)"
          rb"((?:\x15.{4})?(?:\x18[\x00-\x7f])?)")
# A record, or (where none starts) the rest of the data in one match: findall
# lists the run's records and ends with one "rest" item, in a single pass.
_PIECE_OR_REST = re.compile(_SHAPE + b"|(.).*", re.S)  # ".*" jumps to the end at once


def piece_run(data: bytes, pos: int, end: int):
    """The run of usually-shaped pieces at `pos`, found by one regex pass; the
    columns are then made by whole-list operations, not a Python loop per piece:
    (texts, scores, types, where the run stops). Each record is checked against
    its own length bytes; the run stops before the first that does not agree
    (the general reader takes it from there)."""
    found = _PIECE_OR_REST.findall(data, pos, end)
    if found and found[-1][3]:
        del found[-1]
    if not found:
        return [], [], [], pos
    heads, texts, tails = [list(map(itemgetter(k), found)) for k in range(3)]
    heads = b"".join(heads)  # per record: "\n", its size, "\n", the piece's length
    text_sizes = list(map(len, texts))
    tail_sizes = bytes(map(len, tails))  # 7: score and type, 5: score, 2: type, 0: none
    claimed = list(map(sub, heads[1::4], repeat(2, len(texts))))
    n = _agreeing(claimed, list(map(add, text_sizes, tail_sizes)),
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
    joined, tail_sizes = b"".join(tails[:n]), tail_sizes[:n]
    stop = pos + sum(claimed[:n]) + 4 * n
    if tail_sizes.count(7) == n:  # the usual case: every piece has its score and type
        values = struct.unpack("<" + "xfxB" * n, joined)
        return decoded, list(values[0::2]), list(values[1::2]), stop
    # Some leave a field out: read the present ones, the default in the gaps.
    scores = struct.unpack("<" + "".join(map(_SCORE_FORMAT.__getitem__, tail_sizes)), joined)
    types = struct.unpack("<" + "".join(map(_TYPE_FORMAT.__getitem__, tail_sizes)), joined)
    return (decoded, _column(scores, tail_sizes.translate(_HAS_SCORE), 0.0),
            _column(types, tail_sizes.translate(_HAS_TYPE), 1), stop)


# By a record's tail size: the struct format that reads its score, or its type.
_SCORE_FORMAT = ("", "", "2x", "", "", "xf", "", "xf2x")
_TYPE_FORMAT = ("", "", "xB", "", "", "5x", "", "5xxB")
_HAS_SCORE = bytes(1 if k in (5, 7) else 0 for k in range(256))
_HAS_TYPE = bytes(1 if k in (2, 7) else 0 for k in range(256))


def _column(values, present, default):
    """The values of the records flagged in `present` (one byte each), the default
    for the others: inserted when few are missing, else placed one by one."""
    n = len(present)
    if len(values) == n:
        return list(values)
    if n - len(values) <= 64:
        out = list(values)
        for m in re.finditer(b"\x00", present):
            out.insert(m.start(), default)
        return out
    out = [default] * n
    for m, value in zip(re.finditer(b"\x01", present), values):
        out[m.start()] = value
    return out


def _agreeing(claimed, actual, lengths, text_sizes):
    """How many records, from the first, agree with their own size bytes."""
    if claimed == actual and lengths == text_sizes:
        return len(claimed)
    if claimed[:-1] == actual[:-1] and lengths[:-1] == text_sizes[:-1]:
        return len(claimed) - 1  # the usual end: a piece holding a \x15 or \x18 byte
    # the first index where either pair differs, found by iterators that stop there
    n = len(claimed)
    return min(next(compress(count(), map(ne, claimed, actual)), n),
               next(compress(count(), map(ne, lengths, text_sizes)), n))


def _decode_each(texts):
    """The texts up to the first that is not UTF-8 (the general reader reports it)."""
    out = []
    for t in texts:
        try:
            out.append(t.decode("utf-8"))
        except UnicodeDecodeError:
            break
    return out


def string_run(data: bytes, pos: int, after_key: int, end: int):
    """A run of records of one repeated string field (its key is data[pos:after_key]),
    each under 128 bytes and valid UTF-8: (the strings, where the run stops).
    What does not fit is left to the general reader, which reports it."""
    key, out = data[pos:after_key], []
    at = len(key)
    while data.startswith(key, pos) and pos + at < end and data[pos + at] < 0x80:
        stop = pos + at + 1 + data[pos + at]
        if stop > end:
            break
        try:
            out.append(data[pos + at + 1:stop].decode("utf-8"))
        except UnicodeDecodeError:
            break
        pos = stop
    return out, pos

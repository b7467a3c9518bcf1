"""The fast path of the .model reader: a run of pieces in their usual shape.

A 32,000-piece file is 32,000 small protobuf messages in a row. Reading them
one by one in Python is the slow part of opening a file, so a run of them is
read by one regex pass and whole-list operations instead; what does not fit
the usual shape is left to the general reader (sentencepiece_model.py).

The first run of a message (`first_run`) is read by splitting the data at the
9 or 11 bytes that sit between two pieces in the usual shape (score, maybe a
type, the next record's head): the texts come out as the parts between, and the
separators, joined, are a fixed layout (one per width) read by strided byte
slices. Every record is checked against its own size and length bytes, so a
separator found where none is (inside a text) only ends the run early. Its
first kilobyte, and later runs (after a piece of another shape), are read by a
regex that matches record by record, whose cost stays within the run it reads.
"""
from __future__ import annotations

import re
import struct
from itertools import compress, count, repeat
from operator import add, itemgetter, ne, sub

__all__ = ["first_run", "piece_run", "split_run", "string_run"]

# Between two usual pieces: the score (\x15 and 4 bytes), maybe the type (\x18
# and one byte), then the next record's key, size, the piece's key and length.
# (Any byte where a one-byte type, size or length goes: "." is quicker than a
# class, and those bytes are checked to be under 128 afterwards.)
_BETWEEN = re.compile(rb"(\x15....(?:\x18.)?\n.\n.)", re.S)
_WIDTH_RUNS = re.compile(rb"\x09+|\x0b+")  # runs of separators of one width
# A record's size from its piece's: + 9 with a type, + 7 without (255: too big)
_PLUS = {w: bytes(min(k + w - 2, 255) for k in range(256)) for w in (9, 11)}
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
    decoded = _decode_all(texts[:n])
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


def first_run(data: bytes, pos: int, end: int):
    """The first run of pieces of a message: the first kilobyte record by record
    (sentencepiece writes <unk>, <s> and </s> without a score when it is 0),
    then the rest by one split. (texts, scores, types, where the run stops)."""
    head = piece_run(data, pos, min(end, pos + 1024))
    more = split_run(data, head[3], end)
    for column, before in zip(more[:3], head[:3]):
        column[:0] = before  # in front: no copy of the long column
    return more


def split_run(data: bytes, pos: int, end: int):
    """The run of pieces at `pos` that have a score, every record but the run's
    last followed by another such record: (texts, scores, types, where the run
    stops), found by one split of data[pos:end]. Empty lists when the first
    record is not in that shape. Costs a pass over [pos, end) whatever it finds,
    so the reader calls it once per message."""
    parts = _BETWEEN.split(data if pos == 0 and end == len(data) else data[pos:end])
    first, texts, seps = parts[0], parts[2:-1:2], parts[1:-1:2]
    if not seps or len(first) < 4 or first[:1] + first[2:3] != b"\n\n" or first[1] > 127 \
            or first[1] != first[3] + len(seps[0]) - 2 or len(first) != 4 + first[3]:
        return [], [], [], pos
    texts.insert(0, first[4:])
    n = len(texts)  # records whose tail is a separator (the last part is left over)
    try:
        lengths = bytes(map(len, texts))
    except ValueError:  # a piece of 256 bytes or more
        lengths = b"\x80"
    if not lengths.isascii():  # a length of more than one byte: the run stops before it
        n = next(compress(count(), map((127).__lt__, map(len, texts))))
        if not n:
            return [], [], [], pos
        del texts[n:], seps[n:]
        lengths = bytes(map(len, texts))
    columns = _between_columns(seps, lengths)
    n = min(n, columns[0])
    decoded = _decode_all(texts[:n])
    n = len(decoded)
    if not n:
        return [], [], [], pos
    _, floats, types, widths = columns
    return (decoded, list(struct.unpack(f"<{n}f", memoryview(floats)[:4 * n])),
            list(types[:n]), _run_end(pos, end, parts, n, lengths, widths))


def _decode_all(texts):
    """The pieces' texts as str: one decode of them all joined by NUL; one by one
    (which stops at the first that is not UTF-8) when a piece holds a NUL or is
    not UTF-8."""
    try:
        decoded = b"\0".join(texts).decode("utf-8").split("\0")
    except UnicodeDecodeError:
        decoded = []
    return decoded if len(decoded) == len(texts) else _decode_each(texts)


def _run_end(pos, end, parts, n, lengths, widths):
    """Where the first n records of the split's parts end: the last record's
    head (4 bytes) ends the last separator when all of them were taken."""
    if 2 * n + 1 == len(parts):
        return end - len(parts[-1]) - 4
    return pos + sum(lengths[:n]) + sum(widths[:n])


def _between_columns(seps, lengths):
    """From the separators after the pieces of `lengths` (each 9 or 11 bytes: a
    score, maybe a type, the next record's head): (how many records, from the
    first, agree with their length bytes; their scores as little-endian float32
    bytes; their types; the separators' widths). A run of separators of one
    width is a fixed layout, read by strided slices. Record 0's head is not
    here (the caller checks it)."""
    n = len(seps)
    joined = b"".join(seps)
    if len(joined) in (9 * n, 11 * n):  # one width (all have a type, or none has)
        widths = bytes([len(joined) // n]) * n
    else:
        widths = bytes(map(len, seps))
    floats = bytearray(4 * n)
    types, sizes, lens, expected = [], [], [], []
    for run in _WIDTH_RUNS.finditer(widths):
        a, b = run.span()
        w = widths[a]
        chunk = joined if b - a == n else b"".join(seps[a:b])
        for k in range(4):
            floats[4 * a + k:4 * b:4] = chunk[1 + k::w]
        types.append(chunk[6::w] if w == 11 else b"\x01" * (b - a))
        sizes.append(chunk[w - 3::w])  # the next record's size byte
        lens.append(chunk[w - 1::w])  # and its piece's length byte
        expected.append(lengths[a:b].translate(_PLUS[w]))  # these records' sizes
    sizes, types = b"".join(sizes)[:n - 1], b"".join(types)
    # lengths are under 128, so a length byte equal to one is; size and type
    # bytes are checked here (a byte of 128 or more starts a longer varint)
    agree = min(_first_difference(b"".join(lens)[:n - 1], lengths[1:]),
                _first_difference(sizes, b"".join(expected)[1:]), _first_high(sizes)) + 1
    return min(agree, _first_high(types)), floats, types, widths


def _first_high(data: bytes) -> int:
    """The index of the first byte of 128 or more (the length if none)."""
    if data.isascii():
        return len(data)
    return next(compress(count(), map((127).__lt__, data)))


def _first_difference(a: bytes, b: bytes) -> int:
    """The first index where two byte strings differ (the shorter's length if none)."""
    if a == b:
        return len(a)
    return next(compress(count(), map(ne, a, b)), min(len(a), len(b)))


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

"""llama.cpp's Unigram tokenizer (GGUF "t5" vocabularies), for io/vocab.py.

Normalization first (user-defined tokens kept whole, sentencepiece's precompiled
charsmap walked as llama.cpp walks its XOR-compressed double array, spaces as U+2581,
a space before the text, runs of spaces merged when the file asks), then the Viterbi
search over the normalized bytes: the best sum of token scores, user-defined tokens
scoring 0, an unknown character scoring the lowest normal score minus 10 (in float32,
as llama.cpp keeps it), and a run of unknowns read as one unknown token.
"""
from __future__ import annotations

import struct

from ..core.errors import SubwordLabError
from .attrs import NORMAL, UNUSED, USER_DEFINED, SPACE as _SPACE

__all__ = ["encode", "normalize", "charsmap", "tokens", "viterbi"]


def _tables(vocab):
    if vocab._pieces is None:
        attrs, scores = vocab.attrs, vocab.scores
        matchable, prefixes, user = {}, set(), set()
        low = min((scores[i] for i, a in enumerate(attrs) if a & NORMAL),
                  default=3.4028234663852886e38)
        for i, t in enumerate(vocab.tokens):
            a = attrs[i]
            if a & (NORMAL | USER_DEFINED | UNUSED):
                raw = t.encode("utf-8", "surrogateescape")
                matchable[raw] = i  # the trie keeps the last id of a text
                prefixes.update(raw[:k] for k in range(1, len(raw) + 1))
            if a & USER_DEFINED:
                user.add(t.encode("utf-8", "surrogateescape"))
        unknown = _float32(_float32(low) - 10.0)
        vocab._pieces = (matchable, prefixes, sorted(user, key=len, reverse=True), unknown)
    return vocab._pieces

def normalize(vocab, text, start, end):
    """llama.cpp's UGM normalization of text[start:end]: (bytes, [(first, last + 1)
    original index per byte])."""
    matchable, prefixes, user, _ = _tables(vocab)
    data = text[start:end].encode("utf-8", "surrogatepass")
    char_at = [start + k for k, ch in enumerate(text[start:end])
               for _ in range(len(ch.encode("utf-8", "surrogatepass")))]
    space = _SPACE.encode() if vocab.escape_whitespaces else b" "
    prepend = vocab.add_space_prefix
    merge = vocab.remove_extra_whitespaces
    out, where = bytearray(), []
    prepended, in_word, at = False, False, 0
    while at < len(data):
        piece, used = _prefix(vocab, data, at, user)
        span = (char_at[at], char_at[at + used - 1] + 1)
        for c in piece:
            if c != 32:
                if not in_word:
                    in_word = True
                    if (prepend and not prepended) or merge:
                        out += space
                        where += [span] * len(space)
                        prepended = True
                out.append(c)
                where.append(span)
            else:
                in_word = False
                if not merge:
                    out += space
                    where += [span] * len(space)
        at += used
    return bytes(out), where

def _prefix(vocab, data, at, user):
    for u in user:
        if data.startswith(u, at):
            return u, len(u)
    found = vocab.charsmap.longest(data, at) if vocab.charsmap else None
    if found is not None:
        return found
    n = _utf8_len(data[at])
    return data[at:at + n], n

def encode(vocab, text, start, end, ids, starts, ends):
    data, where = normalize(vocab, text, start, end)
    if not data:
        return
    for i, lo, hi in tokens(vocab, viterbi(vocab, data)):
        ids.append(i)
        starts.append(min(s for s, _ in where[lo:hi]))
        ends.append(max(e for _, e in where[lo:hi]))


def viterbi(vocab, data, trace=None):
    """llama.cpp's forward pass over normalized bytes: per byte position, the best
    (id, start, total score) ending there. `trace`, a list, receives every edge
    looked at as (start, end, id, score, unknown)."""
    matchable, prefixes, _, unknown = _tables(vocab)
    n = len(data)
    unk = vocab.specials["unk"]
    attrs, scores = vocab.attrs, vocab.scores
    best = [(unk, 0, float("-inf"))] * (n + 1)
    best[0] = (unk, 0, 0.0)
    at = 0
    while at < n:
        width = min(_utf8_len(data[at]), n - at)
        base = best[at][2]
        single = False
        k = at + 1
        while k <= n and data[at:k] in prefixes:
            i = matchable.get(data[at:k])
            if i is not None:
                if k - at == width:
                    single = True
                edge = 0.0 if attrs[i] & USER_DEFINED else scores[i]
                if trace is not None:
                    trace.append((at, k, i, edge, False))
                score = base + edge
                if score > best[k][2]:
                    best[k] = (i, at, score)
            k += 1
        if not single:
            if trace is not None:
                trace.append((at, at + width, unk, unknown, True))
            score = base + unknown
            if score > best[at + width][2]:
                best[at + width] = (unk, at, score)
        at += width
    return best


def tokens(vocab, best, fuse=True):
    """The best path back from the end: [(id, start, end)] in bytes, a run of unknowns
    read as one unknown token (unless `fuse` is false)."""
    unk = vocab.specials["unk"]
    found, k, prev_unknown = [], len(best) - 1, False
    while True:
        i, begin, _ = best[k]
        is_unknown = i == unk
        if not (fuse and prev_unknown and is_unknown):
            found.append((i, begin, k))
        else:  # a run of unknowns is one token: widen the one kept
            found[-1] = (i, begin, found[-1][2])
        if begin == 0:
            break
        prev_unknown = is_unknown
        k = begin
    return found[::-1]

# -- detokenize ------------------------------------------------------------------


def _float32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _utf8_len(first_byte):
    return (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4)[first_byte >> 4]


class _Charsmap:
    """sentencepiece's precompiled charsmap as llama.cpp walks it: the longest prefix
    in the XOR-compressed double array, then its NUL-terminated replacement."""

    def __init__(self, blob, path):
        if len(blob) < 4:
            raise SubwordLabError("too short for its header", path=path, field=_CHARSMAP)
        (size,) = struct.unpack_from("<I", blob)
        if size + 4 >= len(blob):
            raise SubwordLabError("its array runs past its end", path=path, field=_CHARSMAP)
        self.array = struct.unpack_from(f"<{size // 4}I", blob, 4)
        self.replacements = blob[4 + size:]
        self.path = path

    def _node(self, i):
        if i >= len(self.array):
            raise SubwordLabError("index out of its array", path=self.path, field=_CHARSMAP)
        return self.array[i]

    def _base(self, i):
        node = self._node(i)
        return (node >> 10) << ((node & (1 << 9)) >> 6)

    def longest(self, data, at):
        node, length, offset = self._base(0), 0, 0
        for k in range(at, len(data)):
            c = data[k]
            if c == 0:
                break
            node ^= c
            if self._node(node) & ((1 << 31) | 0xFF) != c:
                break
            leaf = (self._node(node) >> 8) & 1
            node ^= self._base(node)
            if leaf:
                length, offset = k - at + 1, self._node(node) & ((1 << 31) - 1)
        if not length:
            return None
        if offset >= len(self.replacements):
            raise SubwordLabError("a replacement out of its bounds", path=self.path,
                                  field=_CHARSMAP)
        end = self.replacements.find(b"\0", offset)
        if end < 0:
            raise SubwordLabError("an unterminated replacement", path=self.path,
                                  field=_CHARSMAP)
        return self.replacements[offset:end], length


_CHARSMAP = "tokenizer.ggml.precompiled_charsmap"


def charsmap(meta, path):
    blob = meta.get(_CHARSMAP)
    if blob is None:
        return None
    if not isinstance(blob, list) or not all(isinstance(b, int) for b in blob):
        raise SubwordLabError("expected an array of bytes", path=path, field=_CHARSMAP)
    return _Charsmap(bytes(b & 0xFF for b in blob), path)



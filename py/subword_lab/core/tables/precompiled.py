"""sentencepiece's precompiled character map, read without sentencepiece.

The blob (`normalizer_spec.precompiled_charsmap` in a .model file, base64 in a
tokenizer.json "Precompiled" normalizer) is:

    uint32 little-endian  size of the trie in bytes
    trie                  a darts-clone double array of uint32 units
    pool                  the replacement strings, each ended by a NUL byte

The trie is keyed by the UTF-8 bytes of the text to replace; a key's value is
the byte offset of its replacement in the pool.

Two ways of applying it exist, and they differ:

- sentencepiece (mode="sentencepiece") walks the UTF-8 input and, at each
  position, replaces the LONGEST key that matches there; with no match it
  copies one character.
- Hugging Face (mode="hf", the tokenizer.json component) cuts the text into
  extended grapheme clusters. A cluster shorter than 6 UTF-8 bytes is looked up
  as a whole, and the SHORTEST key that is a prefix of it replaces the whole
  cluster (so "X + combining mark" may lose the mark when only "X" has a rule);
  otherwise, or with no match, each character is looked up alone.
"""
from __future__ import annotations

import re
import struct
import sys
import unicodedata
from array import array
from functools import lru_cache

from ..errors import SubwordLabError

__all__ = ["CharsMap", "graphemes", "apply_replacement"]


class CharsMap:
    """The parsed blob: prefix searches over the double-array trie."""

    def __init__(self, blob: bytes):
        blob = bytes(blob)
        if len(blob) < 4:
            raise SubwordLabError("precompiled charsmap is too short", field="precompiled_charsmap")
        (trie_size,) = struct.unpack_from("<I", blob, 0)
        if trie_size % 4 or 4 + trie_size > len(blob):
            raise SubwordLabError("precompiled charsmap has a bad trie size",
                                  field="precompiled_charsmap")
        self.units = _uint32s(blob[4:4 + trie_size])
        self.pool = blob[4 + trie_size:]
        self.blob = blob
        self._cache = {}
        self._ascii_keys = None

    def check_like_sentencepiece(self) -> None:
        """Refuse the blob as sentencepiece does when it opens a .model file
        (darts-clone's validate: every transition stays inside the array, a
        leaf flag points at a leaf, a value points into the pool); tokenizers
        does not check, so tokenizer.json's Precompiled does not call this."""
        units, size = self.units, len(self.units)
        pool = len(self.pool)

        def bad(what):
            return SubwordLabError(f"precompiled charsmap is invalid ({what}), as "
                                   "sentencepiece finds it", field="precompiled_charsmap")

        if not size:
            raise bad("an empty trie")
        root = units[0]
        if root & 0x800000FF or (root >> 8) & 1 or not _offset(root) or (_offset(root) | 0xFF) >= size:
            raise bad("a bad root")
        for i in range(1, size):
            unit = units[i]
            if unit & 0x800000FF <= 0xFF:
                target = i ^ _offset(unit)
                if target | 0xFF >= size:
                    raise bad(f"unit {i} leads outside the trie")
                if (unit >> 8) & 1 and units[target] & 0x800000FF <= 0xFF:
                    raise bad(f"unit {i} marks a leaf that is none")
            elif unit & 0x7FFFFFFF >= pool:
                raise bad(f"unit {i} points past the replacement strings")

    def prefix_values(self, key: bytes) -> list:
        """(length, value) for every key that is a prefix of `key`, shortest first."""
        return self._walk(key)[0]

    def _walk(self, key: bytes):
        """(prefix_values(key), how many bytes of `key` the walk read; one more than
        `key` holds when it ran out of bytes before the trie ran out of keys)."""
        units = self.units
        n = len(units)
        out = []
        if not n:
            return out, 0
        pos = _offset(units[0])
        for i, byte in enumerate(key):
            if byte == 0:
                return out, i + 1
            pos ^= byte
            if pos >= n:
                return out, i + 1
            unit = units[pos]
            if (unit & 0x800000FF) != byte:  # label mismatch
                return out, i + 1
            pos ^= _offset(unit)
            if (unit >> 8) & 1 and pos < n:  # has a leaf: its value is stored there
                out.append((i + 1, units[pos] & 0x7FFFFFFF))
        return out, len(key) + 1  # the walk would have gone on: more bytes matter

    def replacement(self, value: int) -> str:
        end = self.pool.find(b"\0", value)
        if end < 0:
            end = len(self.pool)
        return self.pool[value:end].decode("utf-8", "replace")

    def shortest(self, chunk: str):
        """HF's lookup: the replacement of the shortest key prefixing `chunk`."""
        hit = self._cache.get(chunk, 0)
        if hit == 0:
            found = self.prefix_values(chunk.encode("utf-8", "surrogatepass"))
            hit = self.replacement(found[0][1]) if found else None
            self._cache[chunk] = hit
        return hit

    def longest(self, data: bytes, start: int):
        """sentencepiece's lookup at `data[start:]`: (byte length, replacement) or None."""
        return self.longest_read(data[start:start + 64])[0]

    def longest_read(self, data: bytes):
        """(sentencepiece's lookup at the start of `data`, how many bytes of `data`
        it read): the result holds for any data that starts with those bytes (if
        it read no more than `data` holds)."""
        found, read = self._walk(data)
        if not found:
            return None, read
        length, value = found[-1]
        return (length, self.replacement(value)), read

    def ascii_key_starters(self) -> str:
        """The ASCII characters that begin a key made only of ASCII bytes.

        Plain ASCII text can only match such keys, so text without any of these
        characters passes through unchanged (the common case, checked with one regex).
        Each first byte's subtree is searched only until one such key is found."""
        units = self.units
        if not units:
            return ""
        if self._ascii_keys is None:
            found = []
            for byte, child, leaf in self._ascii_children(_offset(units[0])):
                if leaf or self._has_ascii_key(child):
                    found.append(chr(byte))
            self._ascii_keys = "".join(found)
        return self._ascii_keys

    def _ascii_children(self, node):
        """(byte, child node, whether a key ends there) for each ASCII edge of `node`."""
        units, n = self.units, len(self.units)
        for byte in range(1, 128):
            pos = node ^ byte
            if pos < n and (units[pos] & 0x800000FF) == byte:
                yield byte, pos ^ _offset(units[pos]), (units[pos] >> 8) & 1

    def _has_ascii_key(self, node) -> bool:
        stack = [node]
        while stack:
            for _, child, leaf in self._ascii_children(stack.pop()):
                if leaf:
                    return True
                stack.append(child)
        return False

    def starters(self) -> str:
        """Every character some key begins with (`may_start` of each), found by
        walking the trie one UTF-8 character deep: a few thousand probes."""
        units, n = self.units, len(self.units)
        if not n:
            return ""
        found = []
        # (node, bytes so far, continuation bytes still to read)
        stack = [(_offset(units[0]), b"", None)]
        while stack:
            node, prefix, left = stack.pop()
            for byte in range(0x80, 0xC0) if left else range(1, 0xF5):
                pos = node ^ byte
                if pos >= n or (units[pos] & 0x800000FF) != byte:
                    continue
                child = pos ^ _offset(units[pos])
                more = left - 1 if left else (byte >= 0xC0) + (byte >= 0xE0) + (byte >= 0xF0)
                if more:
                    stack.append((child, prefix + bytes([byte]), more))
                else:
                    found.append((prefix + bytes([byte])).decode("utf-8", "surrogatepass"))
        return "".join(sorted(found))

    def may_start(self, ch: str) -> bool:
        """Whether some key begins with `ch` (else `ch` is never rewritten)."""
        units = self.units
        if not units:
            return False
        pos = _offset(units[0])
        for byte in ch.encode("utf-8", "surrogatepass"):
            pos ^= byte
            if pos >= len(units) or (units[pos] & 0x800000FF) != byte:
                return False
            pos ^= _offset(units[pos])
        return True


def _uint32s(data: bytes):
    """Little-endian uint32s as an array (a copy of the bytes, not a tuple of ints)."""
    units = array("I")
    if units.itemsize != 4:
        return struct.unpack(f"<{len(data) // 4}I", data)
    units.frombytes(data)
    if sys.byteorder == "big":
        units.byteswap()
    return units


def _offset(unit: int) -> int:
    return (unit >> 10) << ((unit & (1 << 9)) >> 6)


def apply_replacement(changes: list, old: str, new: str) -> None:
    """Append the (char, change) pairs that turn `old` into `new`, as HF's
    Precompiled does: chars replace one for one; extra new chars are inserted
    at the end; fewer new chars remove the surplus after the last one (when
    `new` is empty that lands on the char emitted before, as in HF)."""
    diff = len(new) - len(old)
    changes.extend((c, 0) for c in new)
    if diff > 0:
        for i in range(len(changes) - diff, len(changes)):
            changes[i] = (changes[i][0], 1)
    elif diff < 0 and changes:
        c, change = changes[-1]
        changes[-1] = (c, change + diff)


# ----- grapheme clusters (UAX #29, the rules that matter here) ---------------
# HF only looks a cluster up whole when it is under 6 UTF-8 bytes, so what must
# be exact is which short sequences form one cluster: a base plus combining
# marks (Extend, SpacingMark, ZWJ), CR LF, Prepend + base, Hangul syllable
# sequences and regional-indicator pairs. Emoji ZWJ sequences (rule GB11) are
# always 7+ bytes and fall back to per-character lookups either way, so they
# are not joined here.

_OTHER_EXTEND = frozenset(
    [0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E,
     0x0D57, 0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E, 0xFF9F,
     0x1133E, 0x11357, 0x114B0, 0x114BD, 0x115AF, 0x11930, 0x1D165, 0x1D16E, 0x1D16F,
     0x1D170, 0x1D171, 0x1D172] + list(range(0x1F3FB, 0x1F400)) + list(range(0xE0020, 0xE0080))
)
_NOT_SPACING = frozenset(
    [0x102B, 0x102C, 0x1038, 0x1062, 0x1063, 0x1064, 0x1067, 0x1068, 0x1069, 0x106A,
     0x106B, 0x106C, 0x106D, 0x1083, 0x1087, 0x1088, 0x1089, 0x108A, 0x108B, 0x108C,
     0x108F, 0x109A, 0x109B, 0x109C, 0x1A61, 0x1A63, 0x1A64, 0xAA7B, 0xAA7D, 0x11720,
     0x11721]
)
_PREPEND = frozenset(
    [0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891,
     0x08E2, 0x0D4E, 0x110BD, 0x110CD, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A,
     0x11A84, 0x11A85, 0x11A86, 0x11A87, 0x11A88, 0x11A89, 0x11D46]
)
# cluster break classes
_OTHER, _CR, _LF, _CONTROL, _EXTEND, _ZWJ, _SPACING, _PREP, _RI, _L, _V, _T, _LV, _LVT = range(14)


@lru_cache(maxsize=4096)
def _gcb(ch: str) -> int:
    cp = ord(ch)
    if cp < 0x7F:
        return _CR if cp == 13 else _LF if cp == 10 else _CONTROL if cp < 32 else _OTHER
    if cp == 0x200D:
        return _ZWJ
    if cp in _OTHER_EXTEND:
        return _EXTEND
    if cp in _PREPEND:
        return _PREP
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me"):
        return _EXTEND
    if cat == "Mc":
        return _EXTEND if cp in _NOT_SPACING else _SPACING
    if cat in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        return _CONTROL
    if cp in (0x0E33, 0x0EB3):
        return _SPACING
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return _RI
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return _L
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return _V
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return _T
    if 0xAC00 <= cp <= 0xD7A3:
        return _LV if (cp - 0xAC00) % 28 == 0 else _LVT
    return _OTHER


def _joins(prev: int, cur: int, ri_odd: bool) -> bool:
    if prev == _CR and cur == _LF:
        return True
    if prev in (_CR, _LF, _CONTROL) or cur in (_CR, _LF, _CONTROL):
        return False
    if prev == _L and cur in (_L, _V, _LV, _LVT):
        return True
    if prev in (_LV, _V) and cur in (_V, _T):
        return True
    if prev in (_LVT, _T) and cur == _T:
        return True
    if cur in (_EXTEND, _ZWJ, _SPACING) or prev == _PREP:
        return True
    return prev == _RI and cur == _RI and ri_odd


def graphemes(text: str) -> list:
    """Split `text` into (approximate) extended grapheme clusters."""
    out = []
    start = 0
    prev = None
    ri_run = 0
    for i, ch in enumerate(text):
        cur = _gcb(ch)
        if prev is not None and not _joins(prev, cur, ri_run % 2 == 1):
            out.append(text[start:i])
            start = i
        ri_run = ri_run + 1 if cur == _RI else 0
        prev = cur
    if start < len(text):
        out.append(text[start:])
    return out


# Runs that may hold a multi-char cluster: non-ASCII chars with the (ASCII)
# char before them, CR LF, or a single ASCII char.
def segment_pattern(ascii_starters: str) -> re.Pattern:
    parts = [r"(?:\r\n|[\x00-\x7f])?[^\x00-\x7f]+", r"\r\n"]
    if ascii_starters:
        parts.append("[" + re.escape(ascii_starters) + "]")
    return re.compile("|".join(parts))

"""Strings that remember where each character came from.

`NormalizedString` is the heart of offset tracking, modelled on the one in
Hugging Face `tokenizers`: every normalizer edits `normalized` and keeps, for
each of its characters, the span of `original` it came from. HF stores that
alignment per UTF-8 byte with byte spans; every byte of one character always
shares one span, so keeping one span per character, in character offsets, is
the same information in the unit the Python binding reports.

The alignment is stored lazily: `None` means "character i comes from
character i" (nothing was inserted or removed yet), which is the common case
for plain text and costs nothing to slice.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import repeat
from typing import NamedTuple

from .tables import unicode as unicode_tables
from .regex.planes import TwoPlaneRegex
from .regex.guard import ROUTED, GuardedRegex

__all__ = ["Token", "NormalizedString", "Split", "PreTokenizedString", "RUST_WHITESPACE"]


class Token(NamedTuple):
    id: int
    value: str
    offsets: tuple

    def as_tuple(self) -> tuple:
        """(id, value, offsets), as tokenizers' `Token.as_tuple`."""
        return (self.id, self.value, self.offsets)


# Rust's `char::is_whitespace` (the Unicode White_Space property). Python's
# str.isspace() also accepts U+001C..U+001F, which HF does not strip.
RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

_BEHAVIORS = ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous")


def _identity(n, start=0):
    return list(zip(range(start, start + n), range(start + 1, start + n + 1)))


def _plain(new, text, shift, original=None):
    """A NormalizedString whose char i comes from original char i (identity
    alignment; `original` defaults to `text`), built without __init__'s keyword
    handling: pre-tokenizers make one per piece."""
    ns = new(NormalizedString)
    ns.normalized = text
    ns.original = text if original is None else original
    ns._align = None
    ns._shift = shift
    return ns


class NormalizedString:
    __slots__ = ("original", "normalized", "_align", "_shift")

    def __init__(self, sequence: str = "", *, _normalized=None, _align=None, _shift=0):
        self.original = sequence
        self.normalized = sequence if _normalized is None else _normalized
        self._align = _align  # None = identity with `original`
        self._shift = _shift  # where `original` starts in the whole input

    # ----- inspection -----------------------------------------------------
    def __repr__(self):
        return f'NormalizedString(original="{self.original}", normalized="{self.normalized}")'

    def __str__(self):
        return self.normalized

    def __getitem__(self, index):
        """`ns[i:j]`: the part over normalized chars i..j (HF's slicing)."""
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("a NormalizedString can only be sliced, as ns[start:end]")
        start, end, _ = index.indices(len(self.normalized))
        return self.slice(start, max(start, end))

    def __len__(self):
        return len(self.normalized)

    def __bool__(self):
        return True

    def is_empty(self) -> bool:
        return not self.normalized

    @property
    def original_shift(self) -> int:
        return self._shift

    def alignments(self) -> list:
        """One `(start, end)` span of `original` (relative) per normalized char."""
        if self._align is None:
            return _identity(len(self.normalized))
        return list(self._align)

    def alignment_spans(self):
        """Per normalized char, `[start, end]` in whole-input offsets; `None` when
        the alignment is the identity (char i of `normalized` is char i of the input
        slice). This is what the `normalize` event carries."""
        if self._align is None:
            return None
        s = self._shift
        return [[a + s, b + s] for a, b in self._align]

    def to_event(self, **extra) -> dict:
        """The `normalize` event (see docs/events.md)."""
        event = {
            "type": "normalize",
            "before": self.original,
            "after": self.normalized,
            "offset": self._shift,
            "alignment": self.alignment_spans(),
        }
        event.update(extra)
        return event

    def offsets_original(self) -> tuple:
        return (self._shift, self._shift + len(self.original))

    def _align_list(self) -> list:
        if self._align is None:
            self._align = _identity(len(self.normalized))
        return self._align

    # ----- offset conversion ------------------------------------------------
    def _normalized_to_original(self, start, end):
        """HF's convert_offsets(Range::Normalized), relative to `original`."""
        if start == end:
            return (start, end)
        if start > end:
            return None
        if not self.normalized and (start, end) == (0, 0):
            return (0, len(self.original))
        if end > len(self.normalized):
            return None
        if self._align is None:
            return (start, end)
        return (self._align[start][0], self._align[end - 1][1])

    def _original_to_normalized(self, start, end):
        """HF's convert_offsets(Range::Original): chars whose span lies inside."""
        if start == end:
            return (start, end)
        if start > end:
            return None
        if not self.original and (start, end) == (0, 0):
            return (0, len(self.normalized))
        if self._align is None:
            return (start, min(end, len(self.normalized)))
        first = last = None
        for i, (a, b) in enumerate(self._align):
            if end < b:
                break
            if first is None and start <= a and a != b:
                first = i
            last = i + 1
        if first is not None and last is not None:
            return (first, last)
        if first is not None:
            return (first, first)
        if last is not None:
            return (last, last)
        return None

    def convert_offsets(self, start: int, end: int) -> tuple:
        """A span of `normalized` to a span of the whole original input.

        As in HF, an empty span is only shifted, and a span that is out of range
        comes back unchanged."""
        span = self._normalized_to_original(start, end)
        if span is None:
            return (start, end)
        return (span[0] + self._shift, span[1] + self._shift)

    # ----- the primitive ----------------------------------------------------
    def transform(self, changes, initial_offset: int = 0) -> None:
        """Rewrite `normalized` from `(char, change)` pairs (HF semantics).

        change 0: the char replaces the next current char; 1: it is inserted
        (it takes the span of the char before it); -n: it replaces the next char
        and the n chars after that are removed. `initial_offset` chars are
        removed at the very start."""
        # HF addresses the whole string as "all of original", converted to a
        # normalized range: chars at the start with empty spans fall outside it.
        rng = self._original_to_normalized(0, len(self.original))
        if rng is None:
            return
        if rng[1] - rng[0] < len(self.normalized) and self._reads_past_end(*rng, changes, initial_offset):
            # Every char has an empty span (say, appended to a string stripped to nothing):
            # that range misses them, and tokenizers panics reading past its end ("index
            # out of bounds" in transform_range). The changes describe the whole string, so
            # they are applied to the whole string.
            rng = (0, len(self.normalized))
        self._transform_range(rng[0], rng[1], changes, initial_offset)

    def _reads_past_end(self, start, end, changes, initial_offset) -> bool:
        """Whether _transform_range(start, end, ...) would read a char's span past the last
        char (its offsets move as there)."""
        size = len(self.normalized)
        offset = start + min(initial_offset, end - start)
        for _, change in changes:
            if change <= 0:
                if offset >= size:
                    return True
                if offset < end:
                    offset += 1
                if change < 0:
                    offset = min(offset - change, end)
        return False

    def _transform_range(self, start, end, changes, initial_offset=0):
        align = self._align
        identity = align is None
        if identity:
            align = _identity(len(self.normalized))
        offset = start + min(initial_offset, end - start)
        chars, new_align = [], []
        append_c, append_a = chars.append, new_align.append
        all_zero = initial_offset == 0
        for c, change in changes:
            if change > 0:
                append_a(align[offset - 1] if offset >= 1 else (0, 0))
                all_zero = False
            else:
                append_a(align[offset])
                if offset < end:
                    offset += 1
                if change < 0:
                    offset = min(offset - change, end)
                    all_zero = False
            append_c(c)
        old = self.normalized
        self.normalized = old[:start] + "".join(chars) + old[end:]
        if identity and all_zero and len(chars) == end - start:
            return  # still char i <- char i
        align[start:end] = new_align
        self._align = align

    def _plain_start(self) -> bool:
        """True when transform() would cover the whole of `normalized`, so a fast
        path may rewrite the string directly."""
        if self._align is None:
            return True
        return not self._align or self._align[0][0] != self._align[0][1]

    def _map_chars(self, new_text: str) -> None:
        """Replace every char 1:1 (same length): the alignment does not move."""
        if self._plain_start():
            self.normalized = new_text
        else:
            self.transform([(c, 0) for c in new_text], 0)

    def translate(self, table):
        """`str.translate` with a table that maps chars to single chars only
        (a fast `map`)."""
        self._map_chars(self.normalized.translate(table))
        return self

    # ----- unicode normalization -------------------------------------------
    def nfd(self):
        return self._unicode("NFD")

    def nfkd(self):
        return self._unicode("NFKD")

    def nfc(self):
        return self._unicode("NFC")

    def nfkc(self):
        return self._unicode("NFKC")

    def _unicode(self, form):
        text = self.normalized
        changes = None if text.isascii() else unicode_changes(text, form)
        if changes is None:
            if self._plain_start():
                return self  # HF's transform would rewrite every char with itself
            changes = [(c, 0) for c in text]
        self.transform(changes, 0)
        return self

    # ----- case -------------------------------------------------------------
    def lowercase(self):
        """HF's Lowercase: Rust's char::to_lowercase per char, from HF's own
        table (unicode_tables), not this Python's Unicode version."""
        text = self.normalized
        if text.isascii():
            self._map_chars(text.lower())
            return self
        table = unicode_tables.lowercase_table()
        lowered = text.translate(table)
        if len(lowered) == len(text):
            self._map_chars(lowered)
            return self
        parts = [table.get(ord(c), c) for c in text]
        self.transform([(c, int(i > 0)) for p in parts for i, c in enumerate(p)], 0)
        return self

    def uppercase(self):
        return self._case(str.upper)

    def _case(self, fn):
        text = self.normalized
        if text.isascii():
            self._map_chars(fn(text))
            return self
        # Per character, as Rust's char::to_lowercase: no final-sigma context.
        # Case mappings never shrink a char, so an equal length means 1:1.
        whole = fn(text)
        if len(whole) == len(text) and "\u03a3" not in text:
            self._map_chars(whole)
            return self
        parts = [fn(c) for c in text]
        if all(len(p) == 1 for p in parts):
            self._map_chars("".join(parts))
            return self
        self.transform([(c, int(i > 0)) for p in parts for i, c in enumerate(p)], 0)
        return self

    # ----- filter / map -----------------------------------------------------
    def filter(self, func):
        text = self.normalized
        drop = {c for c in set(text) if not func(c)}
        if self._plain_start():
            if drop:
                self._drop_chars(drop)
            return self
        flags = [c not in drop for c in text]
        changes = []
        removed = removed_start = 0
        last = None
        for c, ok in zip(text, flags):
            if ok:
                if last is None:
                    removed_start = removed
                else:
                    changes.append((last, -removed))
                last = c
                removed = 0
            else:
                removed += 1
        if last is not None:
            changes.append((last, -removed))
        self.transform(changes, removed_start)
        return self

    def _drop_chars(self, drop):
        """filter() when transform() covers the whole string: the kept chars
        keep their own spans, so deleting positions gives HF's result."""
        # As ranges: a class of thousands of single characters beyond the BMP is
        # matched by trying each in turn (4,096 unassigned code points dropped from a
        # text of them: 47 ms, against 0.4 ms as ranges).
        spans = unicode_tables.spans_of(ord(c) for c in drop)
        pattern = re.compile("[" + unicode_tables.class_body(spans) + "]")
        text = self.normalized
        align = self._align_list()
        new_align, last = [], 0
        for m in pattern.finditer(text):
            new_align.extend(align[last:m.start()])
            last = m.end()
        new_align.extend(align[last:])
        self._align = new_align
        self.normalized = pattern.sub("", text)

    def map(self, func):
        text = self.normalized
        mapped = "".join(func(c) for c in text)
        if len(mapped) != len(text):
            raise ValueError("map() must turn each character into exactly one character")
        self._map_chars(mapped)
        return self

    def for_each(self, func) -> None:
        """Call `func` on each normalized character (tokenizers' `for_each`)."""
        for c in self.normalized:
            func(c)

    # ----- adding and removing around the edges -----------------------------
    def prepend(self, s: str):
        if self.normalized:
            first = self.normalized[0]
            changes = [(c, int(i != 0)) for i, c in enumerate(s)] + [(first, 1)]
            self._transform_range(0, 1, changes, 0)
        return self

    def append(self, s: str):
        n = len(self.normalized)
        if n:
            changes = [(self.normalized[-1], 0)] + [(c, 1) for c in s]
            self._transform_range(n - 1, n, changes, 0)
        else:
            self._transform_range(0, 0, [(c, 1) for c in s], 0)
        return self

    def lstrip(self):
        return self._lrstrip(True, False)

    def rstrip(self):
        return self._lrstrip(False, True)

    def strip(self):
        return self._lrstrip(True, True)

    def _lrstrip(self, left, right):
        text = self.normalized
        n = len(text)
        lead = trail = 0
        if left:
            while lead < n and text[lead] in RUST_WHITESPACE:
                lead += 1
        if right:
            while trail < n and text[n - 1 - trail] in RUST_WHITESPACE:
                trail += 1
        if lead or trail:
            kept = text[lead:max(lead, n - trail)]
            changes = [(c, 0) for c in kept]
            if changes and trail:
                changes[-1] = (changes[-1][0], -trail)
            self.transform(changes, lead)
        return self

    def clear(self) -> int:
        n = len(self.normalized)
        self.transform((), n)
        return n

    # ----- replace ----------------------------------------------------------
    def replace(self, pattern, content: str):
        """Every match of `pattern` (a str, or a compiled re.Pattern) becomes
        `content`; the new chars take the span of the last matched char."""
        text = self.normalized
        if isinstance(pattern, str) and len(pattern) == 1 and len(content) == 1:
            # One char for one char: every new char takes its old char's span,
            # so the alignment (even an identity one) stays as it is.
            self.normalized = text.replace(pattern, content)
            return self
        matches = [m for m, is_match in find_matches(pattern, text) if is_match]
        if not matches:
            return self
        align = self._align_list()
        out, new_align = [], []
        last = 0
        for start, end in matches:
            out.append(text[last:start])
            new_align.extend(align[last:start])
            out.append(content)
            span = align[end - 1] if end >= 1 else (0, 0)
            new_align.extend([span] * len(content))
            last = end
        out.append(text[last:])
        new_align.extend(align[last:])
        self.normalized = "".join(out)
        self._align = new_align
        return self

    # ----- slicing and splitting -------------------------------------------
    def slice(self, range, end=None):
        """The part of this string over `normalized[start:end]`, with its own
        `original` (the chars it is aligned to) and shift into the input.
        Called as `slice(start, end)`, or as tokenizers calls it with one
        range: a `(start, end)` pair or a `slice` object."""
        if end is None:
            if isinstance(range, slice):
                start, end, _ = range.indices(len(self.normalized))
            else:
                start, end = range
        else:
            start = range
        n = len(self.normalized)
        if start < 0 or end > n or start > end:
            return None
        if self._align is None:
            return _plain(NormalizedString.__new__, self.normalized[start:end],
                          self._shift + start)
        span = self._normalized_to_original(start, end)
        if span is None:
            return None
        o_start, o_end = span
        if start == end:
            # HF maps an empty normalized span to the same numbers in original.
            o_end = o_start
        part = self._align[start:end]
        if o_end - o_start == end - start and part == _identity(end - start, o_start):
            # The piece is unchanged text (say "▁word" where "▁" replaced a space):
            # an identity alignment keeps every later step on the fast paths.
            return _plain(NormalizedString.__new__, self.normalized[start:end],
                          self._shift + o_start, self.original[o_start:o_end])
        align = [(a - o_start, b - o_start) for a, b in part]
        return NormalizedString(
            self.original[o_start:o_end], _normalized=self.normalized[start:end],
            _align=align, _shift=self._shift + o_start)

    def split(self, pattern, behavior: str, invert: bool = False) -> list:
        """Split on `pattern` (str, re.Pattern, or a predicate on one char).

        `behavior` says what becomes of each delimiter: "removed", "isolated",
        "merged_with_previous", "merged_with_next" or "contiguous"; `invert`
        swaps matches and non-matches (HF's Split with invert=True). Empty
        pieces are dropped."""
        if self._align is None and type(pattern) in _REGEX_TYPES:
            fast = self._split_plain(pattern, behavior, invert)
            if fast is not None:
                return fast
        matches = find_matches(pattern, self.normalized)
        if invert:
            matches = [(m, not flag) for m, flag in matches]
        pieces = _apply_behavior(matches, behavior)
        out = []
        for (start, end), remove in pieces:
            if not remove and end > start:
                out.append(self.slice(start, end))
        return out

    def _split_plain(self, pattern, behavior, invert):
        """split() for an identity alignment and a compiled regex, in one pass.

        This is the hot path of every pre-tokenizer on plain text: each piece is
        just a substring with its own shift, so no match list, no behavior fold
        and no alignment slicing are needed. Returns None for the behaviors it
        does not cover (merged_*, contiguous), which take the general path."""
        keep_matches = behavior == "isolated" or (behavior == "removed" and invert)
        keep_gaps = behavior == "isolated" or (behavior == "removed" and not invert)
        if not (keep_matches or keep_gaps):
            return None
        text, shift = self.normalized, self._shift
        new = NormalizedString.__new__
        out, prev = [], 0
        spans = pattern.spans(text) if type(pattern) in ROUTED else (
            m.span() for m in pattern.finditer(text))
        for start, end in spans:
            if keep_gaps and prev < start:
                out.append(_plain(new, text[prev:start], shift + prev))
            if keep_matches and start < end:
                out.append(_plain(new, text[start:end], shift + start))
            prev = end
        if keep_gaps and prev < len(text):
            out.append(_plain(new, text[prev:], shift + prev))
        return out


# ----- patterns ---------------------------------------------------------------

# Compiled patterns: Python's own, translated ones (core/plane_regex), and user
# patterns under a time bound.
_REGEX_TYPES = (re.Pattern, TwoPlaneRegex, GuardedRegex)

def find_matches(pattern, text: str) -> list:
    """[((start, end), is_match)] covering `text`, like HF's Pattern trait."""
    if isinstance(pattern, str):
        if not pattern:
            return [((0, len(text)), False)]
        return _matches_from_spans(_str_spans(pattern, text), len(text))
    if isinstance(pattern, _REGEX_TYPES):
        if not text:
            return [((0, 0), False)]
        spans = pattern.spans(text) if type(pattern) in ROUTED else [
            m.span() for m in pattern.finditer(text)]
        return _matches_from_spans(spans, len(text))
    if callable(pattern):
        if not text:
            return [((0, 0), False)]
        spans = [(i, i + 1) for i, c in enumerate(text) if pattern(c)]
        return _matches_from_spans(spans, len(text))
    raise TypeError(f"unsupported split pattern: {pattern!r}")


def _str_spans(needle, text):
    spans, i, n = [], text.find(needle), len(needle)
    while i >= 0:
        spans.append((i, i + n))
        i = text.find(needle, i + n)
    return spans


def _matches_from_spans(spans, length):
    out, prev = [], 0
    for start, end in spans:
        if prev != start:
            out.append(((prev, start), False))
        out.append(((start, end), True))
        prev = end
    if prev != length:
        out.append(((prev, length), False))
    return out


def _apply_behavior(matches, behavior):
    """[((start, end), remove)] for one delimiter behavior (HF's fold rules)."""
    if behavior == "isolated":
        return [(m, False) for m, _ in matches]
    if behavior == "removed":
        return matches
    if behavior == "contiguous":
        acc, prev = [], False
        for (s, e), is_match in matches:
            if is_match == prev and acc:
                acc[-1] = ((acc[-1][0][0], e), False)
            else:
                acc.append(((s, e), False))
            prev = is_match
        return acc
    if behavior == "merged_with_previous":
        acc, prev = [], False
        for (s, e), is_match in matches:
            if is_match and not prev and acc:
                acc[-1] = ((acc[-1][0][0], e), False)
            else:
                acc.append(((s, e), False))
            prev = is_match
        return acc
    if behavior == "merged_with_next":
        acc, prev = [], False
        for (s, e), is_match in reversed(matches):
            if is_match and not prev and acc:
                acc[-1] = ((s, acc[-1][0][1]), False)
            else:
                acc.append(((s, e), False))
            prev = is_match
        acc.reverse()
        return acc
    raise ValueError(f"unknown split behavior {behavior!r}; expected one of {', '.join(_BEHAVIORS)}")


# ----- unicode normalization with alignment ------------------------------------
# HF gets (char, change) pairs from the `unicode-normalization-alignments`
# crate: decomposition tags the first char of each char's decomposition 0 and
# the rest 1, then sorts runs of combining marks by class (the tags travel with
# the chars); composition merges a pair into one char tagged a + b - 1. We
# reproduce those tags so transform() gives the same alignment.
# Which chars decompose, and which are combining marks, is HF's table
# (unicode_tables): newer Pythons know chars HF leaves alone. The mappings and
# classes themselves never change once assigned, so `unicodedata` gives them.

_COMPOSE_CACHE: dict = {}


def _compose(a, b):
    key = a + b
    hit = _COMPOSE_CACHE.get(key)
    if hit is None:
        c = unicodedata.normalize("NFC", key)
        # a composite HF does not know (it would not decompose it) is not made
        hit = c if len(c) == 1 and c in unicode_tables.charset("nfd") else ""
        _COMPOSE_CACHE[key] = hit
    return hit or None


def _decompose(text, compat):
    form = "NFKD" if compat else "NFD"
    decomposes = unicode_tables.charset(form.lower())
    combining = unicode_tables.combining_classes().get
    out = []
    run_start = None  # start of the current run of non-starters in `out`
    for ch in text:
        d = unicodedata.normalize(form, ch) if ch in decomposes else ch
        for i, c in enumerate(d):
            ccc = combining(c, 0)
            if ccc == 0:
                if run_start is not None:
                    _sort_run(out, run_start)
                    run_start = None
            elif run_start is None:
                run_start = len(out)
            out.append((c, 0 if i == 0 else 1, ccc))
    if run_start is not None:
        _sort_run(out, run_start)
    return [(c, t) for c, t, _ in out]


def _sort_run(out, start):
    if len(out) - start > 1:
        out[start:] = sorted(out[start:], key=lambda item: item[2])  # stable


def _recompose(items):
    combining = unicode_tables.combining_classes().get
    out, buffer = [], []
    composee = None
    last_ccc = None
    for ch, change in items:
        ccc = combining(ch, 0)
        if composee is None:
            if ccc != 0:
                out.append((ch, change))
            else:
                composee = (ch, change)
            continue
        if last_ccc is not None and last_ccc >= ccc:
            # blocked from the composee
            if ccc == 0:
                out.append(composee)
                out.extend(buffer)
                buffer = []
                composee, last_ccc = (ch, change), None
            else:
                buffer.append((ch, change))
                last_ccc = ccc
            continue
        r = _compose(composee[0], ch)
        if r is not None:
            composee = (r, composee[1] + change - 1)
        elif last_ccc is None and ccc == 0:
            out.append(composee)
            composee = (ch, change)
        else:
            buffer.append((ch, change))
            last_ccc = ccc
    if composee is not None:
        out.append(composee)
    out.extend(buffer)
    return out


def _segment_changes(segment, form):
    items = _decompose(segment, form in ("NFKD", "NFKC"))
    if form in ("NFC", "NFKC"):
        items = _recompose(items)
    return items


# Hangul syllables decompose by rule (unicodedata.decomposition names no parts): a
# vowel jamo follows a leading consonant, a trailing consonant follows an LV syllable.
_HANGUL_SECONDS = ((0x1161, 0x1175), (0x11A8, 0x11C2))


@lru_cache(maxsize=None)
def _changing_runs(form: str):
    """A regex for the runs of `text` that `form` may change, each with the char
    before it. Any other char is left as it is in every context: HF's table does not
    decompose it (for this form), it is a starter, and it is not the second char of a
    canonical pair, so nothing composes with it (NFC and NFKC); the char before a run
    may be the first of a pair, and a starter before it blocks anything further back.
    So a text in a script that never changes (CJK, most letters) costs one search."""
    chars = {ord(c) for c in unicode_tables.charset("nfkd" if form in ("NFKD", "NFKC") else "nfd")}
    chars.update(ord(c) for c in unicode_tables.charset("nonstarters"))
    if form in ("NFC", "NFKC"):
        for c in unicode_tables.charset("nfd"):
            if 0xAC00 <= ord(c) <= 0xD7A3:
                continue  # a Hangul syllable: its seconds are the jamo ranges below
            parts = unicodedata.decomposition(c).split()
            if len(parts) == 2 and not parts[0].startswith("<"):
                chars.add(int(parts[1], 16))
        chars.update(cp for a, b in _HANGUL_SECONDS for cp in range(a, b + 1))
    body = unicode_tables.class_body(unicode_tables.spans_of(chars))
    return re.compile(f"[\\s\\S]?[{body}]+")


def unicode_changes(text: str, form: str):
    """(char, change) pairs turning `text` into its `form` normalization, as HF
    computes them; `None` when nothing changes. Only the runs `_changing_runs` finds
    take the slow path (decompose, reorder marks, compose), each with its char before."""
    pieces, last, changed = [], 0, False
    for m in _changing_runs(form).finditer(text):
        start, end = m.span()
        seg = _segment_changes(text[start:end], form)
        if not changed and (len(seg) != end - start or any(
                t or c != o for (c, t), o in zip(seg, text[start:end]))):
            changed = True
        pieces.append((last, start, seg))
        last = end
    if not changed:
        return None
    out = []
    for plain_start, plain_end, seg in pieces:
        out.extend(zip(text[plain_start:plain_end], repeat(0)))
        out.extend(seg)
    out.extend(zip(text[last:], repeat(0)))
    return out


# ----- pre-tokenized string ----------------------------------------------------

class Split:
    """One piece of a PreTokenizedString: its NormalizedString and, once the
    model ran, its tokens (offsets relative to `normalized.normalized`)."""

    __slots__ = ("normalized", "tokens")

    def __init__(self, normalized: NormalizedString, tokens=None):
        self.normalized = normalized
        self.tokens = tokens

    def __iter__(self):
        return iter((self.normalized, self.tokens))

    def __repr__(self):
        return f"Split({self.normalized!r}, {self.tokens!r})"


class PreTokenizedString:
    __slots__ = ("original", "splits")

    def __init__(self, s):
        ns = s  # a str, or a NormalizedString
        if isinstance(ns, str):
            ns = NormalizedString(ns)
        self.original = ns.original
        self.splits = [Split(ns)]

    def __repr__(self):
        return f"PreTokenizedString({self.splits!r})"

    def split(self, func) -> None:
        """Replace every untokenized split by `func(index, normalized)`'s pieces
        (NormalizedStrings or Splits); empty pieces are dropped."""
        new = []
        for i, split in enumerate(self.splits):
            if split.tokens is not None:
                new.append(split)
                continue
            for piece in func(i, split.normalized):
                if not isinstance(piece, Split):
                    piece = Split(piece)
                if piece.normalized.normalized:
                    new.append(piece)
        self.splits = new

    def normalize(self, func) -> None:
        for split in self.splits:
            if split.tokens is None:
                func(split.normalized)

    def tokenize(self, func) -> None:
        for split in self.splits:
            if split.tokens is None:
                split.tokens = list(func(split.normalized))

    def get_splits(self, offset_referential="original", offset_type="char") -> list:
        """[(normalized text, (start, end), tokens)] per split. "original" gives
        the span of the input each split covers; "normalized" the running
        position in the concatenated normalized pieces. offset_type "byte"
        counts UTF-8 bytes instead of chars."""
        out, pos = [], 0
        byte = offset_type in ("byte", "none", None)
        for split in self.splits:
            ns = split.normalized
            if offset_referential == "original":
                span = ns.offsets_original()
                if byte:
                    span = _char_to_byte_span(self.original, span)
            else:
                size = len(ns.normalized.encode("utf-8", "surrogatepass")) if byte else len(ns.normalized)
                span = (pos, pos + size)
                pos += size
            out.append((ns.normalized, span, split.tokens))
        return out

    def tokens_with_offsets(self) -> list:
        """[(Token with offsets into the whole original input, split index)] for
        every token, as HF builds an Encoding from the splits."""
        out = []
        for index, split in enumerate(self.splits):
            if split.tokens is None:
                raise ValueError("split has not been tokenized; call tokenize() first")
            ns = split.normalized
            for tok in split.tokens:
                out.append((Token(tok.id, tok.value, ns.convert_offsets(*tok.offsets)), index))
        return out


def _char_to_byte_span(text, span):
    start = len(text[:span[0]].encode("utf-8", "surrogatepass"))
    return (start, start + len(text[span[0]:span[1]].encode("utf-8", "surrogatepass")))

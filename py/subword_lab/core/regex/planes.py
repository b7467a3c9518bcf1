"""A translated pattern compiled twice: for any text, and for texts without astral characters.

Python's `re` keeps the part of a character class below U+10000 as a bitmap (one
lookup), but every range above it as a separate test, tried in turn whenever the
bitmap says no. The \\p{L} of a tokenizer pattern has hundreds of such ranges, so
each failed class test (at every end of a word, in every alternative tried) walks
them all: on o200k's pattern that is nine tenths of the matching time.

So unicode_regex also compiles the pattern with its classes cut to the Basic
Multilingual Plane, and this object runs that one on texts with no character
above U+FFFF. On such a text both give the same matches: every class test is on a
character below U+10000, which is in the cut class exactly when it is in the whole
one (classes under (?i) are not cut, so case folding cannot reach across).

Texts with astral characters (emoji, rare CJK) take the same compile too, where
the pattern allows: each astral character is replaced by a placeholder, a
surrogate code point standing for all the astral characters that belong to
exactly the same classes of the pattern (AstralMap), and each cut class holds
the placeholders of the astral characters it holds. One character for one, so
the matches keep their places, and the pieces are cut from the original text.
That needs a text without surrogates of its own, and a pattern in which nothing
but its classes looks at an astral character: no astral literal, no \b, no
backreference, no (?i) class that could hold one. Otherwise such texts run the
whole pattern.
"""
from __future__ import annotations

import bisect
import re

__all__ = ["AstralMap", "TwoPlaneRegex", "has_astral", "pieces_in", "spans_in"]

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_FIRST_ASTRAL = 0x10000
_END = 0x110000


def _holds(ranges, cp) -> bool:
    k = bisect.bisect_right(ranges, (cp, _END)) - 1
    return k >= 0 and ranges[k][0] <= cp <= ranges[k][1]


class AstralMap:
    """Astral code point -> placeholder, from the astral part of each cut class of a
    pattern (sorted (lo, hi) ranges, one list per class, in the order the classes
    are written). `per_class[i]` lists the placeholders class i must hold; None
    when there are more kinds of astral character than surrogates to stand for them."""

    def __init__(self, parts):
        points = {_FIRST_ASTRAL}
        for ranges in parts:
            for lo, hi in ranges:
                points.add(lo)
                points.add(hi + 1)
        self.starts = sorted(p for p in points if p < _END)
        kinds: dict = {}
        self.codes = []
        for start in self.starts:  # every character of [start, next start) is alike
            kind = tuple(_holds(ranges, start) for ranges in parts)
            self.codes.append(kinds.setdefault(kind, 0xD800 + len(kinds)))
        self.per_class = None
        if len(kinds) <= 0x800:
            self.per_class = [[code for kind, code in kinds.items() if kind[i]]
                              for i in range(len(parts))]
        self._chars: dict = {}

    def placeholder(self, ch: str) -> str:
        code = self._chars.get(ch)
        if code is None:
            code = chr(self.codes[bisect.bisect_right(self.starts, ord(ch)) - 1])
            self._chars[ch] = code
        return code

    def replace(self, text: str) -> str:
        """`text` with every astral character replaced by its placeholder."""
        chars = self._chars
        return _ASTRAL.sub(lambda m: chars.get(m.group()) or self.placeholder(m.group()), text)


def has_astral(text: str) -> bool:
    """True when `text` holds a character above U+FFFF (a C-speed scan)."""
    return not text.isascii() and _ASTRAL.search(text) is not None


def spans_in(pattern: re.Pattern, subject: str) -> list:
    """[(start, end)] of every match of `pattern` in `subject` (a route's two halves)."""
    return [m.span() for m in pattern.finditer(subject)]


def pieces_in(pattern: re.Pattern, subject: str, text: str) -> list:
    """The pieces of `text` that `pattern` matches when run on `subject`: `text` itself,
    or `text` with placeholders (one character for one, so the spans carry over)."""
    if subject is text:
        return pattern.findall(text)
    return [text[a:b] for a, b in spans_in(pattern, subject)]


class TwoPlaneRegex:
    """Quacks like re.Pattern for what the pipeline uses; `pick(text)` is the
    compiled pattern to run on `text`."""

    __slots__ = ("source", "_full", "bmp", "astral")

    def __init__(self, source: str, bmp: re.Pattern, astral=None):
        self.source = source  # the whole pattern, compiled when first needed
        self._full = None
        self.bmp = bmp
        self.astral = astral  # an AstralMap when placeholders can stand for astral chars

    @property
    def full(self) -> re.Pattern:
        # Only texts with surrogates (or astral characters, when the pattern takes no
        # placeholders) need it: compiling o200k's whole pattern costs more than the cut one.
        if self._full is None:
            self._full = re.compile(self.source)
        return self._full

    def pick(self, text) -> re.Pattern:
        """The compiled pattern to run on `text` itself (the whole one is compiled here
        when this text first needs it)."""
        if text.isascii() or _ASTRAL.search(text) is None and (
                self.astral is None or _SURROGATE.search(text) is None):
            return self.bmp
        return self.full

    def route(self, text) -> tuple:
        """(compiled pattern, text to run it on) for spans() and pieces(): the cut pattern
        on `text`, or on `text` with placeholders for its astral characters, or the whole
        pattern on `text` itself (compiled here when first needed). The text run on is
        `text` itself unless it holds placeholders."""
        if text.isascii() or _ASTRAL.search(text) is None:
            return self.bmp, text
        if self.astral is None or _SURROGATE.search(text) is not None:
            return self.full, text
        return self.bmp, self.astral.replace(text)

    def spans(self, text) -> list:
        """[(start, end)] of every match, as finditer gives them."""
        return spans_in(*self.route(text))

    def pieces(self, text) -> list:
        """The matched strings, as findall gives them for a pattern without groups."""
        if self.bmp.groups:
            raise ValueError("pieces() is for patterns without groups")
        return pieces_in(*self.route(text), text)

    @property
    def pattern(self):
        return self.source

    @property
    def groups(self):  # the two compiles differ only inside their classes
        return self.bmp.groups

    @property
    def groupindex(self):
        return self.bmp.groupindex

    @property
    def flags(self):
        return self.bmp.flags

    def finditer(self, text, *args):
        return self.pick(text).finditer(text, *args)

    def findall(self, text, *args):
        return self.pick(text).findall(text, *args)

    def search(self, text, *args):
        return self.pick(text).search(text, *args)

    def match(self, text, *args):
        return self.pick(text).match(text, *args)

    def fullmatch(self, text, *args):
        return self.pick(text).fullmatch(text, *args)

    def split(self, text, maxsplit=0):
        return self.pick(text).split(text, maxsplit)

    def sub(self, repl, text, count=0):
        return self.pick(text).sub(repl, text, count)

    def __eq__(self, other):
        return type(other) is TwoPlaneRegex and other.source == self.source

    def __hash__(self):
        return hash(self.source)

    def __repr__(self):
        return f"TwoPlaneRegex({self.source[:60]!r}...)"

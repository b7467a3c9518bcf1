"""Run the regular expressions of real tokenizers on Python's own `re`.

Tokenizer files carry patterns written for other engines: tiktoken uses Rust's
`fancy-regex`, Hugging Face's Split pre-tokenizer uses Oniguruma, its Whitespace
pre-tokenizer Rust's `regex`. They all speak Unicode properties (`\\p{L}`,
`\\p{N}`, ...) that Python's `re` lacks, and their `\\s`, `\\w`, `\\d` and `$` mean
slightly different things. Rather than depending on the third-party `regex`
package (not allowed here, and heavy under Pyodide), we translate a pattern once
into a plain `re` pattern whose classes list the code point ranges explicitly.

Three flavours, chosen by the caller:
- "fancy" (tiktoken): Rust syntax, `{n,m}+` is possessive, `$` is end of text;
- "rust" (the `regex` crate): the same, as far as we need it;
- "onig" (Hugging Face's SysRegex): Ruby syntax, where `^`/`$` are line
  anchors and `{n,m}+` means `(?:...{n,m})+`, not a possessive quantifier.

Possessive quantifiers (`*+ ++ ?+ {n,m}+`) and atomic groups `(?>...)` pass through
as they are: Python's `re` has them natively since 3.11 (Pyodide runs 3.13+). A
negated class stays a negated class (`[^...]`, never a complemented list), so that
under `(?i)` case folding happens before the negation, as in the other engines.
Unicode scripts (`\\p{Han}`) are refused with a clear error: unicodedata has no
script table, and no published tokenizer pattern uses them.

The property tables come from `unicodedata`, built lazily on first use and
cached. Python 3.11 ships Unicode 14.0 and Pyodide's 3.14 Unicode 16.0, while
the reference engines carry their own tables; characters assigned between those
versions may be classified differently (they are unassigned, "Cn", for us).
"""
from __future__ import annotations

import functools
import itertools
import re
import unicodedata

from ..errors import SubwordLabError
from .planes import AstralMap, TwoPlaneRegex

MAX_CP = 0x10FFFF
_BMP = ((0, 0xFFFF),)
_ASTRAL = [(0x10000, MAX_CP)]
_SURROGATES = [(0xD800, 0xDFFF)]

# White_Space is a stable property (unchanged since Unicode 6.3) that all three
# engines use for \s. It is NOT Python's str.isspace: \x1c-\x1f are not in it.
WHITE_SPACE = (
    (0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680),
    (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F),
    (0x3000, 0x3000),
)
# Alphabetic = letters + Nl + Other_Alphabetic. Most Other_Alphabetic characters
# are marks (already in \w through \p{M}); these are the symbols among them.
_OTHER_ALPHABETIC_SYMBOLS = (
    (0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169), (0x1F170, 0x1F189),
)
_JOIN_CONTROL = ((0x200C, 0x200D),)
_ONIG_LATIN1_NUMBERS = ((0xB2, 0xB3), (0xB9, 0xB9), (0xBC, 0xBE))

_GROUPS = {
    "L": ("Lu", "Ll", "Lt", "Lm", "Lo"), "LC": ("Lu", "Ll", "Lt"),
    "M": ("Mn", "Mc", "Me"), "N": ("Nd", "Nl", "No"),
    "P": ("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"), "S": ("Sm", "Sc", "Sk", "So"),
    "Z": ("Zs", "Zl", "Zp"), "C": ("Cc", "Cf", "Cs", "Co", "Cn"),
}
_LONG_NAMES = {
    "letter": "L", "casedletter": "LC", "uppercaseletter": "Lu", "lowercaseletter": "Ll",
    "titlecaseletter": "Lt", "modifierletter": "Lm", "otherletter": "Lo",
    "mark": "M", "combiningmark": "M", "nonspacingmark": "Mn", "spacingmark": "Mc",
    "enclosingmark": "Me", "number": "N", "decimalnumber": "Nd", "digit": "Nd",
    "letternumber": "Nl", "othernumber": "No", "punctuation": "P", "punct": "P",
    "connectorpunctuation": "Pc", "dashpunctuation": "Pd", "openpunctuation": "Ps",
    "closepunctuation": "Pe", "initialpunctuation": "Pi", "finalpunctuation": "Pf",
    "otherpunctuation": "Po", "symbol": "S", "mathsymbol": "Sm", "currencysymbol": "Sc",
    "modifiersymbol": "Sk", "othersymbol": "So", "separator": "Z",
    "spaceseparator": "Zs", "lineseparator": "Zl", "paragraphseparator": "Zp",
    "other": "C", "control": "Cc", "cntrl": "Cc", "format": "Cf", "surrogate": "Cs",
    "privateuse": "Co", "unassigned": "Cn", "l&": "LC",
}


# --------------------------------------------------------------------------
# Code point sets, as sorted lists of disjoint inclusive (lo, hi) ranges.

# Code points whose category Unicode's stability policy fixes forever, so they need not
# be scanned: planes 4-13 have never had an assigned character (and stay "Cn" here),
# planes 15-16 are private use but for their last two code points, noncharacters.
_FIXED = {"Cn": [(0x40000, 0xDFFFF), (0xFFFFE, 0xFFFFF), (0x10FFFE, 0x10FFFF)],
          "Co": [(0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]}


_SCANNED = ((0, 0x40000), (0xE0000, 0xF0000))  # the other code points (start, stop)


@functools.lru_cache(maxsize=None)
def _category_ranges() -> dict:
    """General category -> ranges: _FIXED, and the code points that can change between
    Unicode versions run by run (_category_runs)."""
    table: dict = {cat: list(ranges) for cat, ranges in _FIXED.items()}
    runs = iter(_category_runs())
    for start, stop in _SCANNED:
        pos = start
        while pos < stop:
            cat, n = next(runs)
            table.setdefault(cat, []).append((pos, pos + n - 1))
            pos += n
    return {cat: normalize(ranges) for cat, ranges in table.items()}


def _category_runs():
    """(category, length) of each run of code points of one category in _SCANNED, in
    order: from the page's wheel's table (core/regex/_category_runs, which build.py made
    with Pyodide's own Python) when it holds this Python's Unicode version, else scanned
    (a third of a second and more under Pyodide, on the first regex with \\p{...})."""
    try:
        from . import _category_runs as stored  # only in the page's wheel
    except ImportError:
        return scan_category_runs()
    if stored.UNIDATA_VERSION != unicodedata.unidata_version:
        return scan_category_runs()
    names = stored.CATEGORIES.split()
    return [(names[ord(k)], ord(n)) for k, n in zip(stored.KINDS, stored.LENGTHS)]


def scan_category_runs() -> list:
    """_category_runs from unicodedata: one pass, map() and groupby() keep the
    per-character work in C."""
    return [(cat, len(list(run))) for start, stop in _SCANNED
            for cat, run in itertools.groupby(map(unicodedata.category, map(chr, range(start, stop))))]


def normalize(ranges) -> list:
    """Sort and merge overlapping or touching ranges."""
    out: list = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def complement(ranges) -> list:
    out, nxt = [], 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CP:
        out.append((nxt, MAX_CP))
    return out


def intersect(a, b) -> list:
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def difference(a, b) -> list:
    return intersect(a, complement(b))


@functools.lru_cache(maxsize=None)
def category_set(*cats: str) -> tuple:
    """The union of general categories ("L" and "Lu" style names)."""
    table = _category_ranges()
    ranges = []
    for cat in cats:
        for sub in _GROUPS.get(cat, (cat,)):
            ranges.extend(table.get(sub, ()))
    return tuple(normalize(ranges))


def white_space() -> tuple:
    return WHITE_SPACE


@functools.lru_cache(maxsize=None)
def word_set(flavor: str = "rust") -> tuple:
    """Unicode \\w: Alphabetic, marks, Nd, Pc and Join_Control in Rust's engines.

    Oniguruma leaves out the joiners; its \\w (flavor "onig_escape", not \\w inside
    brackets nor [[:word:]]) also takes the Latin-1 numbers ² ³ ¹ ¼ ½ ¾, a quirk of its tables."""
    if flavor == "onig":
        cats, extra = ("L", "M", "Nl", "Nd", "Pc"), _OTHER_ALPHABETIC_SYMBOLS
    elif flavor == "onig_escape":
        cats, extra = ("L", "M", "Nl", "Nd", "Pc"), _OTHER_ALPHABETIC_SYMBOLS + _ONIG_LATIN1_NUMBERS
    else:
        cats, extra = ("L", "Nl", "M", "Nd", "Pc"), _OTHER_ALPHABETIC_SYMBOLS + _JOIN_CONTROL
    return tuple(normalize(list(category_set(*cats)) + list(extra)))


def property_set(name: str) -> tuple:
    """Ranges for the body of \\p{...}: a general category or a few binary properties."""
    key = name.replace("_", "").replace(" ", "").replace("-", "")
    if key in _GROUPS or key in {c for g in _GROUPS.values() for c in g}:
        return category_set(key)
    low = key.lower()
    if low.startswith("gc=") or low.startswith("generalcategory="):
        return property_set(key.split("=", 1)[1])
    if low in _LONG_NAMES:
        return category_set(_LONG_NAMES[low])
    if low in {"whitespace", "space"}:
        return WHITE_SPACE
    if low == "any":
        return ((0, MAX_CP),)
    if low == "ascii":
        return ((0, 0x7F),)
    for short, _ in ((c, 0) for g in _GROUPS.values() for c in g):
        if low == short.lower():
            return category_set(short)
    raise SubwordLabError(f"unsupported Unicode property \\p{{{name}}}", field="pattern")


_POSIX = {
    "alnum": ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)),
    "alpha": ((0x41, 0x5A), (0x61, 0x7A)), "ascii": ((0, 0x7F),),
    "blank": ((0x09, 0x09), (0x20, 0x20)), "cntrl": ((0, 0x1F), (0x7F, 0x7F)),
    "digit": ((0x30, 0x39),), "graph": ((0x21, 0x7E),), "lower": ((0x61, 0x7A),),
    "print": ((0x20, 0x7E),), "punct": ((0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)),
    "space": ((0x09, 0x0D), (0x20, 0x20)), "upper": ((0x41, 0x5A),),
    "word": ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)),
    "xdigit": ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
}


def _onig_graph():
    return difference(complement(list(WHITE_SPACE)), list(category_set("Cc", "Cn", "Cs")))


# Oniguruma's Unicode POSIX brackets that general categories can express.
_ONIG_POSIX = {
    "digit": lambda: category_set("Nd"),
    "space": lambda: WHITE_SPACE,
    "blank": lambda: normalize([(0x09, 0x09)] + list(category_set("Zs"))),
    "cntrl": lambda: category_set("Cc"),
    "punct": lambda: category_set("P", "S"),
    "upper": lambda: normalize(list(category_set("Lu")) + _OTHER_UPPERCASE),
    "word": lambda: word_set("onig"),
    "graph": _onig_graph,
    "print": lambda: normalize(_onig_graph() + list(category_set("Zs"))),
}
# Other_Uppercase: Roman numerals and circled/squared capital letters.
_OTHER_UPPERCASE = [(0x2160, 0x216F), (0x24B6, 0x24CF), (0x1F130, 0x1F149),
                    (0x1F150, 0x1F169), (0x1F170, 0x1F189)]

def _escape_cp(cp: int) -> str:
    if cp < 0x80 and (chr(cp).isalnum()):
        return chr(cp)
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def class_text(ranges, negate=False) -> str:
    """A Python `re` character class for the ranges."""
    if not ranges:
        return r"[\x00-\U0010ffff]" if negate else r"[^\x00-\U0010ffff]"
    body = "".join(
        _escape_cp(lo) if lo == hi else f"{_escape_cp(lo)}-{_escape_cp(hi)}" for lo, hi in ranges)
    return f"[{'^' if negate else ''}{body}]"


# --------------------------------------------------------------------------
# The translator.

_SIMPLE_ESCAPES = {"t": 9, "n": 10, "r": 13, "f": 12, "v": 11, "a": 7, "e": 27, "0": 0}
_HEX = re.compile(r"[0-9A-Fa-f]+")


class _Translator:
    """One pass over the pattern, emitting Python `re` syntax."""

    def __init__(self, pattern: str, flavor: str, bmp: bool = False, placeholders=None):
        self.p = pattern
        self.i = 0
        self.flavor = flavor
        self.bmp = bmp  # classes cut to U+0000..U+FFFF, outside (?i) (see plane_regex)
        # bmp mode: the astral part of each cut class, in order; the placeholders
        # each cut class takes in (core.plane_regex.AstralMap), when given; and whether
        # the pattern can run on a text whose astral characters became placeholders.
        self.astral_parts: list = []
        self.placeholders = placeholders
        self.placeholder_ok = True
        self.multiline = flavor == "onig"
        self.ignorecase = False  # inside (?i): negations must stay outermost

    def error(self, what: str) -> SubwordLabError:
        return SubwordLabError(f"{what} at position {self.i} in regex {self.p!r}", field="pattern")

    # -- shared by both contexts -------------------------------------------------

    def _hex_escape(self, max_digits: int) -> int:
        """After \\x or \\u: braces with any number of digits, or a fixed count."""
        p = self.p
        if self.i < len(p) and p[self.i] == "{":
            end = p.find("}", self.i)
            digits = p[self.i + 1:end] if end > 0 else ""
            if not _HEX.fullmatch(digits):
                raise self.error("bad hexadecimal escape")
            self.i = end + 1
        else:
            digits = _HEX.match(p, self.i, min(len(p), self.i + max_digits))
            digits = digits.group() if digits else ""
            if len(digits) != max_digits:
                raise self.error("bad hexadecimal escape")
            self.i += max_digits
        cp = int(digits, 16)
        if cp > MAX_CP:
            raise self.error("code point out of range")
        return cp

    def _escape_set(self, ch: str, outer: bool = False):
        """Escapes that stand for a set of characters (or one): ranges, else None."""
        found = self._escape_set_parts(ch, outer)
        if found is None:
            return None
        ranges, negated = found
        return complement(ranges) if negated else ranges

    def _escape_set_parts(self, ch: str, outer: bool = False):
        """Like _escape_set, but as (positive ranges, negated?): a negation must stay
        outermost so that case-insensitive matching folds before it negates."""
        p = self.p
        if ch in "pP":
            if self.i < len(p) and p[self.i] == "{":
                end = p.find("}", self.i)
                if end < 0:
                    raise self.error("unclosed \\p{")
                name, self.i = p[self.i + 1:end], end + 1
            elif self.flavor == "onig":
                return [(ord(ch), ord(ch))], False  # Ruby has no \pL shorthand: a plain "p"
            elif self.i < len(p):
                name, self.i = p[self.i], self.i + 1
            else:
                raise self.error("incomplete \\p")
            negated = name.startswith("^")
            return list(property_set(name.lstrip("^"))), (ch == "P") != negated
        low = ch.lower()
        if low == "s":
            ranges = list(WHITE_SPACE)
        elif low == "d":
            ranges = list(category_set("Nd"))
        elif low == "w":
            ranges = list(word_set(self._word_flavor(outer)))
        elif low == "h" and self.flavor == "onig":  # \h is a hex digit in Oniguruma
            ranges = list(_POSIX["xdigit"])
        else:
            return None
        return ranges, ch.isupper()

    def _word_flavor(self, outer: bool) -> str:
        # Oniguruma's bare \w (outside brackets) differs from its \w inside them.
        return "onig_escape" if self.flavor == "onig" and outer else self.flavor

    def _literal_escape(self, ch: str):
        """Escapes for one literal code point; None if not one."""
        if ch in _SIMPLE_ESCAPES and not (ch == "0" and self.i < len(self.p) and self.p[self.i].isdigit()):
            return _SIMPLE_ESCAPES[ch]
        if ch == "x":
            return self._hex_escape(2)
        if ch == "u":
            return self._hex_escape(4)
        if ch == "U" and self.flavor != "onig":
            return self._hex_escape(8)
        if not ch.isalnum():
            return ord(ch)
        return None

    # -- inside [...] ------------------------------------------------------------

    def _posix(self, name: str) -> list:
        """[[:name:]]: ASCII in the Rust engines, Unicode in Oniguruma."""
        if self.flavor != "onig" or name in ("ascii", "xdigit"):
            return list(_POSIX[name])
        if name not in _ONIG_POSIX:
            # These need Unicode properties (Alphabetic, Lowercase) unicodedata lacks.
            raise self.error(f"unsupported class [[:{name}:]]")
        return list(_ONIG_POSIX[name]())


    def _class_atom(self):
        """One member of a class: returns (ranges, single code point or None)."""
        p = self.p
        ch = p[self.i]
        if ch == "[":
            if p.startswith("[:", self.i):
                end = p.find(":]", self.i + 2)
                if end > 0:
                    name = p[self.i + 2:end]
                    neg = name.startswith("^")
                    if name.lstrip("^") in _POSIX:
                        self.i = end + 2
                        ranges = self._posix(name.lstrip("^"))
                        return (complement(ranges) if neg else ranges), None
            self.i += 1
            return self._class_body(), None
        self.i += 1
        if ch != "\\":
            return [(ord(ch), ord(ch))], ord(ch)
        if self.i >= len(p):
            raise self.error("trailing backslash")
        esc = p[self.i]
        self.i += 1
        ranges = self._escape_set(esc)
        if ranges is not None:
            return ranges, None
        cp = self._literal_escape(esc)
        if cp is None:
            if esc == "b":  # backspace inside a class
                cp = 8
            else:
                raise self.error(f"unsupported escape \\{esc} in a class")
        return [(cp, cp)], cp

    def _class_body(self) -> list:
        """Parse after '[' up to and including ']'; returns the ranges it matches."""
        acc, negate = self._class_parts()
        return complement(acc) if negate else acc

    def _class_parts(self):
        """Parse after '[' up to and including ']': (positive ranges, negated?)."""
        p = self.p
        negate = False
        if self.i < len(p) and p[self.i] == "^":
            negate, self.i = True, self.i + 1
        acc: list = []
        first = True
        while True:
            if self.i >= len(p):
                raise self.error("unclosed character class")
            ch = p[self.i]
            if ch == "]" and not first:
                self.i += 1
                break
            first = False
            if p.startswith("&&", self.i):
                self.i += 2
                rest = self._class_rest()
                acc = intersect(normalize(acc), rest)
                break
            if self.flavor != "onig" and p.startswith("--", self.i) and acc:
                self.i += 2
                rest = self._class_rest()
                acc = difference(normalize(acc), rest)
                break
            ranges, cp = self._class_atom()
            if cp is not None and p.startswith("-", self.i) and self.i + 1 < len(p) and p[self.i + 1] != "]":
                self.i += 1
                _, hi = self._class_atom()
                if hi is None or hi < cp:
                    raise self.error("bad range in character class")
                ranges = [(cp, hi)]
            acc.extend(ranges)
        return normalize(acc), negate

    def _class_rest(self) -> list:
        """The right operand of && or --: the rest of the class, as an implicit class."""
        start = self.i
        # Reuse _class_body by parsing as if a fresh class began here (no '^').
        acc: list = []
        p = self.p
        while True:
            if self.i >= len(p):
                raise self.error("unclosed character class")
            if p[self.i] == "]" and self.i > start:
                self.i += 1
                return normalize(acc)
            if p.startswith("&&", self.i):
                self.i += 2
                return intersect(normalize(acc), self._class_rest())
            ranges, cp = self._class_atom()
            if cp is not None and p.startswith("-", self.i) and self.i + 1 < len(p) and p[self.i + 1] != "]":
                self.i += 1
                _, hi = self._class_atom()
                if hi is None or hi < cp:
                    raise self.error("bad range in character class")
                ranges = [(cp, hi)]
            acc.extend(ranges)

    # -- outside classes ---------------------------------------------------------

    def translate(self) -> str:
        out = self._sequence()
        if self.i < len(self.p):
            raise self.error("unbalanced ')'")
        prefix = "(?m)" if self.flavor == "onig" else ""
        return prefix + out

    def _sequence(self) -> str:
        """Translate until the ')' closing the current group (not consumed)."""
        p = self.p
        parts: list = []
        scoped: list = []  # flags of "(?i)" seen mid-group: they rule the rest of it
        outer_ignorecase = self.ignorecase
        while self.i < len(p):
            ch = p[self.i]
            if ch == ")":
                break
            self.i += 1
            if ch == "\\":
                parts.append(self._outer_escape())
            elif ch == "[":
                parts.append(self._set_text(*self._class_parts()))
            elif ch == "(":
                text, flags = self._group()
                if flags is None:
                    parts.append(text)
                else:
                    parts.append(f"(?{flags}:")
                    scoped.append(flags)
            elif ch == "$" and not self.multiline:
                parts.append(r"\Z")
            elif ch == "{" and self.flavor == "onig":
                self._onig_brace(parts)
            elif ch == "|" and scoped and self.flavor != "onig":
                # (Oniguruma lets the flag group swallow the alternation instead.)
                # the flags reach across '|' but the alternation must stay at this level
                parts.append(")" * len(scoped) + "|" + "".join(f"(?{f}:" for f in scoped))
            else:
                self._literal(ord(ch))
                parts.append(ch)
        self.ignorecase = outer_ignorecase
        return "".join(parts) + ")" * len(scoped)

    _BRACE = re.compile(r"(\d*)(,?)(\d*)\}")

    def _onig_brace(self, parts: list) -> None:
        """Ruby syntax: `X{n,m}+` is `(?:X{n,m})+`, a repetition of a repetition."""
        m = self._BRACE.match(self.p, self.i)
        if not m or not (m.group(1) or m.group(3)) or not parts:
            parts.append(r"\{")
            return
        self.i = m.end()
        text = "{" + m.group(0)
        if self.p.startswith("+", self.i):
            self.i += 1
            parts[-1] = "(?:" + parts[-1] + text + ")+"
        else:
            parts.append(text)

    def _literal(self, cp: int) -> None:
        if cp > 0xFFFF or 0xD800 <= cp <= 0xDFFF:
            self.placeholder_ok = False  # it must meet the character itself

    def _set_text(self, ranges, negate) -> str:
        # Under (?i) `re` must see the negation itself ([^...]), so that it folds
        # case before negating as the other engines do. Elsewhere the complemented
        # list is kept: `re` matches it faster on mostly-ASCII text.
        if negate and not self.ignorecase:
            ranges, negate = complement(ranges), False
        if self.bmp and not self.ignorecase:  # negate is False here
            index = len(self.astral_parts)
            self.astral_parts.append(intersect(ranges, _ASTRAL))
            ranges = intersect(ranges, _BMP)
            if self.placeholders is not None:
                # a placeholder stands for astral characters, so no real surrogate may
                # be in the class (texts holding surrogates run the whole pattern)
                ranges = normalize(difference(ranges, _SURROGATES)
                                   + [(cp, cp) for cp in self.placeholders[index]])
        elif self.bmp and intersect(ranges, _SURROGATES + _ASTRAL):
            self.placeholder_ok = False  # under (?i): a placeholder would not act the same
        return class_text(ranges, negate)

    def _outer_escape(self) -> str:
        p = self.p
        if self.i >= len(p):
            raise self.error("trailing backslash")
        esc = p[self.i]
        self.i += 1
        found = self._escape_set_parts(esc, outer=True)
        if found is not None:
            return self._set_text(*found)
        if esc in "bB":
            self.placeholder_ok = False  # the word class is not cut
            word = class_text(list(word_set(self._word_flavor(True))))
            if esc == "b":
                return f"(?:(?<={word})(?!{word})|(?<!{word})(?={word}))"
            return f"(?:(?<={word})(?={word})|(?<!{word})(?!{word}))"
        if esc == "A":
            return r"\A"
        if esc == "z":
            return r"\Z"
        if esc == "Z":
            return r"(?=\n?\Z)"
        if esc == "G" and self.flavor == "onig":
            return r"\A"  # only meaningful at the start of a search; find_iter starts there
        if esc.isdigit() and esc != "0":
            self.placeholder_ok = False  # a backreference compares the characters
            return "\\" + esc
        if esc == "k" and self.flavor == "onig":
            m = re.compile(r"<(\w+)>").match(p, self.i)
            if m:
                self.i = m.end()
                self.placeholder_ok = False
                return f"(?P={m.group(1)})"
        cp = self._literal_escape(esc)
        if cp is None:
            raise self.error(f"unsupported escape \\{esc}")
        self._literal(cp)
        return re.escape(chr(cp))

    _FLAG_GROUP = re.compile(r"\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])")
    _GROUP_PREFIXES = (("?P<", "(?P<"), ("?P=", "(?P="), ("?<=", "(?<="), ("?<!", "(?<!"),
                       ("?<", "(?P<"), ("?=", "(?="), ("?!", "(?!"), ("?>", "(?>"))

    def _group(self):
        """After '(': returns (text, None), or ("", flags) for a bare "(?flags)"."""
        p = self.p
        if not p.startswith("?", self.i):
            return "(" + self._sequence() + self._close(), None
        m = self._FLAG_GROUP.match(p, self.i)
        if m:
            self.i = m.end()
            outer_ignorecase = self.ignorecase  # before the group's own flags set it
            flags = self._flags(m.group(1), m.group(2) or "")
            if m.group(3) == ")":
                return "", (flags or None)
            head = f"(?{flags}:" if flags else "(?:"
            body = self._sequence()
            self.ignorecase = outer_ignorecase
            return head + body + self._close(), None
        for prefix, head in self._GROUP_PREFIXES:
            if not p.startswith(prefix, self.i):
                continue
            self.i += len(prefix)
            if head in ("(?P<", "(?P="):
                end = p.find(">" if head == "(?P<" else ")", self.i)
                if end < 0:
                    raise self.error("bad group name")
                name, self.i = p[self.i:end], end + 1
                if head == "(?P=":
                    self.placeholder_ok = False
                    return f"(?P={name})", None
                head = f"(?P<{name}>"
            return head + self._sequence() + self._close(), None
        raise self.error("unsupported group syntax")

    def _close(self) -> str:
        if self.i >= len(self.p) or self.p[self.i] != ")":
            raise self.error("missing ')'")
        self.i += 1
        return ")"

    def _flags(self, on: str, off: str) -> str:
        """Keep the flags Python shares (i, m, s, x); drop 'u' (always Unicode here)."""
        for f in on + off:
            if f not in "imsxu":
                raise self.error(f"unsupported flag {f!r}")
        if "m" in on:
            self.multiline = True
        if "i" in on or "i" in off:
            self.ignorecase = "i" in on
        on, off = on.replace("u", ""), off.replace("u", "")
        if self.flavor == "onig":
            # Ruby's (?m) is dot-all; its ^ and $ are always line anchors.
            on, off = on.replace("m", "s"), off.replace("m", "s")
        return on + ("-" + off if off else "")


@functools.lru_cache(maxsize=256)
def translate(pattern: str, flavor: str = "fancy", bmp: bool = False) -> str:
    """Python `re` source equivalent to `pattern` in the given engine's syntax;
    with `bmp`, equivalent on texts without characters above U+FFFF or surrogates
    (and on texts whose astral characters became placeholders: see plane_regex)."""
    if flavor not in ("fancy", "rust", "onig"):
        raise SubwordLabError(f"unknown regex flavor {flavor!r}", field="flavor")
    if bmp:
        return _bmp_translation(pattern, flavor)[0]
    return _Translator(pattern, flavor).translate()


@functools.lru_cache(maxsize=256)
def _bmp_translation(pattern: str, flavor: str):
    """(source cut to the BMP, AstralMap or None): a first pass finds the astral
    part of every cut class, a second gives each class its placeholders."""
    first = _Translator(pattern, flavor, True)
    source = first.translate()
    if not first.placeholder_ok or not first.astral_parts:
        return source, None
    astral = AstralMap(first.astral_parts)
    if astral.per_class is None:
        return source, None
    return _Translator(pattern, flavor, True, astral.per_class).translate(), astral


@functools.lru_cache(maxsize=256)
def compile(pattern: str, flavor: str = "fancy"):  # mirrors re.compile
    """Translate and compile; any failure is a SubwordLabError naming the pattern.

    A re.Pattern, or a TwoPlaneRegex when the classes reach above U+FFFF: then
    texts without such characters run a faster compile of the same pattern."""
    source = translate(pattern, flavor)
    bmp_source, astral = _bmp_translation(pattern, flavor) if flavor in (
        "fancy", "rust", "onig") else (source, None)
    try:
        if bmp_source == source:
            return re.compile(source)
        return TwoPlaneRegex(source, re.compile(bmp_source), astral)
    except re.error as exc:
        raise SubwordLabError(f"cannot compile regex {pattern!r}: {exc}", field="pattern") from None

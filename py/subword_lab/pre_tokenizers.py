"""Pre-tokenizers: cut the normalized text into the pieces the model sees.

Each mirrors the Hugging Face pre-tokenizer of the same name, in behaviour and in
its tokenizer.json form. They all work through `PreTokenizedString.split`, so
every piece keeps its offsets into the original input.

    >>> Whitespace().pre_tokenize_str("Hey man!")
    [('Hey', (0, 3)), ('man', (4, 7)), ('!', (7, 8))]
"""
from __future__ import annotations

import bisect
import functools
import re
from typing import Any

from .core.tables import byte_level, unicode_scripts
from .core.components import custom_calls
from .core.regex import guard as regex_guard, translate as unicode_regex
from .core.errors import SubwordLabError
from .core.components.sealed import sealed_pattern
from .core.components.pickling import JsonState
from .core.components.sequences import SequenceItems, check_dict_depth
from .core.normalized import NormalizedString, PreTokenizedString

__all__ = [
    "PreTokenizer", "Whitespace", "WhitespaceSplit", "BertPreTokenizer", "ByteLevel",
    "Metaspace", "Punctuation", "Digits", "Split", "Sequence", "CharDelimiterSplit",
    "FixedLength", "UnicodeScripts", "Regex", "from_dict",
]

# tokenizer.json spells the split behaviours in PascalCase, the Python API in snake_case.
_BEHAVIORS = {
    "Removed": "removed", "Isolated": "isolated", "MergedWithPrevious": "merged_with_previous",
    "MergedWithNext": "merged_with_next", "Contiguous": "contiguous",
}
_BEHAVIOR_NAMES = {v: k for k, v in _BEHAVIORS.items()}


def _behavior(value: str, field: str = "behavior") -> str:
    if value in _BEHAVIOR_NAMES:
        return value
    if value in _BEHAVIORS:
        return _BEHAVIORS[value]
    raise SubwordLabError(
        f"unknown split behavior {value!r}; expected one of {', '.join(_BEHAVIORS)}", field=field)


# ---------------------------------------------------------------------------
# Character classes, built once (the tables come from unicode_regex).

@functools.lru_cache(maxsize=None)
def _whitespace_run():
    """Runs of Unicode White_Space (Rust's char::is_whitespace)."""
    return re.compile(unicode_regex.class_text(unicode_regex.WHITE_SPACE) + "+")


# HF decides "punctuation" with the `unicode_categories` crate, whose tables are
# frozen at Unicode 9.0. These punctuation characters came later (Unicode 10-14,
# and 15.0's Devanagari Extended-A and Kawi), so HF does not split on them...
_PUNCT_NEWER_THAN_UNICODE_9 = (
    (0x61D, 0x61D), (0x9FD, 0x9FD), (0xA76, 0xA76), (0xC77, 0xC77), (0xC84, 0xC84),
    (0x1B7D, 0x1B7E), (0x2E43, 0x2E4F), (0x2E52, 0x2E5D), (0x10EAD, 0x10EAD),
    (0x10F55, 0x10F59), (0x10F86, 0x10F89), (0x1144B, 0x1144F), (0x1145A, 0x1145B),
    (0x1145D, 0x1145D), (0x11660, 0x1166C), (0x116B9, 0x116B9), (0x1183B, 0x1183B),
    (0x11944, 0x11946), (0x119E2, 0x119E2), (0x11A3F, 0x11A46), (0x11A9A, 0x11A9C),
    (0x11A9E, 0x11AA2), (0x11B00, 0x11B09), (0x11C41, 0x11C45), (0x11C70, 0x11C71),
    (0x11EF7, 0x11EF8), (0x11F43, 0x11F4F), (0x11FFF, 0x11FFF), (0x12FF1, 0x12FF2),
    (0x16E97, 0x16E9A), (0x16FE2, 0x16FE2), (0x1E95E, 0x1E95F),
)
# ...and these two were punctuation in Unicode 9.0, recategorized since (So, Mn).
_PUNCT_ONLY_IN_UNICODE_9 = ((0x166D, 0x166D), (0x111C9, 0x111C9))


@functools.lru_cache(maxsize=None)
def _punctuation_ranges() -> list:
    """BERT punctuation: ASCII punctuation or a Unicode P* category."""
    ascii_punct = [(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)]
    unicode_p = unicode_regex.difference(
        list(unicode_regex.category_set("P")), list(_PUNCT_NEWER_THAN_UNICODE_9))
    return unicode_regex.normalize(ascii_punct + unicode_p + list(_PUNCT_ONLY_IN_UNICODE_9))


@functools.lru_cache(maxsize=None)
def _punctuation_char():
    """One BERT punctuation character."""
    return re.compile(unicode_regex.class_text(_punctuation_ranges()))


@functools.lru_cache(maxsize=None)
def _bert_pieces():
    """BertPreTokenizer's pieces in one pattern: a punctuation character, or a run
    of characters that are neither whitespace nor punctuation. Matching it once
    gives what the whitespace split followed by the punctuation split gives."""
    punct = _punctuation_ranges()
    other = unicode_regex.normalize(list(unicode_regex.WHITE_SPACE) + punct)
    return re.compile(unicode_regex.class_text(punct) + "|"
                      + unicode_regex.class_text(other, negate=True) + "+")


@functools.lru_cache(maxsize=None)
def _numeric_char():
    """One character for which Rust's char::is_numeric holds (categories Nd, Nl, No)."""
    return re.compile(unicode_regex.class_text(unicode_regex.category_set("N")))


@functools.lru_cache(maxsize=None)
def _words_or_symbols():
    """Whitespace's pattern, as Rust's regex crate reads it."""
    return unicode_regex.compile(r"\w+|[^\w\s]+", "rust")


def _require(d: dict, key: str, type_name: str) -> Any:
    if key not in d:
        raise SubwordLabError(f"{type_name} needs the field {key!r}", field=key)
    return d[key]


# ---------------------------------------------------------------------------

class PreTokenizer(JsonState):
    """Base class: subclasses implement pre_tokenize(pretok) and to_dict()."""

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        raise NotImplementedError

    def pre_tokenize_str(self, s: str) -> list:
        """[(piece, (start, end))] with character offsets into `s`, as HF returns."""
        pts = PreTokenizedString(s)
        self.pre_tokenize(pts)
        return [(piece, span) for piece, span, _ in pts.get_splits("original", "char")]

    def to_dict(self) -> dict:
        return {"type": type(self).__name__}

    @staticmethod
    def custom(pretok: object) -> CustomPreTokenizer:
        """Wrap a Python object that has a pre_tokenize(pretok) method (HF's PreTokenizer.custom)."""
        return CustomPreTokenizer(pretok)

    def __repr__(self) -> str:
        fields = {k: v for k, v in self.to_dict().items() if k != "type"}
        args = ", ".join(f"{k}={v!r}" for k, v in fields.items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self))

    def _from_dict(self, data):  # JsonState: pickled as its tokenizer.json text, as HF
        return from_dict(data)


class CustomPreTokenizer(PreTokenizer):
    """A pre-tokenizer written in Python: any object with a pre_tokenize(pretok) method."""

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        custom_calls.call_user(self.obj, "pre_tokenize", pretok)

    def to_dict(self) -> dict:
        custom_calls.not_saveable("pre-tokenizer")

    def __repr__(self) -> str:
        return f"CustomPreTokenizer({self.obj!r})"


class Whitespace(PreTokenizer):
    """Words (`\\w+`) and runs of other non-space symbols (`[^\\w\\s]+`); spaces dropped."""

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        pattern = _words_or_symbols()
        pretok.split(lambda _, ns: ns.split(pattern, "removed", invert=True))


class WhitespaceSplit(PreTokenizer):
    """Split on Unicode whitespace, which is dropped."""

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        pattern = _whitespace_run()
        pretok.split(lambda _, ns: ns.split(pattern, "removed"))


class BertPreTokenizer(PreTokenizer):
    """Split on whitespace, then isolate every punctuation character."""

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        space, punct, pieces = _whitespace_run(), _punctuation_char(), _bert_pieces()
        pretok.split(lambda _, ns: ns.split(pieces, "removed", invert=True)
                  if ns._align is None else _split_twice(ns, space, punct))


def _split_twice(ns, space, punct):
    # With a changed alignment, keep HF's two steps: a slice of a slice is
    # what HF computes, and we do not rely on it equalling one direct slice.
    return [piece for word in ns.split(space, "removed") for piece in word.split(punct, "isolated")]


class Punctuation(PreTokenizer):
    """Split on each punctuation character (BERT's definition)."""

    def __init__(self, behavior: str = "isolated") -> None:
        self.behavior = _behavior(behavior)

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        punct, behavior = _punctuation_char(), self.behavior
        pretok.split(lambda _, ns: ns.split(punct, behavior))

    def to_dict(self) -> dict:
        return {"type": "Punctuation", "behavior": _BEHAVIOR_NAMES[self.behavior]}


class Digits(PreTokenizer):
    """Separate numeric characters from the rest, as runs or one by one."""

    def __init__(self, individual_digits: bool = False) -> None:
        self.individual_digits = bool(individual_digits)

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        behavior = "isolated" if self.individual_digits else "contiguous"
        digit = _numeric_char()
        pretok.split(lambda _, ns: ns.split(digit, behavior))

    def to_dict(self) -> dict:
        return {"type": "Digits", "individual_digits": self.individual_digits}


class CharDelimiterSplit(PreTokenizer):
    """Split on one character, which is dropped."""

    def __init__(self, delimiter: str) -> None:
        if not isinstance(delimiter, str) or len(delimiter) != 1:
            raise SubwordLabError("expected a string of length 1: the delimiter is one character",
                                  field="delimiter")
        self.delimiter = delimiter

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        delim = self.delimiter
        pretok.split(lambda _, ns: ns.split(delim, "removed"))

    def to_dict(self) -> dict:
        return {"type": "CharDelimiterSplit", "delimiter": self.delimiter}


class FixedLength(PreTokenizer):
    """Chunks of `length` characters."""

    def __init__(self, length: int = 5) -> None:
        if not isinstance(length, int) or length < 1:
            raise SubwordLabError("length must be a positive integer", field="length")
        self.length = length

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        n = self.length
        pretok.split(lambda _, ns: [ns.slice(i, min(i + n, len(ns.normalized)))
                                 for i in range(0, len(ns.normalized), n)])

    def to_dict(self) -> dict:
        return {"type": "FixedLength", "length": self.length}


class ByteLevel(PreTokenizer):
    """GPT-2's pre-tokenizer: optional leading space, the GPT-2 split, then bytes.

    Every piece is rewritten as the byte-level characters of its UTF-8 bytes;
    the first byte of a character replaces it and the others are insertions, so
    each still points at the character it came from (HF's offsets).
    """

    def __init__(self, add_prefix_space: bool = True, trim_offsets: bool = True,
                 use_regex: bool = True, **_ignored: object) -> None:
        self.add_prefix_space = bool(add_prefix_space)
        self.trim_offsets = bool(trim_offsets)
        self.use_regex = bool(use_regex)

    @staticmethod
    def alphabet() -> list:
        return byte_level.alphabet()

    def _split(self, _, ns):
        if self.add_prefix_space and not ns.normalized.startswith(" "):
            ns.prepend(" ")
        pieces = ns.split(byte_level.gpt2_regex(), "isolated") if self.use_regex else [ns]
        # Each piece becomes byte-level characters right away (HF does it in a
        # second pass over the splits; the result is the same, one loop cheaper).
        for piece in pieces:
            text = piece.normalized
            if piece._align is None and text.isascii():
                # One byte per char: the alignment stays the identity.
                piece.normalized = text.translate(_ASCII_BYTE_CHARS)
            else:
                _to_byte_chars(piece)
        return pieces

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        pretok.split(self._split)

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}


def _to_byte_chars(ns: NormalizedString) -> None:
    text = ns.normalized
    if text.isascii():
        # One byte per character: a 1:1 map (str.translate, in C) keeps the
        # alignment as it is.
        ns.translate(_ASCII_BYTE_CHARS)
    else:
        ns.transform(byte_level.transform_changes(text))


# ord(ASCII char) -> its byte-level character, for str.translate.
_ASCII_BYTE_CHARS = {b: c for b, c in byte_level.bytes_to_unicode().items() if b < 128}


class Metaspace(PreTokenizer):
    """SentencePiece style: spaces become `replacement` ("▁"), which starts each word."""

    _SCHEMES = ("always", "first", "never")

    def __init__(self, replacement: str = "\u2581", prepend_scheme: str = "always",
                 split: bool = True) -> None:
        if not isinstance(replacement, str) or len(replacement) != 1:
            raise SubwordLabError("expected a string of length 1: the replacement is one character",
                                  field="replacement")
        if prepend_scheme not in self._SCHEMES:
            raise SubwordLabError(
                f"unknown prepend_scheme {prepend_scheme!r}; expected always, first or never",
                field="prepend_scheme")
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = bool(split)

    def _split(self, _, ns):
        rep = self.replacement
        if " " in ns.normalized:
            ns.replace(" ", rep)
        scheme = self.prepend_scheme
        if scheme != "never" and not ns.normalized.startswith(rep):
            # "first" only prepends to the piece that starts the input.
            if scheme == "always" or ns.offsets_original()[0] == 0:
                ns.prepend(rep)
        if self.split:
            return ns.split(rep, "merged_with_next")
        return [ns]

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        pretok.split(self._split)

    def to_dict(self) -> dict:
        return {"type": "Metaspace", "replacement": self.replacement,
                "prepend_scheme": self.prepend_scheme, "split": self.split}


class Regex:
    """A pattern to be read as a regular expression (HF's `tokenizers.Regex`)."""

    def __init__(self, s: str) -> None:
        self.pattern = s

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Regex) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(("Regex", self.pattern))


class Split(PreTokenizer):
    """Split on a string or a regex (Oniguruma syntax, as tokenizer.json files carry)."""

    def __init__(self, pattern: Any, behavior: str, invert: bool = False,
                 flavor: str = "onig") -> None:  # pattern: a str, a dict or a Regex
        # flavor: "onig" for tokenizer.json (Oniguruma), "fancy" for a tiktoken
        # pattern (fancy-regex: `{1,3}+` is possessive and `$` ends the text).
        if isinstance(pattern, dict):
            pattern = _pattern_from_dict(pattern)
        self._pattern: str | Regex
        if isinstance(pattern, Regex):
            self._pattern = pattern
            self._compiled = regex_guard.compile_user(
                pattern.pattern, flavor, "pattern", allow_named_groups=False)
        elif isinstance(pattern, str):
            self._pattern = pattern
            # HF escapes the string into a regex: an empty one matches everywhere.
            self._compiled = re.compile(re.escape(pattern))
        else:
            raise SubwordLabError("pattern must be a string or a Regex", field="pattern")
        self.behavior = _behavior(behavior)
        self.invert = bool(invert)

    pattern = sealed_pattern("Split")

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        compiled, behavior, invert = self._compiled, self.behavior, self.invert
        if type(compiled) is regex_guard.GuardedRegex and \
                sum(len(s.normalized.normalized) for s in pretok.splits) <= compiled.cheap_length:
            compiled = compiled.compiled  # too short to backtrack for long: plain `re`
        pretok.split(lambda _, ns: ns.split(compiled, behavior, invert=invert))

    def to_dict(self) -> dict:
        if isinstance(self._pattern, Regex):
            pattern = {"Regex": self._pattern.pattern}
        else:
            pattern = {"String": self._pattern}
        return {"type": "Split", "pattern": pattern,
                "behavior": _BEHAVIOR_NAMES[self.behavior], "invert": self.invert}


def _pattern_from_dict(d: dict) -> str | Regex:
    if len(d) == 1 and isinstance(d.get("String"), str):
        return d["String"]
    if len(d) == 1 and isinstance(d.get("Regex"), str):
        return Regex(d["Regex"])
    raise SubwordLabError('expected {"String": ...} or {"Regex": ...}', field="pattern")


class UnicodeScripts(PreTokenizer):
    """Split where the Unicode script changes (Latin, Cyrillic, Han...), as HF's.

    Scripts are tokenizers' own (core/tables/unicode_scripts.py, generated from it;
    `_script_of`):
    Unicode 9's Scripts property, kana and U+30FC counted as Han, the space
    and unassigned code points as no script. A char of no script never starts
    a piece and joins the piece before it; before the first char with a
    script it belongs to no piece and is dropped, as in tokenizers."""

    def _split(self, _, ns):
        text = ns.normalized
        cuts, last = [], None
        for i, ch in enumerate(text):
            script = _script_of(ch)
            if script is not None and script != last:
                cuts.append(i)
                last = script
        cuts.append(len(text))
        return [ns.slice(a, b) for a, b in zip(cuts, cuts[1:])]

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        pretok.split(self._split)


@functools.lru_cache(maxsize=None)
def _script_runs():
    """(starts, ends, scripts) of core/tables/unicode_scripts.py's runs, decoded once."""
    nums = [int(x, 16) for x in unicode_scripts.RUNS.split()]
    starts, ends, scripts, last = [], [], [], 0
    for i in range(0, len(nums), 3):
        gap, length, script = nums[i:i + 3]
        starts.append(last + gap)
        last += gap + length
        ends.append(last)
        scripts.append(script)
    return starts, ends, scripts


def _script_of(ch: str) -> int | None:
    """The script of `ch` as tokenizers' UnicodeScripts sees it (an index in
    unicode_scripts.SCRIPTS), or None for a char of no script."""
    starts, ends, scripts = _script_runs()
    cp = ord(ch)
    i = bisect.bisect_right(starts, cp) - 1
    return scripts[i] if i >= 0 and cp < ends[i] else None


class Sequence(SequenceItems, PreTokenizer):
    """Several pre-tokenizers, one after the other."""

    _ITEMS, _KIND = "pretokenizers", "pre_tokenizers"
    pretokenizers: list[PreTokenizer]  # set by SequenceItems._set_items

    def __init__(self, pre_tokenizers: list[PreTokenizer]) -> None:
        self._set_items(pre_tokenizers)

    def pre_tokenize(self, pretok: PreTokenizedString) -> None:
        for p in self.pretokenizers:
            p.pre_tokenize(pretok)

    def to_dict(self) -> dict:
        return {"type": "Sequence", "pretokenizers": [p.to_dict() for p in self.pretokenizers]}


# ---------------------------------------------------------------------------
# tokenizer.json

def _metaspace_from_dict(d):
    replacement = _require(d, "replacement", "Metaspace")
    scheme = d.get("prepend_scheme", "always")
    if d.get("add_prefix_space") is False:
        # Older files: add_prefix_space=false means "never", and must not contradict.
        if "prepend_scheme" in d and scheme != "never":
            raise SubwordLabError("add_prefix_space does not match declared prepend_scheme",
                                  field="add_prefix_space")
        scheme = "never"
    split = d.get("split")
    return Metaspace(replacement, scheme, True if split is None else split)


def _sequence_from_dict(d):
    items = _require(d, "pretokenizers", "Sequence")
    if not isinstance(items, list):
        raise SubwordLabError("expected a list", field="pretokenizers")
    out = []
    for i, item in enumerate(items):
        try:
            out.append(from_dict(item))
        except SubwordLabError as exc:
            inner = f".{exc.field}" if exc.field else ""
            raise SubwordLabError(exc.reason, field=f"pretokenizers[{i}]{inner}") from None
    return Sequence(out)


def _split_from_dict(d):
    pattern = _require(d, "pattern", "Split")
    if not isinstance(pattern, dict):
        raise SubwordLabError('expected {"String": ...} or {"Regex": ...}', field="pattern")
    return Split(pattern, _require(d, "behavior", "Split"), _require(d, "invert", "Split"))


_FROM_DICT = {
    "Whitespace": lambda d: Whitespace(),
    "WhitespaceSplit": lambda d: WhitespaceSplit(),
    "UnicodeScripts": lambda d: UnicodeScripts(),
    "BertPreTokenizer": lambda d: BertPreTokenizer(),
    "ByteLevel": lambda d: ByteLevel(_require(d, "add_prefix_space", "ByteLevel"),
                                     _require(d, "trim_offsets", "ByteLevel"),
                                     d.get("use_regex", True)),
    "Metaspace": _metaspace_from_dict,
    "Punctuation": lambda d: Punctuation(d.get("behavior", "Isolated")),
    "Digits": lambda d: Digits(_require(d, "individual_digits", "Digits")),
    "CharDelimiterSplit": lambda d: CharDelimiterSplit(_require(d, "delimiter", "CharDelimiterSplit")),
    "FixedLength": lambda d: FixedLength(d.get("length", 5)),
    "Split": _split_from_dict,
    "Sequence": _sequence_from_dict,
}


def from_dict(d: Any) -> PreTokenizer:
    """A pre-tokenizer from its tokenizer.json form; bad input raises SubwordLabError."""
    if isinstance(d, PreTokenizer):
        return d
    if not isinstance(d, dict):
        raise SubwordLabError(f"expected an object, got {type(d).__name__}", field="type")
    check_dict_depth(d, "pre_tokenizer")
    kind = d.get("type")
    if kind is None:
        raise SubwordLabError("missing the field 'type'", field="type")
    build = _FROM_DICT.get(kind)
    if build is None:
        known = ", ".join(sorted(_FROM_DICT))
        raise SubwordLabError(f"unsupported pre-tokenizer {kind!r} (supported: {known})",
                              field="type")
    return build(d)

"""Normalizers: in-place edits of a NormalizedString, alignment kept.

Each mirrors the Hugging Face component of the same name and its
tokenizer.json dict (`to_dict()` / `from_dict()`).
"""
from __future__ import annotations

import base64
import re
from functools import lru_cache
from typing import Any, overload
from itertools import repeat

from .core.tables import byte_level, unicode as unicode_tables
from .core.components import custom_calls
from .core.errors import SubwordLabError
from .core.components.sealed import sealed_pattern
from .core.components.sequences import SequenceItems, check_dict_depth
from .core.normalized import NormalizedString
from .core.tables.precompiled import CharsMap, apply_replacement, graphemes, segment_pattern

__all__ = [
    "Normalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents",
    "BertNormalizer", "Strip", "Replace", "Prepend", "Precompiled", "Sequence", "Nmt",
    "ByteLevel",
    "from_dict",
]


class Normalizer:
    """Base: subclasses implement normalize(normalized) and to_dict()."""

    def normalize(self, normalized: NormalizedString) -> None:
        raise NotImplementedError

    def normalize_str(self, sequence: str) -> str:
        ns = NormalizedString(sequence)
        self.normalize(ns)
        return ns.normalized

    def to_dict(self) -> dict:
        return {"type": type(self).__name__}

    @staticmethod
    def custom(obj: object) -> CustomNormalizer:
        """Wrap a Python object that has a normalize(normalized) method (HF's Normalizer.custom)."""
        return CustomNormalizer(obj)

    def __repr__(self) -> str:
        fields = {k: v for k, v in self.to_dict().items() if k != "type"}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in fields.items())})"


class CustomNormalizer(Normalizer):
    """A normalizer written in Python: any object with a normalize(normalized) method."""

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def normalize(self, normalized: NormalizedString) -> None:
        borrowed = custom_calls.Borrowed(normalized)
        try:
            custom_calls.call_user(self.obj, "normalize", borrowed)
        finally:
            borrowed.release()

    def to_dict(self) -> dict:
        custom_calls.not_saveable("normalizer")

    def __repr__(self) -> str:
        return f"CustomNormalizer({self.obj!r})"


class NFC(Normalizer):
    def normalize(self, normalized: NormalizedString) -> None:
        normalized.nfc()


class NFD(Normalizer):
    def normalize(self, normalized: NormalizedString) -> None:
        normalized.nfd()


class NFKC(Normalizer):
    def normalize(self, normalized: NormalizedString) -> None:
        normalized.nfkc()


class NFKD(Normalizer):
    def normalize(self, normalized: NormalizedString) -> None:
        normalized.nfkd()


class Lowercase(Normalizer):
    def normalize(self, normalized: NormalizedString) -> None:
        normalized.lowercase()


def _strip(ns, table):
    """Remove every char of the unicode_tables `table` from ns."""
    text = ns.normalized
    if not text.isascii():
        marks = unicode_tables.pattern(table)
        if marks.search(text):
            ns.filter(lambda c: marks.match(c) is None)


class StripAccents(Normalizer):
    """Removes every combining mark (categories Mn, Mc and Me in HF's own
    table, which is older than this Python's); pair it with NFD to strip
    accents from letters."""

    def normalize(self, normalized: NormalizedString) -> None:
        _strip(normalized, "strip_accents")


# ----- BertNormalizer ---------------------------------------------------------

# clean_text's sets (control/format/private-use chars, NUL and U+FFFD removed;
# whitespace but " " made a space) come from HF's own tables (unicode_tables).
_ASCII_REMOVED = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CHINESE = re.compile(
    "[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f"
    "\U0002b740-\U0002b81f\U0002b920-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f]"
)


@lru_cache(maxsize=None)
def _whitespace_to_space():
    return {ord(c): " " for c in unicode_tables.charset("bert_space")}


class BertNormalizer(Normalizer):
    def __init__(self, clean_text: bool = True, handle_chinese_chars: bool = True,
                 strip_accents: bool | None = None, lowercase: bool = True) -> None:
        self.clean_text = bool(clean_text)
        self.handle_chinese_chars = bool(handle_chinese_chars)
        self.strip_accents = strip_accents
        self.lowercase = bool(lowercase)

    def normalize(self, normalized: NormalizedString) -> None:
        if self.clean_text:
            self._clean(normalized)
        if self.handle_chinese_chars and _CHINESE.search(normalized.normalized):
            changes: list[tuple[str, int]] = []
            for c in normalized.normalized:
                if _CHINESE.match(c):
                    changes.extend(((" ", 0), (c, 1), (" ", 1)))
                else:
                    changes.append((c, 0))
            normalized.transform(changes, 0)
        strip = self.lowercase if self.strip_accents is None else self.strip_accents
        if strip and not normalized.normalized.isascii():
            normalized.nfd()
            _strip(normalized, "bert_mn")  # Mn only, from its own table again
        if self.lowercase:
            normalized.lowercase()

    @staticmethod
    def _clean(ns):
        text = ns.normalized
        removed = _ASCII_REMOVED if text.isascii() else unicode_tables.pattern("bert_control")
        if removed.search(text):
            ns.filter(lambda c: removed.match(c) is None)
        if unicode_tables.pattern("bert_space").search(ns.normalized):
            ns.translate(_whitespace_to_space())

    def to_dict(self) -> dict:
        return {"type": "BertNormalizer", "clean_text": self.clean_text,
                "handle_chinese_chars": self.handle_chinese_chars,
                "strip_accents": self.strip_accents, "lowercase": self.lowercase}


# ----- Nmt ----------------------------------------------------------------------

# tokenizers' Nmt (as sentencepiece's nmt_nfkc rule before NFKC): some control
# characters removed, some spaces, separators and markers made a plain space.
_NMT_REMOVED = re.compile("[\x01-\x08\x0b\x0e-\x1f\x7f\x8f\x9f]")
_NMT_SPACED = re.compile("[\t\n\x0c\r\u1680\u200b-\u200f\u2028\u2029\u2581\ufeff\ufffd]")


class Nmt(Normalizer):
    def normalize(self, normalized: NormalizedString) -> None:
        if _NMT_REMOVED.search(normalized.normalized):
            normalized.filter(lambda c: _NMT_REMOVED.match(c) is None)
        if _NMT_SPACED.search(normalized.normalized):
            normalized.map(lambda c: " " if _NMT_SPACED.match(c) else c)


# ----- small edits ----------------------------------------------------------------

class Strip(Normalizer):
    def __init__(self, left: bool = True, right: bool = True) -> None:
        self.left = bool(left)
        self.right = bool(right)

    def normalize(self, normalized: NormalizedString) -> None:
        if self.left and self.right:
            normalized.strip()
        elif self.left:
            normalized.lstrip()
        elif self.right:
            normalized.rstrip()

    def to_dict(self) -> dict:
        return {"type": "Strip", "strip_left": self.left, "strip_right": self.right}


class Prepend(Normalizer):
    def __init__(self, prepend: str = "\u2581") -> None:
        self.prepend = str(prepend)

    def normalize(self, normalized: NormalizedString) -> None:
        if normalized.normalized:
            normalized.prepend(self.prepend)

    def to_dict(self) -> dict:
        return {"type": "Prepend", "prepend": self.prepend}


class Replace(Normalizer):
    """Replace every match of `pattern` with `content`. `pattern` is a plain
    string, or a dict as in tokenizer.json: {"String": s} or {"Regex": r}
    (an Oniguruma pattern, translated to Python's `re`)."""

    def __init__(self, pattern: Any, content: str) -> None:  # a str, a dict or a Regex
        if isinstance(pattern, str):
            pattern = {"String": pattern}
        elif type(pattern).__name__ == "Regex":  # pre_tokenizers.Regex, as HF's Regex
            pattern = {"Regex": pattern.pattern}
        if not isinstance(pattern, dict) or len(pattern) != 1 or \
                next(iter(pattern)) not in ("String", "Regex"):
            raise SubwordLabError('must be {"String": ...} or {"Regex": ...}', field="pattern")
        self._pattern = dict(pattern)
        self.content = str(content)
        kind, value = next(iter(pattern.items()))
        if not isinstance(value, str):
            raise SubwordLabError("must be a string", field=f"pattern.{kind}")
        if kind == "String":
            self._matcher = re.compile(re.escape(value)) if value else ""
        else:
            self._matcher = _compile_onig(value)

    pattern = sealed_pattern("Replace")

    def normalize(self, normalized: NormalizedString) -> None:
        normalized.replace(self._matcher, self.content)

    def to_dict(self) -> dict:
        return {"type": "Replace", "pattern": dict(self._pattern), "content": self.content}


def _compile_onig(pattern):
    try:
        from .core.regex import guard as regex_guard
        return regex_guard.compile_user(pattern, "onig", "pattern")
    except SubwordLabError:
        raise
    except (ImportError, AttributeError):
        pass
    except Exception as exc:  # re.error and friends from the translator
        raise SubwordLabError(f"bad regular expression {pattern!r}: {exc}", field="pattern.Regex")
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise SubwordLabError(f"bad regular expression {pattern!r}: {exc}", field="pattern.Regex")


# ----- Precompiled ------------------------------------------------------------------

class Precompiled(Normalizer):
    """sentencepiece's precompiled charsmap (see precompiled.py).

    mode="hf" (default) applies it as Hugging Face tokenizers does (grapheme
    clusters, shortest rule); mode="sentencepiece" as sentencepiece itself does
    (longest rule at each position), which the .model loader uses to match
    sentencepiece exactly. An empty charsmap changes nothing."""

    def __init__(self, precompiled_charsmap: bytes | str | None, mode: str = "hf") -> None:
        if isinstance(precompiled_charsmap, str):
            try:
                precompiled_charsmap = base64.b64decode(precompiled_charsmap, validate=True)
            except ValueError as exc:
                raise SubwordLabError(f"not valid base64 ({exc})", field="precompiled_charsmap")
        if mode not in ("hf", "sentencepiece"):
            raise SubwordLabError(f"unknown mode {mode!r}", field="mode")
        self.mode = mode
        self.precompiled_charsmap = bytes(precompiled_charsmap or b"")
        self.charsmap = CharsMap(self.precompiled_charsmap) if self.precompiled_charsmap else None
        self._starts: dict[str, bool] = {}
        # (segments, ASCII starters), made on first normalize
        self._patterns: tuple[re.Pattern[str], re.Pattern[str] | None] | None = None

    def _prepare(self) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
        starters = ""
        if self.charsmap is not None:
            starters = "".join(chr(i) for i in range(128) if self.charsmap.may_start(chr(i)))
        ascii_keys = self.charsmap.ascii_key_starters() if self.charsmap is not None else ""
        self._patterns = (segment_pattern(starters), re.compile(
            "[" + re.escape(ascii_keys) + "]") if ascii_keys else None)
        return self._patterns

    def _may_start(self, ch):
        hit = self._starts.get(ch)
        if hit is None:
            hit = self._starts[ch] = self._map().may_start(ch)
        return hit

    def _map(self) -> CharsMap:
        """The charsmap: the steps below run only when there is one."""
        assert self.charsmap is not None
        return self.charsmap

    def normalize(self, normalized: NormalizedString) -> None:
        text = normalized.normalized
        if self.charsmap is None or not text:
            return
        ascii_starters = (self._patterns or self._prepare())[1]
        if text.isascii() and (ascii_starters is None or not ascii_starters.search(text)):
            return
        if not any(self._may_start(c) for c in set(text)):
            return
        changes = self._sp_changes(text) if self.mode == "sentencepiece" else self._hf_changes(text)
        if changes is not None:
            normalized.transform(changes, 0)

    def _hf_changes(self, text):
        changes: list[tuple[str, int]] = []
        last, modified = 0, False
        shortest = self._map().shortest
        for m in (self._patterns or self._prepare())[0].finditer(text):
            start, end = m.span()
            changes.extend(zip(text[last:start], repeat(0)))
            last = end
            for cluster in graphemes(text[start:end]):
                if len(cluster) > 1 and len(cluster.encode("utf-8", "surrogatepass")) < 6:
                    norm = shortest(cluster)
                    if norm is not None:
                        modified = True
                        apply_replacement(changes, cluster, norm)
                        continue
                for c in cluster:
                    norm = shortest(c)
                    if norm is None:
                        changes.append((c, 0))
                    else:
                        modified = True
                        apply_replacement(changes, c, norm)
        changes.extend(zip(text[last:], repeat(0)))
        return changes if modified else None

    def _sp_changes(self, text):
        changes: list[tuple[str, int]] = []
        i, n, modified = 0, len(text), False
        longest = self._map().longest
        while i < n:
            c = text[i]
            if not self._may_start(c):
                changes.append((c, 0))
                i += 1
                continue
            key = text[i:i + 32].encode("utf-8", "surrogatepass")
            hit = longest(key, 0)
            if hit is None:
                changes.append((c, 0))
                i += 1
                continue
            length, norm = hit
            old = key[:length].decode("utf-8", "surrogatepass")
            apply_replacement(changes, old, norm)
            modified = True
            i += len(old)
        return changes if modified else None

    def to_dict(self) -> dict:
        return {"type": "Precompiled",
                "precompiled_charsmap": base64.b64encode(self.precompiled_charsmap).decode("ascii")}


class Sequence(SequenceItems, Normalizer):
    _ITEMS, _KIND = "normalizers", "normalizers"
    normalizers: list[Normalizer]  # set by SequenceItems._set_items

    def __init__(self, normalizers: list[Normalizer]) -> None:
        self._set_items(normalizers)

    def normalize(self, normalized: NormalizedString) -> None:
        for normalizer in self.normalizers:
            normalizer.normalize(normalized)

    def to_dict(self) -> dict:
        return {"type": "Sequence", "normalizers": [n.to_dict() for n in self.normalizers]}


class ByteLevel(Normalizer):
    """Every character as the byte-level characters of its UTF-8 bytes (GPT-2's alphabet)."""

    def normalize(self, normalized: NormalizedString) -> None:
        normalized.transform(byte_level.transform_changes(normalized.normalized))


# ----- tokenizer.json ------------------------------------------------------------------

def _need(d, key, where):
    if key not in d:
        raise SubwordLabError(f"missing field {key!r}", field=where)
    return d[key]


def _bool(d, key, default, where):
    value = d.get(key, default)
    if value is not None and not isinstance(value, bool):
        raise SubwordLabError(f"{key} must be true or false", field=where)
    return value


@overload
def from_dict(d: dict, field: str = ...) -> Normalizer: ...
@overload
def from_dict(d: None, field: str = ...) -> None: ...
def from_dict(d: dict | None, field: str = "normalizer") -> Normalizer | None:
    """Build a normalizer from its tokenizer.json dict (None stays None)."""
    if d is None:
        return None
    if not isinstance(d, dict):
        raise SubwordLabError("must be an object", field=field)
    check_dict_depth(d, field)
    kind = d.get("type")
    simple = {"NFC": NFC, "NFD": NFD, "NFKC": NFKC, "NFKD": NFKD,
              "Lowercase": Lowercase, "StripAccents": StripAccents, "ByteLevel": ByteLevel,
              "Nmt": Nmt}
    if kind in simple:
        return simple[kind]()
    if kind == "BertNormalizer":
        return BertNormalizer(
            clean_text=_bool(d, "clean_text", True, field),
            handle_chinese_chars=_bool(d, "handle_chinese_chars", True, field),
            strip_accents=_bool(d, "strip_accents", None, field),
            lowercase=_bool(d, "lowercase", True, field))
    if kind == "Strip":
        return Strip(_bool(d, "strip_left", True, field), _bool(d, "strip_right", True, field))
    if kind == "Prepend":
        return Prepend(_need(d, "prepend", field))
    if kind == "Replace":
        try:
            return Replace(_need(d, "pattern", field), _need(d, "content", field))
        except SubwordLabError as exc:  # name the Replace inside its Sequence
            inner = exc.field or ""
            if field == "normalizer":  # at the top the caller adds "normalizer."
                raise
            if not inner.startswith(field):
                inner = f"{field}.{inner}" if inner else field
            raise SubwordLabError(exc.reason, field=inner) from None
    if kind == "Precompiled":
        return Precompiled(_need(d, "precompiled_charsmap", field))
    if kind == "Sequence":
        items = _need(d, "normalizers", field)
        if not isinstance(items, list):
            raise SubwordLabError("normalizers must be a list", field=field)
        return Sequence([from_dict(n, f"{field}.normalizers[{i}]") for i, n in enumerate(items)])
    if kind is None:
        raise SubwordLabError("missing field 'type'", field=field)
    raise SubwordLabError(f"unknown normalizer type {kind!r}", field=field)

"""Decoders: turn a list of token strings back into text, as Hugging Face `tokenizers` does.

Every decoder has `decode_chain(tokens) -> list[str]` (one step of the chain, so a
`Sequence` can feed one decoder's output to the next) and `decode(tokens) -> str`
(the chain's output joined). `to_dict()` gives the tokenizer.json form and
`from_dict(d)` reads it back.

HF panics on a few degenerate inputs (Strip wider than the token); we clamp instead.
"""
from __future__ import annotations

import re
from typing import Any, overload

from .core.components import custom_calls
from .core.tables.byte_level import unicode_to_bytes
from .core.errors import SubwordLabError
from .core.components.pickling import JsonState
from .core.components.sequences import SequenceItems, check_dict_depth

__all__ = [
    "Decoder", "WordPiece", "ByteLevel", "Metaspace", "BPEDecoder", "ByteFallback",
    "Fuse", "Strip", "Replace", "CTC", "Sequence", "DecodeStream", "from_dict",
]


class Decoder(JsonState):
    """Base class: subclasses implement `decode_chain` and `to_dict`."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        return "".join(self.decode_chain(list(tokens)))

    def to_dict(self) -> dict:
        raise NotImplementedError

    @staticmethod
    def custom(decoder: object) -> CustomDecoder:
        """Wrap a Python object that has a decode_chain(tokens) method (HF's Decoder.custom)."""
        return CustomDecoder(decoder)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if k != "type")
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decoder) and type(self) is type(other) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # unhashable: equal by value

    def _from_dict(self, data):  # JsonState: pickled as its tokenizer.json text, as HF
        return from_dict(data)


# The artifacts of splitting English on punctuation, undone in this order (HF's list).
_CLEANUP_RULES = (
    (" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"),
    (" n't", "n't"), (" 'm", "'m"), (" do not", " don't"), (" 's", "'s"),
    (" 've", "'ve"), (" 're", "'re"),
)


def cleanup(text: str) -> str:
    """Remove the spaces WordPiece decoding leaves before punctuation and contractions."""
    for old, new in _CLEANUP_RULES:
        if old in text:
            text = text.replace(old, new)
    return text


class CustomDecoder(Decoder):
    """A decoder written in Python: any object with a decode_chain(tokens) method."""

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return list(custom_calls.call_user(self.obj, "decode_chain", list(tokens)))

    def to_dict(self) -> dict:
        custom_calls.not_saveable("decoder")

    def __repr__(self) -> str:
        return f"CustomDecoder({self.obj!r})"


class WordPiece(Decoder):
    """Glue `##` continuations to the previous token; put a space before the others."""

    def __init__(self, prefix: str = "##", cleanup: bool = True) -> None:
        self.prefix = prefix
        self.cleanup = bool(cleanup)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        prefix, n = self.prefix, len(self.prefix)
        for i, token in enumerate(tokens):
            if i:
                token = token[n:] if token.startswith(prefix) else " " + token
            out.append(cleanup(token) if self.cleanup else token)
        return out

    def to_dict(self) -> dict:
        return {"type": "WordPiece", "prefix": self.prefix, "cleanup": self.cleanup}


def _char_to_byte() -> dict:
    """GPT-2's stand-in character -> the byte it stands for (byte_level's table)."""
    return unicode_to_bytes()


class ByteLevel(Decoder):
    """Map GPT-2's byte stand-in characters back to bytes, then decode them as UTF-8.

    A token with a character outside the table is taken as its own UTF-8 bytes (HF
    does so for added tokens). Invalid UTF-8 becomes U+FFFD, as in Rust's lossy decode.
    The three flags only matter to the pre-tokenizer/post-processor; they are kept so
    the decoder's JSON round-trips.
    """

    def __init__(self, add_prefix_space: bool = True, trim_offsets: bool = True,
                 use_regex: bool = True, **_ignored: object) -> None:
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    def decode_chain(self, tokens: list[str]) -> list[str]:
        table = _char_to_byte()
        data = bytearray()
        for token in tokens:
            try:
                data.extend([table[c] for c in token])
            except KeyError:
                data.extend(token.encode("utf-8", "surrogatepass"))
        return [data.decode("utf-8", "replace")]

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}


_PREPEND_SCHEMES = ("always", "first", "never")


class Metaspace(Decoder):
    """Turn the `▁` marker back into spaces; the first token loses its marker(s)."""

    def __init__(self, replacement: str = "\u2581", prepend_scheme: str = "always",
                 split: bool = True) -> None:
        if not isinstance(replacement, str) or len(replacement) != 1:
            raise SubwordLabError(f"expected a string of length 1, got {replacement!r}",
                                  field="replacement")
        if prepend_scheme not in _PREPEND_SCHEMES:
            raise SubwordLabError(
                f"must be one of {', '.join(_PREPEND_SCHEMES)}, got {prepend_scheme!r}",
                field="prepend_scheme")
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = bool(split)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        rep = self.replacement
        out = [token.replace(rep, " ") for token in tokens]
        # The pre-tokenizer added a marker before the first word: drop it (HF drops
        # every marker of the first token, not only a leading one).
        if out and self.prepend_scheme != "never":
            out[0] = tokens[0].replace(rep, "")
        return out

    def to_dict(self) -> dict:
        return {"type": "Metaspace", "replacement": self.replacement,
                "prepend_scheme": self.prepend_scheme, "split": self.split}


class BPEDecoder(Decoder):
    """Original (subword-nmt style) BPE: the end-of-word suffix becomes a space."""

    def __init__(self, suffix: str = "</w>") -> None:
        self.suffix = suffix

    def decode_chain(self, tokens: list[str]) -> list[str]:
        last = len(tokens) - 1
        return [token.replace(self.suffix, "" if i == last else " ")
                for i, token in enumerate(tokens)]

    def to_dict(self) -> dict:
        return {"type": "BPEDecoder", "suffix": self.suffix}


def _byte_token_value(token: str) -> int | None:
    """The byte of a `<0xHH>` token, else None (same acceptance as Rust's parse)."""
    if len(token) != 6 or not token.startswith("<0x") or token[5] != ">":
        return None
    digits = token[3:5]
    body = digits[1:] if digits[0] == "+" else digits
    if not body or any(c not in "0123456789abcdefABCDEF" for c in body):
        return None
    return int(body, 16)


class ByteFallback(Decoder):
    """Join runs of `<0xHH>` tokens into text; a run that is not valid UTF-8 gives
    one U+FFFD per byte token."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out, pending = [], bytearray()
        for token in tokens:
            byte = _byte_token_value(token)
            if byte is not None:
                pending.append(byte)
                continue
            if pending:
                out.extend(_flush_bytes(pending))
                pending = bytearray()
            out.append(token)
        if pending:
            out.extend(_flush_bytes(pending))
        return out

    def to_dict(self) -> dict:
        return {"type": "ByteFallback"}


def _flush_bytes(pending: bytearray) -> list:
    try:
        return [pending.decode("utf-8")]
    except UnicodeDecodeError:
        return ["\ufffd"] * len(pending)


class Fuse(Decoder):
    """Join all tokens into one string, so later decoders see the whole text."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]

    def to_dict(self) -> dict:
        return {"type": "Fuse"}


class Strip(Decoder):
    """Remove up to `start` copies of `content` from each token's start, `stop` from its end."""

    def __init__(self, content: str = " ", left: int = 0, right: int = 0, *,
                 start: int | None = None, stop: int | None = None) -> None:
        if not isinstance(content, str) or len(content) != 1:
            raise SubwordLabError(f"must be one character, got {content!r}", field="content")
        self.content = content
        self.start = int(left if start is None else start)
        self.stop = int(right if stop is None else stop)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [self._strip(token) for token in tokens]

    def _strip(self, token):
        c, n = self.content, len(token)
        begin = 0
        while begin < min(self.start, n) and token[begin] == c:
            begin += 1
        end = n
        while n - end < self.stop and end > begin and token[end - 1] == c:
            end -= 1
        return token[begin:end]

    def to_dict(self) -> dict:
        return {"type": "Strip", "content": self.content, "start": self.start,
                "stop": self.stop}


def _pattern_from(pattern):
    """Accept a str (literal), a compiled re.Pattern, an object with a `.pattern`
    (a Regex wrapper), or tokenizer.json's {"String": s} / {"Regex": r}.
    Returns (kind, source): kind is "String" or "Regex"."""
    if isinstance(pattern, str):
        return "String", pattern
    if isinstance(pattern, re.Pattern):
        return "Regex", pattern.pattern
    if isinstance(pattern, dict) and len(pattern) == 1:
        kind, source = next(iter(pattern.items()))
        if kind in ("String", "Regex") and isinstance(source, str):
            return kind, source
    source = getattr(pattern, "pattern", None)
    if isinstance(source, str):
        return "Regex", source
    raise SubwordLabError(f'expected a string or {{"String"|"Regex": ...}}, got {pattern!r}',
                          field="pattern")


class Replace(Decoder):
    """Replace every match of `pattern` (a literal string or a regex) by `content`."""

    def __init__(self, pattern: Any, content: str) -> None:  # a str, a dict or a Regex
        self.kind, self.source = _pattern_from(pattern)
        self.content = content
        if self.kind == "Regex":
            try:
                self._regex = re.compile(self.source)
            except re.error as exc:
                raise SubwordLabError(f"bad regex {self.source!r}: {exc}",
                                      field="pattern") from None

    def decode_chain(self, tokens: list[str]) -> list[str]:
        if self.kind == "String":
            if not self.source:
                return list(tokens)
            return [t.replace(self.source, self.content) for t in tokens]
        # A function replacement, so backslashes in `content` stay literal.
        content = self.content
        return [self._regex.sub(lambda _m: content, t) for t in tokens]

    def to_dict(self) -> dict:
        return {"type": "Replace", "pattern": {self.kind: self.source},
                "content": self.content}


class CTC(Decoder):
    """Speech models' output: collapse repeats, drop padding, delimiter to space."""

    def __init__(self, pad_token: str = "<pad>", word_delimiter_token: str = "|",
                 cleanup: bool = True) -> None:
        self.pad_token = pad_token
        self.word_delimiter_token = word_delimiter_token
        self.cleanup = bool(cleanup)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out, previous = [], None
        for token in tokens:
            if token == previous:
                continue
            previous = token
            text = token.replace(self.pad_token, "") if self.pad_token else token
            if self.cleanup:
                text = cleanup(text).replace(self.word_delimiter_token, " ")
            if text:
                out.append(text)
        return out

    def to_dict(self) -> dict:
        return {"type": "CTC", "pad_token": self.pad_token,
                "word_delimiter_token": self.word_delimiter_token, "cleanup": self.cleanup}


class Sequence(SequenceItems, Decoder):
    """Run decoders one after the other, each on the previous one's output."""

    _ITEMS, _KIND = "decoders", "decoders"
    decoders: list[Decoder]  # set by SequenceItems._set_items

    def __init__(self, decoders_py: list[Decoder]) -> None:
        self._set_items(decoders_py)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for decoder in self.decoders:
            tokens = decoder.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict:
        return {"type": "Sequence", "decoders": [d.to_dict() for d in self.decoders]}


# --- tokenizer.json --------------------------------------------------------------

def _get(d, key, kind, where, default=...):
    """A field of a decoder dict, type-checked; missing without default -> error."""
    if key not in d or d[key] is None:
        if default is ...:
            raise SubwordLabError(f"missing field {key!r}", field=f"{where}.{key}")
        return default
    value = d[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise SubwordLabError(f"expected {kind.__name__}, got {type(value).__name__}",
                              field=f"{where}.{key}")
    return value


def _metaspace(d, where):
    scheme = _get(d, "prepend_scheme", str, where, "always")
    # Files from before prepend_scheme existed say add_prefix_space instead.
    if d.get("add_prefix_space") is False:
        if "prepend_scheme" in d and scheme != "never":
            raise SubwordLabError("add_prefix_space does not match prepend_scheme",
                                  field=f"{where}.prepend_scheme")
        scheme = "never"
    return _build(where, lambda: Metaspace(_get(d, "replacement", str, where), scheme,
                                           _get(d, "split", bool, where, True)))


def _strip(d, where):
    return _build(where, lambda: Strip(_get(d, "content", str, where),
                                       start=_get(d, "start", int, where),
                                       stop=_get(d, "stop", int, where)))


def _replace(d, where):
    return _build(where, lambda: Replace(_get(d, "pattern", dict, where),
                                         _get(d, "content", str, where)))


def _build(where, make):
    """Run a constructor; its own errors name a bare field, so prefix `where`."""
    try:
        return make()
    except SubwordLabError as exc:
        if exc.field and not exc.field.startswith(where):
            raise SubwordLabError(exc.reason, field=f"{where}.{exc.field}") from None
        raise


def _sequence(d, where):
    items = _get(d, "decoders", list, where)
    return Sequence([from_dict(item, f"{where}.decoders[{i}]") for i, item in enumerate(items)])


_BUILDERS = {
    "WordPiece": lambda d, w: WordPiece(_get(d, "prefix", str, w, "##"),
                                        _get(d, "cleanup", bool, w, True)),
    "ByteLevel": lambda d, w: ByteLevel(_get(d, "add_prefix_space", bool, w, True),
                                        _get(d, "trim_offsets", bool, w, True),
                                        _get(d, "use_regex", bool, w, True)),
    "Metaspace": _metaspace,
    "BPEDecoder": lambda d, w: BPEDecoder(_get(d, "suffix", str, w, "</w>")),
    "ByteFallback": lambda d, w: ByteFallback(),
    "Fuse": lambda d, w: Fuse(),
    "Strip": _strip,
    "Replace": _replace,
    "CTC": lambda d, w: CTC(_get(d, "pad_token", str, w, "<pad>"),
                            _get(d, "word_delimiter_token", str, w, "|"),
                            _get(d, "cleanup", bool, w, True)),
    "Sequence": _sequence,
}


@overload
def from_dict(d: dict, where: str = ...) -> Decoder: ...
@overload
def from_dict(d: None, where: str = ...) -> None: ...
def from_dict(d: dict | None, where: str = "decoder") -> Decoder | None:
    """Build a decoder from its tokenizer.json dict (None stays None)."""
    if d is None:
        return None
    if not isinstance(d, dict):
        raise SubwordLabError(f"expected an object, got {type(d).__name__}", field=where)
    check_dict_depth(d, where)
    kind = d.get("type")
    if kind is None:
        raise SubwordLabError("missing field 'type'", field=f"{where}.type")
    builder = _BUILDERS.get(kind)
    if builder is None:
        raise SubwordLabError(
            f"unknown decoder type {kind!r} (known: {', '.join(sorted(_BUILDERS))})",
            field=f"{where}.type")
    return builder(d, where)


class DecodeStream:
    """Decode ids one at a time, as they are generated, returning only the new text.

    `step(tokenizer, id_or_ids)` gives the text the new id(s) add, or None while
    the text so far ends in an incomplete character (a byte-fallback or byte-level
    token that needs the next one). Only the ids since the last returned text are
    kept, so each step decodes a short window (HF's DecodeStream).
    """

    def __init__(self, ids: list[int] | None = None, skip_special_tokens: bool = False) -> None:
        self.skip_special_tokens = bool(skip_special_tokens)
        self.ids = list(ids or [])
        self.prefix = ""
        self.prefix_index = 0

    def __copy__(self) -> DecodeStream:
        twin = DecodeStream.__new__(DecodeStream)
        twin.__dict__.update(self.__dict__, ids=list(self.ids))
        return twin

    def step(self, tokenizer: Any, id: int | list[int]) -> str | None:
        # Lengths compare in UTF-8 bytes, as tokenizers compares them.
        if not self.prefix and self.ids:
            # ids kept as context (given up front, or all of them after a step
            # whose window decoded to nothing): what they decode to is not new
            # text, unless it ends in an incomplete character, which the next
            # ids may complete (byte fallback: Thai "อั" from byte tokens)
            context = tokenizer.decode(self.ids, self.skip_special_tokens)
            if not context.endswith("\ufffd"):
                self.prefix, self.prefix_index = context, len(self.ids)
        self.ids.extend(id if isinstance(id, (list, tuple)) else [id])
        text = tokenizer.decode(self.ids, self.skip_special_tokens)
        if len(text.encode()) <= len(self.prefix.encode()) or text.endswith("\ufffd"):
            return None
        if not text.startswith(self.prefix):
            raise SubwordLabError("the decoded text no longer starts with what was "
                                  "already returned", field="DecodeStream")
        new_text = text[len(self.prefix):]
        new_index = len(self.ids) - self.prefix_index
        self.ids = self.ids[self.prefix_index:]
        self.prefix = tokenizer.decode(self.ids, self.skip_special_tokens)
        self.prefix_index = new_index
        return new_text

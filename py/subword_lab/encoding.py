"""`Encoding`: the output of `Tokenizer.encode`, with HF's attributes and helpers.

Every attribute reads as a plain list of the same length (one entry per token).
The tokenizer's fast path fills an Encoding compactly instead: ids and offsets in
arrays of machine ints, the constant columns and the token strings described, not
stored. Each attribute becomes its list the first time it is read (and stays one),
so a caller who reads only `ids` of a 5 MB text never pays for a tuple per offset
or a string per token. Truncation, merging
(for pairs and templates) and padding follow the `tokenizers` crate step by step,
because users compare `overflowing`, `sequence_ids` and `word_ids` with it.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from .core.errors import SubwordLabError

if TYPE_CHECKING:  # the columns' type: a property over a slot (see _column)
    _T = TypeVar("_T")

    class _Column(Generic[_T]):
        def __get__(self, enc: Encoding, owner: type | None = None) -> list[_T]: ...
        def __set__(self, enc: Encoding, value: Sequence[_T]) -> None: ...

__all__ = ["Encoding"]

_FIELDS = ("ids", "type_ids", "tokens", "word_ids", "offsets", "special_tokens_mask",
           "attention_mask")


class _Lazy:
    """A column not built yet: `make(*args)` returns its list."""

    __slots__ = ("make", "args")

    def __init__(self, make: Any, *args: Any) -> None:
        self.make = make
        self.args = args




# A column of a compact Encoding not built yet; `_source` holds what builds it.
_PENDING = _Lazy(None)

# column -> its list, from (type_id, starts, ends, token_of, ids)
_BUILD = {
    "type_ids": lambda src: [src[0]] * len(src[4]),
    "tokens": lambda src: src[3](src[4]),
    "offsets": lambda src: list(zip(src[1], src[2])),
    "special_tokens_mask": lambda src: [0] * len(src[4]),
    "attention_mask": lambda src: [1] * len(src[4]),
}


def _column(name, slot, source):
    """A property over the raw slot: lists pass through; an array, a _Lazy or a
    pending column becomes a list once and replaces itself."""
    get_raw, set_raw, get_source = slot.__get__, slot.__set__, source.__get__
    # only the columns _BUILD names are ever left pending
    build = cast("Callable[[Any], list]", _BUILD.get(name))

    def fget(self):
        value = get_raw(self)
        if value.__class__ is not list:
            if value is _PENDING:
                value = build(get_source(self))
            elif value.__class__ is _Lazy:
                value = value.make(*value.args)
            else:
                value = list(value)
            set_raw(self, value)
        return value

    return property(fget, set_raw)


class Encoding:
    """Ids, tokens and alignments for one (possibly paired) input."""

    __slots__ = ("_ids", "_type_ids", "_tokens", "_word_ids", "_offsets",
                 "_special_tokens_mask", "_attention_mask", "overflowing",
                 "sequence_ranges", "_source")
    if TYPE_CHECKING:  # the columns, set as properties below the class; raw slots
        ids: _Column[int]
        type_ids: _Column[int]
        tokens: _Column[str]
        word_ids: _Column[int | None]
        offsets: _Column[tuple[int, int]]
        special_tokens_mask: _Column[int]
        attention_mask: _Column[int]
        overflowing: list[Encoding]
        sequence_ranges: dict[int, tuple[int, int]]
        _ids: Any  # raw slots: a list, an array, a _Lazy or _PENDING
        _source: Any

    def __init__(self, ids: Sequence[int] | None = None,
                 type_ids: Sequence[int] | None = None, tokens: Sequence[str] | None = None,
                 word_ids: Sequence[int | None] | None = None,
                 offsets: Sequence[tuple[int, int]] | None = None,
                 special_tokens_mask: Sequence[int] | None = None,
                 attention_mask: Sequence[int] | None = None,
                 overflowing: list[Encoding] | None = None,
                 sequence_ranges: dict[int, tuple[int, int]] | None = None) -> None:
        self._source = None
        self.ids = [] if ids is None else ids
        n = len(self.ids)
        self.type_ids = [0] * n if type_ids is None else type_ids
        self.tokens = [""] * n if tokens is None else tokens
        self.word_ids = [None] * n if word_ids is None else word_ids
        self.offsets = [(0, 0)] * n if offsets is None else offsets
        self.special_tokens_mask = [0] * n if special_tokens_mask is None else special_tokens_mask
        self.attention_mask = [1] * n if attention_mask is None else attention_mask
        self.overflowing = [] if overflowing is None else overflowing
        # sequence id -> (start, end) token range; empty means "one sequence, all of it"
        self.sequence_ranges = {} if sequence_ranges is None else sequence_ranges

    # -- construction ---------------------------------------------------------

    def _blank_text_columns(self) -> None:
        """No token string, offsets or word for any token, and type id 0: what tokenizers'
        encode_batch_fast gives for the tokens of a text, a pair's second text too (it tracks
        none of them; the post-processor then sets the type ids it sets)."""
        n = len(self.ids)
        self.type_ids = [0] * n
        self.tokens = [""] * n
        self.offsets = [(0, 0)] * n
        self.word_ids = [None] * n

    @classmethod
    def compact(cls, ids: Sequence[int], type_id: int, starts: Sequence[int],
                ends: Sequence[int], word_ids: Sequence[int | None],
                token_of: Callable[[Sequence[int]], list[str]]) -> Encoding:
        """From arrays (ids, offset starts and ends, word ids: one entry per token)
        and `token_of(ids)` -> the token strings; nothing per token is made until read."""
        enc: Any = cls.__new__(cls)  # its raw slots are written directly
        enc._ids = ids
        enc._word_ids = word_ids
        enc._type_ids = enc._tokens = enc._offsets = _PENDING
        enc._special_tokens_mask = enc._attention_mask = _PENDING
        enc._source = (type_id, starts, ends, token_of, ids)
        enc.overflowing = []
        enc.sequence_ranges = {}
        return enc

    @classmethod
    def lazy(cls, ids: list[int], type_id: int,
             token_of: Callable[[Sequence[int]], list[str]],
             offsets: Sequence[Any], word_ids: Sequence[Any]) -> Encoding:
        """From the ids (a list) and `token_of`; `offsets` and `word_ids` are
        (make, *args): each list is made by make(*args) the first time it is read.
        For short texts, where building arrays would cost more than the encode."""
        enc: Any = cls.__new__(cls)  # its raw slots are written directly
        enc._ids = ids
        enc._offsets = _Lazy(*offsets)
        enc._word_ids = _Lazy(*word_ids)
        enc._type_ids = enc._tokens = _PENDING
        enc._special_tokens_mask = enc._attention_mask = _PENDING
        enc._source = (type_id, None, None, token_of, ids)
        enc.overflowing = []
        enc.sequence_ranges = {}
        return enc

    def __getstate__(self) -> dict[str, Any]:
        state = {name: getattr(self, name) for name in _FIELDS}
        state["overflowing"] = self.overflowing
        state["sequence_ranges"] = self.sequence_ranges
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    @classmethod
    def from_tokens(cls, tokens: Sequence[Any], type_id: int = 0,
                    word_ids: list[int | None] | None = None) -> Encoding:
        """From a list of `Token(id, value, offsets)` (a model's output)."""
        n = len(tokens)
        return cls([t[0] for t in tokens], [type_id] * n, [t[1] for t in tokens],
                   [None] * n if word_ids is None else word_ids,
                   [t[2] for t in tokens], [0] * n, [1] * n)

    def copy(self) -> Encoding:
        """A deep-enough copy: new lists, copied overflowing encodings."""
        enc = Encoding(list(self.ids), list(self.type_ids), list(self.tokens),
                       list(self.word_ids), list(self.offsets),
                       list(self.special_tokens_mask), list(self.attention_mask),
                       [o.copy() for o in self.overflowing], dict(self.sequence_ranges))
        return enc

    def _slice(self, start: int, stop: int) -> Encoding:
        return Encoding(self.ids[start:stop], self.type_ids[start:stop],
                        self.tokens[start:stop], self.word_ids[start:stop],
                        self.offsets[start:stop], self.special_tokens_mask[start:stop],
                        self.attention_mask[start:stop])

    # -- HF attribute names -----------------------------------------------------

    @property
    def words(self) -> list[int | None]:
        """Deprecated HF alias of `word_ids`."""
        warnings.warn("Encoding.words is deprecated, use Encoding.word_ids",
                      DeprecationWarning, stacklevel=2)
        return self.word_ids

    @property
    def n_sequences(self) -> int:
        return len(self.sequence_ranges) or 1

    @property
    def sequence_ids(self) -> list[int | None]:
        seq: list[int | None] = [None] * len(self.ids)
        if not self.sequence_ranges:
            return [0] * len(self.ids)
        for seq_id, (start, end) in self.sequence_ranges.items():
            seq[start:end] = [seq_id] * (end - start)
        return seq

    def __len__(self) -> int:
        return len(self._ids)  # a list or an array: no need to build the list

    def __repr__(self) -> str:
        return (f"Encoding(num_tokens={len(self.ids)}, attributes=[ids, type_ids, tokens, "
                f"offsets, attention_mask, special_tokens_mask, overflowing])")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready view (what the CLI and the web worker send)."""
        return {
            "ids": list(self.ids), "tokens": list(self.tokens),
            "offsets": [list(o) for o in self.offsets],
            "type_ids": list(self.type_ids), "attention_mask": list(self.attention_mask),
            "special_tokens_mask": list(self.special_tokens_mask),
            "word_ids": list(self.word_ids),
            "overflowing": [o.to_dict() for o in self.overflowing],
        }

    # -- sequences --------------------------------------------------------------

    def set_sequence_id(self, sequence_id: int) -> None:
        self.sequence_ranges[sequence_id] = (0, len(self.ids))

    def _sequence_range(self, sequence_id: int) -> tuple[int, int]:
        return self.sequence_ranges.get(sequence_id, (0, len(self.ids)))

    def token_to_sequence(self, token_index: int) -> int | None:
        if token_index > len(self.ids):
            return None
        if not self.sequence_ranges:
            return 0
        for seq_id, (start, end) in self.sequence_ranges.items():
            if start <= token_index < end:
                return seq_id
        return None

    def token_to_chars(self, token_index: int) -> tuple[int, int] | None:
        if self.token_to_sequence(token_index) is None or token_index >= len(self.ids):
            return None
        return self.offsets[token_index]

    def token_to_word(self, token_index: int) -> int | None:
        if self.token_to_sequence(token_index) is None or token_index >= len(self.ids):
            return None
        return self.word_ids[token_index]

    def word_to_tokens(self, word_index: int,
                       sequence_index: int = 0) -> tuple[int, int] | None:
        start, end = self._sequence_range(sequence_index)
        first: int | None = None
        last = 0  # set with first
        for i, w in enumerate(self.word_ids[start:end]):
            if w is None or w < word_index:
                # HF's take_while(w <= word) stops at the first larger word only;
                # None sorts below every id, so it never stops the scan.
                continue
            if w > word_index:
                break
            if first is None:
                first = i
            last = i + 1
        if first is None:
            return None
        return (start + first, start + last)

    def word_to_chars(self, word_index: int,
                      sequence_index: int = 0) -> tuple[int, int] | None:
        span = self.word_to_tokens(word_index, sequence_index)
        if span is None or span[1] == 0:
            return None
        return (self.offsets[span[0]][0], self.offsets[span[1] - 1][1])

    def char_to_token(self, char_pos: int, sequence_index: int = 0) -> int | None:
        start, end = self._sequence_range(sequence_index)
        for i in range(start, min(end, len(self.offsets))):
            s, e = self.offsets[i]
            if s <= char_pos < e:
                return i
        return None

    def char_to_word(self, char_pos: int, sequence_index: int = 0) -> int | None:
        token = self.char_to_token(char_pos, sequence_index)
        return None if token is None else self.token_to_word(token)

    # -- truncation ---------------------------------------------------------------

    def truncate(self, max_length: int, stride: int = 0, direction: str = "right") -> None:
        """Keep `max_length` tokens; the rest goes to `overflowing` in windows
        that overlap by `stride` tokens (HF's Encoding::truncate)."""
        if direction not in ("left", "right"):
            raise SubwordLabError(f"Invalid truncation direction value : {direction}")
        n = len(self.ids)
        if max_length >= n:
            return
        if max_length == 0:
            whole = self._slice(0, n)
            whole.overflowing = self.overflowing
            whole.sequence_ranges = self.sequence_ranges
            self._become(Encoding())
            self.overflowing = [whole]
            return
        if stride >= max_length:
            raise SubwordLabError(
                f"stride {stride} must be less than the length kept, {max_length} (the "
                "max_length minus the special tokens the post-processor adds)",
                field="truncation.stride")
        parts = _window_ranges(n, max_length, max_length - stride, direction)
        first = self._slice(*parts[0])
        first.overflowing = [self._slice(*p) for p in parts[1:]]
        self._become(first)

    def _become(self, other: Encoding) -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(other, name))  # raw slots: lazy columns stay lazy

    # -- merging ------------------------------------------------------------------

    @staticmethod
    def merge(encodings: Iterable[Encoding], growing_offsets: bool = True) -> Encoding:
        merged = Encoding()
        for enc in encodings:
            merged.merge_with(enc, growing_offsets)
        return merged

    def merge_with(self, pair: Encoding, growing_offsets: bool = False) -> None:
        """Append `pair` to self; overflowing windows combine as HF does."""
        overflowings = []
        for own in self.overflowing:
            combined = own.copy()
            combined.merge_with(pair.copy(), growing_offsets)
            overflowings.append(combined)
            for other in pair.overflowing:
                combined = own.copy()
                combined.merge_with(other.copy(), growing_offsets)
                overflowings.append(combined)
        for other in pair.overflowing:
            combined = self.copy()
            combined.merge_with(other.copy(), growing_offsets)
            overflowings.append(combined)

        base = len(self.ids)
        for seq_id, (start, end) in pair.sequence_ranges.items():
            self.sequence_ranges[seq_id] = (base + start, base + end)
        self.ids = self.ids + pair.ids
        self.type_ids = self.type_ids + pair.type_ids
        self.tokens = self.tokens + pair.tokens
        self.word_ids = self.word_ids + pair.word_ids
        shift = self.offsets[-1][1] if growing_offsets and self.offsets else 0
        if shift:
            self.offsets = self.offsets + [(s + shift, e + shift) for s, e in pair.offsets]
        else:
            self.offsets = self.offsets + pair.offsets
        self.special_tokens_mask = self.special_tokens_mask + pair.special_tokens_mask
        self.attention_mask = self.attention_mask + pair.attention_mask
        self.overflowing = overflowings

    # -- padding ------------------------------------------------------------------

    def pad(self, length: int, direction: str = "right", pad_id: int = 0,
            pad_type_id: int = 0, pad_token: str = "[PAD]") -> None:
        """Pad to `length` (overflowing windows too); never shortens."""
        for enc in self.overflowing:
            enc.pad(length, direction, pad_id, pad_type_id, pad_token)
        missing = length - len(self.ids)
        if missing <= 0:
            return
        if direction == "left":
            self.ids = [pad_id] * missing + self.ids
            self.type_ids = [pad_type_id] * missing + self.type_ids
            self.tokens = [pad_token] * missing + self.tokens
            self.word_ids = [None] * missing + self.word_ids
            self.attention_mask = [0] * missing + self.attention_mask
            self.special_tokens_mask = [1] * missing + self.special_tokens_mask
            self.offsets = [(0, 0)] * missing + self.offsets
            self.sequence_ranges = {k: (s + missing, e + missing)
                                    for k, (s, e) in self.sequence_ranges.items()}
        else:
            self.ids = self.ids + [pad_id] * missing
            self.type_ids = self.type_ids + [pad_type_id] * missing
            self.tokens = self.tokens + [pad_token] * missing
            self.word_ids = self.word_ids + [None] * missing
            self.attention_mask = self.attention_mask + [0] * missing
            self.special_tokens_mask = self.special_tokens_mask + [1] * missing
            self.offsets = self.offsets + [(0, 0)] * missing


for _name in _FIELDS:
    setattr(Encoding, _name, _column(_name, Encoding.__dict__["_" + _name],
                                     Encoding.__dict__["_source"]))
del _name


def _window_ranges(n, max_length, step, direction):
    """The (start, stop) windows HF cuts a too-long encoding into."""
    parts = []
    if direction == "left":
        for stop in range(n, 0, -step):
            start = max(stop - max_length, 0)
            parts.append((start, stop))
            if start == 0:
                break
    else:
        for start in range(0, n, step):
            stop = min(start + max_length, n)
            parts.append((start, stop))
            if stop == n:
                break
    return parts

"""What every model shares: the vocabulary maps, reading fields of a model dict, errors.

A model turns one pre-tokenized piece of text into `Token`s whose offsets are
character offsets into that piece. Models never see the whole input, so they
know nothing about normalization or added tokens.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..core.errors import SubwordLabError

from ..core.normalized import Token

__all__ = ["Model", "Token", "field", "model_error", "ordered_vocab", "byte_token"]

# "<0xE3>": the spelling sentencepiece and HF use for byte-fallback tokens.
_BYTE_TOKENS = tuple(f"<0x{b:02X}>" for b in range(256))


def byte_token(b: int) -> str:
    return _BYTE_TOKENS[b]


def model_error(message: str, name: str) -> SubwordLabError:
    return SubwordLabError(message, field=f"model.{name}")


def field(d: dict, name: str, kinds: type | tuple[type, ...], default: Any = ...,
          allow_none: bool = False) -> Any:
    """Read d[name], checking its JSON type; a missing required field is an error."""
    if name not in d:
        if default is ...:
            raise model_error("missing field", name)
        return default
    value = d[name]
    if value is None and allow_none:
        return None
    # bool is an int in Python, but a JSON true is not a number for us.
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in _as_tuple(kinds)):
        raise model_error(f"expected {_kind_names(kinds)}, got {type(value).__name__}", name)
    return value


def _as_tuple(kinds):
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _kind_names(kinds):
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
             dict: "an object", list: "a list"}
    return " or ".join(names.get(k, k.__name__) for k in _as_tuple(kinds))


def read_vocab_map(d: dict, name: str = "vocab") -> dict:
    vocab = field(d, name, dict)
    ids = list(vocab.values())
    if set(map(type, ids)) <= {int} and (not ids or min(ids) >= 0):
        return vocab  # all well, found in C (vocabularies have 100,000s of entries)
    for token, i in vocab.items():
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise model_error(f"id of {token!r} must be a non-negative integer", name)
    return vocab


def ordered_vocab(vocab: dict) -> dict:
    """The vocab as HF writes it: keys in id order."""
    return dict(sorted(vocab.items(), key=lambda kv: kv[1]))


class Model:
    """Base class: vocab lookups backed by `self.vocab` (token -> id) and `self.vocab_r`."""

    type_name = "Model"

    def _set_vocab(self, vocab: dict) -> None:
        self.vocab = dict(vocab)
        self.vocab_r = dict(zip(self.vocab.values(), self.vocab))

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self.vocab_r.get(id)

    def get_vocab(self) -> dict:
        return dict(self.vocab)

    def get_vocab_size(self) -> int:
        return len(self.vocab)

    def tokenize(self, sequence: str, on_event: Callable[[dict], Any] | None = None) -> list[Token]:
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    def __repr__(self) -> str:  # tokenizers' style: the tokenizer.json fields
        from ..core.components.reprs import hf_repr
        return hf_repr(type(self).__name__, self.to_dict())

    def __str__(self) -> str:  # the same, long lists shortened
        from ..core.components.reprs import hf_repr
        return hf_repr(type(self).__name__, self.to_dict(), short=True)


def tokens_event(tokens: Iterable[Token]) -> list:
    """Tokens as compact JSON rows: [value, id, start, end]."""
    return [[t.value, t.id, t.offsets[0], t.offsets[1]] for t in tokens]

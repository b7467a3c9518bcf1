"""The opened tokenizers of the page, kept by the key the page chose: one owner, one shape.

Every module of the facade opens and looks up tokenizers through `REGISTRY`, so
each entry is described the same way (`describe`), whoever opened it: a preset,
a user's file, or one of the course's toy tokenizers.
"""
from __future__ import annotations

import json

from ..core.errors import SubwordLabError

__all__ = ["REGISTRY", "Registry", "describe"]


def _model_kind(tokenizer) -> str:
    model = getattr(tokenizer, "model", None)
    return type(model).__name__ if model is not None else "unknown"


def _vocab_size(tokenizer) -> int:
    try:
        return tokenizer.get_vocab_size(with_added_tokens=True)
    except TypeError:
        return tokenizer.get_vocab_size()


def _unk_id(tokenizer):
    """The id of the model's unknown token, if it has one (the page marks it)."""
    model = getattr(tokenizer, "model", None)
    unk = getattr(model, "unk_id", None)
    if isinstance(unk, int):
        return unk
    token = getattr(model, "unk_token", None)
    if isinstance(token, str):
        return tokenizer.token_to_id(token)
    return None


def _byte_level(tokenizer) -> bool:
    """True when tokens are spelled in GPT-2's byte alphabet (one character per byte)."""
    parts = [getattr(tokenizer, "pre_tokenizer", None), getattr(tokenizer, "decoder", None)]
    text = json.dumps([p.to_dict() for p in parts if p is not None and hasattr(p, "to_dict")])
    return '"ByteLevel"' in text


def describe(key: str, name: str, tokenizer) -> dict:
    """What the page shows about an opened tokenizer (docs/automation.md)."""
    return {"key": key, "name": name, "model": _model_kind(tokenizer),
            "vocab_size": _vocab_size(tokenizer), "unk_id": _unk_id(tokenizer),
            "byte_level": _byte_level(tokenizer)}


class Registry:
    """Tokenizers by key, each with its description."""

    def __init__(self):
        self._tokenizers: dict = {}
        self._info: dict = {}

    def add(self, key: str, name: str, tokenizer) -> dict:
        self._tokenizers[key] = tokenizer
        self._info[key] = describe(key, name, tokenizer)
        return self._info[key]

    def __contains__(self, key) -> bool:
        return key in self._tokenizers

    def get(self, key):
        """The tokenizer under `key`, or a SubwordLabError the page can show."""
        tokenizer = self._tokenizers.get(key)
        if tokenizer is None:
            raise SubwordLabError(f"no tokenizer named {key!r} is open")
        return tokenizer

    def info(self, key) -> dict:
        self.get(key)
        return dict(self._info[key])


REGISTRY = Registry()

"""The opened tokenizers of the page, kept by the key the page chose: one owner, one shape.

Every module of the facade opens and looks up tokenizers through `REGISTRY`, so
each entry is described the same way (`describe`), whoever opened it: a preset,
a user's file, or one of the course's toy tokenizers.
"""
from __future__ import annotations

import json

from ..core.errors import SubwordLabError
from ..io import known_encodings

__all__ = ["REGISTRY", "Registry", "describe"]


def _model_kind(tokenizer) -> str:
    """The model's public name (BPE, WordPiece, Unigram, WordLevel), never a private
    subclass's (a sentencepiece BPE is still a BPE to the reader)."""
    model = getattr(tokenizer, "model", None)
    if model is None:
        return "unknown"
    for cls in type(model).__mro__:
        if not cls.__name__.startswith("_") and cls.__module__.startswith("subword_lab.models"):
            return cls.__name__
    name = type(model).__name__.lstrip("_")
    # A format's own model (sentencepiece's SentencePieceBPE) is named by its algorithm.
    return next((a for a in ("WordPiece", "WordLevel", "Unigram", "BPE") if name.endswith(a)), name)


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


def _rules_info(tokenizer) -> dict:
    """What the page shows about the rules in force: the file's format, for tiktoken
    ranks the split pattern and where it comes from, and the special tokens."""
    rules = dict(getattr(tokenizer, "rules", None) or {})
    specials = rules.pop("special_tokens", None)
    if specials is not None:
        rules["special_tokens_count"] = len(specials)
        rules["special_tokens_first"] = sorted(specials, key=specials.get)[:20]
    if "known_patterns" in rules:
        rules["known_patterns"] = [{"name": e.name, "title": e.title}
                                   for e in known_encodings.ENCODINGS]
    as_text = bool(getattr(tokenizer, "encode_special_tokens", False))
    rules["special_tokens_default"] = "as_text" if as_text else "recognise"
    return rules


def describe(key: str, name: str, tokenizer) -> dict:
    """What the page shows about an opened tokenizer (docs/automation.md)."""
    return {"key": key, "name": name, "model": _model_kind(tokenizer),
            "vocab_size": _vocab_size(tokenizer), "unk_id": _unk_id(tokenizer),
            "byte_level": _byte_level(tokenizer), "rules": _rules_info(tokenizer)}


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

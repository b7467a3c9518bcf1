"""The tokenizer a learner holds, as a Subword Lab Tokenizer with the same ids.

Accepted: a Subword Lab `Tokenizer` (as it is), a path that `load()` opens, a Hugging Face
`tokenizers.Tokenizer` (read back from its own `to_str()` JSON, so every component and
added token is the object's), and a `transformers` fast tokenizer (its `backend_tokenizer`,
which is what it encodes with).
"""
from __future__ import annotations

import json
import os

from ..core.errors import SubwordLabError
from ..io.loaders import load
from ..tokenizer import Tokenizer

__all__ = ["as_tokenizer", "describe"]


def as_tokenizer(obj) -> Tokenizer:
    """`obj` as a Subword Lab Tokenizer, or one SubwordLabError saying what it got."""
    if isinstance(obj, Tokenizer):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return load(obj)
    backend = getattr(obj, "backend_tokenizer", None)
    if backend is not None:  # a transformers fast tokenizer
        return as_tokenizer(backend)
    module = type(obj).__module__ or ""
    if module.split(".")[0] == "tokenizers" and callable(getattr(obj, "to_str", None)):
        return Tokenizer.from_str(obj.to_str())
    if module.split(".")[0] == "transformers":
        raise SubwordLabError(f"{type(obj).__name__} is a slow transformers tokenizer with no "
                              "tokenizer.json behind it: load it with use_fast=True",
                              field="tokenizer")
    raise SubwordLabError(f"expected a Subword Lab Tokenizer, a file path, a tokenizers.Tokenizer "
                          f"or a transformers tokenizer, not {type(obj).__name__}", field="tokenizer")


def _model_name(tokenizer: Tokenizer) -> str:
    """BPE, WordPiece, Unigram or WordLevel: the public model class the model is."""
    model = getattr(tokenizer, "model", None)
    for cls in type(model).__mro__:
        if cls.__name__ in ("BPE", "WordPiece", "Unigram", "WordLevel"):
            return cls.__name__
    name = type(model).__name__
    return next((a for a in ("WordPiece", "WordLevel", "Unigram", "BPE") if name.endswith(a)), name)


def describe(tokenizer: Tokenizer) -> dict:
    """What the chips need to draw a token as the page does (web/lib/tokens.js, tokenOptions)."""
    model = getattr(tokenizer, "model", None)
    unk = getattr(model, "unk_id", None)
    if not isinstance(unk, int):
        token = getattr(model, "unk_token", None)
        unk = tokenizer.token_to_id(token) if isinstance(token, str) else None
    parts = [getattr(tokenizer, name, None) for name in ("pre_tokenizer", "decoder")]
    spelled = json.dumps([p.to_dict() for p in parts if p is not None and hasattr(p, "to_dict")])
    return {"model": _model_name(tokenizer), "unk_id": unk, "byte_level": '"ByteLevel"' in spelled}

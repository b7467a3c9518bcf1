"""The models: BPE, WordPiece, Unigram (and WordLevel), and `from_dict` for tokenizer.json."""
from __future__ import annotations

from ..core.errors import SubwordLabError
from .base import Model, Token
from .bpe import BPE
from .unigram import Unigram
from .wordlevel import WordLevel
from .wordpiece import WordPiece

__all__ = ["BPE", "Model", "Token", "Unigram", "WordLevel", "WordPiece", "from_dict"]

_TYPES: dict[str, type[BPE | WordPiece | WordLevel | Unigram]] = {
    "BPE": BPE, "WordPiece": WordPiece, "WordLevel": WordLevel, "Unigram": Unigram}


def _guess_type(d: dict) -> str:
    """Old tokenizer.json files have no "type"; HF then tries each model in this order."""
    if "merges" in d:
        return "BPE"
    if isinstance(d.get("vocab"), list):
        return "Unigram"
    if "continuing_subword_prefix" in d or "max_input_chars_per_word" in d:
        return "WordPiece"
    if "vocab" in d:
        return "WordLevel"
    raise SubwordLabError("no \"type\" and no field that tells which model this is",
                          field="model.type")


def from_dict(d: dict) -> Model:
    """A model from the "model" object of a tokenizer.json."""
    if not isinstance(d, dict):
        raise SubwordLabError(f"expected an object, got {type(d).__name__}", field="model")
    kind = d.get("type")
    if kind is None:
        kind = _guess_type(d)
    cls = _TYPES.get(kind)
    if cls is None:
        raise SubwordLabError(f"unsupported model type {kind!r} (expected one of "
                              f"{', '.join(sorted(_TYPES))})", field="model.type")
    return cls.from_dict(d)

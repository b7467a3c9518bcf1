"""Trainers, as in `tokenizers.trainers`: BpeTrainer, WordPieceTrainer, UnigramTrainer.

Each learns a model's vocabulary from word counts and can report every step to an
`on_event` callback (see docs/events.md). Imported lazily, so loading one trainer
does not load the others.
"""
from __future__ import annotations

import importlib

_LAZY = {
    "BpeTrainer": "bpe",
    "WordPieceTrainer": "wordpiece",
    "UnigramTrainer": "unigram",
    "WordLevelTrainer": "wordlevel",
    "ParityBpeTrainer": "parity_bpe",
    "Trainer": "base",
    "TrainingCancelled": "base",
    "train_tokenizer": "base",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'subword_lab.trainers' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value

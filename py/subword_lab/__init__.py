"""Subword Lab: BPE, WordPiece and Unigram tokenizers in pure Python.

The API mirrors Hugging Face `tokenizers`:

    from subword_lab import Tokenizer
    tok = Tokenizer.from_file("tokenizer.json")
    tok.encode("Hello world").tokens

and `subword_lab.load(path)` opens any supported file (tokenizer.json, vocab.txt,
vocab.json + merges.txt, .tiktoken, sentencepiece .model).

Names are imported lazily, so `import subword_lab` stays cheap (it matters under
Pyodide, where every imported module costs start-up time).
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {
    "Tokenizer": "tokenizer",
    "Encoding": "encoding",
    "AddedToken": "added_vocabulary",
    "load": "io.loaders",
    "SubwordLabError": "core.errors",
    "install_as_tokenizers": "compat",
}
# Public modules, named as in `tokenizers` (pipeline and trainers), plus the
# core and io modules that users reach for, under short names.
_SUBMODULES = {
    "normalizers": "normalizers", "pre_tokenizers": "pre_tokenizers", "models": "models",
    "trainers": "trainers", "processors": "processors", "decoders": "decoders",
    "normalized": "core.normalized", "byte_level": "core.tables.byte_level",
    "loaders": "io.loaders", "errors": "core.errors",
}

__all__ = sorted(_LAZY) + sorted(_SUBMODULES)


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f".{_SUBMODULES[name]}", __name__)
    else:
        raise AttributeError(f"module 'subword_lab' has no attribute {name!r}")
    globals()[name] = value
    return value

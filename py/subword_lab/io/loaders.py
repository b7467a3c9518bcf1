"""`load(path, **options)`: open any tokenizer file people have, as a `Tokenizer`.

Formats, recognised by content (io/detect.py), names breaking ties:
  tokenizer.json             Hugging Face's own format, read as it is
  vocab.txt                  a BERT WordPiece vocabulary (HF's BertWordPieceTokenizer)
  vocab.json + merges.txt    GPT-2 style byte-level BPE (either file, or their folder);
                             GPT-2's original encoder.json + vocab.bpe are the same pair
  tiktoken ranks             "base64 rank" lines (*.tiktoken, Llama 3/4's tokenizer.model),
                             made a byte-level BPE
  sentencepiece model        a ModelProto (*.model, Mistral's *.model.v3 ...), Unigram or BPE
  GGUF model file            llama.cpp's format (*.gguf): the tokenizer in its header,
                             tokenizing as llama.cpp does (the tensors are never read)

Components are built through each module's `from_dict` (the tokenizer.json form),
so what we build is exactly what a saved tokenizer.json would describe.
Every problem raises SubwordLabError naming the file, the field and what was wrong.
Each loaded tokenizer has `rules`: a dict saying the format and, for tiktoken ranks,
which split pattern and special tokens are in force and why.
"""
from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import SubwordLabError
from ..core.gc_pause import gc_paused
from ..tokenizer import Tokenizer
from .chat_config import read_chat_config
from .detect import detect_file, detect_folder
from .files import size_cap
from ..models.ranked_merges import tiktoken_merges

if TYPE_CHECKING:  # imported on demand (__getattr__ below); named here for the checkers
    from .sentencepiece import load_sentencepiece
    from .tiktoken_file import load_tiktoken
    from .vocab_files import load_bert_vocab, load_bpe_files

__all__ = ["load", "load_bert_vocab", "load_bpe_files", "load_tiktoken",
           "load_sentencepiece", "tiktoken_merges"]

# Each format's loader, as (module of this package, function): a module is imported when a
# file of its format is first opened, so opening a .tiktoken file does not import the
# sentencepiece, GGUF and Tekken readers (under Pyodide that is most of the time the
# page's first preset takes to open).
_LOADERS = {
    "tokenizer.json": ("tokenizer_json", "load_tokenizer_json"),
    "vocab.txt": ("vocab_files", "load_bert_vocab"),
    "bpe": ("vocab_files", "load_bpe_files"),
    "tiktoken": ("tiktoken_file", "load_tiktoken"),
    "tekken": ("tekken_file", "load_tekken"),
    "sentencepiece": ("sentencepiece", "load_sentencepiece"),
    "gguf": ("gguf_tokenizer", "load_gguf"),
}
_EXPORTED = {function: module for module, function in _LOADERS.values()}


def _loader(module: str, function: str) -> Any:
    return getattr(importlib.import_module(f".{module}", __package__), function)


def __getattr__(name: str) -> Any:
    """The loaders in __all__ (load_tiktoken, ...), imported when first asked for."""
    if name not in _EXPORTED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = _loader(_EXPORTED[name], name)
    return value


def load(path: str | os.PathLike[str], **options: Any) -> Tokenizer:
    """Open `path` (a file or a folder holding one) as a Tokenizer.

    `format=` forces one of "tokenizer.json", "vocab.txt", "bpe", "tiktoken",
    "sentencepiece", "gguf"; `max_bytes=` raises the file size cap (io.files.MAX_BYTES);
    the other options belong to the format (see each loader): `pattern=` for
    tiktoken ranks, `merges=` / `vocab=` for the BPE pair...
    """
    path = Path(path)
    with size_cap(options.pop("max_bytes", None)), gc_paused():
        kind = options.pop("format", None)
        if kind is None:
            kind, path = detect_folder(path) if path.is_dir() else (detect_file(path), path)
        if kind not in _LOADERS:
            raise SubwordLabError(f"unknown format {kind!r} (known: {', '.join(_LOADERS)})",
                                  path=path, field="format")
        tokenizer = _loader(*_LOADERS[kind])(path, **options)
    if getattr(tokenizer, "rules", None) is None:
        tokenizer.rules = {"format": kind}
    templates, tokens = read_chat_config(path)
    if templates is not None or getattr(tokenizer, "chat_template", None) is None:
        # Files beside it win; else the file's own (a GGUF's tokenizer.chat_template) stays.
        tokenizer.chat_template, tokenizer.special_tokens_map = templates, tokens
    if getattr(tokenizer, "_source", "") is None:  # errors at encode time name the file
        tokenizer._source = str(path)
    return tokenizer

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

from pathlib import Path

from ..core.errors import SubwordLabError
from ..core.gc_pause import gc_paused
from ..tokenizer import Tokenizer
from .chat_config import read_chat_config
from .detect import detect_file, detect_folder
from .files import size_cap
from .gguf_tokenizer import load_gguf
from ..models.ranked_merges import tiktoken_merges
from .sentencepiece import load_sentencepiece
from .tekken_file import load_tekken
from .tiktoken_file import load_tiktoken
from .tokenizer_json import load_tokenizer_json
from .vocab_files import load_bert_vocab, load_bpe_files

__all__ = ["load", "load_bert_vocab", "load_bpe_files", "load_tiktoken",
           "load_sentencepiece", "tiktoken_merges"]


def load(path, **options) -> Tokenizer:
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
        loader = _LOADERS.get(kind)
        if loader is None:
            raise SubwordLabError(f"unknown format {kind!r} (known: {', '.join(_LOADERS)})",
                                  path=path, field="format")
        tokenizer = loader(path, **options)
    if getattr(tokenizer, "rules", None) is None:
        tokenizer.rules = {"format": kind}
    templates, tokens = read_chat_config(path)
    if templates is not None or getattr(tokenizer, "chat_template", None) is None:
        # Files beside it win; else the file's own (a GGUF's tokenizer.chat_template) stays.
        tokenizer.chat_template, tokenizer.special_tokens_map = templates, tokens
    if getattr(tokenizer, "_source", "") is None:  # errors at encode time name the file
        tokenizer._source = str(path)
    return tokenizer


_LOADERS = {
    "tokenizer.json": load_tokenizer_json,
    "vocab.txt": load_bert_vocab,
    "bpe": load_bpe_files,
    "tiktoken": load_tiktoken,
    "tekken": load_tekken,
    "sentencepiece": load_sentencepiece,
    "gguf": load_gguf,
}

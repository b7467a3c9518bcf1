"""`load(path, **options)`: open any tokenizer file people have, as a `Tokenizer`.

Formats, recognised by name and then by content:
  tokenizer.json             Hugging Face's own format, read as it is
  vocab.txt                  a BERT WordPiece vocabulary (HF's BertWordPieceTokenizer)
  vocab.json + merges.txt    GPT-2 style byte-level BPE (either file, or their folder)
  *.tiktoken                 tiktoken's "base64 rank" lines, made a byte-level BPE
  *.model                    a sentencepiece model (Unigram or BPE)

Components are built through each module's `from_dict` (the tokenizer.json form),
so what we build is exactly what a saved tokenizer.json would describe.
Every problem raises SubwordLabError naming the file, the field and what was wrong.
"""
from __future__ import annotations

from pathlib import Path

from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .files import read_json, size_cap
from .ranked_merges import tiktoken_merges
from .sentencepiece import load_sentencepiece
from .tiktoken_file import load_tiktoken
from .tokenizer_json import load_tokenizer_json
from .vocab_files import load_bert_vocab, load_bpe_files

__all__ = ["load", "load_bert_vocab", "load_bpe_files", "load_tiktoken",
           "load_sentencepiece", "tiktoken_merges"]

_SUPPORTED = ("tokenizer.json, vocab.txt, vocab.json + merges.txt, .tiktoken, "
              "or a sentencepiece .model")


def load(path, **options) -> Tokenizer:
    """Open `path` (a file or a folder holding one) as a Tokenizer.

    `format=` forces one of "tokenizer.json", "vocab.txt", "bpe", "tiktoken",
    "sentencepiece"; `max_bytes=` raises the file size cap (io.files.MAX_BYTES);
    the other options belong to the format (see each loader).
    """
    path = Path(path)
    with size_cap(options.pop("max_bytes", None)):
        kind = options.pop("format", None) or _detect(path)
        loader = _LOADERS.get(kind)
        if loader is None:
            raise SubwordLabError(f"unknown format {kind!r} (known: {', '.join(_LOADERS)})",
                                  path=path, field="format")
        tokenizer = loader(path, **options)
    if getattr(tokenizer, "_source", "") is None:  # errors at encode time name the file
        tokenizer._source = str(path)
    return tokenizer


def _detect(path: Path) -> str:
    if path.is_dir():
        return _detect_folder(path)
    if not path.exists():
        raise SubwordLabError("no such file", path=path)
    name = path.name.lower()
    if name == "merges.txt" or name.endswith(".merges.txt"):
        return "bpe"
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "bpe" if _is_vocab_json(path) else "tokenizer.json"
    by_suffix = {".txt": "vocab.txt", ".tiktoken": "tiktoken", ".model": "sentencepiece"}
    if suffix in by_suffix:
        return by_suffix[suffix]
    raise SubwordLabError(f"unknown file type {path.suffix or '(no extension)'!r}: "
                          f"expected {_SUPPORTED}", path=path)


def _detect_folder(folder: Path) -> str:
    for name, kind in (("tokenizer.json", "tokenizer.json"), ("merges.txt", "bpe"),
                       ("vocab.txt", "vocab.txt")):
        if (folder / name).is_file():
            return kind
    for pattern, kind in (("*.tiktoken", "tiktoken"), ("*.model", "sentencepiece")):
        found = sorted(folder.glob(pattern))
        if len(found) == 1:
            return kind
    raise SubwordLabError(f"no tokenizer file found in this folder (expected {_SUPPORTED})",
                          path=folder)


def _is_vocab_json(path: Path) -> bool:
    """vocab.json is a flat token -> id object; tokenizer.json has a "model"."""
    if path.name.lower() == "tokenizer.json":
        return False
    if path.name.lower().endswith("vocab.json"):
        return True
    data = read_json(path)
    return isinstance(data, dict) and "model" not in data and bool(data) and all(
        isinstance(v, int) for v in data.values())


_LOADERS = {
    "tokenizer.json": load_tokenizer_json,
    "vocab.txt": load_bert_vocab,
    "bpe": load_bpe_files,
    "tiktoken": load_tiktoken,
    "sentencepiece": load_sentencepiece,
}

"""Which format a tokenizer file is in, decided by its content; names only break ties.

Names mislead: Meta publishes tiktoken ranks as `tokenizer.model` (the name of a
sentencepiece proto), Mistral its sentencepiece protos as `tokenizer.model.v3`,
GPT-2's release calls its vocab.json `encoder.json` and its merges.txt `vocab.bpe`.
So the first bytes decide:
  "{"                          JSON: tokenizer.json (has "model"), Mistral's tekken.json
                               (config + base64 "token_bytes") or a token -> id
                               vocabulary (vocab.json / encoder.json)
  "base64 digits" lines        tiktoken ranks
  "#version" first line        merges (merges.txt / vocab.bpe)
  "GGUF"                       a GGUF model file (llama.cpp): its tokenizer metadata
  binary (protobuf)            a sentencepiece ModelProto
  other text                   a vocab.txt, or merges when named so
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..core.errors import SubwordLabError
from ..core.safe_files import check_file_kind
from .files import read_json

__all__ = ["detect_file", "detect_folder", "find_pair", "sniff", "SUPPORTED"]

SUPPORTED = ("tokenizer.json, vocab.txt, vocab.json + merges.txt (or GPT-2's encoder.json "
             "+ vocab.bpe), tiktoken ranks (.tiktoken, Llama's tokenizer.model), Mistral's "
             "tekken.json, a "
             "sentencepiece model or a GGUF model file")

_HEAD = 4096
# One tiktoken line: base64 padded to a multiple of 4 ("=" alone for an empty
# token, as in Whisper's multilingual file), whitespace, a decimal rank.
_TIKTOKEN_LINE = re.compile(rb"[ \t]*(?=[^ \t])(?:(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|"
                            rb"[A-Za-z0-9+/]{3}=)?|=)[ \t]+\d+[ \t]*")
_TEXT_BYTES = frozenset(b"\t\n\r") | frozenset(range(0x20, 0x100))

VOCAB_JSON_NAMES = ("vocab.json", "encoder.json")
MERGES_NAMES = ("merges.txt", "vocab.bpe")


def _head(path: Path) -> bytes:
    """The first bytes of a regular file: a FIFO or a device is refused before any
    read (reading one would hang or never end)."""
    check_file_kind(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            return handle.read(_HEAD)
    except OSError as exc:
        raise SubwordLabError(f"cannot read: {exc.strerror}", path=path) from None


def _looks_tiktoken(head: bytes) -> bool:
    lines = [line for line in head.splitlines() if line.strip()]
    if len(head) == _HEAD and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut
    sample = lines[:50]
    return bool(sample) and all(_TIKTOKEN_LINE.fullmatch(line) for line in sample)


def _looks_tekken(head: bytes) -> bool:
    """Mistral's tekken.json: a "config" and tokens as base64 "token_bytes" (a
    tokenizer.json has neither)."""
    return b'"config"' in head and re.search(rb'"token_bytes"\s*:', head) is not None


def _is_binary(head: bytes) -> bool:
    return any(b not in _TEXT_BYTES for b in head)


def sniff(path: Path) -> str:
    """"json", "tiktoken", "merges", "sentencepiece", "gguf", "text" (other text) or
    "binary"."""
    head = _head(path)
    if head[:4] == b"GGUF":
        return "gguf"
    body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    if not body:
        raise SubwordLabError("empty file", path=path)
    if body.lstrip()[:1] == b"{":
        return "json"
    if _is_binary(body):
        # sentencepiece's ModelProto: its first field is a piece (tag 0x0a), the
        # trainer spec (0x12) or the normalizer spec (0x1a).
        return "sentencepiece" if body[:1] in (b"\x0a", b"\x12", b"\x1a") else "binary"
    if _looks_tiktoken(body):
        return "tiktoken"
    if body.startswith(b"#version"):
        return "merges"
    return "text"


def detect_file(path: Path) -> str:
    """The loader for one file: "tokenizer.json", "bpe", "tiktoken", "sentencepiece"
    or "vocab.txt"."""
    if not path.exists():
        raise SubwordLabError("no such file", path=path)
    kind = sniff(path)
    name = path.name.lower()
    if kind == "json":
        if _looks_tekken(_head(path)):
            return "tekken"
        return "bpe" if _is_vocab_json(path) else "tokenizer.json"
    if kind == "gguf" or name.endswith(".gguf"):
        return "gguf"
    if kind in ("tiktoken", "sentencepiece"):
        return kind
    # Neither: the name says what the file was meant to be, so that its loader can
    # say what is wrong with it.
    if kind == "merges" or name in MERGES_NAMES or name.endswith((".merges.txt", ".bpe")):
        return "bpe"
    if name.endswith(".tiktoken"):
        return "tiktoken"
    if re.search(r"\.model(\.v\d+)?$", name):
        return "sentencepiece"
    if name.endswith(".txt"):
        return "vocab.txt"
    if name.endswith(".json"):
        return "tokenizer.json"
    raise SubwordLabError(f"unknown file type {path.suffix or '(no extension)'!r}: "
                          f"expected {SUPPORTED}", path=path)


# The first member of a JSON object, up to the first character of its value.
_FIRST_VALUE = re.compile(rb'\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*(\S)')


def _is_vocab_json(path: Path) -> bool:
    """vocab.json / encoder.json is a flat token -> id object; tokenizer.json has a "model".

    Told by the first member's value where it can be (an id in a vocabulary; a
    string, object, list or null in a tokenizer.json), so that a big tokenizer.json
    is parsed once, by its loader, not here too."""
    name = path.name.lower()
    if name == "tokenizer.json":
        return False
    if name.endswith(VOCAB_JSON_NAMES):
        return True
    head = _head(path)
    first = _FIRST_VALUE.match(head[3:] if head.startswith(b"\xef\xbb\xbf") else head)
    if first is not None and first.group(1) in b'"{[n':
        return False
    data = read_json(path)
    return isinstance(data, dict) and "model" not in data and bool(data) and all(
        isinstance(v, int) for v in data.values())


def find_pair(folder: Path):
    """(vocab, merges) paths of a byte-level BPE pair in `folder`, either naming."""
    vocab = next((folder / n for n in VOCAB_JSON_NAMES if (folder / n).is_file()), None)
    merges = next((folder / n for n in MERGES_NAMES if (folder / n).is_file()), None)
    return vocab, merges


def detect_folder(folder: Path):
    """(kind, path to load) for a folder holding one tokenizer."""
    if (folder / "tokenizer.json").is_file():
        return "tokenizer.json", folder / "tokenizer.json"
    vocab, merges = find_pair(folder)
    if vocab is not None and merges is not None:
        return "bpe", folder
    if (folder / "vocab.txt").is_file():
        return "vocab.txt", folder / "vocab.txt"
    # Ranks or a proto, whatever their suffix (*.tiktoken, tokenizer.model,
    # tokenizer.model.v3, *.model ...): each candidate is sniffed. Other files of a
    # model folder (weights, configs) are not candidates: a weights file could start
    # like a proto.
    found = []
    for path in sorted(folder.iterdir()):
        lowered = path.name.lower()
        if path.is_file() and (lowered.endswith(".tiktoken") or ".model" in lowered
                               or "token" in lowered):
            kind = sniff(path)
            if kind in ("tiktoken", "sentencepiece"):
                found.append((kind, path))
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(p.name for _, p in found)
        raise SubwordLabError(f"several tokenizer files in this folder ({names}): "
                              "open one of them", path=folder)
    raise SubwordLabError(f"no tokenizer file found in this folder (expected {SUPPORTED})",
                          path=folder)


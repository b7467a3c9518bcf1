"""Mistral's tekken.json: tiktoken-style ranks in JSON, with the special tokens first.

A tekken file holds a split pattern and a list of tokens ({rank, token_bytes in
base64, token_str}) in `config` and `vocab`. mistral-common builds its Tekkenizer
from it like this, and so do we:
- the first `default_num_special_tokens` ids are special tokens: the file's own
  `special_tokens` list when it has one, else the twenty names older files (v3 to
  v7) leave implicit, then `<SPECIAL_n>` fillers up to that count;
- ordinary tokens follow: rank r has id r + that count, and only the first
  `default_vocab_size - count` ranks are used (the file may hold more);
- encoding is tiktoken's byte-level BPE with the file's pattern; special-token text
  in the input is plain text (mistral-common adds <s> and </s> only on request);
  decoding leaves special tokens out.
"""
from __future__ import annotations

import base64
import binascii
from pathlib import Path

from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .files import check_options, read_json, with_path
from .tiktoken_file import build_tiktoken

__all__ = ["load_tekken"]

# The special tokens a tekken file of version v7 or older does not list, by id.
IMPLICIT_SPECIALS = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]",
    "[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)
_FILLER = "<SPECIAL_{}>"


def load_tekken(path, **options) -> Tokenizer:
    """A tekken.json file as byte-level BPE with mistral-common's ids."""
    path = Path(path)
    check_options(path, options, set())
    data = read_json(path)
    config = _field(path, data, "config", dict)
    pattern = _field(path, config, "pattern", str, "config")
    count = _field(path, config, "default_num_special_tokens", int, "config")
    size = _field(path, config, "default_vocab_size", int, "config")
    vocab = _field(path, data, "vocab", list)
    if not 0 <= count <= size <= len(vocab) + count:
        raise SubwordLabError(f"sizes do not fit: {count} special tokens, vocabulary size "
                              f"{size}, {len(vocab)} tokens listed", path=path,
                              field="config.default_vocab_size")
    ranks = _ranks(path, vocab[:size - count], count)
    specials = _specials(path, data.get("special_tokens"), count)
    tok = with_path(path, lambda: build_tiktoken(ranks, pattern, specials, label=path))
    tok.rules = {"format": "tekken", "pattern": pattern, "pattern_name": None,
                 "pattern_source": "the file's own pattern", "pattern_origin": "file",
                 "special_tokens": specials, "special_tokens_source": "the file",
                 "special_tokens_default": "as_text"}
    return tok


def _field(path, mapping, key, kind, parent=None):
    where = f"{parent}.{key}" if parent else key
    if key not in mapping:
        raise SubwordLabError("missing (a tekken file has config and vocab)", path=path,
                              field=where)
    value = mapping[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SubwordLabError(f"expected {'a number' if kind is int else kind.__name__}, "
                              f"got {type(value).__name__}", path=path, field=where)
    return value


def _ranks(path, entries, shift) -> dict:
    """token bytes -> id, checking what mistral-common checks: ranks count up from 0
    and the first 256 are the single bytes."""
    ranks = {}
    for i, entry in enumerate(entries):
        where = f"vocab[{i}]"
        if not isinstance(entry, dict) or entry.get("rank") != i:
            raise SubwordLabError(f"expected an entry with rank {i}", path=path, field=where)
        encoded = entry.get("token_bytes")
        try:
            token = base64.b64decode(encoded, validate=True)
        except (binascii.Error, TypeError, ValueError):
            raise SubwordLabError("token_bytes is not base64", path=path,
                                  field=f"{where}.token_bytes") from None
        if i < 256 and token != bytes([i]):
            raise SubwordLabError("the first 256 tokens must be the single bytes in order",
                                  path=path, field=where)
        if token in ranks:
            raise SubwordLabError("this token is listed twice", path=path, field=where)
        ranks[token] = i + shift
    return ranks


def _specials(path, listed, count) -> dict:
    """{special token: id} for ids 0..count-1."""
    if listed is None:
        names = list(IMPLICIT_SPECIALS[:count])
    else:
        if not isinstance(listed, list):
            raise SubwordLabError("expected a list", path=path, field="special_tokens")
        names = []
        for i, entry in enumerate(listed):
            if not isinstance(entry, dict) or entry.get("rank") != i or not isinstance(
                    entry.get("token_str"), str):
                raise SubwordLabError(f"expected {{rank: {i}, token_str: ...}}", path=path,
                                      field=f"special_tokens[{i}]")
            names.append(entry["token_str"])
    if len(names) > count or len(set(names)) != len(names):
        raise SubwordLabError(f"expected at most {count} distinct special tokens", path=path,
                              field="special_tokens")
    names += [_FILLER.format(i) for i in range(len(names), count)]
    return {name: i for i, name in enumerate(names)}

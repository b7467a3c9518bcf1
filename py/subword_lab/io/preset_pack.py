"""A big preset's pre-parsed form: what the page downloads instead of its tokenizer.json.

Reading a tokenizer.json of 250,000 tokens under Pyodide is mostly JSON parsing and
the whole-list checks that tokenizers makes (Gemma: 17 MB, 580,000 merges; XLM-R:
250,000 scored pieces). The page's presets are fixed files, pinned by sha256 and
loaded with every check at build time, so build.py (tools/catalog.py) writes each
big one once more in a form that is cheap to read:

    MAGIC, the header's length in ASCII digits and a newline, the header (JSON), the body

The header is the tokenizer.json itself with the model's vocabulary and merges
emptied, plus where each body section lies. The body holds the vocabulary as one
string (tokens in id order, joined by a character no token holds) and, for BPE,
the merges as two arrays (key = left id * vocabulary size + right id, sorted; the
rank of each), for Unigram the scores (float64) and the order of the sorted pieces.
Reading it is one split, a dict of the tokens and a few frombytes; the header goes
through the same strict reader and schema check as any tokenizer.json.

Only the page's presets are read this way (web/opening.py's open_pack, asked for by
the worker for a preset's .pack file): a user's file is never taken as a pack.
tests/realfiles/test_preset_pack_parity.py proves each shipped pack equal to its file.
"""
from __future__ import annotations

import array
import json
import sys

from ..core.errors import SubwordLabError
from ..core.gc_pause import gc_paused
from ..core.json_checks.schema import loads_strict
from ..models import BPE, Unigram
from ..models.merge_table import use_packed
from ..tokenizer import Tokenizer
from .files import read_json

__all__ = ["MAGIC", "load_pack", "write_pack"]

MAGIC = b"subword-lab preset pack 1\n"
_SEPARATORS = "\n\x00\x1f\x1e\ue000\U0010fffd"
_KINDS = {"merge_keys": "Q", "merge_ranks": "I", "scores": "d", "sorted_ids": "I"}


# -- writing (build time, CPython) ----------------------------------------------------

def write_pack(path) -> bytes:
    """The pre-parsed form of the tokenizer.json at `path` (a BPE without a
    continuing-subword prefix and with ids 0..n-1, or a Unigram); the file is first
    loaded with every check. SubwordLabError when the file cannot be packed."""
    data = read_json(path)
    with gc_paused():
        model = Tokenizer.from_dict(data, path).model
    header = dict(data, model=dict(data["model"]))
    if isinstance(model, BPE):
        tokens, sections = _bpe_sections(model, data["model"]["merges"], path)
        header["model"].update(vocab={}, merges=[])
    elif isinstance(model, Unigram):
        tokens = model.pieces
        sorted_ids = [model.vocab[piece] for piece in sorted(model.vocab)]
        sections = {"scores": model.scores, "sorted_ids": sorted_ids}
        header["model"]["vocab"] = []
    else:
        raise SubwordLabError(f"only BPE and Unigram models are packed, not {model.type_name}",
                              path, "model")
    return _assemble(header, tokens, sections, path)


def _bpe_sections(model, merges, path):
    vocab, n = model.vocab, len(model.vocab)
    if model.continuing_subword_prefix or sorted(vocab.values()) != list(range(n)):
        raise SubwordLabError("only a BPE without a continuing-subword prefix and with "
                              "ids 0..n-1 is packed", path, "model")
    ranks = {}  # a repeated merge keeps its last rank, as in tokenizers
    for rank, merge in enumerate(merges):
        left, right = merge.split(" ") if isinstance(merge, str) else merge
        ranks[vocab[left] * n + vocab[right]] = rank
    keys = sorted(ranks)
    return ([model.vocab_r[i] for i in range(n)],
            {"merge_keys": keys, "merge_ranks": [ranks[k] for k in keys]})


def _assemble(header, tokens, sections, path) -> bytes:
    joined = "".join(tokens)
    sep = next((c for c in _SEPARATORS if c not in joined), None)
    if sep is None:
        raise SubwordLabError("no separator character is free in this vocabulary", path)
    parts = [sep.join(tokens).encode("utf-8")]
    names = ["tokens"]
    for name, values in sections.items():
        column = array.array(_KINDS[name], values)
        if sys.byteorder == "big":
            column.byteswap()
        parts.append(column.tobytes())
        names.append(name)
    places, at = {}, 0
    for name, part in zip(names, parts):
        places[name] = [at, len(part)]
        at += len(part)
    head = json.dumps({"tokenizer": header, "sep": sep, "count": len(tokens),
                       "sections": places}, ensure_ascii=False).encode("utf-8")
    return b"".join([MAGIC, str(len(head)).encode("ascii"), b"\n", head, *parts])


# -- reading (the page) ---------------------------------------------------------------

def load_pack(data: bytes, name: str) -> Tokenizer:
    """The Tokenizer of a pack written by write_pack; `name` (the original file's)
    names it in errors. A damaged pack is a SubwordLabError."""
    try:
        with gc_paused():
            tokenizer = _read(memoryview(data), name)
    except SubwordLabError as error:
        if error.path is None:
            raise SubwordLabError(error.reason, name, error.field) from None
        raise
    except (ValueError, KeyError, IndexError, TypeError, OverflowError) as error:
        raise SubwordLabError(f"not a readable preset pack ({type(error).__name__}: {error})",
                              name) from None
    tokenizer.rules = {"format": "tokenizer.json"}
    return tokenizer


def _read(data: memoryview, name):
    if bytes(data[:len(MAGIC)]) != MAGIC:
        raise SubwordLabError("not a preset pack (its first bytes differ)", name)
    end = bytes(data[:len(MAGIC) + 24]).index(b"\n", len(MAGIC))
    start = end + 1 + int(bytes(data[len(MAGIC):end]))
    head = loads_strict(bytes(data[end + 1:start]).decode("utf-8"), name)
    body = data[start:]

    def section(key, kind=None):
        offset, length = head["sections"][key]
        if not (0 <= offset and 0 <= length and offset + length <= len(body)):
            raise SubwordLabError(f"section {key!r} lies outside the file", name)
        if kind is None:
            return bytes(body[offset:offset + length]).decode("utf-8")
        column = array.array(kind)
        column.frombytes(body[offset:offset + length])
        if sys.byteorder == "big":
            column.byteswap()
        return column

    tokens = section("tokens").split(head["sep"])
    if len(tokens) != head["count"]:
        raise SubwordLabError("the vocabulary does not hold the tokens the header counts", name)
    tokenizer_json = head["tokenizer"]
    fields = tokenizer_json["model"]
    if fields.get("type") == "BPE":
        model = _bpe(fields, tokens, section("merge_keys", "Q"), section("merge_ranks", "I"))
    elif fields.get("type") == "Unigram":
        sorted_ids = section("sorted_ids", "I")
        if max(sorted_ids, default=0) >= max(len(tokens), 1):
            raise SubwordLabError("a sorted id lies outside the vocabulary", name)
        model = Unigram.from_columns(tokens, section("scores", "d"), fields.get("unk_id"),
                                     bool(fields.get("byte_fallback")), sorted_ids)
    else:
        raise SubwordLabError("a pack holds a BPE or a Unigram model", name, "model")
    return Tokenizer.from_dict(tokenizer_json, name, model=model)


def _bpe(fields, tokens, keys, ranks):
    n = len(tokens)
    vocab = dict(zip(tokens, range(n)))
    # keys[-1] is the largest: write_pack sorts them (the pack's sha256 is checked)
    if len(vocab) != n or len(keys) != len(ranks) or (len(keys) and keys[-1] >= n * n):
        raise SubwordLabError("the merges do not fit the vocabulary", field="model")
    if fields.get("vocab") != {} or fields.get("merges") != []:
        raise SubwordLabError("a pack's header holds no vocabulary", field="model")
    model = BPE.from_dict(dict(fields, vocab=vocab))
    use_packed(model, keys, ranks)
    return model

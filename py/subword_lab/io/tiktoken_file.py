""".tiktoken files: tiktoken's "base64 rank" lines, made a byte-level BPE with tiktoken's ids."""
from __future__ import annotations

import base64
import itertools
from pathlib import Path

from .. import decoders, models, pre_tokenizers
from ..added_vocabulary import AddedToken
from ..core import byte_level
from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .files import check_options, read_text, with_path

__all__ = ["load_tiktoken", "read_tiktoken"]


# The special tokens of tiktoken's own encodings (its openai_public.py lists them).
_TIKTOKEN_SPECIALS = {
    "gpt2": {"<|endoftext|>": 50256}, "r50k_base": {"<|endoftext|>": 50256},
    "p50k_base": {"<|endoftext|>": 50256},
    "p50k_edit": {"<|endoftext|>": 50256, "<|fim_prefix|>": 50281,
                  "<|fim_middle|>": 50282, "<|fim_suffix|>": 50283},
    "cl100k_base": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258,
                    "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
                    "<|endofprompt|>": 100276},
    "o200k_base": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
}


def read_tiktoken(path: Path) -> dict:
    """token bytes -> rank, from "base64 rank" lines (tiktoken's load_tiktoken_bpe)."""
    text = read_text(path, "a .tiktoken file of 'base64 rank' lines")
    ranks, seen = {}, {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            raise SubwordLabError(f"expected 'base64-token rank', got {line[:60]!r}",
                                  path=path, field=f"line {n}")
        try:
            token = base64.b64decode(parts[0], validate=True)
        except ValueError:
            raise SubwordLabError(f"{parts[0][:40]!r} is not base64", path=path,
                                  field=f"line {n}") from None
        rank = int(parts[1])
        if rank in seen:
            raise SubwordLabError(f"rank {rank} already given on line {seen[rank]}",
                                  path=path, field=f"line {n}")
        if not token:
            raise SubwordLabError("empty token", path=path, field=f"line {n}")
        seen[rank] = n
        ranks[token] = rank
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise SubwordLabError(f"{len(missing)} single bytes have no rank (first: "
                              f"{missing[0]}); byte-level BPE needs all 256", path=path,
                              field="ranks")
    return ranks


_TIKTOKEN_OPTIONS = {"pattern", "special_tokens", "name"}


def load_tiktoken(path, **options) -> Tokenizer:
    """A .tiktoken file as byte-level BPE with tiktoken's ids.

    pattern=: a tiktoken encoding name ("gpt2", "cl100k_base", ...) or a regex;
    GPT-2's by default. special_tokens=: {token: id}; by default those of the named
    encoding, else "<|endoftext|>" just past the last rank (GPT-2's convention).
    """
    path = Path(path)
    if path.is_dir():
        path = next(iter(sorted(path.glob("*.tiktoken"))))
    check_options(path, options, _TIKTOKEN_OPTIONS)
    ranks = read_tiktoken(path)
    pattern = options.get("pattern") or options.get("name") or "gpt2"
    specials = options.get("special_tokens")
    if specials is None:
        specials = _TIKTOKEN_SPECIALS.get(pattern, {"<|endoftext|>": max(ranks.values()) + 1})
    if not isinstance(specials, dict):
        raise SubwordLabError("expected a {token: id} mapping", path=path,
                              field="special_tokens")
    return with_path(path, lambda: _tiktoken(ranks, pattern, specials))


def _tiktoken(ranks, pattern, specials):
    # Byte-level text of every token in one pass: joining them decodes the whole
    # vocabulary with a single Latin-1 decode + translate, then it is cut back up.
    tokens = list(ranks)
    lengths = list(map(len, tokens))
    text = byte_level.encode_bytes(b"".join(tokens))
    cuts = list(itertools.accumulate(lengths, initial=0))
    chars = list(map(text.__getitem__, map(slice, cuts, cuts[1:])))
    vocab = dict(zip(chars, ranks.values()))
    # Rank mode: the pair whose concatenation has the lowest rank merges first,
    # exactly tiktoken's rule, with no merge list to build. The ranks are the
    # vocabulary before the special tokens join it, so that no merge makes one.
    token_ranks = dict(vocab)
    for token, i in specials.items():
        vocab.setdefault(token, i)
    # ignore_merges: tiktoken takes a piece that is itself a token as it is.
    bpe = models.BPE.from_ranks(vocab, token_ranks, ignore_merges=True)
    tok = Tokenizer(bpe)
    tok.pre_tokenizer = _tiktoken_pre_tokenizer(pattern)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True) for t in specials])
    return tok


def _tiktoken_pre_tokenizer(pattern):
    if pattern in ("gpt2", "r50k_base", "p50k_base", "p50k_edit"):
        # GPT-2's pattern is the ByteLevel pre-tokenizer's own.
        return pre_tokenizers.from_dict({"type": "ByteLevel", "add_prefix_space": False,
                                         "trim_offsets": True, "use_regex": True})
    regex = byte_level.TIKTOKEN_PATTERNS.get(pattern, pattern)
    return pre_tokenizers.from_dict({"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": regex}, "behavior": "Isolated",
         "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
         "use_regex": False}]})

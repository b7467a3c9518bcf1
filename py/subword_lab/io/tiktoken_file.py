""".tiktoken files: tiktoken's "base64 rank" lines, made a byte-level BPE with tiktoken's ids."""
from __future__ import annotations

import base64
from pathlib import Path

from .. import decoders, models, pre_tokenizers
from ..added_vocabulary import AddedToken
from ..core import byte_level, regex_guard
from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .files import check_options, read_text, with_path
from .ranked_merges import rank_by_product, tiktoken_merges

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
    tok = with_path(path, lambda: _tiktoken(ranks, pattern, specials))
    for step in getattr(tok.pre_tokenizer, "pretokenizers", ()):
        if isinstance(getattr(step, "_compiled", None), regex_guard.GuardedRegex):
            step._compiled.label(path)  # its errors name the file and "pattern"
    return tok


def _tiktoken(ranks, pattern, specials):
    enc = byte_level.encode_bytes
    chars = {token: enc(token) for token in ranks}
    vocab = {chars[token]: rank for token, rank in ranks.items()}
    merges = tiktoken_merges(ranks, chars)
    for token, i in specials.items():
        vocab.setdefault(token, i)
    # ignore_merges: tiktoken takes a piece that is itself a token as it is. The
    # merges are built once, with their product ranks (_rank_by_product).
    bpe = models.BPE(vocab, None, ignore_merges=True)
    rank_by_product(bpe, merges)
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
    # tiktoken's engine is fancy-regex, not Oniguruma: `\p{N}{1,3}+` is possessive
    # there (digit runs split in threes) and `$` ends the text.
    try:
        split = pre_tokenizers.Split(pre_tokenizers.Regex(regex), "Isolated", False,
                                     flavor="fancy")
    except SubwordLabError as exc:
        raise SubwordLabError(exc.reason, field="pattern") from None
    split._compiled.label(field="pattern")
    return pre_tokenizers.Sequence([split, pre_tokenizers.ByteLevel(False, True, False)])

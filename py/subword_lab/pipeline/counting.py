"""Counting a text's tokens without building its Encoding (`Tokenizer.count`).

A count needs no offsets, no token strings and no per-token objects: the text is
split as the encode splits it (added tokens, normalizer, pre-tokenizer), each piece
the model sees is looked up in a cache of piece -> number of tokens, and the
numbers are summed, plus what the post-processor adds. Two ways in:

- byte-level BPE (GPT-2, tiktoken files, ...) when `byte_level_encode.plan` takes
  the tokenizer: the same regex pieces as its encode;
- any other pipeline whose pre-tokenizer has a string-only form
  (`training_words.words_function` without `pre_tokenize_str`), a deterministic
  model and a post-processor that only adds tokens at the ends.

Anything else (truncation, padding, BPE dropout, a custom or offset-dependent
pre-tokenizer, a Tokenizer subclass with its own encode) answers None, and
`Tokenizer.count` falls back to `len(encode(text).ids)`. tests/python/test_count.py
holds the counts equal to the encode's and to tokenizers' and tiktoken's.

The cache lives on the model (its input strings are the keys): pieces shorter
than CACHE_MAX_CHARS, up to CACHE_CAPACITY of them; when it is full it is emptied
and filled again, so a long stream of new words keeps memory bounded.
"""
from __future__ import annotations

import unicodedata

from .. import normalizers as _normalizers
from .. import processors as _processors
from ..models.bpe import BPE
from . import byte_level_encode as _byte_level
from .training_words import _fast, words_function

__all__ = ["added_at_ends", "count", "normalize_function", "piece_counts", "per_char",
           "CACHE_MAX_CHARS", "CACHE_CAPACITY"]

CACHE_MAX_CHARS = 64
CACHE_CAPACITY = 1 << 17
_ENDS_ONLY = (_processors.TemplateProcessing, _processors.BertProcessing,
              _processors.RobertaProcessing, _processors.ByteLevel)


def count(tok, text: str, add_special_tokens: bool = True):
    """The number of tokens `tok.encode(text, add_special_tokens=...)` gives, or None
    when this tokenizer needs the whole encode to know it."""
    if tok._truncation is not None or tok._padding is not None:
        return None
    extra = added_at_ends(tok.post_processor)
    if extra is None:
        return None
    plan = _byte_level.plan(tok)
    n = _byte_level_count(tok, plan, text) if plan is not None else _word_count(tok, text)
    if n is None:
        return None
    return n + (extra if add_special_tokens else 0)


def added_at_ends(processor):
    """The tokens a post-processor adds to one sequence, or None when it may do more."""
    if processor is None:
        return 0
    if type(processor) is _processors.Sequence:
        parts = [added_at_ends(p) for p in processor.processors]
        return None if None in parts else sum(parts)
    if type(processor) not in _ENDS_ONLY:
        return None
    return processor.num_special_tokens_to_add(False)


def piece_counts(model, pieces, tokens_of):
    """The token counts of `pieces` (a list of the model's input strings), through
    the model's count cache; `tokens_of(piece)` gives a piece's tokens on a miss."""
    cache = model.__dict__.get("_count_cache")
    if cache is None:
        cache = model._count_cache = {}
    counts = list(map(cache.get, pieces))
    if None in counts:
        for k in [k for k, c in enumerate(counts) if c is None]:
            piece = pieces[k]
            c = cache.get(piece)
            if c is None:
                c = len(tokens_of(piece))
                if len(piece) < CACHE_MAX_CHARS:
                    if len(cache) >= CACHE_CAPACITY:
                        cache.clear()
                    cache[piece] = c
            counts[k] = c
    return counts


# -- byte-level BPE ----------------------------------------------------------------

def _byte_level_count(tok, plan, text):
    regexes, model, forms = plan
    for form in forms:
        if not text.isascii() and not unicodedata.is_normalized(form, text):
            return None
    ids_of = _byte_level_ids(model)
    if _byte_level._no_added_token_in(tok.added_vocabulary, text):
        pieces, _ = _byte_level._pieces(regexes, text, 0)
        return sum(piece_counts(model, pieces, ids_of))
    n = 0
    for split in tok._extract_and_normalize(text, 0, None).splits:
        ns = split.normalized
        if split.tokens is not None:
            n += len(split.tokens)
            continue
        if getattr(ns, "_align", False) is not None:
            return None  # as the encode: the general path
        pieces, _ = _byte_level._pieces(regexes, ns.normalized, 0)
        n += sum(piece_counts(model, pieces, ids_of))
    return n


def _byte_level_ids(model):
    encode_word = model.encode_word
    return lambda piece: _byte_level._piece_result(piece, encode_word)[0]


# -- any other pipeline, word by word ----------------------------------------------

def _word_count(tok, text):
    model = tok._model
    if not _deterministic(model):
        return None
    pre = tok.pre_tokenizer
    if pre is not None and _fast(pre) is None:
        return None  # a pre-tokenizer without a string-only form (or offset-dependent)
    words = words_function(pre)
    normalize = normalize_function(tok._normalizer)
    added = tok.added_vocabulary
    tokenize = model.tokenize
    n = 0
    raw = added.find_matches(text, False) if added.has_raw else [(None, 0, len(text))]
    for id_, start, end in raw:
        if id_ is not None:
            n += 1
            continue
        if start == end:
            continue
        part = text[start:end]
        if normalize is not None:
            part = normalize(part)
        gaps = [(None, 0, len(part))]
        if added.has_normalized:
            gaps = added.find_matches(part, True)
        for gid, gstart, gend in gaps:
            if gid is not None:
                n += 1
            elif gstart < gend:
                pieces = words(part[gstart:gend] if (gstart, gend) != (0, len(part)) else part)
                n += sum(piece_counts(model, pieces, tokenize))
    return n


def _deterministic(model) -> bool:
    """A model whose tokens depend on the piece alone (BPE dropout does not)."""
    if isinstance(model, BPE):
        return not model.dropout
    return type(model).__module__.startswith("subword_lab.models")


# -- normalizing without alignments ------------------------------------------------

# Normalizers that map one character at a time, but for what a character does to the
# marks after it (NFD's reordering, NFC's composing, a final sigma): nothing crosses a
# line feed, and an ASCII character maps alone.
_PER_CHAR = (_normalizers.BertNormalizer, _normalizers.Lowercase, _normalizers.NFC,
             _normalizers.NFD, _normalizers.NFKC, _normalizers.NFKD, _normalizers.StripAccents)


def per_char(normalizer) -> bool:
    """True for the normalizers of _PER_CHAR and Sequences of them."""
    if type(normalizer) in _PER_CHAR:
        return True
    if type(normalizer) is _normalizers.Sequence:
        return all(map(per_char, normalizer.normalizers))
    return False


def normalize_function(normalizer):
    """`str -> str`: the normalizer's `normalize_str`, or for a per-char one, line by
    line, an ASCII line through a table made from the normalizer's own answer for each
    ASCII character (no alignment is built for it)."""
    if normalizer is None:
        return None
    normalize = normalizer.normalize_str
    if not per_char(normalizer):
        return normalize
    table = {c: normalize(chr(c)) for c in range(128)}
    newline = table[10]

    def lines(text):
        if text.isascii():
            return text.translate(table)
        return newline.join([line.translate(table) if line.isascii() else normalize(line)
                             for line in text.split("\n")])
    return lines

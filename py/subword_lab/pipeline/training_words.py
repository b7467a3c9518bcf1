"""Pre-tokenization for training: the words' text only, without alignments.

A trainer only counts words, so it needs none of the offsets `pre_tokenize`
tracks. `words_function(pre_tokenizer)` returns `text -> [word, ...]` giving
exactly the pieces `pre_tokenize_str` gives: for the pre-tokenizers training
mostly uses (ByteLevel, BertPreTokenizer, Whitespace, WhitespaceSplit,
Metaspace, and Sequences of them) by plain string operations, for any other one
(or a subclass, or Metaspace's "first" scheme, which depends on offsets) through
`pre_tokenize_str` itself. tests/python/test_pre_tokenizers.py holds the two
paths equal. ByteLevel's function is a `SplitThenFinish`: a trainer counts the
regex's pieces and turns each distinct piece into byte characters once, not
each occurrence (`Trainer.feed`).
"""
from __future__ import annotations

from ..core.tables import byte_level
from .. import pre_tokenizers as pt

__all__ = ["words_function", "training_words", "SplitThenFinish"]


class SplitThenFinish:
    """`text -> [finish(piece) for piece in split(text)]`, with both halves kept
    apart: `finish` maps pieces one to one, so a trainer may count the pieces
    and finish each distinct one once (ByteLevel: a word's byte characters)."""

    __slots__ = ("split", "finish")

    def __init__(self, split, finish):
        self.split, self.finish = split, finish

    def __call__(self, text):
        return list(map(self.finish, self.split(text)))


def training_words(pre_tokenizer, normalize=None):
    """What a trainer counts: `words_function(pre_tokenizer)` after `normalize`
    (a `str -> str` function, or None), still split from its finish when it was."""
    words = words_function(pre_tokenizer)
    if normalize is None:
        return words
    if isinstance(words, SplitThenFinish):
        split = words.split
        return SplitThenFinish(lambda text: split(normalize(text)), words.finish)
    return lambda text: words(normalize(text))


def words_function(pre_tokenizer):
    """`text -> [word, ...]` for `pre_tokenizer` (None: the text is one word)."""
    if pre_tokenizer is None:
        return lambda text: [text] if text else []
    fast = _fast(pre_tokenizer)
    if isinstance(fast, SplitThenFinish):
        split = fast.split
        return SplitThenFinish(lambda text: split(text) if text else [], fast.finish)
    if fast is not None:  # an empty text has no split at all to work on
        return lambda text: fast(text) if text else []
    split = pre_tokenizer.pre_tokenize_str
    return lambda text: [w for w, _ in split(text)]


def _fast(p):
    """The string-only function for `p`, or None when it has none."""
    kind = type(p)
    if kind is pt.ByteLevel:
        return _byte_level(p)
    if kind is pt.BertPreTokenizer:
        return _kept_matches(pt._bert_pieces())
    if kind is pt.Whitespace:
        return _kept_matches(pt._words_or_symbols())
    if kind is pt.WhitespaceSplit:
        return _kept_gaps(pt._whitespace_run())
    if kind is pt.Metaspace and p.prepend_scheme != "first":
        return _metaspace(p)
    if kind is pt.Sequence:
        steps = [_fast(item) for item in p.pretokenizers]
        if any(step is None for step in steps):
            return None
        return _sequence(steps)
    return None


def _kept_matches(pattern):
    """split(pattern, "removed", invert=True): the non-empty matches."""
    if not pattern.groups:  # findall gives the matches themselves, in C
        findall = pattern.findall
        return lambda text: list(filter(None, findall(text)))
    finditer = pattern.finditer
    return lambda text: [w for m in finditer(text) if (w := m.group())]


def _kept_gaps(pattern):
    """split(pattern, "removed"): the non-empty text between matches."""
    return _split_around(pattern, keep_matches=False)


def _isolated(pattern):
    """split(pattern, "isolated"): matches and the text between them, non-empty."""
    return _split_around(pattern, keep_matches=True)


def _split_around(pattern, keep_matches):
    finditer = pattern.finditer

    def words(text):
        out, prev = [], 0
        for m in finditer(text):
            start, end = m.span()
            if prev < start:
                out.append(text[prev:start])
            if keep_matches and start < end:
                out.append(text[start:end])
            prev = end
        if prev < len(text):
            out.append(text[prev:])
        return out
    return words


def _to_byte_chars(word: str) -> str:
    return byte_level.encode_bytes(word.encode("utf-8"))


def _byte_level(p):
    split = _isolated(byte_level.gpt2_regex()) if p.use_regex else (lambda t: [t] if t else [])
    prefix = p.add_prefix_space

    def pieces(text):
        if prefix and not text.startswith(" "):
            text = " " + text
        return split(text)
    return SplitThenFinish(pieces, _to_byte_chars)


def _metaspace(p):
    rep, always, cut = p.replacement, p.prepend_scheme == "always", p.split

    def words(text):
        if " " in text:
            text = text.replace(" ", rep)
        if always and not text.startswith(rep):
            text = rep + text
        if not cut:
            return [text]
        # merged_with_next: every replacement character starts a piece
        parts = text.split(rep)
        out = [parts[0]] if parts[0] else []
        out.extend(rep + part for part in parts[1:])
        return out
    return words


def _sequence(steps):
    def words(text):
        pieces = [text] if text else []
        for step in steps:
            pieces = [w for piece in pieces for w in step(piece)]
        return pieces
    return words

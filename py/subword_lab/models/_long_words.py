"""Long BPE words encoded part by part, where no merge can cross the cuts.

Llama 2, Gemma and other sentencepiece-made tokenizer.json files have no
pre-tokenizer: the whole text, spaces turned into "▁", is one word, and merging
it at once costs a heap over every character, every time. But a merge joins two
adjacent symbols into a token of the vocabulary, so a merge across the boundary
between characters x and y would make a token holding "xy". Where no token holds
"x▁", nothing ever merges across the cut before that "▁": the parts merge
exactly as they would inside the whole word (each merge depends only on the
symbols of its own part, and the order between parts does not matter), so the
word's tokens are the parts' tokens one after the other. The parts ("▁the",
"▁cat", ...) repeat, and BPE caches them.

Cuts are made only between two characters that are tokens themselves (so no
unknown run or byte fallback reaches across), and only for models whose unknown
characters can never shift later offsets (tokenizers places the tokens after a
dropped character by byte lengths from the word's start).
"""
from __future__ import annotations

import re

from .base import byte_token

MARKER = "\u2581"  # sentencepiece's "▁", where words start
_BEFORE_MARKER = re.compile("(?s)(.)(?=\u2581)")


def by_parts(bpe, word):
    """(ids, starts, ends) of `word`, from its parts; None when it has no cut."""
    cuts = _cuts(bpe, word)
    if not cuts:
        return None
    ids, starts, ends = [], [], []
    encode_word = bpe.encode_word
    prev = 0
    for cut in cuts:
        part_ids, part_starts, part_ends = encode_word(word[prev:cut])
        ids += part_ids
        starts += [s + prev for s in part_starts]
        ends += [e + prev for e in part_ends]
        prev = cut
    return tuple(ids), tuple(starts), tuple(ends)


def _cuts(bpe, word):
    """Where `word` can be cut (ending with its length), or [] when nowhere."""
    before = _chars_before_marker(bpe)
    if before is None:
        return []
    vocab = bpe.vocab
    cuts = []
    find = word.find
    i = find(MARKER, 1)
    while i > 0:
        x = word[i - 1]
        if x not in before and x in vocab:
            cuts.append(i)
        i = find(MARKER, i + 1)
    if cuts:
        cuts.append(len(word))
    return cuts


def _chars_before_marker(bpe):
    """The characters x for which some token holds "x▁"; None when the model cannot
    be cut at all. Found once per vocabulary."""
    found = getattr(bpe, "_marker_cut", None)
    if found is not None and found[0] is bpe.vocab:
        return found[1]
    vocab = bpe.vocab
    before = None
    if MARKER in vocab and not bpe.continuing_subword_prefix and not bpe.end_of_word_suffix \
            and _offsets_stay_in_place(bpe):
        before = frozenset(_BEFORE_MARKER.findall("\x00".join(vocab)))
    bpe._marker_cut = (vocab, before)
    return before


def _offsets_stay_in_place(bpe) -> bool:
    """True when no character of a word is dropped or reordered: an unknown becomes
    the unknown token (without byte fallback), or its bytes, all of which are tokens
    (an ASCII byte needs no token when its character is one: Gemma has "\t", not <0x09>)."""
    vocab = bpe.vocab
    if bpe.byte_fallback:
        return all(byte_token(b) in vocab or (b < 0x80 and chr(b) in vocab) for b in range(256))
    return bpe.unk_token is not None

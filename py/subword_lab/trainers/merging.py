"""The merge loop BpeTrainer and WordPieceTrainer share.

Words are lists of token ids (HfEngine without max_token_length: strings, one
character per id); a pair of ids (a, b) is one int, `a << 32 | b`, so that dict
keys hash fast and "the pair of smallest ids" is simply the smallest key.
Each merge only visits the words that contain its pair (the where-index), updates
the counts of the pairs around each occurrence, and a heap with lazy invalidation
finds the next best pair: an entry whose value went stale is fixed when it reaches
the top, and every pair whose value went up gets a fresh entry.

Two engines, one module each, share this module's keys, Vocab and pair counts:
- `HfEngine` (hf_engine.py) mirrors `tokenizers`' BpeTrainer step for step (its heap entries carry
  their own word sets, the merged pair's count is left as it was, max_token_length
  is checked with `<` on newly formed pairs), so the merges come out identical.
- `ExactEngine` (exact_engine.py) keeps exact counts; it serves the course's tie-break (first
  occurrence in corpus order) and WordPiece's score freq(ab) / (freq(a) freq(b)).
"""
from __future__ import annotations

import itertools
import operator

SHIFT = 32
MASK = (1 << SHIFT) - 1
U64 = 1 << 64


def pair_key(a, b):
    return a << SHIFT | b


def split_key(key):
    return key >> SHIFT, key & MASK


class Vocab:
    """id -> token, token -> id, and how many corpus characters each token covers."""

    def __init__(self):
        self.tokens = []
        self.ids = {}
        self.rawlen = []

    def add(self, token, rawlen=1):
        """Returns (id, is_new); a token already there keeps its id."""
        i = self.ids.get(token)
        if i is not None:
            return i, False
        i = len(self.tokens)
        self.tokens.append(token)
        self.ids[token] = i
        self.rawlen.append(rawlen)
        return i, True

    def __len__(self):
        return len(self.tokens)


def count_pairs(words, counts):
    """Pair counts and the where-index (pair -> indices of the words holding it)."""
    pc, where = {}, {}
    get = where.get
    shift = itertools.repeat(SHIFT)
    for w, word in enumerate(words):
        c = counts[w]
        # the keys x << SHIFT | y of the word's pairs, computed in C
        for k in map(operator.or_, map(operator.lshift, word, shift), word[1:]):
            s = get(k)
            if s is None:
                where[k] = {w}
                pc[k] = c
            else:
                s.add(w)
                pc[k] += c
    return pc, where

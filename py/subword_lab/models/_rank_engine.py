"""Rank-mode BPE's engine (tiktoken files, and every BPE read as token -> rank): a
word's symbols merged as tiktoken merges them, the adjacent pair whose joined text
has the lowest rank first (the leftmost on a tie), until no joined pair is a token.

models/bpe.py's other engine applies a merge list (HF's merges, by merge rank);
this one needs only the ranks, and `merges_from_ranks` gives the equivalent merge
list for saving a tokenizer.json.
"""
from __future__ import annotations

import heapq

__all__ = ["NO_RANK", "SHORT_WORD", "long_word_bounds", "merges_from_ranks", "rank_bounds",
           "short_word_bounds"]

# Words up to this many symbols merge with a plain list scan (min() and index() run
# in C, which beats a heap on short words); longer ones use the heap.
SHORT_WORD = 48
NO_RANK = 1 << 62


def rank_bounds(word: str, ranks: dict) -> list:
    """The symbol boundaries [0, ..., len(word)] of `word` after rank-mode merging."""
    if len(word) <= SHORT_WORD:
        return short_word_bounds(word, ranks)
    return long_word_bounds(word, ranks)


def merges_from_ranks(ranks: dict) -> list:
    """The merge list of a rank-mode BPE (token text -> rank), for saving it as
    tokenizer.json: every split of a token into two ranked tokens, ordered by the
    rank of the token made, then of its left part (as models.ranked_merges does)."""
    merges = [(rank, ranks[left], left, right)
              for token, rank in ranks.items() for cut in range(1, len(token))
              if (left := token[:cut]) in ranks and (right := token[cut:]) in ranks]
    merges.sort()
    return [(left, right) for _, _, left, right in merges]


def short_word_bounds(word, ranks) -> list:
    """Symbol boundaries after rank-mode merging, by rescanning a list of pair
    ranks (O(n^2) but in C: the fastest way for short words)."""
    get = ranks.get
    none = NO_RANK
    bounds = list(range(len(word) + 1))
    pair = [get(word[i:i + 2], none) for i in range(len(word) - 1)]
    while pair:
        best = min(pair)
        if best == none:
            break
        i = pair.index(best)  # the leftmost pair of the lowest rank
        del bounds[i + 1]
        del pair[i]
        if i:
            pair[i - 1] = get(word[bounds[i - 1]:bounds[i + 1]], none)
        if i < len(pair):
            pair[i] = get(word[bounds[i]:bounds[i + 2]], none)
    return bounds


def long_word_bounds(word, ranks) -> list:
    """The same merges in O(n log n): a heap of (rank, start, end) keys packed into
    one int each, over a linked list of symbols (nxt[p] = where the symbol at p
    ends, -1 once merged away). An entry is stale when its pair no longer spans
    start..end; pairs only grow, so comparing the end is enough."""
    get = ranks.get
    n = len(word)
    size = n + 1
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    heap = [(r * size + i) * size + i + 2
            for i, r in enumerate(map(get, map(word.__getitem__, map(slice, range(n - 1),
                                                                      range(2, n + 1)))))
            if r is not None]
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        key = pop(heap)
        rest, end = divmod(key, size)
        p = rest % size
        q = nxt[p]
        if q < 0 or q >= n or nxt[q] != end:
            continue
        nxt[p] = end
        nxt[q] = -1
        if end < n:
            prv[end] = p
            after = nxt[end]
            r = get(word[p:after])
            if r is not None:
                push(heap, (r * size + p) * size + after)
        before = prv[p]
        if before >= 0:
            r = get(word[before:end])
            if r is not None:
                push(heap, (r * size + before) * size + end)
    bounds = []
    p = 0
    while p < n:
        bounds.append(p)
        p = nxt[p]
    bounds.append(n)
    return bounds

"""sentencepiece Unigram's best path, word by word and segment by segment, each
path cached, for a model without user-defined pieces (unigram.py's lean lattice,
made cheaper).

Cuts: a position that no piece in the text crosses (neither the 2-char piece
around it nor a piece holding 3 chars around it; unknown edges are one char
long) is crossed by no edge of the lattice, so every path passes through it and
the text splits there: into words before a "▁", then into segments. Their paths
are chosen independently of each other, but for one thing: sentencepiece rounds
every path score to float32, and where two paths are nearly tied that rounding,
which depends on the score where the segment starts, picks one. So a segment's
path is first found in exact arithmetic (float64 sums of float32 scores, nearly
exact at these sizes) with its margin: at each position, how far the best score
is ahead of the second, per float32 rounding that may have gone into either (a
path to position `e` of the segment has at most `e` edges). Each rounding is
off by at most 2**-24 times the size of the value rounded, which sentencepiece
keeps below 100,000 (its rebasing, see unigram.py) plus one score, and which is
also bounded by the sum of the segments' best scores so far. Where a margin
exceeds that error, float32 arithmetic takes the same path as exact arithmetic,
whatever the score where the segment starts: the cached path is sentencepiece's.
A word where it does not is run through the float32 lattice, from the path score
sentencepiece holds where the word starts: carried in float32 over the sure
words' pieces before it, as sentencepiece sums them, or from the lattice again
over a word where that score may pass 100,000 and be rebased.
"""
from __future__ import annotations

import re
from array import array
from itertools import accumulate, chain, compress, repeat
from operator import add, itemgetter, not_, or_

from .pieces import SPACE

__all__ = ["SegmentPaths", "lattice_edges"]

_NEG_INF = float("-inf")
_REBASE = 100_000.0      # sentencepiece's kScoreResetThreshold
_ULP = 2.0 ** -24 * 1.001  # float32 rounding error per unit of size, with some room
_SLACK = 1e-9             # float64 error of a gap in a segment's exact sums
# Cached: words and segments of fewer than 64 chars while the cache holds fewer than
# 50,000 entries, and of fewer than 256 while it holds fewer than 5,000.
_CACHE_SIZE, _CACHE_LENGTH = 50_000, 64
_LONG_SIZE, _LONG_LENGTH = 5_000, 256
_IDS, _VALUES, _MARGIN, _TOTAL, _SIZE, _SCORES = map(itemgetter, range(6))


def lattice_edges(get, s: str, start: int, unk: float) -> list:
    """(end, score) of each lattice edge from `start` in `s`: the pieces found
    there (`get`: piece -> score, NaN for a mere prefix of one, None past all),
    and an unknown edge if no one-char piece is (shared with unigram.py)."""
    score = get(s[start])
    edges = [(start + 1, unk if score is None or score != score else score)]
    if score is not None:
        for end in range(start + 2, len(s) + 1):
            score = get(s[start:end])
            if score is None:
                break
            if score == score:
                edges.append((end, score))
    return edges


class SegmentPaths:
    """The lean lattice's tokens, by segments.

    `scores`: every NORMAL piece -> its float32 score, every other prefix of one ->
    NaN; `ids`: every NORMAL piece -> its id; `cache`: a dict this fills."""

    def __init__(self, scores, ids, unk_score, cache, lattice):
        self._get = scores.get
        self._ids = ids
        self._unk = unk_score
        # Two chars side by side in some piece -> False: they may not be cut apart.
        self._joined = dict.fromkeys({t[k:k + 2] for t in ids for k in range(len(t) - 1)},
                                     False)
        self._pairs = {t for t in ids if len(t) == 2}
        self._triples = {t[k:k + 3] for t in ids for k in range(len(t) - 2)}
        before = "".join(sorted({p[0] for p in self._joined if p[1] == SPACE}))
        # Words: the text cut before each "▁" that no piece holds after its left char.
        self._words = re.compile(("(?<=[^" + re.escape(before) + "])" if before else "(?<=.)")
                                 + "(?=" + SPACE + ")", re.S).split
        self._largest = max([abs(unk_score), *map(abs, (scores[t] for t in ids))])
        self._cache = cache
        self._lattice = lattice
        self._sure = (_REBASE + self._largest) * _ULP  # a margin above this always is

    def columns(self, s: str):
        """(ids, pieces, starts, ends) of non-empty normalized text `s`, an unknown
        edge's id None: the words' cached paths, the float32 lattice for the words
        where rounding might choose another path."""
        words, entries = self._entries(s)
        unsure = []
        margin = min(map(_MARGIN, entries))
        if margin <= self._sure and margin <= (min(_REBASE, sum(map(_TOTAL, entries))
                                                   + max(map(_SIZE, entries)))
                                               + self._largest) * _ULP:
            unsure = self._unsure(entries)
        lead = unsure[-1] + 1 if unsure else 0
        ids = list(chain.from_iterable(map(_IDS, entries[lead:])))
        values = list(chain.from_iterable(map(_VALUES, entries[lead:])))
        if lead:  # the float32 path, up to the end of the last unsure word
            first = self._chained(words, entries, unsure, lead)[0]
            values[:0] = first
            ids[:0] = map(self._ids.get, first)
        ends = list(accumulate(map(len, values)))
        return ids, values, [0, *ends[:-1]], ends

    def path_score(self, s: str) -> float:
        """The best path's score at the end of non-empty `s`, as sentencepiece holds
        it (a float32, less what its rebasings subtracted)."""
        words, entries = self._entries(s)
        return self._chained(words, entries, self._unsure(entries), len(words))[1]

    def _entries(self, s: str):
        words = self._words(s)
        entries = list(map(self._cache.get, words))
        if None in entries:
            for k, entry in enumerate(entries):
                if entry is None:
                    entries[k] = self._entry(words[k])
        return words, entries

    def _unsure(self, entries) -> list:
        """The indices of the entries whose margin does not exceed the rounding
        error their place in the text allows."""
        largest = self._largest
        return [k for k, (before, entry) in enumerate(zip(
            accumulate(map(_TOTAL, entries), initial=0), entries))
            if entry[2] <= (min(_REBASE, before + entry[4]) + largest) * _ULP]

    def _chained(self, words, entries, unsure, count):
        """(pieces, path score) over the first `count` words, as sentencepiece's
        float32 lattice has them: a sure word's cached pieces, with the float32
        path score carried over them as sentencepiece sums it; the lattice for an
        unsure word, or one where the score may pass 100,000 and be rebased,
        started from the score carried so far (no path crosses a word's ends:
        that score is all that the rest of the text depends on)."""
        lattice = self._lattice
        slot = array("f", b"\0\0\0\0")
        score = 0.0
        values = []
        todo = set(unsure)
        near = _REBASE - self._largest - 1.0  # past this, a word may be rebased
        for k in range(count):
            entry = entries[k]
            if k in todo or abs(score) + entry[4] >= near:
                word = words[k]
                cuts, score = lattice(word, True, score)
                values += map(word.__getitem__, map(slice, cuts, cuts[1:]))
                continue
            values += entry[1]
            for edge in entry[5]:
                slot[0] = score + edge
                score = slot[0]
        return values, score

    def _entry(self, s: str):
        """The cache entry of a word: its segments' entries (each found once) joined."""
        cache = self._cache
        entry = cache.get(s)
        if entry is not None:
            return entry
        n = len(s)
        cuts = self._cuts(s)
        if not cuts:
            entry = self._solve(s)
        else:
            cuts.append(n)
            parts = list(map(self._entry, map(s.__getitem__, map(slice, [0, *cuts], cuts))))
            totals = list(map(_TOTAL, parts))
            entry = (tuple(chain.from_iterable(map(_IDS, parts))),
                     tuple(chain.from_iterable(map(_VALUES, parts))),
                     min(map(_MARGIN, parts)), sum(totals),
                     max(map(add, accumulate(totals, initial=0), map(_SIZE, parts))),
                     tuple(chain.from_iterable(map(_SCORES, parts))))
        if len(cache) < (_CACHE_SIZE if len(s) < _CACHE_LENGTH else
                         _LONG_SIZE if len(s) < _LONG_LENGTH else 0):
            cache[s] = entry
        return entry

    def _cuts(self, s: str) -> list:
        """The positions in `s` (2 chars or more) no piece crosses: a piece across
        k is the 2-char piece s[k-1:k+1] or holds 3 chars around k, s[k-2:k+1] or
        s[k-1:k+2]. (In a segment seen alone, only pieces inside it count.)"""
        n = len(s)
        pairs = list(map(add, s, s[1:]))
        if n < 3:
            return list(compress(range(1, n), map(self._joined.get, pairs, repeat(True))))
        inner = list(map(self._triples.__contains__, map(add, pairs, s[2:])))
        crossed = map(or_, map(or_, map(self._pairs.__contains__, pairs), [False, *inner]),
                      [*inner, False])
        return list(compress(range(1, n), map(not_, crossed)))

    def _solve(self, w: str):
        """A segment's best path in exact arithmetic: (ids, pieces, margin, |score|,
        the largest |score| at a position in it, the pieces' scores)."""
        get, unk = self._get, self._unk
        n = len(w)
        best = [_NEG_INF] * (n + 1)
        best[0] = 0.0
        second = [_NEG_INF] * (n + 1)
        steps = [0] * (n + 1)
        back = [0] * (n + 1)
        margin = float("inf")
        for start in range(n):
            base = best[start]
            if start and (base - second[start] - _SLACK) / (steps[start] + start) < margin:
                margin = (base - second[start] - _SLACK) / (steps[start] + start)
            edges = steps[start] + 1
            for end, score in lattice_edges(get, w, start, unk):
                cand = base + score
                if cand > best[end]:
                    second[end] = best[end]
                    best[end] = cand
                    back[end] = start
                    steps[end] = edges
                elif cand > second[end]:
                    second[end] = cand
        if (best[n] - second[n] - _SLACK) / (steps[n] + n) < margin:
            margin = (best[n] - second[n] - _SLACK) / (steps[n] + n)
        cuts = []
        end = n
        while end > 0:
            cuts.append(end)
            end = back[end]
        cuts.reverse()
        values = tuple(map(w.__getitem__, map(slice, [0, *cuts], cuts)))
        scores = tuple(unk if x is None or x != x else x for x in map(get, values))
        return (tuple(map(self._ids.get, values)), values, margin, abs(best[n]),
                max(map(abs, best)), scores)

"""Counting the tokens of sentencepiece's Unigram encoder word by word, exactly.

The encoder runs one lattice over the whole normalized text, adding float32 path
scores (unigram.py). Where no piece can cross a position (before a "▁" when no
piece holds a "▁" past its first character), the best path goes through it, so the
text splits into words there; but a word's best path is still chosen by float32
sums that start from the path score the text had before it (`base`), and rounding
depends on that score. So a word's plan is worked out once, in exact (double)
arithmetic: its best path, and at each node of that path how far the best edge in
beats the next best. Rounding moves a node's score by at most half a unit in the
last place per edge behind it (2**-8 for the scores below 2**17 that the encoder's
rebasing at 100,000 keeps), so when every node's lead is more than twice what the
paths into it can drift, float32 picks the same path from any base: the word's
count is the plan's, and the score after it is the plan's scores added to the base
in float32, as the encoder adds them. A word without that lead (a near tie, as in a
run of dots), one long enough to be rebased inside, or one too long to cache is run
through the encoder's own lattice from the base it has (`_cuts(start_score=...)`).
tests/python/test_count.py holds the counts equal to the encoder's and sentencepiece's.
"""
from __future__ import annotations

from array import array

from .pieces import SPACE

__all__ = ["count_unigram"]

CACHE_MAX_CHARS = 64
CACHE_CAPACITY = 1 << 16
_REBASE = 100_000.0  # unigram.py's threshold (sentencepiece's kScoreResetThreshold)
_DRIFT = 2.0 ** -8  # the most one float32 rounding moves a score below 2**17
_NEG_INF = float("-inf")


def count_unigram(model, normalized: str):
    """The number of tokens `model` (a lean SentencePieceUnigram) gives for the
    normalized text, or None when its pieces let no word boundary be proven."""
    if not _splittable(model):
        return None
    parts = normalized.split(SPACE)
    words = [SPACE + p for p in parts[1:]]
    if parts[0]:
        words.insert(0, parts[0])
    cache = model.__dict__.get("_count_plans")
    if cache is None:
        cache = model._count_plans = {}
    slot = array("f", b"\0\0\0\0")
    base, total = 0.0, 0
    for word in words:
        plan = cache.get(word)
        if plan is None:
            if len(word) >= CACHE_MAX_CHARS:
                n, base = _exact(model, word, base)
                total += n
                continue
            plan = _plan(model, word)
            if len(cache) >= CACHE_CAPACITY:
                cache.clear()
            cache[word] = plan
        n, scores, low, high = plan
        if not -_REBASE <= base <= _REBASE:
            base = 0.0  # the encoder rebases here: the score minus itself
        if scores is not None and base + low > -_REBASE and base + high < _REBASE:
            for score in scores:
                slot[0] = base + score
                base = slot[0]
            total += n
        else:
            n, base = _exact(model, word, base)
            total += n
    return total


def _splittable(model) -> bool:
    """Words may be counted apart: no user-defined piece, "▁" alone is a piece (so a
    word never starts with an unknown that could fuse with the one before), and no
    piece has a "▁" past its first character."""
    ok = model.__dict__.get("_count_splittable")
    if ok is None:
        ids = model._lean_tables[1]
        ok = (not model._has_user and SPACE in ids
              and not any(SPACE in piece[1:] for piece in ids))
        model._count_splittable = ok
    return ok


def _exact(model, word, base):
    """(tokens, score after) of `word` run through the encoder's lattice from `base`."""
    cuts, after = model._cuts(word, with_score=True, start_score=base)
    return _tokens(model, word, cuts), after


def _tokens(model, word, cuts):
    """How many tokens the path `cuts` gives: unknown edges fuse, or become bytes."""
    ids = model._lean_tables[1]
    n, unknown_before = 0, False
    for start, end in zip(cuts, cuts[1:]):
        if word[start:end] in ids:
            n += 1
            unknown_before = False
        elif model.byte_fallback:
            n += len(word[start:end].encode("utf-8", "surrogatepass"))
        elif not unknown_before:
            n += 1
            unknown_before = True
    return n


def _plan(model, word):
    """(tokens, the path's scores or None, lowest and highest score at a position
    inside the word, each widened by the drift there): the word's best path in exact
    arithmetic, with the same lattice as `_cuts` (an unknown edge where no one-char
    piece is, a mere prefix never an edge). Scores are None when some node of the path
    does not lead by more than twice its drift."""
    get = model._lean_tables[0].get
    unk = model.unk_score
    n = len(word)
    best = [_NEG_INF] * (n + 1)
    second = [_NEG_INF] * (n + 1)
    back = [0] * (n + 1)
    edge = [0.0] * (n + 1)
    best[0] = 0.0
    for start in range(n):
        base = best[start]
        single = get(word[start])
        score = unk if single is None or single != single else single
        end = start + 1
        while True:  # an edge (start, end) with `score`; NaN (a mere prefix) never wins
            cand = base + score
            if cand > best[end]:
                second[end] = best[end]
                best[end], back[end], edge[end] = cand, start, score
            elif cand > second[end]:
                second[end] = cand
            end += 1
            if single is None or end > n:
                break
            score = get(word[start:end])
            if score is None:
                break
    cuts, scores, robust = [n], [], True
    end = n
    while end > 0:
        if best[end] - second[end] <= 2 * (end + 1) * _DRIFT:
            robust = False
        scores.append(edge[end])
        end = back[end]
        cuts.append(end)
    cuts.reverse()
    scores.reverse()
    inner = best[1:n] or [0.0]
    drift = (n + 1) * _DRIFT + 1.0
    return (_tokens(model, word, cuts), tuple(scores) if robust else None,
            min(inner) - drift, max(inner) + drift)

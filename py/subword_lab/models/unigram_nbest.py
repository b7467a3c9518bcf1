"""The n best segmentations of one word by a Unigram model, with their probabilities:
what the Unigram step view lists after the lattice (the page through web/unigram.py, the
notebook's widgets directly).

Probabilities are normalised over *all* segmentations of the word (the lattice's
forward sum), not only over the n listed: P(seg | word) = exp(score - log Z).
"""
from __future__ import annotations

import math
from typing import Any

from .unigram import Unigram, log_add

__all__ = ["log_partition", "nbest_of"]


def log_partition(model: Unigram, word: str) -> tuple[float, int]:
    """(log Z, number of segmentations) over the usable edges of the word's lattice."""
    n = len(word)
    forward = [-math.inf] * (n + 1)
    paths = [0] * (n + 1)
    forward[0], paths[0] = 0.0, 1
    for start, row in enumerate(model.lattice(word)):
        for end, piece_id, score, _ in row:
            if piece_id is None or forward[start] == -math.inf:
                continue
            forward[end] = log_add(forward[end], forward[start] + score)
            paths[end] += paths[start]
    return forward[n], paths[n]


def nbest_of(model: Unigram, word: str, n: int) -> dict[str, Any]:
    """{word, n, segmentations, log_z, paths}: the n best segmentations of `word` (one
    piece, as the model sees it), best first, each {pieces, score (the sum of its log
    probabilities), probability (over every segmentation), share_of_listed}. A word with
    no segmentation has no paths and log_z None (log Z is -inf, which JSON cannot write)."""
    paths = model.nbest(word, n)
    log_z, count = log_partition(model, word) if paths else (-math.inf, 0)
    listed = -math.inf
    for _, score in paths:
        listed = log_add(listed, score)
    return {"word": word, "n": n, "segmentations": count,
            "log_z": log_z if math.isfinite(log_z) else None, "paths": [
        {"pieces": pieces, "score": score, "probability": math.exp(score - log_z),
         "share_of_listed": math.exp(score - listed)}
        for pieces, score in paths]}

"""Checks of a whole list of tokenizer.json values at once, for core.tokenizer_schema.

Each returns True when every value passes the kind's own per-item check, found
with C-level map/set calls (a vocabulary has 100,000s of entries, and naming each
one's field path costs more than the check); False sends the values through the
per-item check, which names the first bad one.
"""
from __future__ import annotations

import itertools
import math
import operator

__all__ = ["passes", "all_u32", "all_strings", "all_merges", "all_scored_pieces"]

_U32 = 2 ** 32


def passes(kind, values) -> bool:
    """True when `kind` (a schema check) has a bulk check and all `values` pass it."""
    bulk = getattr(kind, "bulk", None)
    return bulk is not None and bulk(values)


def all_u32(values) -> bool:
    return set(map(type, values)) <= {int} and (
        not values or (min(values) >= 0 and max(values) < _U32))


def all_strings(values) -> bool:
    return set(map(type, values)) <= {str}


def all_merges(values) -> bool:
    """Strings ("a b"), or [a, b] pairs of strings."""
    kinds = set(map(type, values))
    if kinds <= {str}:
        return True
    if not kinds <= {str, list}:
        return False
    pairs = [v for v in values if type(v) is list]
    return set(map(len, pairs)) <= {2} and set(
        map(type, itertools.chain.from_iterable(pairs))) <= {str}


def all_scored_pieces(values) -> bool:
    """[piece, score] pairs: a string and a finite number (not a bool)."""
    if not set(map(type, values)) <= {list} or not set(map(len, values)) <= {2}:
        return False
    scores = list(map(operator.itemgetter(1), values))
    return (all_strings(list(map(operator.itemgetter(0), values)))
            and set(map(type, scores)) <= {int, float}
            and math.isfinite(sum(scores)))  # a NaN or an infinity makes the sum one

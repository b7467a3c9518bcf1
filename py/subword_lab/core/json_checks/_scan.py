"""One pass over parsed JSON, level by level in C-level calls, for core.tokenizer_schema.

A Python hook for every integer (to read the big ones as serde_json does) and a walk
that visits every value one at a time (to bound the nesting) cost more than the
parse itself on a 250,000-entry vocabulary. (Floats do go through a hook,
serde_numbers.serde_float: their value, not only their range, must be serde_json's.)
The page and the CLI open such files, so the usual case is checked here in whole-
list operations: every value at one depth is gathered with chain/compress, and the
numbers among them are tested with min/max. Anything unusual (too deep, an integer
serde_json would read as a float, a number out of range) answers False, and the
caller parses the slow way, which names the problem.
"""
from __future__ import annotations

import itertools
import math
import operator

__all__ = ["plain"]

_U64 = 2 ** 64
_compress, _chain, _repeat = itertools.compress, itertools.chain.from_iterable, itertools.repeat


def _of_type(values, kinds, kind):
    """The items of `values` whose exact type is `kind` (`kinds` = their types, or
    the one type they all have)."""
    if type(kinds) is type:
        return values if kinds is kind else []
    return list(_compress(values, map(operator.is_, kinds, _repeat(kind))))


def _numbers_plain(values, kinds) -> bool:
    """False when an int is one serde_json reads as a float (|n| >= 2^64) or a float
    is infinite (json reads 1e999 as inf; NaN only comes as a constant, refused)."""
    present = {kinds} if type(kinds) is type else set(kinds)
    if int in present:
        ints = _of_type(values, kinds, int)
        if max(ints) >= _U64 or min(ints) <= -_U64:
            return False
    if float in present:
        floats = _of_type(values, kinds, float)
        if max(floats) == math.inf or min(floats) == -math.inf:
            return False
    return True


def plain(data, max_depth, numbers=True) -> bool:
    """True when `data` nests at most `max_depth` lists/objects and (unless `numbers`
    is false) holds only numbers that json.loads reads as serde_json does."""
    level, depth = [data], 0
    while level:
        kinds = list(map(type, level))
        if len(set(kinds)) == 1:  # the usual level: one type throughout
            kinds = kinds[0]
        if numbers and not _numbers_plain(level, kinds):
            return False
        dicts = _of_type(level, kinds, dict)
        lists = _of_type(level, kinds, list)
        if not dicts and not lists:
            return True
        depth += 1
        if depth > max_depth:
            return False
        level = list(_chain(map(dict.values, dicts)))
        level += _chain(lists)
    return True

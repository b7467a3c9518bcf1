"""llama.cpp's Unicode tables, looked up: a code point's category flag, llama.cpp's
whitespace set, its one-code-point NFD (the accents dropped) and its lower case.
The tables are unicode_data.py, generated from llama.cpp's own source by
tools/gen_gguf_unicode.py. Flags: 1 unassigned, 2 number, 4 letter, 8 separator,
16 mark, 32 punctuation, 64 symbol, 128 control.
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from .unicode_data import CATEGORY_RANGES, LOWER_PAIRS, NFD_RANGES, WHITESPACE

__all__ = ["category", "nfd_base", "lower", "WHITESPACE"]

UNDEFINED, NUMBER, LETTER, SEPARATOR, MARK, PUNCTUATION, SYMBOL, CONTROL = (
    1, 2, 4, 8, 16, 32, 64, 128)


@lru_cache(maxsize=None)
def _table():
    nums = [int(x, 16) for x in CATEGORY_RANGES.split()]
    return nums[::2], nums[1::2]


@lru_cache(maxsize=None)
def _nfd():
    nums = [int(x, 16) for x in NFD_RANGES.split()]
    return nums[::3], nums[1::3], nums[2::3]


def nfd_base(cp: int) -> int:
    """llama.cpp's unicode_cpts_normalize_nfd for one code point."""
    firsts, lasts, bases = _nfd()
    k = bisect_right(firsts, cp) - 1
    return bases[k] if k >= 0 and cp <= lasts[k] else cp


@lru_cache(maxsize=None)
def _lower():
    nums = [int(x, 16) for x in LOWER_PAIRS.split()]
    return dict(zip(nums[::2], nums[1::2]))


def lower(cp: int) -> int:
    """llama.cpp's unicode_tolower."""
    return _lower().get(cp, cp)


def category(cp: int) -> int:
    """The category flag of a code point (0 past U+10FFFF, as llama.cpp's empty flags)."""
    if cp > 0x10FFFF:
        return 0
    starts, flags = _table()
    return flags[bisect_right(starts, cp) - 1]

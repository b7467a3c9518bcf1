"""sentencepiece's pieces: their types (as in sentencepiece_model.proto), the space
mark "▁", scores rounded as a C++ float holds them, and the matcher of user-defined
symbols; shared by its normalizer, encoders and decoder.
"""
from __future__ import annotations

import re
import struct

__all__ = ["BYTE", "CONTROL", "NORMAL", "SPACE", "UNKNOWN", "UNUSED", "USER_DEFINED", "f32",
           "matcher"]

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
SPACE = "\u2581"
_F32 = struct.Struct("<f")


def f32(x: float) -> float:
    """x rounded to the nearest float32 (what a C++ `float` would hold)."""
    return _F32.unpack(_F32.pack(x))[0]


def matcher(symbols):
    """A regex finding the longest user-defined symbol at a position (or None)."""
    if not symbols:
        return None
    ordered = sorted(symbols, key=len, reverse=True)
    return re.compile("|".join(re.escape(s) for s in ordered))

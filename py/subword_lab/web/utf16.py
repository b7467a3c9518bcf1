"""Python's character offsets as the page's UTF-16 offsets (characters above U+FFFF,
astral characters, take two code units in a JavaScript string)."""
from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["ASTRAL", "utf16_offsets"]

ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def utf16_offsets(text: str, offsets):
    """[[start, end]] in UTF-16 code units for character offsets into `text`."""
    astral = [m.start() for m in ASTRAL.finditer(text)]
    if not astral:
        return [[start, end] for start, end in offsets]

    def shift(i):
        return i + bisect_right(astral, i - 1)

    return [[shift(start), shift(end)] for start, end in offsets]


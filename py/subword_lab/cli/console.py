"""What both commands print and parse: one-line messages on stderr, file sizes."""
from __future__ import annotations

import argparse
import sys

__all__ = ["say", "file_size"]


def say(line):
    """One line on stderr, if there is a stderr at all."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        print(line, file=stream)
    except (OSError, ValueError):
        pass


def file_size(text):
    """argparse type for --max-file-size: bytes, or with a K, M or G suffix."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    scale = units.get(text[-1:].lower(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isascii() or not digits.isdigit() or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"expected a size in bytes such as 1000000 or 64M, "
                                         f"got {text!r}")
    return int(digits) * scale

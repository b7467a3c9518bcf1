"""The command line, `python -m subword_lab encode|train ...` (and the `subword-lab` script).

A user of the library: nothing inside the library imports it.
"""
from __future__ import annotations

from .main import main

__all__ = ["main"]

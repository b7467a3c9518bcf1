"""The cyclic garbage collector held off while a file is read into a tokenizer, and
while BPE and WordPiece learn (their merge loop makes tens of thousands of sets and
tuples and no cycle: about a tenth of a BPE run went to collections).

Reading a big vocabulary makes hundreds of thousands of lists, tuples and dicts
in a few passes; each batch of new containers sets off a collection, and the
oldest generation's collections walk everything made so far. None of it is
cyclic garbage, so those walks find nothing, yet they cost as much as the reading
itself: XLM-R's 250,000 [piece, score] pairs opened in 8.1 s under Pyodide with
the collector on, 4.0 s with it off. The collector runs again as before once the
tokenizer is built (and collects then whatever a failed read left behind).
"""
from __future__ import annotations

import contextlib
import gc

__all__ = ["gc_paused"]


@contextlib.contextmanager
def gc_paused():
    """Hold automatic collections off inside the block; restore the previous state."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

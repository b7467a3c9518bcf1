"""A prefix table filled on first use, for the Unigram and WordPiece walks.

Both models walk a word forward from a position through a table that maps every
piece to its id and every other prefix of a piece to -1, and stop at the first
string no piece begins with: a trie made of one dict lookup per step. Listing the
millions of prefixes of a 250,000-piece vocabulary took longer than reading the
file, so this table starts with the pieces only; a string seen for the first time
is placed by a binary search in the sorted pieces and remembered. A text pays only
for the prefixes it meets. Read it with [] (.get does not place anything).
"""
from __future__ import annotations

import bisect

__all__ = ["Prefixes"]


class Prefixes(dict):
    """piece -> id (from `pieces`, a dict); another string -> -1 when some piece
    begins with it, else None."""

    def __init__(self, pieces: dict, presorted=None):
        """presorted: (a list of the pieces by id, the ids of the distinct pieces in
        sorted order), known at build time for a preset (io/preset_pack.py), so the
        first miss looks them up instead of sorting."""
        super().__init__(pieces)
        self._sorted = None
        self._presorted = presorted

    def __missing__(self, key):
        found = self._sorted
        if found is None:  # the first miss: no key was placed yet, all keys are pieces
            found = self._sorted = self._sorted_pieces()
        at = bisect.bisect_left(found, key)
        value = -1 if at < len(found) and found[at].startswith(key) else None
        self[key] = value
        return value

    def _sorted_pieces(self) -> list:
        if self._presorted is None:
            return sorted(self)
        pieces, ids = self._presorted
        self._presorted = None
        return list(map(pieces.__getitem__, ids))

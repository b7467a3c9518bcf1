"""Merges from ranks: HF-style BPE that merges as tiktoken and sentencepiece do
(the adjacent pair whose product has the best rank, leftmost on a tie)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.tables import byte_level
from ._rank_engine import merges_from_ranks  # re-exported: io callers look here

if TYPE_CHECKING:
    from .bpe import BPE

__all__ = ["merges_from_ranks", "rank_by_product", "tiktoken_merges"]


def tiktoken_merges(ranks: dict[bytes, int],
                    chars: dict[bytes, str] | None = None) -> list[tuple[str, str, int]]:
    """Merges that make HF-style BPE reproduce tiktoken's rank-based merging.

    tiktoken merges, at each step, the adjacent pair whose concatenation has the
    lowest rank (leftmost on a tie). So every split (left, right) of a token into
    two ranked tokens is a merge, and its priority is the rank of the token it makes.
    Returned as (left, right, product rank) in byte-level characters, sorted by rank.
    `chars` (token bytes -> byte-level text) saves encoding every token again.
    """
    # A comprehension rather than nested loops with append: ~100,000 merges for
    # GPT-2, and this runs at every load.
    merges = [(rank, ranks[left], left, right)
              for token, rank in ranks.items() for cut in range(1, len(token))
              if (left := token[:cut]) in ranks and (right := token[cut:]) in ranks]
    merges.sort()
    if chars is None:
        chars = {token: byte_level.encode_bytes(token) for token in ranks}
    return [(chars[left], chars[right], rank) for rank, _, left, right in merges]


def rank_by_product(bpe: BPE, merges: Sequence[tuple[str, str, int]]) -> None:
    """Give every merge the rank of the token it produces.

    A token reachable by several splits must have one priority, so that between two
    such merges the leftmost wins, as in tiktoken and sentencepiece (a merge list
    alone would rank them apart). The BPE model keeps its merges as
    (left id, right id) -> (rank, new id); we set the ranks there.
    """
    bpe._build_merges([(a, b) for a, b, _ in merges], [rank for _, _, rank in merges])
    bpe.clear_cache()


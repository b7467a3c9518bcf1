"""Which corpus words each merge changed, for a run traced with `trace="summary"`.

The train view's renderer (web/views/train/merges.js) takes a merge in constant time when
the event names the words it changed (`trace="full"`); without them it applies the merge
to every word, which for a 5,000-merge run on a book blocks the page for seconds. The
training widget fills the field in the kernel instead, from an index of where each pair
of neighbouring tokens occurs, so a merge costs only the words it changes. The merge is
applied as the renderer applies it: left to right, non-overlapping.
"""
from __future__ import annotations

from collections import defaultdict

from ..reference.bpe_train import join_pair

__all__ = ["ChangedWords"]


class ChangedWords:
    """Every word's current split (from the `words` event) and where each pair occurs."""

    def __init__(self, words_event: dict) -> None:
        self.splits = [list(w["tokens"]) for w in words_event["words"]]
        self.where: dict[tuple[str, str], set[int]] = defaultdict(set)
        for i, tokens in enumerate(self.splits):
            for pair in zip(tokens, tokens[1:]):
                self.where[pair].add(i)

    def changed(self, merge: dict) -> list[int]:
        """The indices of the words `merge` changed (ascending), the splits moved on."""
        left, right = merge["pair"]
        hit = []
        for i in sorted(self.where.get((left, right), ())):
            before = self.splits[i]
            after = join_pair(before, (left, right), merge["token"])[0]
            if len(after) == len(before):
                continue
            for pair in zip(before, before[1:]):
                self.where[pair].discard(i)
            for pair in zip(after, after[1:]):
                self.where[pair].add(i)
            self.splits[i] = after
            hit.append(i)
        return hit

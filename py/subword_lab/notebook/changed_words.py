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

__all__ = ["ChangedWords"]


def _apply(tokens: list[str], left: str, right: str, made: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == left and tokens[i + 1] == right:
            out.append(made)
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


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
            after = _apply(before, left, right, merge["token"])
            if len(after) == len(before):
                continue
            for pair in zip(before, before[1:]):
                self.where[pair].discard(i)
            for pair in zip(after, after[1:]):
                self.where[pair].add(i)
            self.splits[i] = after
            hit.append(i)
        return hit

"""The merge loops of llama.cpp's two BPE tokenizers, for io/vocab.py: by merge
rank over a word (its "BPE" vocabularies), and by the merged token's score over a
whole text (its "SPM" vocabularies, SentencePiece-style). Both return the lengths of
the pieces, in units (characters) of their input.
"""
from __future__ import annotations

import heapq

__all__ = ["bpe_merge", "spm_merge"]


def bpe_merge(units, ranks, trace=None):
    """Merge lengths of a word: llama.cpp's BPE (lowest merge rank first, leftmost on
    ties), over `units` (one character each). `trace`, a list, receives each merge
    done as (rank, index of its left unit)."""
    n = len(units)
    if n < 2:
        return [n] if n else []
    texts = list(units)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    heap = []
    get = ranks.get
    for i in range(n - 1):
        r = get((texts[i], texts[i + 1]))
        if r is not None:
            heap.append((r, i, i + 1, texts[i] + texts[i + 1]))
    heapq.heapify(heap)
    while heap:
        r, left, right, joined = heapq.heappop(heap)
        lt, rt = texts[left], texts[right]
        if not lt or not rt or lt + rt != joined:
            continue
        texts[left] = joined
        if trace is not None:
            trace.append((r, left))
        texts[right] = ""
        nxt[left] = nxt[right]
        if nxt[right] >= 0:
            prv[nxt[right]] = left
        p = prv[left]
        if p >= 0:
            r2 = get((texts[p], joined))
            if r2 is not None:
                heapq.heappush(heap, (r2, p, left, texts[p] + joined))
        q = nxt[left]
        if q >= 0:
            r2 = get((joined, texts[q]))
            if r2 is not None:
                heapq.heappush(heap, (r2, left, q, joined + texts[q]))
    return [len(t) for t in texts if t]


def spm_merge(text, token_to_id, scores, trace=None):
    """Merge lengths of a text: llama.cpp's SPM (highest score of the merged token
    first, leftmost on ties), over characters. `trace`, a list, receives each merge
    done as (id of the merged token, index of its left character)."""
    n = len(text)
    if n < 2:
        return [n] if n else []
    sizes = [1] * n
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    heap = []
    get = token_to_id.get

    def push(left, right):
        if left < 0 or right < 0:
            return
        joined = text[left:right + sizes[right]]
        i = get(joined)
        if i is not None:
            heapq.heappush(heap, (-scores[i], left, right, len(joined)))
    for i in range(n - 1):
        push(i, i + 1)
    while heap:
        _, left, right, size = heapq.heappop(heap)
        if not sizes[left] or not sizes[right] or sizes[left] + sizes[right] != size:
            continue
        sizes[left] += sizes[right]
        if trace is not None:
            trace.append((get(text[left:left + size]), left))
        sizes[right] = 0
        nxt[left] = nxt[right]
        if nxt[right] >= 0:
            prv[nxt[right]] = left
        push(prv[left], left)
        push(left, nxt[left])
    return [s for s in sizes if s]


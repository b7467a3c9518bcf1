"""The merge loop of BpeTrainer as tokenizers runs it, step for step (see merging.py
for the keys and the where-index): its heap entries carry their own word sets, the
merged pair's count is left as it was, max_token_length is checked with `<` on
newly formed pairs; so the merges come out identical to tokenizers'.
"""
from __future__ import annotations

import heapq
import itertools
from collections import defaultdict

from .merging import SHIFT, U64, count_pairs

__all__ = ["HfEngine"]

CHARS = 0x110000  # ids below it are characters: HfEngine holds words as strings


class HfEngine:
    """`tokenizers`' BpeTrainer, faithfully: count desc, then smallest pair of ids."""

    rule = "smallest_ids"
    scored = False

    def __init__(self, vocab, words, counts, min_frequency=0, max_token_length=None):
        self.vocab, self.words, self.counts = vocab, words, counts
        self.min_frequency = min_frequency
        self.max_len = U64 if max_token_length is None else max_token_length
        self.pc, where = count_pairs(words, counts)
        # Without max_token_length, each word is a string, one character per id:
        # str.find and str.replace find and merge a pair in C (list.index went
        # through every `a`, and compared each element as a Python object).
        self.texts = None
        if self.max_len == U64 and len(vocab) < CHARS:
            self.texts = ["".join(map(chr, word)) for word in words]
            self.pc = defaultdict(int, self.pc)  # a pair formed starts from 0, in C
        self.seq = itertools.count()
        pc = self.pc
        self.heap = [(-pc[k], k, next(self.seq), ws) for k, ws in where.items() if pc[k] > 0]
        heapq.heapify(self.heap)
        self.stop = None
        self._top = None

    def _current(self, key):
        # tokenizers reads the count back as u64: a negative i32 wraps around
        c = self.pc[key]
        return c + U64 if c < 0 else c

    def pop(self):
        heap, pc, seq = self.heap, self.pc, self.seq
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            negc, key, _, pos = pop(heap)
            cur = pc[key]  # as _current, inlined
            if cur < 0:
                cur += U64
            if -negc != cur:
                push(heap, (-cur, key, next(seq), pos))
                continue
            if cur < 1:
                self.stop = "no_pairs"
                return None
            if self.min_frequency > cur:
                self.stop = "min_frequency"
                return None
            self._top = (key, pos, cur)
            return key
        self.stop = "no_pairs"
        return None

    def info(self, key):
        return {"count": self._top[2] if self._top and self._top[0] == key else self._current(key)}

    def value(self, key):
        return self._current(key)

    def peek(self, k, exclude):
        """The next k distinct valid pairs after the winner, heap left as it was."""
        heap, kept, out, seen = self.heap, [], [], {exclude}
        while heap and len(out) < k:
            entry = heapq.heappop(heap)
            cur = self._current(entry[1])
            if -entry[0] != cur:
                heapq.heappush(heap, (-cur, entry[1], next(self.seq), entry[3]))
                continue
            kept.append(entry)
            if cur < 1:
                break
            if entry[1] not in seen:
                seen.add(entry[1])
                out.append((entry[1], cur))
        for entry in kept:
            heapq.heappush(heap, entry)
        return out

    def merge(self, a, b, new):
        """Merge (a, b) -> new in the words of the popped entry, as tokenizers does.
        Returns (indices of the words changed, number of tokens removed from the corpus)."""
        pos = self._top[1]
        if self.texts is not None and new >= CHARS:  # no character left for `new`
            self.words[:] = [list(map(ord, text)) for text in self.texts]
            self.texts = None
        if self.texts is not None:
            formed, changed, removed = self._merge_texts(a, b, new, pos)
        else:
            formed, changed, removed = self._merge_lists(a, b, new, pos)
        heap, seq, pc, push = self.heap, self.seq, self.pc, heapq.heappush
        for k, ws in formed.items():
            cnt = pc[k]
            if cnt > 0:
                push(heap, (-cnt, k, next(seq), ws))
        return changed, removed

    def _merge_texts(self, a, b, new, pos):
        """merge() on words held as strings, without max_token_length: every pair
        formed counts, and every pair that vanishes is in `pc` (counted at the start
        or when it formed), so the decrements need no default.

        The occurrences are found in the word as it was (str.find goes on after
        the previous one, where tokenizers goes on after the new token), so the
        right neighbour is read there; the left one is the new token when the
        previous occurrence ends right before. The changes are tokenizers', in its
        order: that is what decides the words each new heap entry carries."""
        pc, texts, counts = self.pc, self.texts, self.counts
        formed = defaultdict(set)
        changed = []
        removed = 0
        pair, merged = chr(a) + chr(b), chr(new)
        b_hi, new_hi = b << SHIFT, new << SHIFT  # the keys' high halves, shifted once
        for w in pos:
            text = texts[w]
            i = text.find(pair)
            if i < 0:
                continue
            c = counts[w]
            last = len(text) - 2  # an occurrence before `last` has a right neighbour
            end = -1  # where the previous occurrence ended
            while i >= 0:
                if i:
                    left_hi = new_hi if i == end else ord(text[i - 1]) << SHIFT
                    pc[left_hi | a] -= c
                    k = left_hi | new
                    pc[k] += c
                    formed[k].add(w)
                if i < last:
                    nx = ord(text[i + 2])
                    pc[b_hi | nx] -= c
                    k = new_hi | nx
                    pc[k] += c
                    formed[k].add(w)
                removed += c
                end = i + 2
                i = text.find(pair, end)
            texts[w] = text.replace(pair, merged)
            changed.append(w)
        return formed, changed, removed

    def _merge_lists(self, a, b, new, pos):
        """merge() on words held as lists of ids. With max_token_length a pair formed
        counts only when its token would be shorter than the limit (tokenizers' `<`),
        so a pair that vanishes may never have been counted and goes negative."""
        pc, words, counts, rl = self.pc, self.words, self.counts, self.vocab.rawlen
        newlen = rl[a] + rl[b]
        maxlen = self.max_len
        formed = defaultdict(set)
        changed = []
        removed = 0
        for w in pos:
            word = words[w]
            if a not in word:
                continue
            c = counts[w]
            n = len(word)
            i = 0
            hit = False
            index = word.index
            while True:
                try:
                    i = index(a, i)
                except ValueError:
                    break
                if i + 1 < n and word[i + 1] == b:
                    hit = True
                    if i > 0:
                        p = word[i - 1]
                        k = p << SHIFT | a
                        pc[k] = pc.get(k, 0) - c
                        if rl[p] + newlen < maxlen:
                            k = p << SHIFT | new
                            pc[k] = pc.get(k, 0) + c
                            formed[k].add(w)
                    word[i] = new
                    del word[i + 1]
                    n -= 1
                    if i < n - 1:
                        nx = word[i + 1]
                        k = b << SHIFT | nx
                        pc[k] = pc.get(k, 0) - c
                        if rl[nx] + newlen < maxlen:
                            k = new << SHIFT | nx
                            pc[k] = pc.get(k, 0) + c
                            formed[k].add(w)
                    removed += c
                i += 1
            if hit:
                changed.append(w)
        return formed, changed, removed

"""The merge loop with exact pair counts (see merging.py for the keys and the
where-index): the course's tie-break (first occurrence in corpus order) and
WordPiece's score freq(ab) / (freq(a) freq(b)).
"""
from __future__ import annotations

import heapq

from .merging import MASK, SHIFT, count_pairs

__all__ = ["ExactEngine"]


class ExactEngine:
    """Exact pair counts; ranks pairs by count (BPE) or by WordPiece's score, and
    breaks ties by the smallest ids ("hf") or by first occurrence ("first")."""

    def __init__(self, vocab, words, counts, *, scored=False, first=False,
                 min_frequency=0, max_token_length=None, min_frequency_stops=True):
        self.vocab, self.words, self.counts = vocab, words, counts
        self.scored, self.first = scored, first
        self.rule = "first_occurrence" if first else "smallest_ids"
        self.min_frequency = min_frequency
        self.min_frequency_stops = min_frequency_stops
        self.max_len = max_token_length
        self.stop = None
        self.pc, self.where = count_pairs(words, counts)
        self.freq = self._token_freqs() if scored else None
        self.left, self.right = self._pair_index() if scored else (None, None)
        self.first_at = self._first_occurrences() if first else None
        self.heap = [e for e in map(self._entry, self.pc) if e is not None]
        heapq.heapify(self.heap)

    # -- set-up --------------------------------------------------------------------
    def _token_freqs(self):
        freq = [0] * len(self.vocab)
        for word, c in zip(self.words, self.counts):
            for t in word:
                freq[t] += c
        return freq

    def _pair_index(self):
        """token -> the pairs it starts, token -> the pairs it ends (WordPiece: a
        token's frequency changes every score it takes part in)."""
        left, right = {}, {}
        for k in self.pc:
            x, y = k >> SHIFT, k & MASK
            left.setdefault(x, set()).add(k)
            right.setdefault(y, set()).add(k)
        return left, right

    def _first_occurrences(self):
        first = {}
        for w, word in enumerate(self.words):
            for i, (x, y) in enumerate(zip(word, word[1:])):
                first.setdefault(x << SHIFT | y, (w, i))  # offsets = indices at the start
        return first

    # -- ranking -------------------------------------------------------------------
    def value(self, key):
        """Count (BPE) or score (WordPiece) of a live pair."""
        c = self.pc.get(key, 0)
        if not self.scored:
            return c
        return c / (self.freq[key >> SHIFT] * self.freq[key & MASK])

    def _eligible(self, key, c):
        if c <= 0:
            return False
        if self.min_frequency > c and not self.min_frequency_stops:
            return False
        if self.max_len is not None:
            rl = self.vocab.rawlen
            if rl[key >> SHIFT] + rl[key & MASK] > self.max_len:
                return False
        return True

    def _entry(self, key):
        """The heap entry a pair deserves now, or None when it cannot be merged."""
        c = self.pc.get(key, 0)
        if not self._eligible(key, c):
            return None
        v = -c if not self.scored else -(c / (self.freq[key >> SHIFT] * self.freq[key & MASK]))
        if self.first:
            w, off = self._first_of(key)
            return (v, w, off, key)
        return (v, key)

    def _offset_of(self, word, i):
        rl = self.vocab.rawlen
        return sum(rl[t] for t in word[:i])

    def _pair_at(self, w, off, key):
        """Does word w hold the pair `key` at character offset `off`?"""
        a, b = key >> SHIFT, key & MASK
        word, rl, acc = self.words[w], self.vocab.rawlen, 0
        for i, t in enumerate(word):
            if acc == off:
                return t == a and i + 1 < len(word) and word[i + 1] == b
            if acc > off:
                return False
            acc += rl[t]
        return False

    def _first_of(self, key):
        """Earliest (word index, character offset) of a pair in corpus order.

        The cache only ever moves later when occurrences vanish, and `merge` moves
        it earlier when one forms, so a still-valid cached value is the minimum."""
        cached = self.first_at.get(key)
        if cached is not None and self._pair_at(cached[0], cached[1], key):
            return cached
        a, b = key >> SHIFT, key & MASK
        ws = self.where[key]
        for w in sorted(ws):
            word = self.words[w]
            for i in range(len(word) - 1):
                if word[i] == a and word[i + 1] == b:
                    found = (w, self._offset_of(word, i))
                    self.first_at[key] = found
                    return found
            ws.discard(w)
        raise AssertionError("a pair with a positive count has no occurrence")

    def _plain_scored(self):
        """WordPiece's usual case: scores only, no tie-break by position, no limits."""
        return self.scored and not self.first and self.max_len is None and not self.min_frequency

    def pop(self):
        if self._plain_scored():
            return self._pop_scored()
        heap = self.heap
        while heap:
            entry = heapq.heappop(heap)
            cur = self._entry(entry[-1])
            if cur is None:
                continue
            if cur != entry:
                heapq.heappush(heap, cur)
                continue
            c = self.pc[entry[-1]]
            if self.min_frequency > c:  # only reached when min_frequency stops the run
                self.stop = "min_frequency"
                return None
            return entry[-1]
        self.stop = "no_pairs"
        return None

    def _pop_scored(self):
        """pop() for _plain_scored, inlined: an entry is (-score, key), and a stale
        one goes back with its current score."""
        heap, get, freq = self.heap, self.pc.get, self.freq
        pop, push, sh, mask = heapq.heappop, heapq.heappush, SHIFT, MASK
        while heap:
            entry = pop(heap)
            k = entry[1]
            c = get(k, 0)
            if c <= 0:
                continue
            v = -c / (freq[k >> sh] * freq[k & mask])
            if v != entry[0]:
                push(heap, (v, k))
                continue
            return k
        self.stop = "no_pairs"
        return None

    def info(self, key):
        c = self.pc[key]
        if not self.scored:
            return {"count": c}
        fa, fb = self.freq[key >> SHIFT], self.freq[key & MASK]
        return {"score": c / (fa * fb), "count": c, "left_count": fa, "right_count": fb}

    def peek(self, k, exclude):
        heap, kept, out, seen = self.heap, [], [], {exclude}
        while heap and len(out) < k:
            entry = heapq.heappop(heap)
            cur = self._entry(entry[-1])
            if cur is None:
                continue
            if cur != entry:
                heapq.heappush(heap, cur)
                continue
            kept.append(entry)
            if entry[-1] not in seen:
                seen.add(entry[-1])
                out.append((entry[-1], self.value(entry[-1])))
        for entry in kept:
            heapq.heappush(heap, entry)
        return out

    # -- merging -------------------------------------------------------------------
    def _formed(self, k, x, y, w, word, i, touched):
        """Book-keeping for a pair that just formed in word w at index i."""
        pc = self.pc
        old = pc.get(k, 0)
        pc[k] = old + self.counts[w]
        s = self.where.get(k)
        if s is None:
            self.where[k] = {w}
        else:
            s.add(w)
        touched.add(k)
        if self.scored and old <= 0:
            self.left.setdefault(x, set()).add(k)
            self.right.setdefault(y, set()).add(k)
        if self.first:
            here = (w, self._offset_of(word, i))
            cached = self.first_at.get(k)
            if cached is None or here < cached:
                self.first_at[k] = here

    def merge(self, a, b, new):
        if self.scored and not self.first:
            return self._merge_scored(a, b, new)
        key = a << SHIFT | b
        pc, words, counts, freq = self.pc, self.words, self.counts, self.freq
        if freq is not None and new >= len(freq):
            freq.extend([0] * (new + 1 - len(freq)))
        touched = set()
        changed = []
        removed = 0
        for w in self.where.pop(key, ()):
            word = words[w]
            if a not in word:
                continue
            c = counts[w]
            i = 0
            hit = False
            while True:
                try:
                    i = word.index(a, i)
                except ValueError:
                    break
                if i + 1 < len(word) and word[i + 1] == b:
                    hit = True
                    pc[key] -= c
                    if freq is not None:
                        freq[a] -= c
                        freq[b] -= c
                        freq[new] += c
                    word[i] = new
                    del word[i + 1]
                    if i > 0:
                        p = word[i - 1]
                        pc[p << SHIFT | a] -= c
                        self._formed(p << SHIFT | new, p, new, w, word, i - 1, touched)
                    if i + 1 < len(word):
                        nx = word[i + 1]
                        pc[b << SHIFT | nx] -= c
                        self._formed(new << SHIFT | nx, new, nx, w, word, i, touched)
                    removed += c
                i += 1
            if hit:
                changed.append(w)
        if pc.get(key) == 0:
            del pc[key]
        if self.scored:
            self._add_pairs_with(a, touched)
            self._add_pairs_with(b, touched)
        self._push(touched)
        return changed, removed

    def _merge_scored(self, a, b, new):
        """merge() for WordPiece without the corpus-order tie-break, with the
        book-keeping of every pair formed (`_formed`) inlined."""
        key = a << SHIFT | b
        pc, words, counts, freq = self.pc, self.words, self.counts, self.freq
        where, left, right = self.where, self.left, self.right
        if new >= len(freq):
            freq.extend([0] * (new + 1 - len(freq)))
        get, sh = pc.get, SHIFT
        touched = set()
        changed = []
        removed = 0
        for w in where.pop(key, ()):
            word = words[w]
            if a not in word:
                continue
            c = counts[w]
            i = 0
            hit = False
            index = word.index
            while True:
                try:
                    i = index(a, i)
                except ValueError:
                    break
                if i + 1 < len(word) and word[i + 1] == b:
                    hit = True
                    pc[key] -= c
                    freq[a] -= c
                    freq[b] -= c
                    freq[new] += c
                    word[i] = new
                    del word[i + 1]
                    # each side: the old neighbour pair goes, a new one forms
                    if i > 0:
                        p = word[i - 1]
                        pc[p << sh | a] -= c
                        k = p << sh | new
                        old = get(k, 0)
                        pc[k] = old + c
                        ws = where.get(k)
                        if ws is None:
                            where[k] = {w}
                        else:
                            ws.add(w)
                        touched.add(k)
                        if old <= 0:
                            left.setdefault(p, set()).add(k)
                            right.setdefault(new, set()).add(k)
                    if i + 1 < len(word):
                        nx = word[i + 1]
                        pc[b << sh | nx] -= c
                        k = new << sh | nx
                        old = get(k, 0)
                        pc[k] = old + c
                        ws = where.get(k)
                        if ws is None:
                            where[k] = {w}
                        else:
                            ws.add(w)
                        touched.add(k)
                        if old <= 0:
                            left.setdefault(new, set()).add(k)
                            right.setdefault(nx, set()).add(k)
                    removed += c
                i += 1
            if hit:
                changed.append(w)
        if pc.get(key) == 0:
            del pc[key]
        self._add_pairs_with(a, touched)
        self._add_pairs_with(b, touched)
        self._push(touched)
        return changed, removed

    def _push(self, touched):
        """Fresh heap entries for the pairs whose value may have gone up."""
        heap, pc = self.heap, self.pc
        if self._plain_scored():
            # the common WordPiece case, inlined: it runs for every neighbour pair
            freq, left, right, push = self.freq, self.left, self.right, heapq.heappush
            get, sh, mask = pc.get, SHIFT, MASK
            for k in touched:
                c = get(k, 0)
                if c > 0:
                    push(heap, (-c / (freq[k >> sh] * freq[k & mask]), k))
                else:  # a dead pair leaves the token index
                    left[k >> sh].discard(k)
                    right[k & mask].discard(k)
        else:
            for k in touched:
                entry = self._entry(k)
                if entry is not None:
                    heapq.heappush(heap, entry)
        if len(heap) > 3 * len(pc) + 10000:
            self._compact()

    def _compact(self):
        """Rebuild the heap from the live pairs: re-pushes leave stale entries behind."""
        self.heap = [e for e in map(self._entry, list(self.pc)) if e is not None]
        heapq.heapify(self.heap)

    def _add_pairs_with(self, t, touched):
        """Pairs that start or end with token t: its frequency fell, their score rose."""
        for index in (self.left.get(t), self.right.get(t)):
            if index:
                touched.update(index)

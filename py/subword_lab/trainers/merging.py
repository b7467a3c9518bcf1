"""The merge loop BpeTrainer and WordPieceTrainer share.

Words are lists of token ids (HfEngine without max_token_length: strings, one
character per id); a pair of ids (a, b) is one int, `a << 32 | b`, so that dict
keys hash fast and "the pair of smallest ids" is simply the smallest key.
Each merge only visits the words that contain its pair (the where-index), updates
the counts of the pairs around each occurrence, and a heap with lazy invalidation
finds the next best pair: an entry whose value went stale is fixed when it reaches
the top, and every pair whose value went up gets a fresh entry.

Two engines:
- `HfEngine` mirrors `tokenizers`' BpeTrainer step for step (its heap entries carry
  their own word sets, the merged pair's count is left as it was, max_token_length
  is checked with `<` on newly formed pairs), so the merges come out identical.
- `ExactEngine` keeps exact counts; it serves the course's tie-break (first
  occurrence in corpus order) and WordPiece's score freq(ab) / (freq(a) freq(b)).
"""
from __future__ import annotations

import heapq
import itertools
import operator
from collections import defaultdict

SHIFT = 32
MASK = (1 << SHIFT) - 1
U64 = 1 << 64
CHARS = 0x110000  # ids below it are characters: HfEngine holds words as strings


def pair_key(a, b):
    return a << SHIFT | b


def split_key(key):
    return key >> SHIFT, key & MASK


class Vocab:
    """id -> token, token -> id, and how many corpus characters each token covers."""

    def __init__(self):
        self.tokens = []
        self.ids = {}
        self.rawlen = []

    def add(self, token, rawlen=1):
        """Returns (id, is_new); a token already there keeps its id."""
        i = self.ids.get(token)
        if i is not None:
            return i, False
        i = len(self.tokens)
        self.tokens.append(token)
        self.ids[token] = i
        self.rawlen.append(rawlen)
        return i, True

    def __len__(self):
        return len(self.tokens)


def _count_pairs(words, counts):
    """Pair counts and the where-index (pair -> indices of the words holding it)."""
    pc, where = {}, {}
    get = where.get
    shift = itertools.repeat(SHIFT)
    for w, word in enumerate(words):
        c = counts[w]
        # the keys x << SHIFT | y of the word's pairs, computed in C
        for k in map(operator.or_, map(operator.lshift, word, shift), word[1:]):
            s = get(k)
            if s is None:
                where[k] = {w}
                pc[k] = c
            else:
                s.add(w)
                pc[k] += c
    return pc, where


class HfEngine:
    """`tokenizers`' BpeTrainer, faithfully: count desc, then smallest pair of ids."""

    rule = "smallest_ids"
    scored = False

    def __init__(self, vocab, words, counts, min_frequency=0, max_token_length=None):
        self.vocab, self.words, self.counts = vocab, words, counts
        self.min_frequency = min_frequency
        self.max_len = U64 if max_token_length is None else max_token_length
        self.pc, where = _count_pairs(words, counts)
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
        self.pc, self.where = _count_pairs(words, counts)
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

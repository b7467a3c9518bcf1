"""sentencepiece's BPE encoder, over the whole normalized text (its Unigram
encoder is in unigram.py; both are exported here).

See __init__.py for why the whole text, and docs/architecture.md.
"""
from __future__ import annotations

import heapq
import re
from itertools import accumulate, compress, repeat
from operator import add, itemgetter

from ..models.base import Token, tokens_event
from .pieces import NORMAL, SPACE, UNUSED, USER_DEFINED, matcher
from .unigram import SentencePieceUnigram, append_unknown

__all__ = ["SentencePieceUnigram", "SentencePieceBPE"]

_NEG_INF = float("-inf")


class SentencePieceBPE:
    """sentencepiece's BPE encoder: start from characters (a user-defined symbol is
    one frozen symbol), repeatedly merge the adjacent pair whose concatenation is
    the best-scoring piece (the leftmost on a tie), split UNUSED pieces back into
    the pieces they were made of, then unknown runs become bytes or one unknown.

    No merge list is needed to encode; `to_dict` derives one (for tokenizer.json)
    only when the tokenizer is saved."""

    type_name = "BPE"

    def __init__(self, pieces, unk_id, byte_fallback=False):
        self._texts, self._scores, self._types = pieces.texts, pieces.scores, pieces.types
        self.unk_id = unk_id
        self.unk_token = self._texts[unk_id]
        self.byte_fallback = bool(byte_fallback)
        self._pieces = pieces  # its piece -> id dict is made when first asked for
        self._user = matcher(pieces.texts_of(USER_DEFINED))
        self._in_trie = pieces.mask(NORMAL, USER_DEFINED, UNUSED)
        self._has_unused = pieces.has(UNUSED)
        self._merge_table = None
        self._lean = None
        self._cut_sets = None
        self._cache = {}
        self._hf = None
        self._rank_of = None

    @property
    def _mergeable(self):
        """Pieces a merge may produce -> (score, id, is UNUSED), built on first use."""
        if self._merge_table is None:
            self._merge_table = {
                t: (s, i, k == UNUSED)
                for i, (t, s, k) in enumerate(zip(self._texts, self._scores, self._types))
                if k in (NORMAL, USER_DEFINED, UNUSED)}
        return self._merge_table

    # -- vocabulary -----------------------------------------------------------------
    @property
    def vocab(self):
        """piece -> id (made on first use: encoding does not need it)."""
        return self._pieces.index()

    def token_to_id(self, token):
        return self.vocab.get(token)

    def id_to_token(self, id):
        return self._texts[id] if 0 <= id < len(self._texts) else None

    def get_vocab(self):
        return dict(self.vocab)

    def get_vocab_size(self):
        return len(self._texts)

    def __repr__(self):
        return f"SentencePieceBPE(vocab_size={len(self._texts)})"

    # -- encoding -------------------------------------------------------------------
    def _symbols(self, s):
        """(start, end, frozen) for the initial symbols."""
        user = self._user
        out, i, n = [], 0, len(s)
        while i < n:
            m = user.match(s, i) if user is not None else None
            if m is not None:
                out.append([i, m.end(), True])
                i = m.end()
            else:
                out.append([i, i + 1, False])
                i += 1
        return out

    def _cut_points(self, s):
        """Where a text can be cut into parts that BPE encodes on its own: before a
        "▁" whose left neighbour never precedes "▁" inside a piece, and after a "▁"
        whose right neighbour never follows one. No merge can cross such a cut (the
        piece it would make would hold that pair), so the parts give the same
        result as the whole, and each part can be cached. Ends with len(s)."""
        if self._cut_sets is None:
            self._cut_sets = _space_neighbours(self._texts)
        before, after = self._cut_sets
        n = len(s)
        cuts = []
        k = s.find(SPACE)
        while k >= 0:
            if k and s[k - 1] not in before:
                cuts.append(k)
            if k + 1 < n and s[k + 1] not in after:
                cuts.append(k + 1)
            k = s.find(SPACE, k + 1)
        cuts.append(n)
        return cuts

    def tokenize(self, sequence: str, on_event=None) -> list:
        if on_event is not None and sequence:
            return self._tokenize_traced(sequence, on_event)
        ids, values, starts, ends = self.encode_columns(sequence)
        return list(map(Token, ids, values, zip(starts, ends)))

    def _tokenize_traced(self, s, on_event):
        """The merges of `_tokenize_part`, in the same order (best score first,
        leftmost on a tie), reported as the BPE events of docs/events.md. A merge's
        `rank` is its piece's place among the distinct scores, best first, as in
        the merge list `hf_model` derives; `score` is the piece's own."""
        if self._rank_of is None:
            distinct = sorted({v[0] for v in self._mergeable.values()}, reverse=True)
            self._rank_of = {sc: r for r, sc in enumerate(distinct)}
        mergeable, rank_of = self._mergeable, self._rank_of
        on_event({"type": "bpe.word", "word": s})
        bounds = self._symbols(s)
        syms = [s[a:b] for a, b, _ in bounds]
        frozen = [f for _, _, f in bounds]
        spans = [[a, b] for a, b, _ in bounds]
        on_event({"type": "bpe.symbols", "symbols": list(syms),
                  "ids": [mergeable[x][1] if x in mergeable else None for x in syms],
                  "spans": [list(x) for x in spans]})

        def score(i):
            if frozen[i] or frozen[i + 1]:
                return _NEG_INF
            hit = mergeable.get(syms[i] + syms[i + 1])
            return _NEG_INF if hit is None else hit[0]

        pairs = [score(i) for i in range(len(syms) - 1)]
        rev = {}
        while pairs:
            best = max(pairs)
            if best == _NEG_INF:
                break
            i = pairs.index(best)
            left, right = syms[i], syms.pop(i + 1)
            merged = left + right
            hit = mergeable[merged]
            if hit[2]:
                rev[merged] = (left, right)
            syms[i] = merged
            frozen.pop(i + 1)
            spans[i] = [spans[i][0], spans.pop(i + 1)[1]]
            del pairs[i]
            if i:
                pairs[i - 1] = score(i - 1)
            if i < len(pairs):
                pairs[i] = score(i)
            on_event({"type": "bpe.merge", "rank": rank_of[hit[0]], "score": hit[0],
                      "pair": [left, right], "new": merged, "id": hit[1], "position": i,
                      "symbols": list(syms)})
        tokens = []
        for sym, (start, end) in zip(syms, spans):
            before = len(tokens)
            self._put(tokens, sym, start, end, rev)
            if sym not in mergeable:
                added = tokens[before:]
                if self.byte_fallback:
                    on_event({"type": "bpe.byte_fallback", "symbol": sym, "start": start,
                              "end": end, "tokens": [t.value for t in added]})
                else:
                    on_event({"type": "bpe.unk", "symbol": sym, "start": start, "end": end,
                              "token": self.unk_token, "id": self.unk_id,
                              "fused": not added})
        on_event({"type": "bpe.done", "tokens": tokens_event(tokens)})
        return tokens

    def encode_columns(self, sequence: str):
        """(ids, pieces, starts, ends) of the tokens: the text's parts encoded on
        their own (and cached), runs of unknowns fused across parts."""
        ids, values, starts, ends = [], [], [], []
        if not sequence:
            return ids, values, starts, ends
        cache, unk_id, fuse = self._cache, self.unk_id, not self.byte_fallback
        last = 0
        for cut in self._cut_points(sequence):
            if cut <= last:
                continue
            part = sequence[last:cut]
            cols = cache.get(part)
            if cols is None:
                cols = self._part_columns(part)
                if len(cache) < 50_000 and len(part) < 64:
                    cache[part] = cols
            p_ids, p_values, p_starts, p_ends = cols
            if fuse and ids and ids[-1] == unk_id and p_ids[0] == unk_id:
                values[-1] += p_values[0]
                ends[-1] = p_ends[0] + last
                p_ids, p_values, p_starts, p_ends = (p_ids[1:], p_values[1:],
                                                     p_starts[1:], p_ends[1:])
            ids += p_ids
            values += p_values
            starts += map(last.__add__, p_starts)
            ends += map(last.__add__, p_ends)
            last = cut
        return ids, values, starts, ends

    def _part_columns(self, s):
        """One part's (ids, pieces, starts, ends) as tuples (they may be cached)."""
        if len(s) <= 256 and not self._has_unused and (
                self._user is None or self._user.search(s) is None):
            return self._merge_lean(s)
        toks = self._tokenize_part(s)
        return (tuple([t[0] for t in toks]), tuple([t[1] for t in toks]),
                tuple([t[2][0] for t in toks]), tuple([t[2][1] for t in toks]))

    def _merge_lean(self, s):
        """The heap merge of `_tokenize_part` for a short part with no user-defined
        symbol in a model without UNUSED pieces: the same merges in the same order
        (best score first, leftmost on a tie: max() then index() over the list
        of adjacent pairs' scores), without a heap or per-symbol Python objects."""
        if self._lean is None:
            mask = self._in_trie
            in_trie = list(compress(self._texts, mask))
            self._lean = (dict(zip(in_trie, compress(self._scores, mask))),
                          # the pieces a symbol may be: not control, byte, unk
                          dict(zip(in_trie, compress(range(len(self._texts)), mask))))
        score_of, id_of = self._lean
        get = score_of.get
        syms = list(s)
        pairs = list(map(get, map(add, syms, syms[1:]), repeat(_NEG_INF)))
        while pairs:
            best = max(pairs)
            if best == _NEG_INF:
                break
            i = pairs.index(best)
            merged = syms[i] + syms.pop(i + 1)
            syms[i] = merged
            del pairs[i]
            if i:
                pairs[i - 1] = get(syms[i - 1] + merged, _NEG_INF)
            if i < len(pairs):
                pairs[i] = get(merged + syms[i + 1], _NEG_INF)
        ends = list(accumulate(map(len, syms)))
        starts = [0] + ends[:-1]
        ids = list(map(id_of.get, syms))
        if None in ids:  # a char no piece holds: bytes, or one unknown per run
            return self._unknowns(syms, starts, ends)
        return tuple(ids), tuple(syms), tuple(starts), tuple(ends)

    def _unknowns(self, syms, starts, ends):
        toks = []
        for sym, start, end in zip(syms, starts, ends):
            self._put(toks, sym, start, end, {})
        return (tuple([t[0] for t in toks]), tuple([t[1] for t in toks]),
                tuple([t[2][0] for t in toks]), tuple([t[2][1] for t in toks]))

    def _tokenize_part(self, s: str) -> list:
        syms = self._symbols(s)
        n = len(syms)
        starts = [a for a, _, _ in syms]
        ends = [b for _, b, _ in syms]
        frozen = [f for _, _, f in syms]
        prev = list(range(-1, n - 1))
        nxt = list(range(1, n + 1))
        nxt[-1] = -1
        mergeable = self._mergeable
        rev = {}
        heap = []

        def add(left, right):
            if left < 0 or right < 0 or frozen[left] or frozen[right]:
                return
            piece = s[starts[left]:ends[right]]
            hit = mergeable.get(piece)
            if hit is None:
                return
            heapq.heappush(heap, (-hit[0], left, right, ends[right] - starts[left]))
            if hit[2]:
                rev[piece] = (s[starts[left]:ends[left]], s[starts[right]:ends[right]])

        for i in range(n - 1):
            add(i, i + 1)
        while heap:
            _, left, right, size = heapq.heappop(heap)
            if (starts[right] < 0 or starts[left] < 0 or nxt[left] != right
                    or ends[right] - starts[left] != size):
                continue
            ends[left] = ends[right]
            starts[right] = -1
            nxt[left] = nxt[right]
            if nxt[right] >= 0:
                prev[nxt[right]] = left
            add(prev[left], left)
            add(left, nxt[left])
        return self._emit(s, starts, ends, nxt, rev)

    def _emit(self, s, starts, ends, nxt, rev):
        tokens = []
        i = 0
        while i >= 0:
            self._put(tokens, s[starts[i]:ends[i]], starts[i], ends[i], rev)
            i = nxt[i]
        return tokens

    def _put(self, tokens, piece, start, end, rev):
        """Append the token(s) of one final symbol: an UNUSED piece split back into
        what it was made of, a piece, its bytes (byte fallback) or an unknown
        (fused with an unknown just before it)."""
        vocab, unk_id, types = self.vocab, self.unk_id, self._types
        i = vocab.get(piece)
        if i is not None and types[i] == UNUSED and piece in rev:
            left, right = rev[piece]
            self._put(tokens, left, start, start + len(left), rev)
            self._put(tokens, right, start + len(left), end, rev)
        elif i is not None and types[i] in (NORMAL, USER_DEFINED, UNUSED):
            tokens.append(Token(i, piece, (start, end)))
        else:
            append_unknown(tokens, piece, start, end, vocab, unk_id, self.byte_fallback)

    # -- tokenizer.json -------------------------------------------------------------
    def hf_model(self):
        """The nearest Hugging Face BPE: every split of every piece as a merge, ranked
        by the piece's score (built on first use: it is the slow part)."""
        if self._hf is None:
            from ..models import BPE
            from ..models.ranked_merges import rank_by_product
            vocab = self.vocab
            scores = sorted({v[0] for v in self._mergeable.values()}, reverse=True)
            rank_of = {sc: r for r, sc in enumerate(scores)}
            found = []
            for piece, (score, _, _) in self._mergeable.items():
                for cut in range(1, len(piece)):
                    left, right = piece[:cut], piece[cut:]
                    if left in vocab and right in vocab:
                        found.append((rank_of[score], vocab[left], left, right))
            found.sort()
            bpe = BPE(vocab, None, unk_token=self.unk_token, fuse_unk=True,
                      byte_fallback=self.byte_fallback)
            rank_by_product(bpe, [(left, right, rank) for rank, _, left, right in found])
            self._hf = bpe
        return self._hf

    def to_dict(self):
        return self.hf_model().to_dict()


def _space_neighbours(texts):
    """The chars found just before a "▁" (not at a piece's start) and just after
    one (not at its end) inside the pieces: the joined texts split at "▁", each
    part's first char follows a "▁" and each part's last char precedes one (an
    empty part means two "▁" in a row, or one at an end of the joined texts)."""
    joined = "\0".join(texts)
    if joined.count("\0") != len(texts) - 1:  # a piece holds a NUL: piece by piece
        before, after = set(), set()
        for t in texts:
            before.update(_NEXT_CHAR.findall(t[::-1]))
            after.update(_NEXT_CHAR.findall(t))
        return before, after
    parts = joined.split(SPACE)
    after = set(map(_FIRST_CHAR, parts[1:]))
    before = set(map(_LAST_CHAR, parts[:-1]))
    if "" in after or "" in before:
        after.discard("")
        before.discard("")
        if SPACE * 2 in joined:
            after.add(SPACE)
            before.add(SPACE)
    return before - {"\0"}, after - {"\0"}


_NEXT_CHAR = re.compile(f"{SPACE}(?=(.))", re.S)
_FIRST_CHAR, _LAST_CHAR = itemgetter(slice(0, 1)), itemgetter(slice(-1, None))

"""sentencepiece's Unigram and BPE encoders, over the whole normalized text.

See sentencepiece_encode.py for why the whole text, and docs/architecture.md.
"""
from __future__ import annotations

import heapq
from itertools import compress
import random
import re
import struct

from ..models.base import Token, byte_token
from ..models.unigram import UNK_PENALTY, Unigram, _prefix_table
from .sentencepiece_encode import (NORMAL, SPACE, UNUSED, USER_DEFINED, f32, matcher)

__all__ = ["SentencePieceUnigram", "SentencePieceBPE"]

_F32 = struct.Struct("<f")
_FLT_MIN = 1.1754943508222875e-38   # C's FLT_MIN, sentencepiece's start for max_score
_FLT_MAX = 3.4028234663852886e+38


class SentencePieceUnigram(Unigram):
    """sentencepiece's Unigram encoder (EncodeOptimized): the whole normalized text
    is one lattice of NORMAL, USER_DEFINED and UNUSED pieces (UNUSED never taken);
    a user-defined piece scores `bytes * max_score - 0.1`; every path score is a
    float32, and a later edge wins only with a strictly greater score."""

    def __init__(self, pieces, unk_id, byte_fallback=False):
        # Unigram's own __init__ would build its lookup tables now; here they are
        # built on first use, so that opening a file stays quick.
        self.pieces = pieces.texts
        self.scores = pieces.scores
        self._types = pieces.types
        self.unk_id = unk_id
        self.byte_fallback = bool(byte_fallback)
        self.vocab = pieces.index()
        normal = pieces.mask(NORMAL)
        self.min_score = min(compress(self.scores, normal), default=_FLT_MAX)
        self._max_score = max(_FLT_MIN, max(compress(self.scores, normal), default=_FLT_MIN))
        self._user_pieces = USER_DEFINED in self._types
        self.unk_score = f32(self.min_score - UNK_PENALTY)
        self._tables = {}
        self._cache = {}
        self._rng = random.Random()

    @property
    def _table(self):
        """Unigram's prefix table (for the lattice views, n-best and sampling)."""
        if "hf" not in self._tables:
            self._tables["hf"] = _prefix_table(self.pieces)
        return self._tables["hf"]

    @property
    def _spm_table(self):
        """Only pieces sentencepiece puts in its trie can be matched in text:
        piece -> (id, score), -1 for UNUSED; a prefix of a piece -> None."""
        table = self._tables.get("spm")
        if table is None:
            max_score = self._max_score
            lattice = {}
            for i, (piece, score, kind) in enumerate(zip(self.pieces, self.scores, self._types)):
                if kind == NORMAL:
                    lattice[piece] = (i, score)
                elif kind == USER_DEFINED:
                    lattice[piece] = (i, f32(len(piece.encode("utf-8")) * max_score) - 0.1)
                elif kind == UNUSED:
                    lattice[piece] = (-1, 0.0)
            table = {piece[:k]: None for piece in lattice for k in range(1, len(piece))}
            table.update(lattice)
            self._tables["spm"] = table
        return table

    def _best_path(self, s: str) -> list:
        n = len(s)
        best = [0.0] * (n + 1)
        back = [-1] * (n + 1)
        back_id = [-1] * (n + 1)
        get = self._spm_table.get
        pack, unpack = _F32.pack, _F32.unpack
        unk_score, unk_id = self.unk_score, self.unk_id
        for start in range(n):
            base = best[start]
            single = False
            end = start + 1
            while end <= n:
                hit = get(s[start:end], 0)
                if hit == 0:
                    break
                if hit is not None and hit[0] >= 0:
                    # float + float is a float in C++; the user-defined bonus is a
                    # double, compared as such and then stored as a float.
                    cand = base + hit[1]
                    if back[end] < 0 or cand > best[end]:
                        cand = unpack(pack(cand))[0]
                        if back[end] < 0 or cand > best[end]:
                            best[end] = cand
                            back[end] = start
                            back_id[end] = hit[0]
                    if end == start + 1:
                        single = True
                end += 1
            if not single:
                end = start + 1
                cand = unpack(pack(base + unk_score))[0]
                if back[end] < 0 or cand > best[end]:
                    best[end] = cand
                    back[end] = start
                    back_id[end] = unk_id
        path = []
        end = n
        while end > 0:
            start = back[end]
            path.append((start, end, back_id[end]))
            end = start
        path.reverse()
        return path

    def _to_tokens(self, s: str, path) -> list:
        """Runs of unknowns fuse (without byte fallback); an unknown run becomes its
        UTF-8 bytes with byte fallback; a piece keeps the id the lattice chose."""
        unk_id = self.unk_id
        tokens = []
        vocab = self.vocab
        for start, end, i in path:
            piece = s[start:end]
            if i != unk_id:
                tokens.append(Token(i, piece, (start, end)))
            elif self.byte_fallback:
                for b in piece.encode("utf-8", "surrogatepass"):
                    name = byte_token(b)
                    tokens.append(Token(vocab.get(name, unk_id), name, (start, end)))
            elif tokens and tokens[-1].id == unk_id:
                last = tokens[-1]
                tokens[-1] = Token(unk_id, last.value + piece, (last.offsets[0], end))
            else:
                tokens.append(Token(unk_id, piece, (start, end)))
        return tokens

    def tokenize(self, sequence: str, on_event=None) -> list:
        # The cache of the parent is keyed by word; here the text is a whole line.
        if not sequence:
            return []
        if on_event is not None:
            # The lattice events come from the parent's trace; the result is ours.
            self._tokenize_traced(sequence, on_event)
        return self._to_tokens(sequence, self._best_path(sequence))


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
        self.vocab = pieces.index()
        self._user = matcher(list(compress(self._texts, pieces.mask(USER_DEFINED))))
        self._merge_table = None
        self._cut_rx = None
        self._cache = {}
        self._hf = None

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

    @property
    def _cuts(self):
        """Where a text can be cut into parts that BPE encodes on its own: before a
        "▁" whose left neighbour never precedes "▁" inside a piece, and after a "▁"
        whose right neighbour never follows one. No merge can cross such a cut (the
        piece it would make would hold that pair), so the parts give the same
        result as the whole, and each part can be cached."""
        if self._cut_rx is None:
            before, after = set(), set()
            for t in self._texts:
                k = t.find(SPACE, 1)
                while 0 < k:
                    before.add(t[k - 1])
                    k = t.find(SPACE, k + 1)
                k = t.find(SPACE, 0, len(t) - 1)
                while 0 <= k < len(t) - 1:
                    after.add(t[k + 1])
                    k = t.find(SPACE, k + 1, len(t) - 1)
            left = f"(?<![{re.escape(''.join(sorted(before)))}])" if before else ""
            right = f"(?![{re.escape(''.join(sorted(after)))}])" if after else ""
            self._cut_rx = re.compile(f"{left}(?={SPACE})|(?<={SPACE}){right}")
        return self._cut_rx

    def tokenize(self, sequence: str, on_event=None) -> list:
        if not sequence:
            return []
        n = len(sequence)
        cuts = [m.start() for m in self._cuts.finditer(sequence)]
        cache, unk_id, fuse = self._cache, self.unk_id, not self.byte_fallback
        out = []
        last = 0
        for cut in cuts + [n]:
            if cut <= last:
                continue
            part = sequence[last:cut]
            toks = cache.get(part)
            if toks is None:
                toks = self._tokenize_part(part)
                if len(cache) < 50_000 and len(part) < 64:
                    cache[part] = toks
            if fuse and out and out[-1].id == unk_id and toks[0].id == unk_id:
                prev = out.pop()
                first = toks[0]
                out.append(Token(unk_id, prev.value + first.value,
                                 (prev.offsets[0], first.offsets[1] + last)))
                toks = toks[1:]
            if last:
                out.extend([Token(i, v, (a + last, b + last)) for i, v, (a, b) in toks])
            else:
                out.extend(toks)
            last = cut
        return out

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
        vocab, unk_id = self.vocab, self.unk_id
        tokens = []
        types = self._types

        def put(piece, start, end):
            i = vocab.get(piece)
            if i is not None and types[i] == UNUSED and piece in rev:
                left, right = rev[piece]
                put(left, start, start + len(left))
                put(right, start + len(left), end)
                return
            if i is not None and types[i] in (NORMAL, USER_DEFINED, UNUSED):
                tokens.append(Token(i, piece, (start, end)))
            elif self.byte_fallback:
                for b in piece.encode("utf-8", "surrogatepass"):
                    name = byte_token(b)
                    tokens.append(Token(vocab.get(name, unk_id), name, (start, end)))
            elif tokens and tokens[-1].id == unk_id:
                last = tokens[-1]
                tokens[-1] = Token(unk_id, last.value + piece, (last.offsets[0], end))
            else:
                tokens.append(Token(unk_id, piece, (start, end)))

        i = 0
        while i >= 0:
            put(s[starts[i]:ends[i]], starts[i], ends[i])
            i = nxt[i]
        return tokens

    # -- tokenizer.json -------------------------------------------------------------
    def hf_model(self):
        """The nearest Hugging Face BPE: every split of every piece as a merge, ranked
        by the piece's score (built on first use: it is the slow part)."""
        if self._hf is None:
            from ..models import BPE
            from .ranked_merges import rank_by_product
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

"""sentencepiece's Unigram encoder (EncodeOptimized), over the whole normalized text.

See __init__.py for why the whole text, and docs/architecture.md.

Speed without giving up exactness: a model without user-defined pieces takes a
lean lattice (`_cuts`): one dict from each piece, and each prefix of one, to its
float32 score (NaN for a prefix that is no usable piece, so it never wins a
comparison), a rounding to float32 through a one-slot array('f') only when a
candidate beats the best so far, and ids looked up once for the chosen path.
Models with user-defined pieces (see `_best_path`) keep the general lattice.

Both follow sentencepiece 0.2.3's float32 arithmetic, including what keeps a
long text's path score small: once the score where the next pieces start passes
100,000 either way, it is subtracted from every score reached so far from
there on (`_rebase`), so two paths a few thousandths apart still compare as
sentencepiece compares them after thousands of pieces.
"""
from __future__ import annotations

import random
import struct
from array import array
from itertools import compress

from ..models.base import Token, byte_token
from ..models.unigram import UNK_PENALTY, Unigram, prefix_table, best_path_spans
from .pieces import NORMAL, UNUSED, USER_DEFINED, f32

__all__ = ["SentencePieceUnigram"]

_F32 = struct.Struct("<f")
_FLT_MAX = 3.4028234663852886e+38
_NAN = float("nan")
_NEG_INF = float("-inf")


class SentencePieceUnigram(Unigram):
    """sentencepiece's Unigram encoder (EncodeOptimized): the whole normalized text
    is one lattice of NORMAL, USER_DEFINED and UNUSED pieces (UNUSED never taken);
    a user-defined piece scores `0.1 * (bytes - 1)`; every path score is a
    float32, and a later edge wins only with a strictly greater score."""

    def __init__(self, pieces, unk_id, byte_fallback=False):
        # Unigram's own __init__ would build its lookup tables now; here they are
        # built on first use, so that opening a file stays quick.
        self.pieces = pieces.texts
        self.scores = pieces.scores
        self._types = pieces.types
        self.unk_id = unk_id
        self.byte_fallback = bool(byte_fallback)
        self._pieces = pieces  # its piece -> id dict is made when first asked for
        self._normal = pieces.mask(NORMAL)
        self.min_score = min(compress(self.scores, self._normal), default=_FLT_MAX)
        self.unk_score = f32(self.min_score - UNK_PENALTY)
        self._has_user = pieces.has(USER_DEFINED)
        self._tables = {}
        self._cache = {}
        self._rng = random.Random()

    @property
    def vocab(self):
        """piece -> id (made on first use: the lean encoder does not need it)."""
        return self._pieces.index()

    @property
    def _table(self):
        """Unigram's prefix table (for the lattice views, n-best and sampling)."""
        if "hf" not in self._tables:
            self._tables["hf"] = prefix_table(self.pieces)
        return self._tables["hf"]

    @property
    def _spm_table(self):
        """Only pieces sentencepiece puts in its trie can be matched in text:
        piece -> (id, score), -1 for UNUSED; a prefix of a piece -> None."""
        table = self._tables.get("spm")
        if table is None:
            lattice = {}
            for i, (piece, score, kind) in enumerate(zip(self.pieces, self.scores, self._types)):
                if kind == NORMAL:
                    lattice[piece] = (i, score)
                elif kind == USER_DEFINED:  # GetUserDefinedScore: a float
                    lattice[piece] = (i, f32(0.1 * (len(piece.encode("utf-8")) - 1)))
                elif kind == UNUSED:
                    lattice[piece] = (-1, 0.0)
            table = {piece[:k]: None for piece in lattice for k in range(1, len(piece))}
            table.update(lattice)
            self._tables["spm"] = table
        return table

    @property
    def _lean_tables(self):
        """For a model without user-defined pieces: (every NORMAL piece -> its
        float32 score, and every prefix of one that is no NORMAL piece -> NaN;
        every NORMAL piece -> its id). Other pieces never enter the lattice, and
        the walk from a position needs only the prefixes of the pieces it can find."""
        tables = self._tables.get("lean")
        if tables is None:
            normal = self._normal
            texts = list(compress(self.pieces, normal))
            scores = dict.fromkeys([t[:k] for t in texts for k in range(1, len(t))], _NAN)
            scores.update(zip(texts, compress(self.scores, normal)))
            ids = dict(zip(texts, compress(range(len(self.pieces)), normal)))
            tables = self._tables["lean"] = (scores, ids)
        return tables

    def _cuts(self, s: str, with_score=False, base=0.0):
        """The best path's boundaries [0, ..., len(s)], for a model without
        user-defined pieces: the same lattice and float32 arithmetic as
        `_best_path` (NORMAL scores and path scores are float32; their sum in
        double, rounded to float32, is C++'s float sum, since 53 >= 2 * 24 + 2
        bits leave an addition no double-rounding error), with less work per
        candidate. A candidate is rounded only if it beats the best as a double:
        rounding never makes a smaller value greater. With `with_score`, also
        the best path's score as sentencepiece holds it (after its rebasings).
        `base`: the path score where `s` starts, when `s` is the rest of a longer
        text at a position no piece crosses (sentencepiece/counting.py)."""
        get = self._lean_tables[0].get
        n = len(s)
        best = [_NEG_INF] * (n + 1)
        best[0] = base
        back = [0] * (n + 1)
        unk_score = self.unk_score
        slot = array("f", b"\0\0\0\0")  # slot[0] = x; slot[0] is x rounded to float32
        low, high = -_REBASE, _REBASE
        for start in range(n):
            base = best[start]
            if not low <= base <= high:
                base = _rebase(best, start, self._longest_piece + 1)
            end = start + 1
            score = get(s[start])
            if score is None or score != score:  # no one-char piece here: an unknown edge
                cand = base + unk_score
                if cand > best[end]:  # a float32 is > best only if the double is
                    slot[0] = cand
                    if slot[0] > best[end]:
                        best[end] = slot[0]
                        back[end] = start
                if score is None:
                    continue
            else:
                cand = base + score
                if cand > best[end]:
                    slot[0] = cand
                    if slot[0] > best[end]:
                        best[end] = slot[0]
                        back[end] = start
            end += 1
            while end <= n:
                score = get(s[start:end])
                if score is None:
                    break
                cand = base + score  # NaN for a mere prefix: never greater
                if cand > best[end]:
                    slot[0] = cand
                    if slot[0] > best[end]:
                        best[end] = slot[0]
                        back[end] = start
                end += 1
        cuts = []
        end = n
        while end > 0:
            cuts.append(end)
            end = back[end]
        cuts.append(0)
        cuts.reverse()
        return (cuts, best[n]) if with_score else cuts

    @property
    def _longest_piece(self) -> int:
        """The most chars a piece in the lattice has (asked only when rebasing)."""
        if "longest" not in self._tables:
            self._tables["longest"] = max(map(len, self._spm_table), default=1)
        return self._tables["longest"]

    def best_path_score(self, s: str) -> float:
        """The score of the best path through normalized text `s`, as
        sentencepiece holds it at the end of the text (a float32, less what
        was subtracted when it passed 100,000; 0.0 for empty text)."""
        if not s:
            return 0.0
        if self._has_user:
            return self._best_path(s, with_score=True)[1]
        return self._cuts(s, with_score=True)[1]

    def encode_columns(self, s: str):
        """(ids, pieces, starts, ends) of `s`'s tokens, offsets in `s`; no Token objects."""
        if not s:
            return [], [], [], []
        if self._has_user:
            toks = self._to_tokens(s, self._best_path(s))
            return ([t[0] for t in toks], [t[1] for t in toks],
                    [t[2][0] for t in toks], [t[2][1] for t in toks])
        cuts = self._cuts(s)
        starts, ends = cuts[:-1], cuts[1:]
        values = list(map(s.__getitem__, map(slice, starts, ends)))
        ids = list(map(self._lean_tables[1].get, values))
        if None in ids:  # unknown edges: fused, or bytes with byte fallback
            return self._unknowns(ids, values, starts, ends)
        return ids, values, starts, ends

    def _unknowns(self, ids, values, starts, ends):
        """An unknown edge (id None) becomes its UTF-8 bytes with byte fallback;
        otherwise a run of them fuses into one unknown token."""
        unk_id, vocab = self.unk_id, self.vocab
        out = ([], [], [], [])
        out_ids, out_values, out_starts, out_ends = out
        for i, value, start, end in zip(ids, values, starts, ends):
            if i is None and self.byte_fallback:
                for b in value.encode("utf-8", "surrogatepass"):
                    name = byte_token(b)
                    out_ids.append(vocab.get(name, unk_id))
                    out_values.append(name)
                    out_starts.append(start)
                    out_ends.append(end)
                continue
            if i is None:
                if out_ids and out_ids[-1] == unk_id:  # no NORMAL piece has the unk id
                    out_values[-1] += value
                    out_ends[-1] = end
                    continue
                i = unk_id
            out_ids.append(i)
            out_values.append(value)
            out_starts.append(start)
            out_ends.append(end)
        return out

    def _best_path(self, s: str, with_score=False):
        n = len(s)
        best = [0.0] * (n + 1)
        back = [-1] * (n + 1)
        back_id = [-1] * (n + 1)
        get = self._spm_table.get
        pack, unpack = _F32.pack, _F32.unpack
        unk_score, unk_id = self.unk_score, self.unk_id
        for start in range(n):
            base = best[start]
            if not -_REBASE <= base <= _REBASE:
                base = _rebase(best, start, self._longest_piece + 1, back)
            single = False
            end = start + 1
            while end <= n:
                hit = get(s[start:end], 0)
                if hit == 0:
                    break
                if hit is not None and hit[0] >= 0:
                    # float + float is a float in C++: the double sum, rounded
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
        spans = best_path_spans(back, back_id, n)
        return (spans, best[n]) if with_score else spans

    def _to_tokens(self, s: str, path) -> list:
        """A piece keeps the id the lattice chose; an unknown follows append_unknown."""
        unk_id = self.unk_id
        tokens = []
        for start, end, i in path:
            piece = s[start:end]
            if i != unk_id:
                tokens.append(Token(i, piece, (start, end)))
            else:
                append_unknown(tokens, piece, start, end, self.vocab, unk_id, self.byte_fallback)
        return tokens

    def tokenize(self, sequence: str, on_event=None) -> list:
        # The cache of the parent is keyed by word; here the text is a whole line.
        if not sequence:
            return []
        if on_event is not None:
            # The lattice events come from the parent's trace; the result is ours.
            self._tokenize_traced(sequence, on_event)
        if self._has_user:
            return self._to_tokens(sequence, self._best_path(sequence))
        return list(map(Token, *_with_offsets(self.encode_columns(sequence))))


_REBASE = 100_000.0  # sentencepiece's kScoreResetThreshold


def _rebase(best, start, reach, back=None) -> float:
    """sentencepiece's reset of a large path score: subtract (in float32) the
    score at `start` from it and from every score already reached after it
    (within `reach` positions; `back` marks reached ones, else -inf is unreached
    and stays so). Returns the new score at `start`, 0.0."""
    offset = best[start]
    for i in range(start, min(len(best), start + reach + 1)):
        if i == start or (best[i] != _NEG_INF if back is None else back[i] >= 0):
            best[i] = f32(best[i] - offset)
    return best[start]


def _with_offsets(columns):
    ids, values, starts, ends = columns
    return ids, values, zip(starts, ends)


def append_unknown(tokens, piece, start, end, vocab, unk_id, byte_fallback) -> None:
    """sentencepiece's rule for a piece the vocabulary lacks: its UTF-8 bytes with
    byte fallback; otherwise one unknown token, fused with an unknown just before it
    (shared by the Unigram and BPE encoders)."""
    if byte_fallback:
        for b in piece.encode("utf-8", "surrogatepass"):
            name = byte_token(b)
            tokens.append(Token(vocab.get(name, unk_id), name, (start, end)))
    elif tokens and tokens[-1].id == unk_id:
        last = tokens[-1]
        tokens[-1] = Token(unk_id, last.value + piece, (last.offsets[0], end))
    else:
        tokens.append(Token(unk_id, piece, (start, end)))

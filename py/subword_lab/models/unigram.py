"""Unigram: the most likely segmentation of a word under a unigram language model.

Every vocabulary piece found in the word is an edge of a lattice, weighted by the
piece's log probability (its score). Viterbi keeps, for every position, the best
total score of a segmentation ending there, then walks back from the end. As in
HF `tokenizers`: a character that starts no one-character piece gets an unknown
edge scored `min(score) - 10`, consecutive unknowns are fused into one token,
and with byte_fallback an unknown token becomes its UTF-8 bytes as "<0xNN>" pieces.

`nbest` lists the n best segmentations; `sample` draws one for subword
regularization (forward-filtering backward-sampling, or among the n best).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import heapq
import itertools
import math
import operator
import random

from ..core.json_checks.bulk import all_scored_pieces
from ..core.errors import SubwordLabError
from ._prefixes import Prefixes
from .base import Model, Token, byte_token, field, model_error, tokens_event

__all__ = ["Unigram"]

UNK_PENALTY = 10.0
CACHE_CAPACITY = 10_000
CACHE_MAX_LENGTH = 256  # in UTF-8 bytes, as HF counts


def prefix_table(pieces: Iterable[str]) -> Prefixes:
    """Every piece -> its id (a repeated piece keeps its last id, as HF's map does),
    any other prefix of a piece -> -1, filled on first use: read it with []."""
    return Prefixes(dict(zip(pieces, itertools.count())))


def log_add(x: float, y: float) -> float:
    """log(exp(x) + exp(y)) without overflow."""
    if x < y:
        x, y = y, x
    if x == -math.inf:
        return x
    return x + math.log1p(math.exp(y - x))


class Unigram(Model):
    type_name = "Unigram"
    _cache: dict

    def __init__(self, vocab: Iterable[tuple[str, float]] | None = None,
                 unk_id: int | None = None, byte_fallback: bool = False,
                 alpha: float | None = None, nbest_size: int | None = None) -> None:
        # alpha / nbest_size: HF's subword-regularization settings, kept and saved;
        # encoding here is always the best (Viterbi) segmentation.
        self.alpha, self.nbest_size = alpha, nbest_size
        vocab = list(vocab or [])
        if not set(map(len, vocab)) <= {2}:
            vocab = [(p, s) for p, s in vocab]  # raises as unpacking does
        if unk_id is not None:
            if not vocab:
                raise model_error("the vocabulary is empty but unk_id needs a piece", "vocab")
            if not 0 <= unk_id < len(vocab):
                raise model_error(f"unk_id {unk_id} is outside the vocabulary", "unk_id")
        # Column by column in C-level map calls (a file may hold 250,000 pieces).
        self._fill(list(map(str, map(operator.itemgetter(0), vocab))),
                   list(map(float, map(operator.itemgetter(1), vocab))), unk_id, byte_fallback)

    @classmethod
    def from_columns(cls, pieces: Iterable[str], scores: Iterable[float],
                     unk_id: int | None = None, byte_fallback: bool = False,
                     sorted_ids: Sequence[int] | None = None) -> Unigram:
        """The model of a preset's pre-parsed form (io/preset_pack.py): pieces (str) and
        scores (float) as two columns, and `sorted_ids`, the id of each distinct piece
        in sorted order (what the prefix table would sort on first use)."""
        model = cls.__new__(cls)
        model.alpha = model.nbest_size = None
        pieces, scores = list(pieces), list(scores)
        if len(pieces) != len(scores):
            raise model_error("as many scores as pieces are needed", "vocab")
        if unk_id is not None and not 0 <= unk_id < len(pieces):
            raise model_error(f"unk_id {unk_id} is outside the vocabulary", "unk_id")
        model._fill(pieces, scores, unk_id, byte_fallback, sorted_ids)
        return model

    def _fill(self, pieces: list[str], scores: list[float], unk_id: int | None,
              byte_fallback: bool, sorted_ids: Sequence[int] | None = None) -> None:
        self.pieces, self.scores = pieces, scores
        self.unk_id = unk_id
        self.byte_fallback = bool(byte_fallback)
        self.vocab = dict(zip(self.pieces, itertools.count()))
        self.min_score = min(self.scores, default=math.inf)
        self.unk_score = self.min_score - UNK_PENALTY
        self._table = Prefixes(self.vocab, sorted_ids and (pieces, sorted_ids))
        self._cache = {}
        self._rng = random.Random()

    # -- vocabulary -----------------------------------------------------------

    def id_to_token(self, id: int) -> str | None:
        return self.pieces[id] if 0 <= id < len(self.pieces) else None

    def get_vocab_size(self) -> int:
        return len(self.pieces)

    def clear_cache(self) -> None:
        self._cache.clear()

    # -- Viterbi, fast path ---------------------------------------------------

    def tokenize(self, sequence: str, on_event: Callable[[dict], Any] | None = None) -> list[Token]:
        if not sequence:
            return []
        if on_event is not None:
            return self._tokenize_traced(sequence, on_event)
        hit = self._cache.get(sequence)
        if hit is not None:
            return list(hit)
        tokens = self._to_tokens(sequence, self._best_path(sequence))
        if len(self._cache) < CACHE_CAPACITY and len(sequence.encode("utf-8", "surrogatepass")) < CACHE_MAX_LENGTH:
            self._cache[sequence] = tuple(tokens)
        return tokens

    def _missing_unk(self):
        # tokenizers' own words, which code written for it may match on
        return SubwordLabError("Encountered an unknown token but `unk_id` is missing")

    def _best_path(self, s: str) -> list:
        """[(start, end, id)] of the best segmentation; ties go to the earliest start (HF)."""
        n = len(s)
        best = [0.0] * (n + 1)
        back = [-1] * (n + 1)  # start of the best edge ending here, -1 until reached
        back_id = [-1] * (n + 1)
        scores, unk_score = self.scores, self.unk_score
        get = self._table.__getitem__  # a Prefixes: [] places a new prefix
        for start in range(n):
            base = best[start]
            single = False
            end = start + 1
            while end <= n:
                i = get(s[start:end])
                if i is None:
                    break
                if i >= 0:
                    cand = base + scores[i]
                    if back[end] < 0 or cand > best[end]:
                        best[end] = cand
                        back[end] = start
                        back_id[end] = i
                    if end == start + 1:
                        single = True
                end += 1
            if not single:
                end = start + 1
                cand = base + unk_score
                if back[end] < 0 or cand > best[end]:
                    if self.unk_id is None:
                        raise self._missing_unk()
                    best[end] = cand
                    back[end] = start
                    back_id[end] = self.unk_id
        return best_path_spans(back, back_id, n)

    def _to_tokens(self, s: str, path: Iterable[Any]) -> list[Token]:
        """Fuse runs of unknowns, then map each piece to its id (or bytes, or unk)."""
        unk_id = self.unk_id
        spans: list[list[Any]] = []
        for start, end, i in path:
            if i == unk_id and spans and spans[-1][2] == unk_id:
                spans[-1][1] = end
            else:
                spans.append([start, end, i])
        tokens: list[Token] = []
        vocab = self.vocab
        for start, end, _ in spans:
            piece = s[start:end]
            i = vocab.get(piece)
            if i is None:
                if self.byte_fallback:
                    names = [byte_token(b) for b in piece.encode("utf-8", "surrogatepass")]
                    ids: list[Any] = [vocab.get(x) for x in names]
                    if None not in ids:
                        # Every byte token points at the whole unknown piece, as HF does.
                        tokens.extend(Token(b, x, (start, end)) for b, x in zip(ids, names))
                        continue
                if unk_id is None:
                    raise self._missing_unk()
                i = unk_id
            tokens.append(Token(i, piece, (start, end)))
        return tokens

    # -- the lattice, for events, n-best and sampling -------------------------

    def lattice(self, s: str) -> list:
        """edges[start] = [(end, id, score, unk)]: every piece found, plus unknown edges.

        An unknown edge has id None when the model has no unk_id (using it is an error).
        """
        n = len(s)
        get = self._table.__getitem__  # a Prefixes: [] places a new prefix
        scores = self.scores
        edges = []
        for start in range(n):
            row = []
            end = start + 1
            while end <= n:
                i = get(s[start:end])
                if i is None:
                    break
                if i >= 0:
                    row.append((end, i, scores[i], False))
                end += 1
            if not row or row[0][0] != start + 1:
                row.insert(0, (start + 1, self.unk_id, self.unk_score, True))
            edges.append(row)
        return edges

    def _incoming(self, s: str, alpha: float = 1.0) -> list:
        """incoming[end] = [(start, id, alpha * score)] over the usable edges."""
        incoming: list[list[tuple[int, int, float]]] = [[] for _ in range(len(s) + 1)]
        for start, row in enumerate(self.lattice(s)):
            for end, i, score, _ in row:
                if i is not None:
                    incoming[end].append((start, i, alpha * score))
        return incoming

    def _tokenize_traced(self, s: str, on_event: Callable[[dict], Any]) -> list[Token]:
        """Viterbi over the explicit lattice, reporting edges, best scores and the path."""
        n = len(s)
        on_event({"type": "unigram.word", "word": s})
        best = [0.0] * (n + 1)
        back = [-1] * (n + 1)
        back_id = [-1] * (n + 1)
        for start, row in enumerate(self.lattice(s)):
            if start:
                self._emit_best(s, start, best, back, back_id, on_event)
            for end, i, score, unk in row:
                cand = best[start] + score
                better = back[end] < 0 or cand > best[end]
                if i is None:
                    if better:  # the fast path fails at the same point
                        raise self._missing_unk()
                    continue
                on_event({"type": "unigram.edge", "start": start, "end": end,
                          "piece": s[start:end], "id": i, "score": score, "unk": unk})
                if better:
                    best[end], back[end], back_id[end] = cand, start, i
        self._emit_best(s, n, best, back, back_id, on_event)
        path = []
        end = n
        while end > 0:
            path.append((back[end], end, back_id[end]))
            end = back[end]
        path.reverse()
        on_event({"type": "unigram.path", "score": best[n],
                  "tokens": [[s[a:b], i, a, b] for a, b, i in path]})
        tokens = self._to_tokens(s, path)
        on_event({"type": "unigram.done", "tokens": tokens_event(tokens)})
        return tokens

    @staticmethod
    def _emit_best(s, pos, best, back, back_id, on_event):
        start = back[pos]
        on_event({"type": "unigram.best", "position": pos, "score": best[pos], "start": start,
                  "piece": s[start:pos], "id": back_id[pos]})

    def nbest(self, sequence: str, n: int,
              on_event: Callable[[dict], Any] | None = None) -> list[tuple[list[str], float]]:
        """The n best segmentations, best first: [(pieces, score)].

        A k-best Viterbi: every position keeps its n best partial paths, which is
        enough to build the n best complete ones. Unknown pieces are not fused here.
        """
        if not sequence or n <= 0:
            return []
        paths = self._nbest_paths(sequence, n)
        result = [([sequence[a:b] for a, b, _ in p], score) for score, p in paths]
        if on_event is not None:
            on_event({"type": "unigram.nbest", "word": sequence, "n": n, "paths": [
                {"score": score, "tokens": [[sequence[a:b], i, a, b] for a, b, i in p]}
                for score, p in paths]})
        return result

    def _nbest_paths(self, s: str, k: int) -> list:
        m = len(s)
        # kbest[pos] = [(score, path)] sorted best first; a path is a tuple of (start, end, id).
        kbest: list[list[tuple[float, tuple]]] = [[] for _ in range(m + 1)]
        kbest[0] = [(0.0, ())]
        incoming = self._incoming(s)
        for end in range(1, m + 1):
            cands = []
            for start, i, score in incoming[end]:
                for prev_score, path in kbest[start]:
                    cands.append((prev_score + score, path + ((start, end, i),)))
            # Stable sort by score only: equal scores keep lattice order.
            kbest[end] = heapq.nlargest(k, cands, key=lambda c: c[0])
        return [(score, list(path)) for score, path in kbest[m]]

    def sample(self, sequence: str, alpha: float = 0.1, nbest_size: int = -1,
               seed: int | None = None) -> list[Token]:
        """One segmentation drawn for subword regularization, as Tokens.

        nbest_size < 0: forward-filtering backward-sampling over the whole lattice,
        P(segmentation) proportional to exp(alpha * score). nbest_size 0 or 1: Viterbi.
        nbest_size > 1: one of the n best, weighted by exp(alpha * score).
        """
        if not sequence:
            return []
        rng = self._rng if seed is None else random.Random(seed)
        if 0 <= nbest_size <= 1:
            return self._to_tokens(sequence, self._best_path(sequence))
        if nbest_size > 1:
            paths = self._nbest_paths(sequence, nbest_size)
            top = max(score for score, _ in paths)
            weights = [math.exp(alpha * (score - top)) for score, _ in paths]
            path = rng.choices([p for _, p in paths], weights=weights)[0]
            return self._to_tokens(sequence, path)
        return self._to_tokens(sequence, self._ffbs(sequence, alpha, rng))

    def _ffbs(self, s: str, alpha: float, rng: random.Random) -> list:
        m = len(s)
        incoming = self._incoming(s, alpha)
        # forward[pos] = log of the summed weight of every path from 0 to pos
        forward = [-math.inf] * (m + 1)
        forward[0] = 0.0
        for end in range(1, m + 1):
            total = -math.inf
            for start, _, w in incoming[end]:
                total = log_add(total, forward[start] + w)
            forward[end] = total
        if forward[m] == -math.inf:
            raise self._missing_unk()
        path = []
        end = m
        while end > 0:
            edges = incoming[end]
            weights = [math.exp(forward[start] + w - forward[end]) for start, _, w in edges]
            start, i, _ = rng.choices(edges, weights=weights)[0]
            path.append((start, end, i))
            end = start
        path.reverse()
        return path

    # -- serialization --------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "type": "Unigram",
            "unk_id": self.unk_id,
            "vocab": [[p, s] for p, s in zip(self.pieces, self.scores)],
            "byte_fallback": self.byte_fallback,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Unigram:
        vocab = field(d, "vocab", list)
        for k, entry in enumerate(() if all_scored_pieces(vocab) else vocab):
            if (not isinstance(entry, (list, tuple)) or len(entry) != 2
                    or not isinstance(entry[0], str)
                    or not isinstance(entry[1], (int, float)) or isinstance(entry[1], bool)):
                raise model_error(f"entry {k} must be [piece, score], got {entry!r}", "vocab")
        unk_id = field(d, "unk_id", int, None, allow_none=True)
        return cls(vocab, unk_id=unk_id,
                   byte_fallback=field(d, "byte_fallback", bool, False, allow_none=True) or False)


def best_path_spans(back: Sequence[int], back_id: Sequence[int], n: int) -> list:
    """The best path of a Viterbi lattice as (start, end, id) spans, read back from the
    end: back[end] is where the best piece ending at `end` starts, back_id its id."""
    path = []
    end = n
    while end > 0:
        start = back[end]
        path.append((start, end, back_id[end]))
        end = start
    path.reverse()
    return path

"""BPE: apply learned merges to the characters of a word, lowest rank first.

A word starts as one symbol per character (the continuing-subword prefix on every
character but the first, the end-of-word suffix on the last). Then, as in HF
`tokenizers`, the adjacent pair whose merge has the lowest rank is merged, the
leftmost one on a tie, until no adjacent pair has a merge. A priority queue keyed
by (rank, position) does that without rescanning the word after every merge.

Characters missing from the vocabulary become their UTF-8 bytes as "<0xNN>"
tokens (byte_fallback, when all those tokens exist), else the unknown token
(consecutive ones fused into one with fuse_unk), else they are dropped.
BPE-dropout skips each merge with probability `dropout`; `seed` makes it repeatable.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import heapq
import itertools
import operator
import random

from . import _long_words, merge_table as _merge_table
from .merge_table import MergeTable
from ._rank_engine import merges_from_ranks, rank_bounds
from .base import (Model, Token, byte_token, field, model_error, ordered_vocab,
                   read_vocab_map, tokens_event)

__all__ = ["BPE"]

DEFAULT_CACHE_CAPACITY = 10_000
# Words this long (in UTF-8 bytes, as HF counts) or longer are not cached.
CACHE_MAX_LENGTH = 256
# Words of this many characters or more are cut where no merge can cross (see
# _long_words.py), when they can be, and the parts encoded (and cached) apart.
CHUNK_FROM = 48


def _parse_merges(merges: Iterable[Any], tuples: bool = True) -> list:
    """Accept [("a", "b"), ...], [["a", "b"], ...] or the older ["a b", ...];
    `tuples=False` may return two-item lists (saves a pass when only read)."""
    pairs = _merge_table.checked_pairs(merges, tuples)
    if pairs is not None:
        return pairs
    pairs = []
    for k, m in enumerate(merges):
        if isinstance(m, str):
            parts = m.split(" ")
            if len(parts) != 2:
                raise model_error(f"merge {k} ({m!r}) is not two tokens separated by one space",
                                  "merges")
            pairs.append((parts[0], parts[1]))
        elif isinstance(m, (list, tuple)) and len(m) == 2 and all(isinstance(x, str) for x in m):
            pairs.append((m[0], m[1]))
        else:
            raise model_error(f"merge {k} must be a pair of strings, got {m!r}", "merges")
    return pairs


def _irregular(starts: Sequence[int], ends: Sequence[int], n: int) -> bool:
    """True unless the symbols cover the word left to right without holes.

    Holes come from dropped unknown characters (no unk token); disorder from HF
    emitting a character's byte-fallback tokens before a pending unknown token.
    Byte-fallback tokens of one character share its span and count as one.
    """
    covered = 0
    prev = None
    for span in zip(starts, ends):
        if span != prev:
            if span[0] != covered:
                return True
            covered = span[1]
            prev = span
    return covered != n


def _shifted_offsets(word, starts, ends, keep, unk_bytes):
    """Offsets the way HF computes them when characters were dropped or reordered.

    HF gives each symbol a UTF-8 length (one per byte-fallback token) and places
    the symbols end to end from 0, in symbol order, skipping dropped characters; those byte
    spans then widen to the characters of the word they fall in. Mirroring
    that keeps offsets identical to `tokenizers` on this rare path.
    """
    n = len(starts)
    lengths = []
    for k in range(n):
        if k in unk_bytes:  # an unknown run fused across other symbols
            lengths.append(unk_bytes[k])
            continue
        shared = (k > 0 and (starts[k - 1], ends[k - 1]) == (starts[k], ends[k])) or (
            k + 1 < n and (starts[k + 1], ends[k + 1]) == (starts[k], ends[k]))
        lengths.append(1 if shared else _utf8_len(word[starts[k]:ends[k]]))
    char_of_byte = []
    for c, ch in enumerate(word):
        char_of_byte.extend([c] * _utf8_len(ch))
    bounds = list(keep) + [n]
    out_starts, out_ends = [], []
    pos = 0
    for j in range(len(bounds) - 1):
        a = pos
        pos += sum(lengths[bounds[j]:bounds[j + 1]])
        # A byte span widens to whole characters, as HF's alignments do.
        start = char_of_byte[a]
        end = char_of_byte[pos - 1] + 1
        out_starts.append(start)
        out_ends.append(end)
    return out_starts, out_ends


def _utf8_len(s: str) -> int:
    return len(s.encode("utf-8", "surrogatepass"))


def _flush(unk: list[int], ids: list[int], starts: list[int], ends: list[int],
           unk_bytes: dict[int, int]) -> None:
    """Emit a pending unknown symbol [id, start, end, utf-8 length]."""
    unk_bytes[len(ids)] = unk[3]
    ids.append(unk[0])
    starts.append(unk[1])
    ends.append(unk[2])


class BPE(Model):
    type_name = "BPE"
    _cache: dict
    _ranks: dict[str, int] | None  # rank mode's token -> rank (from_ranks)
    _merges: Any  # a MergeTable; None in rank mode

    def __init__(self, vocab: dict[str, int] | str | None = None,
                 merges: list[tuple[str, str]] | str | None = None,
                 cache_capacity: int | None = None, dropout: float | None = None,
                 unk_token: str | None = None, continuing_subword_prefix: str | None = None,
                 end_of_word_suffix: str | None = None, fuse_unk: bool = False,
                 byte_fallback: bool = False, ignore_merges: bool = False,
                 seed: int | None = None) -> None:
        if isinstance(vocab, str) and isinstance(merges, str):  # HF's BPE(vocab_path, merges_path)
            vocab, merges = self.read_file(vocab, merges)
        elif isinstance(vocab, str) or isinstance(merges, str):  # one path alone, as HF refuses
            raise model_error("vocab and merges must both be given as file paths (one path "
                              "alone cannot be read)", "vocab")
        if dropout is not None and not 0.0 <= dropout <= 1.0:
            raise model_error("dropout must be between 0 and 1", "dropout")
        self._set_vocab(vocab or {})
        self.dropout = dropout
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.end_of_word_suffix = end_of_word_suffix
        self.fuse_unk = bool(fuse_unk)
        self.byte_fallback = bool(byte_fallback)
        self.ignore_merges = bool(ignore_merges)
        self.cache_capacity = DEFAULT_CACHE_CAPACITY if cache_capacity is None else cache_capacity
        self._cache = {}
        self._rng = random.Random(seed)
        self._ranks = None
        merges = list(merges or [])
        self._merges = _merge_table.from_strings(
            self.vocab, self.vocab_r, merges, len(self.continuing_subword_prefix or ""))
        if self._merges is None:
            self._build_merges(_parse_merges(merges, tuples=False))

    @classmethod
    def from_ranks(cls, vocab: dict[str, int], ranks: dict[str, int] | None = None,
                   **kwargs: Any) -> BPE:
        """Rank mode: no merge list; the adjacent pair whose concatenation has the
        lowest rank merges first, the leftmost on a tie (tiktoken's rule, which
        sentencepiece's BPE follows with scores for ranks).

        `ranks` (token -> rank) defaults to the vocabulary's ids. Loading costs
        nothing beyond the vocabulary; `merges` is derived only when asked for.
        """
        bpe = cls(vocab, None, **kwargs)
        bpe._ranks = bpe.vocab if ranks is None else dict(ranks)
        bpe._merges = None
        return bpe

    def _build_merges(self, pairs: Sequence[tuple[str, str]],
                      ranks: Iterable[int] | None = None) -> None:
        """(left id, right id) -> (rank, merged id); a repeated pair keeps its last rank, as HF.

        `ranks` (one per pair) replaces the list positions; the tiktoken loader
        gives every merge the rank of the token it makes."""
        vocab = self.vocab
        cut = len(self.continuing_subword_prefix or "")
        # The whole table in C-level map/zip calls: loading a file with 50,000
        # merges is noticeably slower with a Python loop (and 3-5x more in Pyodide).
        lookup = vocab.__getitem__
        lefts = list(map(operator.itemgetter(0), pairs))
        rights = list(map(operator.itemgetter(1), pairs))
        if cut:
            rights_cut = [b[cut:] for b in rights]
        else:
            rights_cut = rights
        try:
            new_ids = list(map(lookup, map(operator.add, lefts, rights_cut)))
            keys = zip(map(lookup, lefts), map(lookup, rights))
            self._merges = MergeTable(zip(keys, zip(ranks or itertools.count(), new_ids)))
            return
        except KeyError:
            pass  # the loop below names the merge that is wrong
        table = {}
        for rank, (a, b) in enumerate(pairs):
            new = a + b[cut:]
            for token in (a, b, new):
                if token not in vocab:
                    raise model_error(f"merge {rank} ({a!r}, {b!r}): {token!r} is not in the vocabulary",
                                      "merges")
            table[(vocab[a], vocab[b])] = (rank, vocab[new])
        self._merges = MergeTable(table)

    @property
    def ranks(self) -> dict[str, int] | None:
        """Rank mode's token -> rank (see from_ranks), or None for a merge list."""
        return None if self._ranks is None else dict(self._ranks)

    @property
    def merges(self) -> list[tuple[str, str]]:
        """The merges in rank order, as (left, right) strings."""
        if self._ranks is not None:
            return merges_from_ranks(self._ranks)
        return self._merges.ordered(self.vocab_r)

    def clear_cache(self) -> None:
        self._cache.clear()
        self.__dict__.pop("_piece_cache", None)  # the byte-level fast path's

    def resize_cache(self, capacity: int) -> None:
        self.cache_capacity = capacity
        self.clear_cache()

    # -- encoding -------------------------------------------------------------

    def tokenize(self, sequence: str, on_event: Callable[[dict], Any] | None = None) -> list[Token]:
        if not sequence:
            return []
        if on_event is not None:
            return self._tokenize_traced(sequence, on_event)
        ids, starts, ends = self.encode_word(sequence)
        r = self.vocab_r
        return [Token(i, r[i], (s, e)) for i, s, e in zip(ids, starts, ends)]

    def encode_word(self, sequence: str) -> tuple[Any, Any, Any]:
        """(ids, starts, ends) of one word, without making a Token per piece: the
        tokenizer's fast path calls this; results of short words are cached."""
        if self.dropout:
            return self._merge_word(sequence, None)
        # HF checks ignore_merges only on its cached path (no dropout), so do we.
        if self.ignore_merges:
            i = self.vocab.get(sequence)
            if i is not None:
                return (i,), (0,), (len(sequence),)
        hit = self._cache.get(sequence)
        if hit is not None:
            return hit
        if self._ranks is not None and self._plain_chars(sequence):
            result = self._ranked_word(sequence)
        else:
            result = None
            if len(sequence) >= CHUNK_FROM and not self.ignore_merges:
                result = _long_words.by_parts(self, sequence)
            if result is None:
                result = tuple(map(tuple, self._merge_word(sequence, None)))
        if len(self._cache) < self.cache_capacity and (
                len(sequence) < CACHE_MAX_LENGTH // 4
                or len(sequence.encode("utf-8", "surrogatepass")) < CACHE_MAX_LENGTH):
            self._cache[sequence] = result
        return result

    def _plain_chars(self, word: str) -> bool:
        """True when every character is a symbol of its own (no prefix, suffix or
        unknown): the rank-mode fast path then works on the string itself."""
        if self.continuing_subword_prefix or self.end_of_word_suffix:
            return False
        vocab = self.vocab
        return all(map(vocab.__contains__, set(word)))

    def _ranked_word(self, word):
        """Rank-mode BPE on a string: (ids, starts, ends)."""
        ranks = cast("dict[str, int]", self._ranks)  # set: called in rank mode only
        bounds = rank_bounds(word, ranks)
        vocab = self.vocab
        starts = bounds[:-1]
        ends = bounds[1:]
        ids = tuple(map(vocab.__getitem__, map(word.__getitem__, map(slice, starts, ends))))
        return ids, tuple(starts), tuple(ends)

    def _to_tokens(self, ids: Iterable[int], starts: Iterable[int],
                   ends: Iterable[int]) -> list[Token]:
        r = self.vocab_r
        return [Token(i, r[i], (s, e)) for i, s, e in zip(ids, starts, ends)]

    def _tokenize_traced(self, sequence: str, on_event: Callable[[dict], Any]) -> list[Token]:
        on_event({"type": "bpe.word", "word": sequence})
        tokens = None
        if self.ignore_merges and not self.dropout:
            i = self.vocab.get(sequence)
            if i is not None:
                # The merges by rank still tell how the word is built from its
                # symbols; `merged` says whether they end at the whole word.
                ids = self._merge_word(sequence, on_event)[0]
                on_event({"type": "bpe.ignore_merges", "token": sequence, "id": i,
                          "merged": list(ids) == [i]})
                tokens = [Token(i, sequence, (0, len(sequence)))]
        if tokens is None:
            tokens = self._to_tokens(*self._merge_word(sequence, on_event))
        on_event({"type": "bpe.done", "tokens": tokens_event(tokens)})
        return tokens

    def _initial_symbols(self, word: str, on_event: Callable[[dict], Any] | None) -> Any:
        """One symbol per character, after byte fallback and unk.

        Returns ids, starts, ends and {symbol index: UTF-8 length} of the unknown
        symbols, which _shifted_offsets needs.
        """
        vocab = self.vocab
        prefix = self.continuing_subword_prefix
        suffix = self.end_of_word_suffix
        last = len(word) - 1
        ids, starts, ends = [], [], []
        unk_bytes: dict[int, int] = {}
        unk = None  # [id, start, end, utf-8 length] of an unknown run not yet emitted
        for pos, ch in enumerate(word):
            key = ch
            if prefix and pos:
                key = prefix + key
            if suffix and pos == last:
                key = key + suffix
            i = vocab.get(key)
            if i is not None:
                if unk is not None:
                    _flush(unk, ids, starts, ends, unk_bytes)
                    unk = None
                ids.append(i)
                starts.append(pos)
                ends.append(pos + 1)
                continue
            if self.byte_fallback:
                names = [byte_token(b) for b in key.encode("utf-8", "surrogatepass")]
                found = [vocab.get(n) for n in names]
                if None not in found:
                    if on_event is not None:
                        on_event({"type": "bpe.byte_fallback", "symbol": key, "start": pos,
                                  "end": pos + 1, "tokens": names})
                    # Every byte token points at the whole character it came from.
                    for b in found:
                        ids.append(b)
                        starts.append(pos)
                        ends.append(pos + 1)
                    continue
            # HF measures an unknown by its character alone, without prefix or suffix.
            size = 1 if ch < "\x80" else _utf8_len(ch)
            unk = self._unknown(key, pos, size, unk, (ids, starts, ends, unk_bytes), on_event)
        if unk is not None:
            _flush(unk, ids, starts, ends, unk_bytes)
        return ids, starts, ends, unk_bytes

    def _unknown(self, key, pos, size, unk, out, on_event):
        if self.unk_token is None:
            if on_event is not None:
                on_event({"type": "bpe.unk", "symbol": key, "start": pos, "end": pos + 1,
                          "token": None, "id": None, "fused": False})
            return unk  # no unknown token: the character is dropped, as HF does
        unk_id = self.vocab.get(self.unk_token)
        if unk_id is None:
            raise model_error(f"unk_token {self.unk_token!r} is not in the vocabulary", "unk_token")
        fused = unk is not None and self.fuse_unk
        if on_event is not None:
            on_event({"type": "bpe.unk", "symbol": key, "start": pos, "end": pos + 1,
                      "token": self.unk_token, "id": unk_id, "fused": fused})
        if fused:
            unk[2] = pos + 1
            unk[3] += size
            return unk
        if unk is not None:
            _flush(unk, *out)
        return [unk_id, pos, pos + 1, size]

    def _merge_word(self, word: str, on_event: Callable[[dict], Any] | None) -> Any:
        ids, starts, ends, unk_bytes = self._initial_symbols(word, on_event)
        if on_event is not None:
            r = self.vocab_r
            on_event({"type": "bpe.symbols", "symbols": [r[i] for i in ids], "ids": list(ids),
                      "spans": [[s, e] for s, e in zip(starts, ends)]})
        n = len(ids)
        # lookup((left id, right id)) -> (rank, merged id) or None
        lookup: Callable[[tuple[int, int]], Any] | None
        if self._ranks is not None:
            lookup = self._ranked_pair
        else:
            # a MergeTable: [] looks a pair up the first time it is met
            lookup = self._merges.__getitem__ if self._merges else None
        # Without an unknown token, unknown characters are dropped; with byte fallback
        # a pending unknown can come after the bytes that follow it. HF then places
        # offsets by byte lengths in symbol order (see _shifted_offsets).
        dropped = ((self.unk_token is None or self.byte_fallback)
                   and _irregular(starts, ends, len(word)))
        initial_ends = list(ends) if dropped else None
        if n < 2 or lookup is None:
            keep = range(n)
        else:
            keep = self._merge_all(ids, starts, ends, lookup, on_event)  # updates ids, ends in place
        final_ids = [ids[k] for k in keep]
        if dropped:
            return (final_ids, *_shifted_offsets(word, starts, initial_ends, keep, unk_bytes))
        return final_ids, [starts[k] for k in keep], [ends[k] for k in keep]

    def _ranked_pair(self, pair):
        """(rank, id) of the token two symbols make, in rank mode; None if unranked."""
        a, b = pair
        r = self.vocab_r
        text = r[a] + r[b]
        rank = cast("dict[str, int]", self._ranks).get(text)  # set in rank mode
        if rank is None:
            return None
        new_id = self.vocab.get(text)
        return None if new_id is None else (rank, new_id)

    def _merge_all(self, ids, starts, ends, lookup, on_event):
        """Merge by (rank, position) from a heap; symbols form a linked list over the arrays.

        A heap entry can go stale when a neighbour was merged first; it is skipped when
        the pair now at its position no longer yields the same merged symbol (HF's test).
        """
        n = len(ids)
        nxt = list(range(1, n + 1))
        nxt[-1] = -1
        prv = list(range(-1, n - 1))
        alive = [True] * n
        heap = []
        for p in range(n - 1):
            m = lookup((ids[p], ids[p + 1]))
            if m is not None:
                heap.append((m[0], p, m[1]))
        heapq.heapify(heap)
        dropout = self.dropout
        rand = self._rng.random
        skipped = []
        while heap:
            top = heapq.heappop(heap)
            if dropout and rand() < dropout:
                skipped.append(top)
                if on_event is not None:
                    on_event({"type": "bpe.dropout_skip", "rank": top[0],
                              "new": self.vocab_r[top[2]]})
                continue
            if skipped:
                for entry in skipped:
                    heapq.heappush(heap, entry)
                skipped.clear()
            rank, p, new_id = top
            q = nxt[p]
            if not alive[p] or q == -1:
                continue
            m = lookup((ids[p], ids[q]))
            if m is None or m[1] != new_id:
                continue
            if on_event is not None:
                pair = [self.vocab_r[ids[p]], self.vocab_r[ids[q]]]
            ids[p] = new_id
            ends[p] = ends[q]
            alive[q] = False
            after = nxt[q]
            nxt[p] = after
            if after != -1:
                prv[after] = p
            before = prv[p]
            if before != -1:
                m = lookup((ids[before], new_id))
                if m is not None:
                    heapq.heappush(heap, (m[0], before, m[1]))
            if after != -1:
                m = lookup((new_id, ids[after]))
                if m is not None:
                    heapq.heappush(heap, (m[0], p, m[1]))
            if on_event is not None:
                self._emit_merge(rank, pair, p, ids, alive, on_event)
        # ids[k] and ends[k] of a surviving symbol k now describe the merged symbol.
        return [k for k in range(n) if alive[k]]

    def _emit_merge(self, rank, pair, p, ids, alive, on_event):
        live = [k for k in range(len(ids)) if alive[k]]
        r = self.vocab_r
        on_event({"type": "bpe.merge", "rank": rank, "pair": pair, "new": r[ids[p]],
                  "id": ids[p], "position": live.index(p), "symbols": [r[ids[k]] for k in live]})

    # -- serialization --------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "type": "BPE",
            "dropout": self.dropout,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "end_of_word_suffix": self.end_of_word_suffix,
            "fuse_unk": self.fuse_unk,
            "byte_fallback": self.byte_fallback,
            "ignore_merges": self.ignore_merges,
            "vocab": ordered_vocab(self.vocab),
            "merges": [list(m) for m in self.merges],
        }

    @classmethod
    def from_dict(cls, d: dict) -> BPE:
        dropout = field(d, "dropout", (int, float), None, allow_none=True)
        return cls(
            read_vocab_map(d),
            field(d, "merges", list),
            dropout=None if dropout is None else float(dropout),
            unk_token=field(d, "unk_token", str, None, allow_none=True),
            continuing_subword_prefix=field(d, "continuing_subword_prefix", str, None, allow_none=True),
            end_of_word_suffix=field(d, "end_of_word_suffix", str, None, allow_none=True),
            fuse_unk=field(d, "fuse_unk", bool, False, allow_none=True) or False,
            byte_fallback=field(d, "byte_fallback", bool, False, allow_none=True) or False,
            ignore_merges=field(d, "ignore_merges", bool, False, allow_none=True) or False,
        )

    @classmethod
    def read_file(cls, vocab: str,
                  merges: str) -> tuple[dict[str, int], list[tuple[str, str]]]:
        """vocab.json and merges.txt (GPT-2 style) -> (vocab, merges)."""
        import json

        with open(vocab, encoding="utf-8") as f:
            vocab = json.load(f)
        if not isinstance(vocab, dict):
            raise model_error("vocab.json must hold an object of token -> id", "vocab")
        with open(merges, encoding="utf-8", newline="") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        lines = [line.rstrip("\r") for line in lines if not line.startswith("#version")]
        return vocab, _parse_merges(lines)

    @classmethod
    def from_file(cls, vocab: str, merges: str, **kwargs: Any) -> BPE:
        vocab_map, merge_list = cls.read_file(vocab, merges)
        return cls(vocab_map, merge_list, **kwargs)

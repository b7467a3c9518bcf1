"""BPE's merge table: (left id, right id) -> (rank, merged id), or None for no merge.

A file's merges ("left right" strings, the usual tokenizer.json form) are checked
against the vocabulary at load, as tokenizers does, but the table itself is filled
on first use: a pair met while encoding is looked up once by its text in a
"left right" -> rank dict (one C-level pass over the file's own strings) and
remembered. Gemma has 580,000 merges; building a tuple-keyed entry for each at
load cost more than parsing its 17 MB file, and a text meets a few thousand pairs.
Read a table with [] (not .get), which places a pair seen for the first time.
"""
from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, cast


class _TakesMerges(Protocol):
    """What use_packed needs of a BPE model (bpe.py imports this module, not the reverse)."""

    _merges: Any
    vocab: dict[str, int]
    vocab_r: dict[int, str]

    def clear_cache(self) -> None: ...

# (left id, right id) -> (rank, merged id), or None: no such merge
_Pair = tuple[int, int]
_Merge = tuple[int, int] | None

__all__ = ["MergeTable", "PackedMerges", "checked_pairs", "from_strings", "use_packed"]


class MergeTable(dict[_Pair, _Merge]):
    """A filled table (`ranks` None) or one filled on demand from `ranks`
    ("left right" -> rank, a repeated merge keeping its last rank as in HF)."""

    def __init__(self, items: Iterable[tuple[_Pair, _Merge]] = (),
                 ranks: dict[str, int] | None = None, vocab: dict[str, int] | None = None,
                 vocab_r: dict[int, str] | None = None) -> None:
        super().__init__(items)
        # vocab and vocab_r are read only when the table fills itself (ranks or packed keys)
        self._ranks = ranks
        self._vocab = cast("dict[str, int]", vocab)
        self._vocab_r = cast("dict[int, str]", vocab_r)

    def __missing__(self, pair):
        if self._ranks is None:
            return None  # a filled table: no such merge
        r = self._vocab_r
        left, right = r[pair[0]], r[pair[1]]
        rank = self._ranks.get(f"{left} {right}")
        value = None if rank is None else (rank, self._vocab[left + right])
        self[pair] = value
        return value

    def __bool__(self) -> bool:
        return bool(self._ranks) or len(self) > 0

    def ordered(self, vocab_r: dict[int, str]) -> list[tuple[str, ...]]:
        """The merges in rank order, as (left, right) strings."""
        ranked: list[Any]
        if self._ranks is not None:
            ranked = sorted(self._ranks.items(), key=operator.itemgetter(1))
            return [tuple(text.split(" ")) for text, _ in ranked]
        ranked = sorted(self.items(), key=lambda kv: kv[1][0])
        return [(vocab_r[a], vocab_r[b]) for (a, b), _ in ranked]


def checked_pairs(merges: Iterable[Any], tuples: bool = True) -> list | None:
    """The merges as (left, right) pairs when every one is well formed: a pair of strings,
    or one "left right" string (split at its spaces); None when something is off (then
    the caller's per-merge loop names the bad merge). Checked with map and set, C loops,
    since files hold hundreds of thousands of merges. `tuples=False` may return two-item
    lists (saves a pass when only read)."""
    merges = list(merges)
    kinds = set(map(type, merges))
    if kinds == {str}:
        merges = list(map(str.split, merges, itertools.repeat(" ")))
        kinds = {list}
    if not merges or not kinds <= {tuple, list} or set(map(len, merges)) != {2}:
        return None
    if set(map(type, itertools.chain.from_iterable(merges))) != {str}:
        return None
    return merges if kinds == {tuple} or not tuples else list(map(tuple, merges))


def from_strings(vocab: dict[str, int], vocab_r: dict[int, str], merges: list[Any],
                 cut: int) -> MergeTable | None:
    """The on-demand table of a list of "left right" strings when every merge is one
    space between two tokens of the vocabulary and so is what it makes; None
    otherwise (then the general build names the merge that is wrong). Also None
    with a continuing-subword prefix or ids shared by two tokens, where a pair's
    text would not say which merge it is."""
    if cut or not merges or len(vocab_r) != len(vocab):
        return None
    repeat = itertools.repeat
    kinds = set(map(type, merges))
    if kinds == {str}:
        texts = merges
        tokens = set(" ".join(merges).split(" "))  # every left and right
    elif kinds in ({list}, {tuple}):
        # Pairs (today's tokenizer.json form): keyed by their "left right" texts, which say
        # the same unless a token holds a space (the count below then fails).
        pairs = checked_pairs(merges, tuples=False)
        if pairs is None:
            return None
        texts = list(map(" ".join, pairs))
        tokens = set(itertools.chain.from_iterable(pairs))
    else:
        return None
    if set(map(str.count, texts, repeat(" "))) != {1}:
        return None
    tokens.update(map(str.replace, texts, repeat(" "), repeat("")))  # what each makes
    if not vocab.keys() >= tokens:
        return None
    return MergeTable(ranks=dict(zip(texts, itertools.count())), vocab=vocab, vocab_r=vocab_r)


class PackedMerges(MergeTable):
    """The table of a preset's pre-parsed form (io/preset_pack.py): every merge as the
    key left id * `size` + right id, the keys sorted, and their ranks; two arrays read
    with frombytes, so loading builds nothing per merge. A pair met while encoding is
    placed by a binary search the first time, then remembered as in MergeTable."""

    def __init__(self, keys: Sequence[int], ranks: Sequence[int], size: int,
                 vocab: dict[str, int], vocab_r: dict[int, str]) -> None:
        super().__init__(vocab=vocab, vocab_r=vocab_r)
        self._keys, self._key_ranks, self._size = keys, ranks, size

    def __missing__(self, pair):
        left, right = pair
        value = None
        if 0 <= left < self._size and 0 <= right < self._size:
            key = left * self._size + right
            at = bisect.bisect_left(self._keys, key)
            if at < len(self._keys) and self._keys[at] == key:
                r = self._vocab_r
                value = (self._key_ranks[at], self._vocab[r[left] + r[right]])
        self[pair] = value
        return value

    def __bool__(self) -> bool:
        return len(self._keys) > 0 or len(self) > 0

    def ordered(self, vocab_r: dict[int, str]) -> list[tuple[str, ...]]:
        keys, size = self._keys, self._size
        order = sorted(range(len(keys)), key=self._key_ranks.__getitem__)
        return [(vocab_r[keys[i] // size], vocab_r[keys[i] % size]) for i in order]


def use_packed(bpe: _TakesMerges, keys: Sequence[int], ranks: Sequence[int]) -> None:
    """Give `bpe` (built with its vocabulary, ids 0..n-1, and no merges) the merges of
    a pre-parsed form: `keys` and `ranks` as PackedMerges reads them."""
    bpe._merges = PackedMerges(keys, ranks, len(bpe.vocab), bpe.vocab, bpe.vocab_r)
    bpe.clear_cache()

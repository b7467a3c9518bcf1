"""The fast encode path for byte-level BPE (GPT-2, tiktoken files, Llama 3, Qwen, ...).

When nothing needs the general pipeline's per-piece objects (no events asked for,
no normalizer or only Unicode forms the text is already in, a pre-tokenizer that is just "split with one regex, then bytes",
a BPE model without dropout or affixes), a text is encoded straight from regex
matches: each piece is turned into byte-level characters, the model gives its
ids and spans (`BPE.encode_word`, cached per word), and the Encoding is filled
in arrays (`Encoding.compact`). The result is the same as the general path's;
tests/python/test_byte_level_path.py compares the two.
"""
from __future__ import annotations

import re
import unicodedata
from array import array
from itertools import accumulate as _accumulate, chain, repeat as _repeat
from operator import add as _add, itemgetter

from .. import normalizers, pre_tokenizers
from ..core.tables import byte_level
from ..core.regex import planes as plane_regex, guard as regex_guard
from ..encoding import Encoding
from ..models.bpe import BPE

__all__ = ["plan", "encode"]

_chain = chain.from_iterable
_first, _second, _third = itemgetter(0), itemgetter(1), itemgetter(2)
# Pieces shorter than this are cached per model, up to CACHE_CAPACITY of them.
CACHE_MAX_CHARS = 64
CACHE_CAPACITY = 100_000
SLICE = 1 << 15  # pieces handled at once
SMALL = 4096  # up to this many pieces, lists and lazy columns; more, arrays (less memory)
_PLAIN_REGEX = (re.Pattern, plane_regex.TwoPlaneRegex)


def plan(tok):
    """(regexes, model, unicode forms) when `tok` can take the fast path, else None. Checked on
    every call (a few attribute reads): components can be changed in place."""
    model = tok._model
    if (type(model) is not BPE or model.dropout or model.continuing_subword_prefix
            or model.end_of_word_suffix):
        return None
    forms = _unicode_forms(tok._normalizer)
    regex = _split_regex(tok.pre_tokenizer)
    if forms is None or regex is None or not _has_byte_alphabet(model):
        return None
    return regex, model, forms


_FORMS = {normalizers.NFC: "NFC", normalizers.NFD: "NFD", normalizers.NFKC: "NFKC",
          normalizers.NFKD: "NFKD"}


def _unicode_forms(normalizer):
    """The Unicode forms a normalizer applies (none for no normalizer), or None when
    it does anything else. A text already in those forms is left as it is, so the
    fast path can take it (checked per text by unicodedata.is_normalized, in C)."""
    if normalizer is None:
        return ()
    form = _FORMS.get(type(normalizer))
    if form is not None:
        return (form,)
    if type(normalizer) is normalizers.Sequence:
        forms = ()
        for inner in normalizer.normalizers:
            more = _unicode_forms(inner)
            if more is None:
                return None
            forms += more
        return forms
    return None


def _split_regex(pre):
    """The regexes a byte-level pre-tokenizer splits with, one after the other
    ("isolated" each), or None when it does something else."""
    bl = pre_tokenizers.ByteLevel
    if type(pre) is bl:
        if pre.use_regex and not pre.add_prefix_space:
            regex = byte_level.gpt2_regex()
            return (regex,) if type(regex) in _PLAIN_REGEX else None
        return None
    if type(pre) is not pre_tokenizers.Sequence or len(pre.pretokenizers) < 2:
        return None
    *splits, last = pre.pretokenizers
    if type(last) is not bl or last.use_regex or last.add_prefix_space:
        return None
    regexes = []
    for split in splits:
        if (type(split) is not pre_tokenizers.Split or split.behavior != "isolated"
                or split.invert):
            return None
        regex = getattr(split, "_compiled", None)
        # A user pattern may be wrapped in the regex guard (bounded running time): it
        # offers findall/finditer/groups as re.Pattern does, so it takes this path too.
        if type(regex) not in _PLAIN_REGEX and not isinstance(regex, regex_guard.GuardedRegex):
            return None
        regexes.append(regex)
    return tuple(regexes)


def _has_byte_alphabet(model) -> bool:
    """Every byte's character is a token, so no piece can meet an unknown symbol."""
    ok = getattr(model, "_byte_alphabet", None)
    if ok is None or ok[0] is not model.vocab:
        vocab = model.vocab
        ok = (vocab, all(c in vocab for c in byte_level.alphabet()))
        model._byte_alphabet = ok
    return ok[1]


def encode(tok, plan_, text, type_id, word_index):
    """The Encoding of `text`, or None when a split needs the general path."""
    regexes, model, forms = plan_
    for form in forms:
        if not text.isascii() and not unicodedata.is_normalized(form, text):
            return None
    if _no_added_token_in(tok.added_vocabulary, text):
        # The usual case, without the general path's per-split objects.
        pieces, at = _pieces(regexes, text, 0)
        if len(pieces) <= SMALL:
            return _small_encoding(pieces, at, model, type_id, word_index)
        ids, starts, ends, words = array("I"), array("I"), array("I"), array("i")
        _fill(pieces, at, model, 0, word_index, ids, starts, ends, words)
        return Encoding.compact(ids, type_id, starts, ends, words, _token_strings(model, None))
    pts = tok._extract_and_normalize(text, type_id, None)
    splits = pts.splits
    for split in splits:
        if split.tokens is None and getattr(split.normalized, "_align", False) is not None:
            return None
    ids, starts, ends, words = array("I"), array("I"), array("I"), array("i")
    added = {}  # token index -> text of an added token (its string is not the model's)
    piece = 0
    for split in splits:
        ns = split.normalized
        if split.tokens is not None:
            shift = ns.original_shift if ns._align is None else None
            for id_, value, (start, end) in split.tokens:
                if shift is None:
                    start, end = ns.convert_offsets(start, end)
                else:
                    start, end = start + shift, end + shift
                added[len(ids)] = value
                ids.append(id_)
                starts.append(start)
                ends.append(end)
                words.append(piece if word_index is None else word_index)
            piece += 1
            continue
        pieces, at = _pieces(regexes, ns.normalized, ns.original_shift)
        piece = _fill(pieces, at, model, piece, word_index, ids, starts, ends, words)
    return Encoding.compact(ids, type_id, starts, ends, words, _token_strings(model, added))


def _small_encoding(pieces, at, model, type_id, word_index):
    """A short text's Encoding: its ids as a list, offsets and word ids made only
    when read (one line of text costs a few microseconds this way, where arrays
    and the per-token columns cost several times more)."""
    results = _piece_results(pieces, model, _piece_cache(model))
    ids = list(_chain(map(_first, results)))
    return Encoding.lazy(ids, type_id, _token_strings(model, None),
                         (_offsets_of, results, at), (_word_ids_of, results, word_index))


def _offsets_of(results, at):
    counts = map(len, map(_first, results))
    bases = list(_chain(map(_repeat, at, counts)))
    return list(zip(map(_add, bases, _chain(map(_second, results))),
                    map(_add, bases, _chain(map(_third, results)))))


def _word_ids_of(results, word_index):
    counts = list(map(len, map(_first, results)))
    if word_index is None:
        return list(_chain(map(_repeat, range(len(counts)), counts)))
    return [word_index] * sum(counts)


def _no_added_token_in(added, text) -> bool:
    if added.has_normalized:
        return False
    if not added.has_raw:
        return True
    found = added.find_matches(text, False)
    return len(found) == 1 and found[0][0] is None


def _fill(pieces, at, model, piece, word_index, ids, starts, ends, words):
    """Append the tokens of `pieces` (starting at `at` in the text); returns the
    next piece number. Big texts go in slices, to bound the lists in between."""
    cache = _piece_cache(model)
    for first in range(0, len(pieces), SLICE):
        chunk = pieces[first:first + SLICE] if len(pieces) > SLICE else pieces
        results = _piece_results(chunk, model, cache)
        # From here on everything runs in C (map/chain/repeat), whatever the length:
        # a cached piece costs no Python bytecode at all.
        counts = list(map(len, map(_first, results)))
        ids.extend(_chain(map(_first, results)))
        bases = list(_chain(map(_repeat, at[first:first + SLICE], counts)))
        starts.extend(map(_add, bases, _chain(map(_second, results))))
        ends.extend(map(_add, bases, _chain(map(_third, results))))
        if word_index is None:
            words.extend(_chain(map(_repeat, range(piece, piece + len(chunk)), counts)))
        else:
            words.extend(_repeat(word_index, len(bases)))
        piece += len(chunk)
    return piece


def _pieces(regexes, s, shift):
    """The pieces of "isolated" splits by each regex in turn, and where each
    piece starts in the original text."""
    pieces, at = _split_once(regexes[0], s, shift)
    for regex in regexes[1:]:
        more, more_at = [], []
        for text, start in zip(pieces, at):
            sub, sub_at = _split_once(regex, text, start)
            more += sub
            more_at += sub_at
        pieces, at = more, more_at
    return pieces, at


def _split_once(regex, s, shift):
    """The pieces of an "isolated" split (matches and the gaps between them) and
    where each starts in the original text."""
    if type(regex) is regex_guard.GuardedRegex and len(s) <= regex.cheap_length:
        regex = regex.compiled  # too short to backtrack for long (as Split does)
    if type(regex) in regex_guard.ROUTED:  # astral characters as placeholders where they can be
        if not regex.groups:
            pieces = regex.pieces(s)
            if sum(map(len, pieces)) == len(s):
                at = list(_accumulate(map(len, pieces), initial=shift))
                at.pop()
                return pieces, at
        return _from_spans(regex.spans(s), s, shift)
    if not regex.groups:
        pieces = regex.findall(s)
        if sum(map(len, pieces)) == len(s):  # no gaps: positions are running sums
            at = list(_accumulate(map(len, pieces), initial=shift))
            at.pop()
            return pieces, at
    return _from_spans((m.span() for m in regex.finditer(s)), s, shift)


def _from_spans(spans, s, shift):
    pieces, at, prev = [], [], 0
    for a, b in spans:
        if prev < a:
            pieces.append(s[prev:a])
            at.append(shift + prev)
        if a < b:
            pieces.append(s[a:b])
            at.append(shift + a)
        prev = b
    if prev < len(s):
        pieces.append(s[prev:])
        at.append(shift + prev)
    return pieces, at


def _piece_cache(model):
    cache = getattr(model, "_piece_cache", None)
    if cache is None:
        cache = model._piece_cache = {}
    return cache


def _piece_results(pieces, model, cache):
    """(ids, starts, ends) of every piece, offsets in characters of the piece."""
    results = list(map(cache.get, pieces))
    if None in results:
        encode_word = model.encode_word
        room = CACHE_CAPACITY - len(cache)
        for k in [k for k, r in enumerate(results) if r is None]:
            text = pieces[k]
            r = results[k] = _piece_result(text, encode_word)
            if room > 0 and len(text) < CACHE_MAX_CHARS:
                cache[text] = r
                room -= 1
    return results


def _piece_result(text, encode_word):
    result = encode_word(byte_level.encode_text(text))
    if text.isascii():
        return result  # a byte a character: the offsets are the characters'
    ids, starts, ends = result
    # Byte-level symbols stand for bytes; a token spans the characters its first
    # and last bytes belong to (HF's alignments).
    char_of = []
    for i, ch in enumerate(text):
        char_of.extend([i] * len(ch.encode("utf-8", "surrogatepass")))
    return ids, tuple([char_of[x] for x in starts]), tuple([char_of[x - 1] + 1 for x in ends])


def _token_strings(model, added):
    return _TokenStrings(model, added)


class _TokenStrings:
    """ids -> token strings, through the model's reverse vocabulary; added tokens
    keep the text they matched."""

    __slots__ = ("model", "added")

    def __init__(self, model, added):
        self.model, self.added = model, added

    def __call__(self, ids):
        out = list(map(self.model.vocab_r.get, ids))
        if self.added:
            for k, value in self.added.items():
                out[k] = value
        return out

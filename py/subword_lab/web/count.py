"""Whole-text token counts, a slice at a time, so the page stays live while a book is counted.

The web worker runs one Python call at a time. Counting a 5 MB paste in one call
would hold back every encode the page asks for while the reader types, so the
page starts a count (`count_start`) and then asks for it slice by slice
(`count_step`); its other requests run between two slices.

Counting slices separately gives the whole text's count only if no part of the
pipeline reaches across a cut. We cut only where a run of whitespace starts
(where the pre-tokenizers we know start a new piece), and we prove each cut
before using it: the
text around it (`CUT_WINDOW` characters on each side) must encode to the same ids
in one go as in two halves. That local test catches what happens at a cut:
a normalizer or pre-tokenizer that treats the start of a text specially (a
prepended "▁", a prefix space), an added token that strips the space next to
it, a model with no pre-tokenizer that merges across spaces. A cut that fails
is skipped for the next one; with no good cut the rest is counted in one call.

The post-processor's special tokens ([CLS] ... [SEP]) are counted once: the
first slice is encoded with them and the others without.

A slice whose characters (whitespace aside) all provably lie in some token
(`covers_every_char`: byte-level BPE; sentencepiece, or a WordPiece, Unigram,
WordLevel or BPE model with an unknown token, behind normalizers and
pre-tokenizers that drop nothing else) needs no offsets: it is counted by
`Tokenizer.count` (split, pieces looked up in a cache, summed), in bigger slices,
as many as fit in STEP_SECONDS per call. Any other slice is encoded, as above; a
big slice that fails the test only for a character that may vanish (a byte-order mark
under BERT's normalizer) is tried shorter first, so that little is encoded around it.
"""
from __future__ import annotations

import json
import re
import time

from .. import models, pre_tokenizers
from ..pipeline import byte_level_encode, counting
from ..tokenizer import Tokenizer
from .registry import REGISTRY

__all__ = ["CUT_CANDIDATE", "CUT_WINDOW", "Counter", "count_start", "count_step",
           "covers_every_char", "cut_holds", "split_index", "uncovered", "whole_count"]

SLICE_CHARS = 4000  # about 10-40 ms of encoding in Pyodide: one slice per call
FAST_SLICE_CHARS = 1 << 16  # a slice counted without offsets: 5-15 ms in CPython, one cut test
STEP_SECONDS = 0.04  # counting without offsets goes on slice after slice this long a call
CUT_WINDOW = 64  # characters each side of a cut that the local test encodes
CUT_CANDIDATE = re.compile(r"(?<=\S)(?=\s)")  # where a run of whitespace starts
_sessions: dict = {}


def cut_holds(encode, left: str, right: str, offsets: bool = False, context: int = 0) -> bool:
    """The local test of a cut between `left` and `right`: encoded in one go they give
    the same ids (and, with `offsets`, the same spans) as encoded apart, one after the
    other. `encode(text)` returns an Encoding without the post-processor's tokens.

    Counting encodes each slice alone, so its right side starts the text (context 0)
    and only the ids matter. Splicing an encoding (live.py) needs the spans too, and
    encodes the right side after the last `context` characters of the left one, whose
    tokens it then drops: a sentencepiece text that starts with a space loses it, and
    its "▁word" would start one character late."""
    whole, a = encode(left + right), encode(left)
    lead = left[len(left) - context:] if context else ""
    b = encode(lead + right)
    k = split_index(b.offsets, len(lead))
    if k is None or list(whole.ids) != list(a.ids) + list(b.ids)[k:]:
        return False
    if not offsets:
        return True
    n = len(left) - len(lead)
    return [tuple(o) for o in whole.offsets] == \
        [tuple(o) for o in a.offsets] + [(s + n, e + n) for s, e in list(b.offsets)[k:]]


def split_index(offsets, cut: int):
    """The index of the first token at or after `cut` in spans that run in text order,
    or None when a token crosses the cut or one with no characters sits right at it
    (it could belong to either side)."""
    offsets = list(offsets)
    if cut <= 0:
        return 0
    k = next((i for i, (s, _) in enumerate(offsets) if s >= cut), len(offsets))
    if any(e > cut for _, e in offsets[:k]):
        return None
    if k < len(offsets) and tuple(offsets[k]) == (cut, cut):
        return None
    return k


def uncovered(text: str, offsets) -> tuple[int, int]:
    """(characters, UTF-8 bytes) of `text`, whitespace aside, that lie in no token's span: what
    a vocabulary without an unknown token (a toy one trained on a few words) silently drops."""
    covered = bytearray(len(text))
    for start, end in offsets:
        start, end = min(start, len(text)), min(end, len(text))
        if end > start:
            covered[start:end] = b"\x01" * (end - start)
    chars = nbytes = 0
    for char, seen in zip(text, covered):
        if not seen and not char.isspace():
            chars += 1
            nbytes += len(char.encode("utf-8", "surrogatepass"))
    return chars, nbytes


# Pre-tokenizers that drop whitespace at most. (Normalizers: those that map one character
# at a time, counting.per_char: a character is lost only if it maps to nothing or to
# whitespace alone, checked per distinct character.)
_KEEPING_PRE_TOKENIZERS = (pre_tokenizers.BertPreTokenizer, pre_tokenizers.Whitespace,
                           pre_tokenizers.WhitespaceSplit, pre_tokenizers.ByteLevel,
                           pre_tokenizers.Metaspace, pre_tokenizers.Punctuation,
                           pre_tokenizers.Digits)


def covers_every_char(tokenizer, text: str) -> bool:
    """True when every character of `text` but whitespace provably lies in some token of
    its encoding, so that a count without offsets misses no uncovered character; False
    when that is not known (the slice is then encoded, offsets and all)."""
    spm = getattr(tokenizer, "spm_normalizer", None)  # sentencepiece's own pipeline
    if spm is not None:
        # every piece of the normalized text is a token or an unknown token
        return spm.keeps_every_char(text)
    if type(tokenizer)._encode_text is not Tokenizer._encode_text:
        return False
    if byte_level_encode.plan(tokenizer) is not None:
        return True  # every byte is a token
    if not (_model_covers(tokenizer.model) and _keeps(tokenizer.pre_tokenizer)):
        return False
    normalizer = tokenizer.normalizer
    if normalizer is None:
        return True
    if not counting.per_char(normalizer):
        return False
    return all(normalizer.normalize_str(c).strip() or c.isspace() for c in set(text))


def _model_covers(model) -> bool:
    """A model that writes any piece it is given, if only as its unknown token."""
    vocab = model.get_vocab() if type(model) is not models.WordPiece else model.vocab
    if type(model) is models.Unigram:
        return model.unk_id is not None
    if type(model) in (models.WordPiece, models.WordLevel):
        return model.unk_token in vocab
    if type(model) is models.BPE:
        return model.unk_token is not None and model.unk_token in vocab
    return False


def _keeps(pre) -> bool:
    if pre is None or type(pre) in _KEEPING_PRE_TOKENIZERS:
        return True
    if type(pre) is pre_tokenizers.Sequence:
        return all(map(_keeps, pre.pretokenizers))
    return False


class Counter:
    """The token count of one text, computed slice by slice (`step`)."""

    def __init__(self, tokenizer, text: str, slice_chars: int = SLICE_CHARS, special_tokens=None,
                 fast_chars: int | None = None):
        self.tokenizer = tokenizer
        # slices counted without offsets (Tokenizer.count) are this long (None: as the
        # others; the page asks for FAST_SLICE_CHARS); 0: every slice is encoded
        self.fast_chars = max(0, int(slice_chars if fast_chars is None else fast_chars))
        self.special_tokens = special_tokens or None  # "recognise" | "as_text": the page's choice
        self.text = text
        self.slice_chars = max(1, int(slice_chars))
        self.done = 0  # characters counted so far
        self.count = 0
        self.uncovered = 0  # characters (not whitespace) that no token covers
        self.uncovered_bytes = 0  # and their UTF-8 size
        self.cuts = []  # where the text was cut (for tests)
        self.encoded_chars = 0  # characters of the slices encoded with offsets (for tests)
        self._started = False  # the first slice (with the special tokens) is counted
        # whether some text could be counted without offsets (an empty one is unless the
        # pipeline itself rules it out): if not, a slice is not tried shorter
        self._may_skip_offsets = bool(self.fast_chars) and covers_every_char(tokenizer, "")

    @property
    def complete(self) -> bool:
        return self._started and self.done >= len(self.text)

    def _encode(self, text: str, special: bool = False):
        return self.tokenizer.encode(text, add_special_tokens=special,
                                     special_tokens=self.special_tokens)

    def _safe(self, p: int) -> bool:
        left = self.text[max(self.done, p - CUT_WINDOW):p]
        right = self.text[p:p + CUT_WINDOW]
        return cut_holds(self._encode, left, right)

    def _next_cut(self, size: int) -> int:
        """The end of the next slice: a proven cut past `size` characters, or the end of the text."""
        text = self.text
        if len(text) - self.done <= size * 3 // 2:
            return len(text)
        for match in CUT_CANDIDATE.finditer(text, self.done + size):
            if self._safe(match.start()):
                return match.start()
        return len(text)

    def step(self) -> dict:
        """Count one more slice (or, without offsets, as many as fit in STEP_SECONDS);
        returns the state (`done`, `total`, `count`, `complete`)."""
        until = time.perf_counter() + STEP_SECONDS
        while not self.complete:
            fast = self._slice(self.fast_chars if self.fast_chars else self.slice_chars)
            if not fast or time.perf_counter() >= until:
                break
        return self.state()

    def _slice(self, size: int) -> bool:
        """Count the next slice; True if it was counted without offsets.

        A slice with a character that might be lost (a byte-order mark that BERT's
        normalizer deletes) must be encoded, offsets and all; a shorter one is tried
        first, halving down to the encoded slices' size, so that one such character
        costs the encoding of a few thousand characters, not of the whole slice."""
        end = self._next_cut(size)
        piece = self.text[self.done:end]
        fast = bool(self.fast_chars) and covers_every_char(self.tokenizer, piece)
        while not fast and size > self.slice_chars and self._may_skip_offsets:
            size = max(self.slice_chars, size // 2)
            end = self._next_cut(size)
            piece = self.text[self.done:end]
            fast = size > self.slice_chars and covers_every_char(self.tokenizer, piece)
        first = not self._started
        self._started = True
        if fast:
            self.count += self.tokenizer.count(piece, add_special_tokens=first,
                                               special_tokens=self.special_tokens)
        else:
            encoding = self._encode(piece, special=first)
            self.encoded_chars += len(piece)
            self.count += len(encoding.ids)
            chars, nbytes = uncovered(piece, encoding.offsets)
            self.uncovered += chars
            self.uncovered_bytes += nbytes
        self.done = end
        if end < len(self.text):
            self.cuts.append(end)
        return fast

    def state(self) -> dict:
        return {"done": self.done, "total": len(self.text), "count": self.count,
                "uncovered": self.uncovered, "uncovered_bytes": self.uncovered_bytes,
                "complete": self.complete}

    def run(self) -> int:
        """Count the whole text (CPython, tests)."""
        while not self.complete:
            self.step()
        return self.count


def whole_count(tokenizer, text: str, slice_chars: int = SLICE_CHARS, special_tokens=None,
                fast_chars: int | None = FAST_SLICE_CHARS) -> int:
    """The text's token count, computed in slices as the page does."""
    return Counter(tokenizer, text, slice_chars, special_tokens, fast_chars).run()


def _answer(session: str, counter: Counter) -> str:
    state = counter.state()
    state["session"] = session
    return json.dumps(state)


def count_start(args_json: str, emit=None) -> str:
    """Start counting {"key", "text", "session", "special"?} and count its first slice
    ("special": the page's special-tokens choice, "recognise" | "as_text", as in encode).

    One count runs at a time: starting one drops the one before (the page only
    wants the count of the text it shows).
    """
    args = json.loads(args_json)
    session = str(args.get("session", ""))
    counter = Counter(REGISTRY.get(args.get("key")), str(args.get("text", "")),
                      args.get("slice_chars") or SLICE_CHARS, args.get("special"),
                      args.get("fast_chars", FAST_SLICE_CHARS))
    _sessions.clear()
    _sessions[session] = counter
    counter.step()
    return _answer(session, counter)


def count_step(args_json: str, emit=None) -> str:
    """Count the next slice of {"session"}; a dropped session answers {"gone": true}."""
    session = str(json.loads(args_json).get("session", ""))
    counter = _sessions.get(session)
    if counter is None:
        return json.dumps({"session": session, "gone": True})
    counter.step()
    if counter.complete:
        _sessions.pop(session, None)
    return _answer(session, counter)

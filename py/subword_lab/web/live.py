"""Typing: the tokens of the text after an edit, encoding only the part around the edit.

Encoding a 10 KB text anew takes a few hundred milliseconds in Pyodide; a key press
changes a few tokens. So the page's live encode keeps the last text and its encoding
(one `LiveText`), and for a new text it finds the common head and tail, a cut L before
the edit and a cut R after it, encodes only the new text between them and splices that
between the old tokens before L and the old tokens after R (moved by the length change).

That is exact when both cuts hold in the old and in the new text, that is when the
text encodes to the tokens of its two sides put end to end. Each cut is proven the way
whole-text counting proves its cuts (count.py: `cut_holds` on CUT_WINDOW characters
each side of a CUT_CANDIDATE position), here with the token spans compared too, since
the page shows them. A cut is only taken where its test windows lie wholly in the
unchanged head (L) or tail (R): there the old and the new text read the same, so one
test proves the cut in both. With no proven cut the encode runs from the start (L = 0)
or to the end (R = len(text)). The post-processor's tokens ([CLS] ... [SEP]) are kept
at the ends; a tokenizer whose post-processor does more, or one that truncates or pads,
is always encoded whole.

The answer is a change to the page's copy of the encoding (`head` tokens kept at the
start, `tail` at the end, the new ones between); a page whose copy is not the one this
module last answered (`base` differs: a reply it dropped, a restarted worker) gets the
whole encoding.
"""
from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right

from .count import CUT_CANDIDATE, CUT_WINDOW, cut_holds, split_index
from .registry import REGISTRY

__all__ = ["LiveText", "encode_live"]

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_CONTEXT = 1  # characters before a cut encoded with the text after it (count.py's cut_holds)
_TRIES = 4  # candidate cuts tried on each side before encoding to the text's end
_MEMO = 2048  # cut tests remembered (typing in one place tests the same windows again)
_live = {"state": None}


class LiveText:
    """One tokenizer's encoding of the last text, updated edit by edit (`update`)."""

    def __init__(self, tokenizer, special_tokens=None):
        self.tokenizer = tokenizer
        self.special_tokens = special_tokens or None
        self.text = None
        self.version = 0
        self.ids, self.tokens, self.starts, self.ends, self.mask = [], [], [], [], []
        self._memo = {}
        self.spliced = False  # the last update kept old tokens (tests, encode_live)
        self.reencoded = 0  # characters the last update encoded (tests)
        self._monotonic = False
        self.pre, self.post = self._added_at_ends()

    # ---------------------------------------------------------------- encoding
    def _encode(self, text, add_special_tokens):
        return self.tokenizer.encode(text, add_special_tokens=add_special_tokens,
                                     special_tokens=self.special_tokens)

    def _added_at_ends(self):
        """How many tokens the post-processor puts before and after a text's own, or
        None when it does anything else (then every text is encoded whole)."""
        if getattr(self.tokenizer, "truncation", None) or getattr(self.tokenizer, "padding", None):
            return None, None
        counts = set()
        for probe in ("a b", "Ab, 1 c.", "x"):
            full = list(self._encode(probe, True).ids)
            raw = list(self._encode(probe, False).ids)
            extra = len(full) - len(raw)
            found = [k for k in range(extra + 1) if full[k:k + len(raw)] == raw]
            if extra < 0 or len(found) != 1:
                return None, None
            k = found[0]
            counts.add((k, extra - k, tuple(full[:k]), tuple(full[k + len(raw):])))
        if len(counts) != 1:
            return None, None
        pre, post, _, _ = counts.pop()
        if len(self._encode("", True).ids) != pre + post:
            return None, None
        return pre, post

    def _holds(self, text, p, lower=0):
        left = text[max(lower, p - CUT_WINDOW):p]
        right = text[p:p + CUT_WINDOW]
        key = (left, right)
        if key not in self._memo:
            if len(self._memo) >= _MEMO:
                self._memo.clear()
            self._memo[key] = cut_holds(lambda t: self._encode(t, False), left, right,
                                        offsets=True, context=_CONTEXT)
        return self._memo[key]

    # ---------------------------------------------------------------- cuts
    def _left_cut(self, text, same_head):
        """A proven cut whose test windows lie in the unchanged head, or 0."""
        last = same_head - CUT_WINDOW
        if last <= 0:
            return 0
        start = max(0, last - 8 * CUT_WINDOW)
        found = [m.start() for m in CUT_CANDIDATE.finditer(text, start, last + 1) if m.start() > 0]
        for p in reversed(found[-_TRIES:]):
            if self._holds(text, p):
                return p
        return 0

    def _right_cut(self, text, same_tail):
        """A proven cut whose test windows lie in the unchanged tail, or len(text)."""
        first = len(text) - same_tail + CUT_WINDOW
        for tries, m in enumerate(CUT_CANDIDATE.finditer(text, first)):
            if tries >= _TRIES:
                break
            if self._holds(text, m.start()):
                return m.start()
        return len(text)

    def _split_at(self, cut, length):
        """The index of the first old token at or after `cut`, if no old token crosses it."""
        lo, hi = self.pre, len(self.ids) - self.post
        if cut <= 0:
            return lo
        if cut >= length:
            return hi
        k = bisect_left(self.starts, cut, lo, hi)
        if k > lo and self.ends[k - 1] > cut:
            return None
        if k < hi and self.starts[k] == self.ends[k] == cut:
            return None  # a token with no characters right at the cut: on which side?
        return k

    # ---------------------------------------------------------------- updates
    def update(self, text):
        """Encode `text`; returns (head, tail, new tokens' index range) of the change."""
        old = self.text
        if old is None or self.pre is None or not self._monotonic:
            return self._fresh(text)
        if text == old:
            self.spliced, self.reencoded = True, 0
            return len(self.ids), 0
        same_head = _common_head(old, text)
        same_tail = _common_tail(old, text, len(old) - same_head, len(text) - same_head)
        left = self._left_cut(text, same_head)
        right = self._right_cut(text, same_tail)
        head = self._split_at(left, len(old))
        old_right = right + len(old) - len(text)
        tail_at = self._split_at(old_right, len(old))
        if head is None or tail_at is None:
            return self._fresh(text)
        middle = self._middle(text, left, right)
        if middle is None:
            return self._fresh(text)
        self.reencoded = right - left
        self._splice(text, head, tail_at, middle, len(text) - len(old))
        self.spliced = True
        return head, len(self.ids) - (head + len(middle[0]))

    def _middle(self, text, left, right):
        """The tokens of text[left:right] as they are in the whole text: encoded after
        the context the cut was proven with, whose own tokens are dropped."""
        lead = min(left, _CONTEXT)
        encoding = self._encode(text[left - lead:right], False)
        k = split_index(encoding.offsets, lead)
        if k is None:
            return None
        shift = left - lead
        return (list(encoding.ids)[k:], list(encoding.tokens)[k:], _mask(encoding)[k:],
                [(s + shift, e + shift) for s, e in list(encoding.offsets)[k:]])

    def _fresh(self, text):
        encoding = self._encode(text, True)
        self.text = text
        self.ids = list(encoding.ids)
        self.tokens = list(encoding.tokens)
        self.starts = [s for s, _ in encoding.offsets]
        self.ends = [e for _, e in encoding.offsets]
        self.mask = _mask(encoding)
        self.spliced = False
        self.reencoded = len(text)
        self._check_order()
        return 0, 0

    def _splice(self, text, head, tail_at, middle, shift):
        ids, tokens, mask, offsets = middle
        n, post = len(self.ids), self.post
        self.ids[head:tail_at] = ids
        self.tokens[head:tail_at] = tokens
        self.mask[head:tail_at] = mask
        # the moved spans shifted in C (map of int.__add__): a list comprehension over a
        # 10 KB text's thousands of tokens was most of a key press's time in Pyodide
        tail_starts = list(map(shift.__add__, self.starts[tail_at:n - post]))
        tail_ends = list(map(shift.__add__, self.ends[tail_at:n - post]))
        self.starts[head:] = [s for s, _ in offsets] + tail_starts + self.starts[n - post:]
        self.ends[head:] = [e for _, e in offsets] + tail_ends + self.ends[n - post:]
        self.text = text
        # the kept tokens were in order before and moved together: only the seams can break it
        self._check_order(head - 1, head + len(ids) + 1)

    def _check_order(self, first=None, last=None):
        """Splicing looks tokens up by their spans, which must run in text order (checked
        between tokens `first` and `last`, by default all)."""
        lo, hi = self.pre or 0, len(self.ids) - (self.post or 0)
        lo = lo if first is None else max(lo, first)
        hi = hi if last is None else min(hi, last + 1)
        starts, ends = self.starts, self.ends
        self._monotonic = all(starts[i] <= starts[i + 1] and ends[i] <= ends[i + 1]
                              for i in range(lo, hi - 1))

    def offsets(self):
        return list(zip(self.starts, self.ends))


def _mask(encoding):
    return list(getattr(encoding, "special_tokens_mask", None) or [0] * len(encoding.ids))


def _common_head(a, b):
    n = min(len(a), len(b))
    lo, hi = 0, n  # binary search on slices: C speed on long texts
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_tail(a, b, room_a, room_b):
    n = min(room_a, room_b)  # the tail may not overlap the common head
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid:] == b[len(b) - mid:]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _utf16(text, positions):
    """Character positions to UTF-16 positions (characters above U+FFFF count twice)."""
    astral = [m.start() for m in _ASTRAL.finditer(text)]
    if not astral:
        return list(positions)
    return [p + bisect_right(astral, p - 1) for p in positions]


def _cut(text: str, limit) -> str:
    """The first `limit` characters, ending at a whitespace if one is near (as api.encode)."""
    if limit is None or len(text) <= limit:
        return text
    head = text[:limit]
    space = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
    return head[:space + 1] if space > limit - 200 else head


def encode_live(args_json: str, emit=None) -> str:
    """The page's encode while typing: {"key", "text", "limit", "special", "base"}.

    Returns {"version", "full", "head", "tail", "moved", "shift", "ids", "tokens",
    "offsets", "special", "length", "encoded_chars", "total_chars", "special_tokens"}:
    the page keeps its first `head` and last `tail` tokens, moves the spans of the
    `moved` tokens before the last `tail - moved` by `shift` (UTF-16 units), and puts
    the given tokens between. `full` (head = tail = 0) when `base` is not the version
    this module answered last. Offsets are UTF-16 positions, as api.encode's."""
    args = json.loads(args_json)
    key = args.get("key")
    tokenizer = REGISTRY.get(key)
    special = args.get("special") or None
    text = str(args.get("text", ""))
    limit = args.get("limit")
    head_text = _cut(text, None if limit is None else int(limit))
    state = _live["state"]
    if state is None or state.tokenizer is not tokenizer or state.special_tokens != special:
        state = _live["state"] = LiveText(tokenizer, special)
    if args.get("base") is None or args.get("base") != state.version:
        state.text = None  # the page holds another copy: send it all
    old16 = _length16(state.text) if state.text is not None else 0
    head, tail = state.update(head_text)
    full = state.text is not None and not state.spliced
    if full:
        head = tail = 0
    state.version += 1
    end = len(state.ids) - tail
    new16 = _length16(head_text)
    starts = _utf16(head_text, state.starts[head:end])
    ends = _utf16(head_text, state.ends[head:end])
    return json.dumps({
        "version": state.version, "full": full, "head": head, "tail": tail,
        "moved": max(0, tail - (state.post or 0)), "shift": new16 - old16,
        "ids": state.ids[head:end], "tokens": state.tokens[head:end],
        "offsets": [[s, e] for s, e in zip(starts, ends)], "special": state.mask[head:end],
        "length": len(state.ids), "encoded_chars": new16, "total_chars": _length16(text),
        "special_tokens": special or REGISTRY.info(key).get("rules", {}).get("special_tokens_default"),
    }, ensure_ascii=False)


def _length16(text):
    return len(text) + len(_ASTRAL.findall(text))

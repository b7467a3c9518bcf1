"""sentencepiece's own encoding and decoding, for tokenizers loaded from a .model file.

Hugging Face's pipeline (normalizer, then added tokens, then a pre-tokenizer that
splits at "▁") cannot give sentencepiece's pieces on every text: sentencepiece
normalizes the whole text at once, never splits it into words when it encodes
(`split_by_whitespace`, `split_digits`, `split_by_unicode_script` and
`split_by_number` only shape training), and its models see the whole normalized
text. So a whitespace-only piece like "▁▁▁▁" can be chosen, user-defined pieces
are kept out of the charsmap and found by the model itself, and control or
unknown piece strings typed in the text are plain text. This module does exactly
that; sentencepiece.py wraps it in a Tokenizer that still saves as a
tokenizer.json (the nearest Hugging Face pipeline).

Unigram ties: sentencepiece adds float32 scores (C++ `float`), Hugging Face
float64; a tie in one may not be a tie in the other (20 dots on sentencepiece's
botchan model). `SentencePieceUnigram` rounds every path score to float32 as
sentencepiece does; `models.Unigram` (for tokenizer.json files) keeps float64.
"""
from __future__ import annotations

import heapq
import random
import re
import struct

from ..core.normalized import NormalizedString
from ..models.base import Token, byte_token
from ..models.unigram import UNK_PENALTY, Unigram, _prefix_table

__all__ = ["SpmNormalizer", "SentencePieceUnigram", "SentencePieceBPE", "decode_pieces",
           "NORMAL", "UNKNOWN", "CONTROL", "USER_DEFINED", "UNUSED", "BYTE"]

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
SPACE = "\u2581"
_F32 = struct.Struct("<f")
_ESCAPED = re.compile("[\udc80-\udcff]")
_FLT_MIN = 1.1754943508222875e-38   # C's FLT_MIN, sentencepiece's start for max_score
_FLT_MAX = 3.4028234663852886e+38


def f32(x: float) -> float:
    """x rounded to the nearest float32 (what a C++ `float` would hold)."""
    return _F32.unpack(_F32.pack(x))[0]


def _matcher(symbols):
    """A regex finding the longest user-defined symbol at a position (or None)."""
    if not symbols:
        return None
    ordered = sorted(symbols, key=len, reverse=True)
    return re.compile("|".join(re.escape(s) for s in ordered))


class SpmNormalizer:
    """sentencepiece's Normalizer::Normalize: the charsmap (longest rule at each
    position; user-defined symbols pass through untouched), then its whitespace
    rules, the dummy prefix (or suffix) and the escaping of " " as "▁"."""

    def __init__(self, charsmap, spec, user_symbols, suffix=False):
        self.charsmap = charsmap  # a normalizers.Precompiled in sentencepiece mode, or None
        self.add_dummy_prefix = bool(spec.add_dummy_prefix)
        self.remove_extra = bool(spec.remove_extra_whitespaces)
        self.space = SPACE if spec.escape_whitespaces else " "
        self.suffix = bool(suffix)
        self.user = _matcher(user_symbols)
        self._special = None

    def _special_starts(self):
        """A regex for the positions where something other than "copy this char"
        may happen: a user-defined symbol, or a char that may begin a charsmap rule
        (an ASCII char begins a rule only if it is listed in the charsmap's ASCII
        starters or a non-ASCII char follows it)."""
        parts = []
        if self.user is not None:
            parts.append(self.user.pattern)
        cm = self.charsmap
        if cm is not None and cm.charsmap is not None:
            starters = cm.charsmap.ascii_key_starters()
            if starters:
                parts.append("[" + re.escape(starters) + "]")
            parts.append("[\x00-\x7f](?=[^\x00-\x7f])|[^\x00-\x7f]")
        return re.compile("|".join(parts)) if parts else None

    def _steps(self, text):
        """sentencepiece's NormalizePrefix over the text: [(output, start, end, plain)],
        where a plain step is a run of chars copied unchanged."""
        if self._special is None:
            self._special = [self._special_starts()]
        special = self._special[0]
        if special is None:
            return [(text, 0, len(text), True)]
        user = self.user
        cm = self.charsmap
        longest = cm.charsmap.longest if cm is not None and cm.charsmap is not None else None
        steps = []
        i, n = 0, len(text)
        while i < n:
            m = special.search(text, i)
            if m is None:
                steps.append((text[i:], i, n, True))
                break
            j = m.start()
            if j > i:
                steps.append((text[i:j], i, j, True))
            i = j
            if user is not None:
                u = user.match(text, i)
                if u is not None:
                    steps.append((u.group(), i, u.end(), False))
                    i = u.end()
                    continue
            c = text[i]
            if longest is not None and cm._may_start(c):
                key = text[i:i + 32].encode("utf-8", "surrogatepass")
                hit = longest(key, 0)
                if hit is not None:
                    length, out = hit
                    old = key[:length].decode("utf-8", "surrogatepass")
                    steps.append((out, i, i + len(old), False))
                    i += len(old)
                    continue
            steps.append((c, i, i + 1, True))
            i += 1
        return steps

    def normalize_str(self, text: str) -> NormalizedString:
        if not text:
            return NormalizedString("")
        steps = self._steps(text)
        remove, space = self.remove_extra, self.space
        k = 0
        if remove:  # sentencepiece drops the prefixes that normalize to " " first
            while k < len(steps):
                out, start, end, plain = steps[k]
                if plain:
                    kept = out.lstrip(" ")
                    if kept:
                        steps[k] = (kept, end - len(kept), end, True)
                        break
                elif out != " ":
                    break
                k += 1
            if k == len(steps):
                return NormalizedString(text, _normalized="", _align=[])
        chars, align = [], []
        if self.add_dummy_prefix and not self.suffix:
            chars.append(space)
            align.append((steps[k][1], steps[k][1]))
        prev_space = remove
        for out, start, end, plain in steps[k:]:
            if plain and len(out) > 1 and not (remove and "  " in out):
                if prev_space and out[0] == " ":
                    out = out.lstrip(" ")
                    start = end - len(out)
                    if not out:
                        continue
                chars.append(out.replace(" ", space) if space != " " else out)
                align.extend(zip(range(start, end), range(start + 1, end + 1)))
                prev_space = remove and out[-1] == " "
                continue
            if plain and len(out) > 1:  # runs of spaces to collapse: char by char
                for i, c in enumerate(out, start):
                    if prev_space and c == " ":
                        continue
                    chars.append(space if c == " " else c)
                    align.append((i, i + 1))
                    prev_space = c == " "
                continue
            if prev_space:
                out = out.lstrip(" ")
            if out:
                span = (start, end)
                chars.append(out.replace(" ", space) if space != " " else out)
                align.extend([span] * len(out))
                prev_space = remove and out[-1] == " "
        normalized = "".join(chars)
        if remove:
            stripped = normalized.rstrip(space)
            if len(stripped) != len(normalized):
                del align[len(stripped):]
                normalized = stripped
        if self.suffix and self.add_dummy_prefix:
            at = align[-1][1] if align else len(text)
            normalized += space
            align.append((at, at))
        return NormalizedString(text, _normalized=normalized, _align=align)


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
        self.vocab = dict(zip(self.pieces, range(len(self.pieces))))
        normal = [s for s, k in zip(self.scores, self._types) if k == NORMAL]
        self.min_score = min(normal, default=_FLT_MAX)
        self._max_score = max([_FLT_MIN] + normal)
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
        self.vocab = dict(zip(self._texts, range(len(self._texts))))
        self._user = _matcher([t for t, k in zip(self._texts, self._types) if k == USER_DEFINED])
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


def decode_pieces(pieces, types, spec, unk_surface, keep_control=False):
    """sentencepiece's Decode: control pieces vanish, an unknown piece reads as the
    unk surface, runs of byte pieces are decoded as UTF-8 (an invalid byte is
    U+FFFD), "▁" reads as a space and the first piece loses one leading "▁"."""
    out = []
    strip_first = spec.add_dummy_prefix or spec.remove_extra_whitespaces
    bos_ws = True
    seen_ws = False
    pending = bytearray()

    def flush():
        if pending:
            # sentencepiece replaces every invalid byte with one U+FFFD
            text = pending.decode("utf-8", "surrogateescape")
            out.append(_ESCAPED.sub("\ufffd", text))
            pending.clear()

    for piece, kind in zip(pieces, types):
        if kind == BYTE:
            pending.append(int(piece[3:5], 16))
            continue
        flush()
        if seen_ws or any(out):
            bos_ws = False
        if kind == CONTROL:
            text = piece if keep_control else ""
            seen_ws = False
        elif kind == UNKNOWN:
            text, seen_ws = unk_surface, False
        else:
            seen_ws = False
            if bos_ws and strip_first and piece.startswith(SPACE):
                piece = piece[1:]
                seen_ws = not spec.remove_extra_whitespaces
            text = piece.replace(SPACE, " ")
        out.append(text)
    flush()
    return "".join(out)

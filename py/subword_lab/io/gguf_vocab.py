"""The tokenizer a GGUF file's metadata describes, read as llama.cpp reads it.

llama.cpp turns the `tokenizer.ggml.*` keys into a vocabulary with per-token
attributes (normal, control, user-defined, unknown, byte, unused), special ids,
BOS/EOS rules and a few switches, filling in defaults by model kind and by token
text (it marks "<|im_end|>", "<|endoftext|>" and the like as control tokens even
when the file calls them normal). `GGUFVocab` does the same from the metadata dict,
and `encode` / `decode` give llama.cpp's `llama_tokenize` / `llama_detokenize`.

Model kinds: "gpt2" (byte-level BPE with merges, split per `tokenizer.ggml.pre`),
"gemma4" (BPE on raw text with spaces as U+2581), "llama" (SentencePiece-style BPE
by scores with byte fallback), "bert" (WordPiece: llama.cpp's own BERT splitting,
longest match with "▁" marking a word's start), "t5" (Unigram: llama.cpp's
normalization by the precompiled charsmap, then Viterbi by scores). Others are
refused by name.
"""
from __future__ import annotations

import heapq
import struct

from ..core import byte_level
from ..core.errors import SubwordLabError
from . import gguf_unicode as U
from .gguf_pretokenize import pre_kind, split_words

__all__ = ["GGUFVocab", "ATTR", "TOKEN_TYPES", "SUPPORTED_MODELS"]

# llama.cpp's token attributes (bit flags) and the GGUF token types they come from.
ATTR = {"undefined": 0, "unknown": 1, "unused": 2, "normal": 4, "control": 8,
        "user_defined": 16, "byte": 32, "normalized": 64, "lstrip": 128, "rstrip": 256}
UNKNOWN, UNUSED, NORMAL, CONTROL, USER_DEFINED, BYTE = 1, 2, 4, 8, 16, 32
LSTRIP, RSTRIP = 128, 256
TOKEN_TYPES = {0: 0, 1: NORMAL, 2: UNKNOWN, 3: CONTROL, 4: USER_DEFINED, 5: UNUSED, 6: BYTE}
TYPE_NAMES = {1: "normal", 2: "unknown", 3: "control", 4: "user-defined", 5: "unused",
              6: "byte"}

SUPPORTED_MODELS = ("gpt2", "gemma4", "llama", "bert", "t5")
_KNOWN_UNSUPPORTED = ( "rwkv", "plamo2", "hybriddna", "whitespace", "test")
_SPACE = "\u2581"
_ASCII_SPACE = " \t\n\v\f\r"

_SPECIAL_KEYS = [("bos", "bos_token_id"), ("eos", "eos_token_id"), ("eot", "eot_token_id"),
                 ("eom", "eom_token_id"), ("unk", "unknown_token_id"),
                 ("sep", "seperator_token_id"), ("pad", "padding_token_id"),
                 ("mask", "mask_token_id"), ("fim_pre", "fim_pre_token_id"),
                 ("fim_suf", "fim_suf_token_id"), ("fim_mid", "fim_mid_token_id"),
                 ("fim_pad", "fim_pad_token_id"), ("fim_rep", "fim_rep_token_id"),
                 ("fim_sep", "fim_sep_token_id"), ("fim_pre", "prefix_token_id"),
                 ("fim_suf", "suffix_token_id"), ("fim_mid", "middle_token_id")]

# Token texts llama.cpp recognises when the file names no such id (first found wins
# the id; all found are made control tokens), and those that end generation.
_BY_TEXT = {
    "eot": ["<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
            "<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]", "<\uff5cend\u2581of\u2581sentence\uff5c>",
            "<end_of_utterance>"],
    "eom": ["<|eom_id|>"],
    "fim_pre": ["<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<\uff5cfim\u2581begin\uff5c>",
                "<PRE>", "\u2581<PRE>", "<|code_prefix|>", "<|prefix|>"],
    "fim_suf": ["<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<\uff5cfim\u2581hole\uff5c>",
                "<SUF>", "\u2581<SUF>", "<|code_suffix|>", "<|suffix|>"],
    "fim_mid": ["<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<\uff5cfim\u2581end\uff5c>",
                "<MID>", "\u2581<MID>", "<|code_middle|>", "<|middle|>"],
    "fim_pad": ["<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"],
    "fim_rep": ["<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"],
    "fim_sep": ["<|file_sep|>"],
}
_END_OF_GENERATION = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>",
    "<|calls|>", "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>",
    "[EOT]", "[EOS]", "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>",
    "<|tool_response>", "<\uff5cend\u2581of\u2581sentence\uff5c>", "[e~["}


def _get(meta, key, kinds, path, default=None):
    value = meta.get(key, default)
    if value is not default and not isinstance(value, kinds):
        raise SubwordLabError(f"expected {kinds[0].__name__ if isinstance(kinds, tuple) else kinds.__name__}, "
                              f"got {type(value).__name__}", path=path, field=key)
    return value


class GGUFVocab:
    """llama.cpp's vocabulary state, from a GGUF metadata dict."""

    def __init__(self, meta, path=None):
        self.path = path
        model = meta.get("tokenizer.ggml.model")
        if model is None:
            raise SubwordLabError("the file has no tokenizer (no tokenizer.ggml.model)",
                                  path=path, field="tokenizer.ggml.model")
        if not isinstance(model, str):
            raise SubwordLabError("expected a string", path=path, field="tokenizer.ggml.model")
        if model in ("no_vocab", "none"):
            raise SubwordLabError("the file says it has no vocabulary", path=path,
                                  field="tokenizer.ggml.model")
        if model not in SUPPORTED_MODELS:
            known = "" if model in _KNOWN_UNSUPPORTED else " (llama.cpp does not know it either)"
            raise SubwordLabError(f"tokenizer.ggml.model {model!r} is not supported{known}; "
                                  f"supported: {', '.join(SUPPORTED_MODELS)}", path=path,
                                  field="tokenizer.ggml.model")
        self.model = model
        self.kind = {"llama": "SPM", "bert": "WPM", "t5": "UGM"}.get(model, "BPE")
        tokens = meta.get("tokenizer.ggml.tokens")
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise SubwordLabError("expected an array of strings", path=path,
                                  field="tokenizer.ggml.tokens")
        if not tokens:
            raise SubwordLabError("the vocabulary is empty", path=path,
                                  field="tokenizer.ggml.tokens")
        n = len(tokens)
        self.pre = None
        self.regex_key, self.byte_encode, self.ignore_merges = None, True, False
        self.add_bos, self.add_eos, self.add_sep = False, False, False
        self.escape_whitespaces, self.clean_spaces, self.add_space_prefix = False, False, False
        specials = dict.fromkeys(k for k, _ in _SPECIAL_KEYS)
        self.ranks = {}
        if self.kind == "BPE":
            merges = meta.get("tokenizer.ggml.merges")
            if not isinstance(merges, list) or not all(isinstance(m, str) for m in merges):
                raise SubwordLabError("a BPE vocabulary needs its merges (an array of "
                                      "strings)", path=path, field="tokenizer.ggml.merges")
            ranks = self.ranks
            for rank, merge in enumerate(merges):
                cut = merge.find(" ", 1)
                pair = (merge[:cut], merge[cut + 1:]) if cut >= 0 else ("", "")
                if pair not in ranks:
                    ranks[pair] = rank
            if model == "gemma4":
                self.pre = "gemma4"
            else:
                self.pre = _get(meta, "tokenizer.ggml.pre", str, path)
                specials["bos"] = specials["eos"] = 11
            self.regex_key, opts = pre_kind(self.pre or "default", path)
            self.clean_spaces = opts["clean"]
            self.ignore_merges = opts["ignore_merges"]
            self.add_bos = opts["bos"]
            if opts["raw"]:
                self.byte_encode, self.escape_whitespaces = False, True
        elif self.kind == "UGM":
            self.escape_whitespaces, self.add_eos = True, True
            specials.update(eos=1, unk=2, pad=0)
            self.charsmap = _charsmap(meta, path)
        elif self.kind == "WPM":
            self.clean_spaces, self.add_bos, self.add_sep = True, True, True
            specials.update(bos=101, unk=100, sep=102, pad=0, mask=103)
        else:
            self.add_space_prefix, self.add_bos = True, True
            specials.update(bos=1, eos=2, unk=0)
        self.lowercase = _flag(meta, "tokenizer.ggml.normalizer.lowercase", True, path)
        self.strip_accents = _flag(meta, "tokenizer.ggml.normalizer.strip_accents",
                                   self.lowercase, path)
        self.add_space_prefix = _flag(meta, "tokenizer.ggml.add_space_prefix",
                                      self.add_space_prefix, path)
        self.remove_extra_whitespaces = _flag(meta, "tokenizer.ggml.remove_extra_whitespaces",
                                              False, path)
        scores = meta.get("tokenizer.ggml.scores")
        if scores is not None:
            if not isinstance(scores, list) or len(scores) < n or not all(
                    isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores[:n]):
                raise SubwordLabError(f"expected {n} numbers", path=path,
                                      field="tokenizer.ggml.scores")
            self.scores = [float(s) for s in scores[:n]]
        else:
            self.scores = [0.0] * n
        types = meta.get("tokenizer.ggml.token_type")
        if types is not None:
            if not isinstance(types, list) or len(types) < n or not all(
                    isinstance(t, int) and not isinstance(t, bool) for t in types[:n]):
                raise SubwordLabError(f"expected {n} integers", path=path,
                                      field="tokenizer.ggml.token_type")
            self.attrs = [TOKEN_TYPES.get(t, 0) for t in types[:n]]
        else:
            self.attrs = [NORMAL] * n
        self.types = list(types[:n]) if types is not None else [1] * n
        self.tokens = [t if t else f"[EMPTY_{i}]" for i, t in enumerate(tokens)]
        self.token_to_id = {t: i for i, t in enumerate(self.tokens)}
        self.max_chars = max(map(len, self.tokens))
        self._specials(meta, specials, n, path)
        self._by_text(meta)
        self.special_cache = sorted(
            (i for i, a in enumerate(self.attrs) if a & (CONTROL | USER_DEFINED | UNKNOWN)),
            key=lambda i: -len(self.tokens[i].encode("utf-8", "surrogateescape")))
        self._strip_attrs(meta)
        self._pieces = None

    def _specials(self, meta, specials, n, path):
        for name, key in _SPECIAL_KEYS:
            if specials[name] is not None and specials[name] >= n:
                specials[name] = None
            value = meta.get("tokenizer.ggml." + key)
            if value is None:
                continue
            if not isinstance(value, int) or value < 0:
                raise SubwordLabError("expected a token id", path=path,
                                      field="tokenizer.ggml." + key)
            if value < n:
                specials[name] = value
        self.specials = specials
        self.add_bos = _flag(meta, "tokenizer.ggml.add_bos_token", self.add_bos, path)
        self.add_eos = _flag(meta, "tokenizer.ggml.add_eos_token", self.add_eos, path)
        self.add_sep = _flag(meta, "tokenizer.ggml.add_sep_token", self.add_sep, path)
        if self.pre == "gemma4":
            self.add_bos = True  # llama.cpp's workaround for Gemma 4
        if self.add_bos and specials["bos"] is None:
            raise SubwordLabError("the model adds a BOS token but names none", path=path,
                                  field="tokenizer.ggml.bos_token_id")
        if self.add_eos and specials["eos"] is None:
            raise SubwordLabError("the model adds an EOS token but names none", path=path,
                                  field="tokenizer.ggml.eos_token_id")

    def _by_text(self, meta):
        """llama.cpp's token-text rules: control tokens it recognises by name."""
        attrs, specials, ids = self.attrs, self.specials, self.token_to_id
        for name, texts in _BY_TEXT.items():
            if specials[name] is not None:
                continue
            for text in texts:
                if text in ids:
                    i = ids[text]
                    specials[name] = i
                    attrs[i] |= CONTROL
                    break
        for text, i in ids.items():
            if attrs[i] & CONTROL and "unused" in text:
                attrs[i] |= UNUSED
        eog = {specials[k] for k in ("fim_pad", "fim_rep", "fim_sep", "eos", "eot", "eom")
               if specials[k] is not None}
        for text in _END_OF_GENERATION:
            i = ids.get(text)
            if i is not None:
                eog.add(i)
                attrs[i] |= CONTROL
        for text in ("<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"):
            if text in ids:
                attrs[ids[text]] = USER_DEFINED
        texts = {self.tokens[i]: i for i in eog}
        if "<|end|>" in texts and (("<|return|>" in texts and "<|call|>" in texts) or
                                    ("<|call|>" in texts or "<|calls|>" in texts)
                                    and "<|flush|>" in texts):
            eog.discard(texts["<|end|>"])
            attrs[texts["<|end|>"]] = USER_DEFINED
        if "</s>" in texts and ("<|tool_response>" in texts or "<|plamo:eos|>" in texts):
            eog.discard(texts["</s>"])
            attrs[texts["</s>"]] = NORMAL
        self.end_of_generation = sorted(eog)

    def _strip_attrs(self, meta):
        name = str(meta.get("general.name", "")).lower()
        arch = str(meta.get("general.architecture", ""))
        pre = str(meta.get("tokenizer.ggml.pre", ""))
        ids, attrs = self.token_to_id, self.attrs
        if any(k in pre for k in ("jina-v2-de", "jina-v2-es", "jina-v2-code")) or any(
                k in arch for k in ("nomic-bert-moe", "jina-bert-v3")):
            if "<mask>" in ids:
                attrs[ids["<mask>"]] |= LSTRIP
        elif "phi-3" in name or "phi3" in name:
            for i in self.special_cache:
                attrs[i] |= RSTRIP
            if "</s>" in ids:
                attrs[ids["</s>"]] |= RSTRIP
            for text in ("<unk>", "<s>", "<|endoftext|>"):
                if text in ids:
                    attrs[ids[text]] &= ~RSTRIP
        elif "modern-bert" in name and "[MASK]" in ids:
            attrs[ids["[MASK]"]] |= LSTRIP

    # -- tokenize --------------------------------------------------------------------

    def partition(self, text, parse_special):
        """The text cut at special tokens: [(token id or None, start, end)]."""
        frags = [(None, 0, len(text))] if text else []
        tokens, attrs = self.tokens, self.attrs
        for sid in self.special_cache:
            attr = attrs[sid]
            if not parse_special and attr & (CONTROL | UNKNOWN):
                continue
            needle = tokens[sid]
            out = []
            for frag in frags:
                if frag[0] is not None:
                    out.append(frag)
                    continue
                _, start, end = frag
                while True:
                    at = text.find(needle, start, end)
                    if at < 0:
                        if start < end:
                            out.append((None, start, end))
                        break
                    left = at
                    if attr & LSTRIP:
                        while left > start and text[left - 1] in _ASCII_SPACE:
                            left -= 1
                    if left > start:
                        out.append((None, start, left))
                    out.append((sid, at, at + len(needle)))
                    start = at + len(needle)
                    if attr & RSTRIP:
                        while start < end and text[start] in _ASCII_SPACE:
                            start += 1
            frags = out
        return frags

    def encode(self, text, parse_special=True):
        """llama_tokenize(text, add_special=False, parse_special): (ids, starts, ends)
        with each token's span in `text` (code points)."""
        ids, starts, ends = [], [], []
        prev_special = True
        for sid, start, end in self.partition(text, parse_special):
            if sid is not None:
                ids.append(sid)
                starts.append(start)
                ends.append(end)
                prev_special = True
                continue
            if self.kind == "SPM":
                self._spm(text[start:end], start, prev_special, ids, starts, ends)
            elif self.kind == "WPM":
                self._wpm(text, start, end, ids, starts, ends)
            elif self.kind == "UGM":
                self._ugm(text, start, end, ids, starts, ends)
            else:
                self._bpe(text[start:end], start, ids, starts, ends)
            prev_special = False
        return ids, starts, ends

    def _bpe(self, text, base, ids, starts, ends):
        token_to_id, vocab = self.token_to_id.get, self.token_to_id
        if self.escape_whitespaces:
            text = text.replace(" ", _SPACE)
        for w0, w1 in split_words(text, self.regex_key):
            word = text[w0:w1]
            if self.byte_encode:
                raw = word.encode("utf-8", "surrogatepass")
                units = byte_level.encode_bytes(raw)
                owner = [w0 + i for i, ch in enumerate(word)
                         for _ in range(len(ch.encode("utf-8", "surrogatepass")))]
            else:
                units = word
                owner = list(range(w0, w1))
            whole = None
            if self.ignore_merges and units in vocab:
                whole = [len(units)]
            elif self.pre == "gemma4" and not word.strip("\n") and units in vocab:
                whole = [len(units)]
            lengths = whole or _bpe_merge(units, self.ranks)
            at = 0
            for length in lengths:
                piece = units[at:at + length]
                span = (base + owner[at], base + owner[at + length - 1] + 1)
                i = token_to_id(piece)
                if i is not None:
                    ids.append(i)
                    starts.append(span[0])
                    ends.append(span[1])
                else:
                    for b in piece.encode("utf-8", "surrogateescape"):
                        if self.byte_encode:
                            key = chr(b) if b < 128 else bytes([b]).decode("utf-8", "surrogateescape")
                        else:
                            key = f"<0x{b:02X}>"
                        j = token_to_id(key)
                        if j is not None:
                            ids.append(j)
                            starts.append(span[0])
                            ends.append(span[1])
                at += length

    def _spm(self, text, base, prev_special, ids, starts, ends):
        shift = 1 if self.add_space_prefix and prev_special else 0
        escaped = (" " * shift + text).replace(" ", _SPACE)
        lengths = _spm_merge(escaped, self.token_to_id, self.scores)
        at = 0
        token_to_id = self.token_to_id.get
        for length in lengths:
            piece = escaped[at:at + length]
            lo = base + max(at - shift, 0)
            hi = base + max(at + length - shift, 0)
            i = token_to_id(piece)
            if i is not None:
                ids.append(i)
                starts.append(lo)
                ends.append(hi)
            else:
                for b in piece.encode("utf-8", "surrogatepass"):
                    j = token_to_id(f"<0x{b:02X}>")
                    if j is None:
                        j = token_to_id(chr(b) if b < 128 else
                                        bytes([b]).decode("utf-8", "surrogateescape"))
                    if j is None:
                        raise SubwordLabError(f"no token for the byte 0x{b:02X} (llama.cpp "
                                              "fails here too)", path=self.path,
                                              field="tokenizer.ggml.tokens")
                    ids.append(j)
                    starts.append(lo)
                    ends.append(hi)
            at += length

    def _wpm_words(self, text, start, end):
        """llama.cpp's BERT pre-processing: [(word, [original index per char])]."""
        words, word, where = [], [], []
        for k in range(start, end):
            cp = ord(text[k])
            if self.strip_accents:
                cp = U.nfd_base(cp)
            cat = U.category(cp)
            if cp in U.WHITESPACE:
                if word:
                    words.append(("".join(word), where))
                    word, where = [], []
                continue
            if cp == 0 or cp == 0xFFFD or cat == U.CONTROL:
                continue
            if self.strip_accents and cat == U.MARK:
                continue
            ch = chr(U.lower(cp) if self.lowercase else cp)
            if cat == U.PUNCTUATION or (cp < 0x7F and cat == U.SYMBOL) or _is_chinese(cp):
                if word:
                    words.append(("".join(word), where))
                words.append((ch, [k]))
                word, where = [], []
            else:
                word.append(ch)
                where.append(k)
        if word:
            words.append(("".join(word), where))
        return words

    def _wpm(self, text, start, end, ids, starts, ends):
        get, longest = self.token_to_id.get, self.max_chars
        for word, where in self._wpm_words(text, start, end):
            marked = _SPACE + word
            n, i, found = len(marked), 0, []
            while i < n:
                for j in range(min(n, i + longest), i, -1):
                    t = get(marked[i:j])
                    if t is not None:
                        lo = where[max(i - 1, 0)]
                        found.append((t, lo, where[j - 2] + 1 if j >= 2 else lo))
                        i = j
                        break
                else:
                    found = []
                    break
            if not found:
                found = [(self.specials["unk"], where[0], where[-1] + 1)]
            for t, lo, hi in found:
                ids.append(t)
                starts.append(lo)
                ends.append(hi)

    def _ugm_tables(self):
        if self._pieces is None:
            attrs, scores = self.attrs, self.scores
            matchable, prefixes, user = {}, set(), set()
            low = min((scores[i] for i, a in enumerate(attrs) if a & NORMAL),
                      default=3.4028234663852886e38)
            for i, t in enumerate(self.tokens):
                a = attrs[i]
                if a & (NORMAL | USER_DEFINED | UNUSED):
                    raw = t.encode("utf-8", "surrogateescape")
                    matchable[raw] = i  # the trie keeps the last id of a text
                    prefixes.update(raw[:k] for k in range(1, len(raw) + 1))
                if a & USER_DEFINED:
                    user.add(t.encode("utf-8", "surrogateescape"))
            unknown = _float32(_float32(low) - 10.0)
            self._pieces = (matchable, prefixes, sorted(user, key=len, reverse=True), unknown)
        return self._pieces

    def _ugm_normalize(self, text, start, end):
        """llama.cpp's UGM normalization of text[start:end]: (bytes, [(first, last + 1)
        original index per byte])."""
        matchable, prefixes, user, _ = self._ugm_tables()
        data = text[start:end].encode("utf-8", "surrogatepass")
        char_at = [start + k for k, ch in enumerate(text[start:end])
                   for _ in range(len(ch.encode("utf-8", "surrogatepass")))]
        space = _SPACE.encode() if self.escape_whitespaces else b" "
        prepend = self.add_space_prefix
        merge = self.remove_extra_whitespaces
        out, where = bytearray(), []
        prepended, in_word, at = False, False, 0
        while at < len(data):
            piece, used = self._ugm_prefix(data, at, user)
            span = (char_at[at], char_at[at + used - 1] + 1)
            for c in piece:
                if c != 32:
                    if not in_word:
                        in_word = True
                        if (prepend and not prepended) or merge:
                            out += space
                            where += [span] * len(space)
                            prepended = True
                    out.append(c)
                    where.append(span)
                else:
                    in_word = False
                    if not merge:
                        out += space
                        where += [span] * len(space)
            at += used
        return bytes(out), where

    def _ugm_prefix(self, data, at, user):
        for u in user:
            if data.startswith(u, at):
                return u, len(u)
        found = self.charsmap.longest(data, at) if self.charsmap else None
        if found is not None:
            return found
        n = _utf8_len(data[at])
        return data[at:at + n], n

    def _ugm(self, text, start, end, ids, starts, ends):
        matchable, prefixes, _, unknown = self._ugm_tables()
        data, where = self._ugm_normalize(text, start, end)
        n = len(data)
        if not n:
            return
        unk = self.specials["unk"]
        attrs, scores = self.attrs, self.scores
        best = [(unk, 0, float("-inf"))] * (n + 1)
        best[0] = (unk, 0, 0.0)
        at = 0
        while at < n:
            width = min(_utf8_len(data[at]), n - at)
            base = best[at][2]
            single = False
            k = at + 1
            while k <= n and data[at:k] in prefixes:
                i = matchable.get(data[at:k])
                if i is not None:
                    if k - at == width:
                        single = True
                    score = base + (0.0 if attrs[i] & USER_DEFINED else scores[i])
                    if score > best[k][2]:
                        best[k] = (i, at, score)
                k += 1
            if not single:
                score = base + unknown
                if score > best[at + width][2]:
                    best[at + width] = (unk, at, score)
            at += width
        found, k, prev_unknown = [], n, False
        while True:
            i, begin, _ = best[k]
            is_unknown = i == unk
            if not (prev_unknown and is_unknown):
                found.append((i, begin, k))
            else:  # a run of unknowns is one token: widen the one kept
                found[-1] = (i, begin, found[-1][2])
            if begin == 0:
                break
            prev_unknown = is_unknown
            k = begin
        for i, lo, hi in reversed(found):
            ids.append(i)
            starts.append(min(s for s, _ in where[lo:hi]))
            ends.append(max(e for _, e in where[lo:hi]))

    # -- detokenize ------------------------------------------------------------------

    def piece(self, i, special):
        """llama.cpp's token_to_piece as bytes (empty for a control token unless
        `special`)."""
        attr = self.attrs[i]
        if not special and attr & (UNKNOWN | CONTROL):
            return b""
        text = self.tokens[i]
        if attr & (UNKNOWN | CONTROL | USER_DEFINED):
            return text.encode("utf-8", "surrogateescape")
        if attr & NORMAL:
            if self.kind != "BPE" or self.escape_whitespaces:
                return text.replace(_SPACE, " ").encode("utf-8", "surrogateescape")
            return _byte_decode(text)
        if attr & BYTE:
            try:
                return bytes([int(text[3:5], 16)])
            except ValueError:
                return b"\x00"
        return b""

    def decode_bytes(self, ids, special=False):
        """llama_detokenize(ids, remove_special=False, unparse_special=special)."""
        out = bytearray()
        n = len(self.tokens)
        for k, i in enumerate(ids):
            if not 0 <= i < n:
                raise SubwordLabError(f"token id {i} is not in the vocabulary (0-{n - 1})",
                                      field="ids")
            piece = self.piece(i, special)
            if k == 0 and self.add_space_prefix and piece[:1] == b" ":
                piece = piece[1:]
            out += piece
        if self.clean_spaces:
            out = _clean_spaces(bytes(out))
        return bytes(out)


def _float32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _utf8_len(first_byte):
    return (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4)[first_byte >> 4]


class _Charsmap:
    """sentencepiece's precompiled charsmap as llama.cpp walks it: the longest prefix
    in the XOR-compressed double array, then its NUL-terminated replacement."""

    def __init__(self, blob, path):
        if len(blob) < 4:
            raise SubwordLabError("too short for its header", path=path, field=_CHARSMAP)
        (size,) = struct.unpack_from("<I", blob)
        if size + 4 >= len(blob):
            raise SubwordLabError("its array runs past its end", path=path, field=_CHARSMAP)
        self.array = struct.unpack_from(f"<{size // 4}I", blob, 4)
        self.replacements = blob[4 + size:]
        self.path = path

    def _node(self, i):
        if i >= len(self.array):
            raise SubwordLabError("index out of its array", path=self.path, field=_CHARSMAP)
        return self.array[i]

    def _base(self, i):
        node = self._node(i)
        return (node >> 10) << ((node & (1 << 9)) >> 6)

    def longest(self, data, at):
        node, length, offset = self._base(0), 0, 0
        for k in range(at, len(data)):
            c = data[k]
            if c == 0:
                break
            node ^= c
            if self._node(node) & ((1 << 31) | 0xFF) != c:
                break
            leaf = (self._node(node) >> 8) & 1
            node ^= self._base(node)
            if leaf:
                length, offset = k - at + 1, self._node(node) & ((1 << 31) - 1)
        if not length:
            return None
        if offset >= len(self.replacements):
            raise SubwordLabError("a replacement out of its bounds", path=self.path,
                                  field=_CHARSMAP)
        end = self.replacements.find(b"\0", offset)
        if end < 0:
            raise SubwordLabError("an unterminated replacement", path=self.path,
                                  field=_CHARSMAP)
        return self.replacements[offset:end], length


_CHARSMAP = "tokenizer.ggml.precompiled_charsmap"


def _charsmap(meta, path):
    blob = meta.get(_CHARSMAP)
    if blob is None:
        return None
    if not isinstance(blob, list) or not all(isinstance(b, int) for b in blob):
        raise SubwordLabError("expected an array of bytes", path=path, field=_CHARSMAP)
    return _Charsmap(bytes(b & 0xFF for b in blob), path)


def _is_chinese(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F
            or 0x2B920 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def _flag(meta, key, default, path):
    value = meta.get(key, default)
    if not isinstance(value, bool):
        raise SubwordLabError("expected true or false", path=path, field=key)
    return value


_UNICODE_TO_BYTE = byte_level.unicode_to_bytes()


def _byte_decode(text):
    out = bytearray()
    for ch in text:
        b = _UNICODE_TO_BYTE.get(ch)
        if b is None:  # llama.cpp writes the unknown character out, marked
            raw = ch.encode("utf-8", "surrogateescape")
            out += b"[UNK_BYTE_0x" + raw.hex().encode() + text.encode("utf-8", "surrogateescape") + b"]"
        else:
            out.append(b)
    return bytes(out)


def _clean_spaces(data):
    """llama.cpp's clean-up after detokenizing (clean_spaces), pass for pass and in
    place as it does: " ?" " !" " ." " ," lose their space; " ' " loses both spaces;
    " 's" " 'm" " 're" " 've" lose theirs."""
    t = bytearray(data)
    total = len(t)
    end, total = total, 1 if total else 0
    for i in range(1, end):
        x = t[i]
        if t[i - 1] == 32 and x in (63, 33, 46, 44):
            total -= 1
        t[total] = x
        total += 1
    end, total, i = total, 1 if total else 0, 1
    while i < end:
        x = t[i]
        if x == 39 and i + 1 < end and t[i - 1] == 32 and t[i + 1] == 32:
            total -= 1
            i += 1
            t[i] = 0
        t[total] = x
        total += 1
        i += 1
    end, total = total, 1 if total else 0
    for i in range(1, end):
        x = t[i]
        if t[i - 1] == 32 and x == 39 and i + 1 < end:
            x1 = t[i + 1]
            if x1 in (115, 109):  # 's 'm
                total -= 1
            elif x1 not in (116, 100) and i + 2 < end and (x1, t[i + 2]) in ((114, 101),
                                                                              (118, 101)):
                total -= 1  # 're 've
        t[total] = x
        total += 1
    return bytes(t[:total])


def _bpe_merge(units, ranks):
    """Merge lengths of a word: llama.cpp's BPE (lowest merge rank first, leftmost on
    ties), over `units` (one character each)."""
    n = len(units)
    if n < 2:
        return [n] if n else []
    texts = list(units)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    heap = []
    get = ranks.get
    for i in range(n - 1):
        r = get((texts[i], texts[i + 1]))
        if r is not None:
            heap.append((r, i, i + 1, texts[i] + texts[i + 1]))
    heapq.heapify(heap)
    while heap:
        r, left, right, joined = heapq.heappop(heap)
        lt, rt = texts[left], texts[right]
        if not lt or not rt or lt + rt != joined:
            continue
        texts[left] = joined
        texts[right] = ""
        nxt[left] = nxt[right]
        if nxt[right] >= 0:
            prv[nxt[right]] = left
        p = prv[left]
        if p >= 0:
            r2 = get((texts[p], joined))
            if r2 is not None:
                heapq.heappush(heap, (r2, p, left, texts[p] + joined))
        q = nxt[left]
        if q >= 0:
            r2 = get((joined, texts[q]))
            if r2 is not None:
                heapq.heappush(heap, (r2, left, q, joined + texts[q]))
    return [len(t) for t in texts if t]


def _spm_merge(text, token_to_id, scores):
    """Merge lengths of a text: llama.cpp's SPM (highest score of the merged token
    first, leftmost on ties), over characters."""
    n = len(text)
    if n < 2:
        return [n] if n else []
    sizes = [1] * n
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    heap = []
    get = token_to_id.get

    def push(left, right):
        if left < 0 or right < 0:
            return
        joined = text[left:right + sizes[right]]
        i = get(joined)
        if i is not None:
            heapq.heappush(heap, (-scores[i], left, right, len(joined)))
    for i in range(n - 1):
        push(i, i + 1)
    while heap:
        _, left, right, size = heapq.heappop(heap)
        if not sizes[left] or not sizes[right] or sizes[left] + sizes[right] != size:
            continue
        sizes[left] += sizes[right]
        sizes[right] = 0
        nxt[left] = nxt[right]
        if nxt[right] >= 0:
            prv[nxt[right]] = left
        push(prv[left], left)
        push(left, nxt[left])
    return [s for s in sizes if s]

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

from ..core.tables import byte_level
from ..core.errors import SubwordLabError
from . import detokenize, unigram as unigram, wordpiece as wordpiece
from .attrs import (BY_TEXT, CONTROL, END_OF_GENERATION, LSTRIP, NORMAL, RSTRIP,
                         SPACE as _SPACE, TOKEN_TYPES, UNKNOWN, UNUSED, USER_DEFINED)
from .merges import bpe_merge, spm_merge
from .pre_kinds import pre_kind
from .pretokenize import split_words

__all__ = ["GGUFVocab", "SUPPORTED_MODELS"]

SUPPORTED_MODELS = ("gpt2", "gemma4", "llama", "bert", "t5")
_KNOWN_UNSUPPORTED = ("rwkv", "plamo2", "hybriddna", "whitespace", "test")
_ASCII_SPACE = " \t\n\v\f\r"

_SPECIAL_KEYS = [("bos", "bos_token_id"), ("eos", "eos_token_id"), ("eot", "eot_token_id"),
                 ("eom", "eom_token_id"), ("unk", "unknown_token_id"),
                 ("sep", "seperator_token_id"), ("pad", "padding_token_id"),
                 ("mask", "mask_token_id"), ("fim_pre", "fim_pre_token_id"),
                 ("fim_suf", "fim_suf_token_id"), ("fim_mid", "fim_mid_token_id"),
                 ("fim_pad", "fim_pad_token_id"), ("fim_rep", "fim_rep_token_id"),
                 ("fim_sep", "fim_sep_token_id"), ("fim_pre", "prefix_token_id"),
                 ("fim_suf", "suffix_token_id"), ("fim_mid", "middle_token_id")]

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
        self.gemma4_rules = False  # llama.cpp's Gemma 4 type (pre_kinds.py)
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
            self.gemma4_rules = opts["gemma4"]
            if opts["raw"] or opts["utf8"]:
                self.byte_encode, self.escape_whitespaces = False, opts["raw"]
        elif self.kind == "UGM":
            self.escape_whitespaces, self.add_eos = True, True
            specials.update(eos=1, unk=2, pad=0)
            self.charsmap = unigram.charsmap(meta, path)
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
        if self.gemma4_rules:
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
        for name, texts in BY_TEXT.items():
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
        for text in END_OF_GENERATION:
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
                wordpiece.encode(self, text, start, end, ids, starts, ends)
            elif self.kind == "UGM":
                unigram.encode(self, text, start, end, ids, starts, ends)
            else:
                self._bpe(text[start:end], start, ids, starts, ends)
            prev_special = False
        return ids, starts, ends

    def bpe_words(self, text):
        """The words llama.cpp's BPE sees in a raw fragment: (start, end, units, whole)
        with `units` the word as merged (GPT-2's byte characters, or raw text with
        spaces as U+2581) and `whole` true when the word is taken whole."""
        vocab = self.token_to_id
        if self.escape_whitespaces:
            text = text.replace(" ", _SPACE)
        for w0, w1 in split_words(text, self.regex_key):
            word = text[w0:w1]
            units = (byte_level.encode_bytes(word.encode("utf-8", "surrogatepass"))
                     if self.byte_encode else word)
            whole = units in vocab and (self.ignore_merges or (
                self.gemma4_rules and not word.strip("\n")))
            yield w0, w1, units, whole

    def fallback_ids(self, piece):
        """The ids llama.cpp gives a merged piece that is not a token: its bytes'."""
        out = []
        for b in piece.encode("utf-8", "surrogateescape"):
            if self.byte_encode:
                key = chr(b) if b < 128 else bytes([b]).decode("utf-8", "surrogateescape")
            else:
                key = f"<0x{b:02X}>"
            j = self.token_to_id.get(key)
            if j is not None:
                out.append(j)
        return out

    def _bpe(self, text, base, ids, starts, ends):
        token_to_id = self.token_to_id.get
        for w0, w1, units, whole in self.bpe_words(text):
            word = text[w0:w1]
            if self.byte_encode:
                owner = [w0 + i for i, ch in enumerate(word)
                         for _ in range(len(ch.encode("utf-8", "surrogatepass")))]
            else:
                owner = list(range(w0, w1))
            at = 0
            for length in [len(units)] if whole else bpe_merge(units, self.ranks):
                piece = units[at:at + length]
                span = (base + owner[at], base + owner[at + length - 1] + 1)
                i = token_to_id(piece)
                found = [i] if i is not None else self.fallback_ids(piece)
                ids.extend(found)
                starts.extend([span[0]] * len(found))
                ends.extend([span[1]] * len(found))
                at += length

    def _spm(self, text, base, prev_special, ids, starts, ends):
        shift = 1 if self.add_space_prefix and prev_special else 0
        escaped = (" " * shift + text).replace(" ", _SPACE)
        lengths = spm_merge(escaped, self.token_to_id, self.scores)
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
                found = self.spm_byte_ids(piece)
                ids.extend(found)
                starts.extend([lo] * len(found))
                ends.extend([hi] * len(found))
            at += length

    def spm_byte_ids(self, piece):
        """The ids llama.cpp's SPM gives a merged piece that is not a token: its
        bytes' tokens, <0xNN> or else the byte's own character."""
        out = []
        for b in piece.encode("utf-8", "surrogatepass"):
            j = self.token_to_id.get(f"<0x{b:02X}>")
            if j is None:
                j = self.token_to_id.get(chr(b) if b < 128 else
                                         bytes([b]).decode("utf-8", "surrogateescape"))
            if j is None:
                raise SubwordLabError(f"no token for the byte 0x{b:02X} (llama.cpp "
                                      "fails here too)", path=self.path,
                                      field="tokenizer.ggml.tokens")
            out.append(j)
        return out

    def piece(self, i, special):
        """llama.cpp's token_to_piece, as bytes."""
        return detokenize.piece(self, i, special)

    def decode_bytes(self, ids, special=False):
        """llama_detokenize(ids, remove_special=False, unparse_special=special)."""
        return detokenize.decode_bytes(self, ids, special)


def _flag(meta, key, default, path):
    value = meta.get(key, default)
    if not isinstance(value, bool):
        raise SubwordLabError("expected true or false", path=path, field=key)
    return value



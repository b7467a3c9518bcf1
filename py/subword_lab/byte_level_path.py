"""The fast encode path for byte-level BPE (GPT-2, tiktoken files, Llama 3, Qwen, ...).

When nothing needs the general pipeline's per-piece objects (no events asked for,
no normalizer, a pre-tokenizer that is just "split with one regex, then bytes",
a BPE model without dropout or affixes), a text is encoded straight from regex
matches: each piece is turned into byte-level characters, the model gives its
ids and spans (`BPE.encode_word`, cached per word), and the Encoding is filled
in arrays (`Encoding.compact`). The result is the same as the general path's;
tests/python/test_byte_level_path.py compares the two.
"""
from __future__ import annotations

import re
from array import array

from . import pre_tokenizers
from .core import byte_level
from .encoding import Encoding
from .models.bpe import BPE

__all__ = ["plan", "encode"]

_ASCII = {b: c for b, c in byte_level.bytes_to_unicode().items() if b < 128}


def plan(tok):
    """(regex, model) when `tok` can take the fast path, else None."""
    model = tok._model
    if (type(model) is not BPE or model.dropout or model.continuing_subword_prefix
            or model.end_of_word_suffix or tok._normalizer is not None):
        return None
    regex = _split_regex(tok.pre_tokenizer)
    if regex is None or not _has_byte_alphabet(model):
        return None
    return regex, model


def _split_regex(pre):
    """The one regex a byte-level pre-tokenizer splits with ("isolated"), or None."""
    bl = pre_tokenizers.ByteLevel
    if type(pre) is bl:
        if pre.use_regex and not pre.add_prefix_space:
            regex = byte_level.gpt2_regex()
            return regex if type(regex) is re.Pattern else None
        return None
    if type(pre) is not pre_tokenizers.Sequence or len(pre.pretokenizers) != 2:
        return None
    split, last = pre.pretokenizers
    if (type(split) is not pre_tokenizers.Split or split.behavior != "isolated" or split.invert
            or type(last) is not bl or last.use_regex or last.add_prefix_space):
        return None
    regex = getattr(split, "_compiled", None)
    return regex if type(regex) is re.Pattern else None


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
    regex, model = plan_
    pts = tok._extract_and_normalize(text, type_id, None)
    splits = pts.splits
    for split in splits:
        if split.tokens is None and getattr(split.normalized, "_align", False) is not None:
            return None
    ids, starts, ends, words = array("I"), array("I"), array("I"), array("i")
    added = {}  # token index -> text of an added token (its string is not the model's)
    encode_word = model.encode_word
    finditer = regex.finditer
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
                ids.append(id_); starts.append(start); ends.append(end)
                words.append(piece if word_index is None else word_index)
            piece += 1
            continue
        s = ns.normalized
        shift = ns.original_shift
        prev = 0
        for m in finditer(s):
            a, b = m.span()
            if prev < a:
                piece = _piece(s, prev, a, shift, piece, word_index, encode_word,
                               ids, starts, ends, words)
            if a < b:
                piece = _piece(s, a, b, shift, piece, word_index, encode_word,
                               ids, starts, ends, words)
            prev = b
        if prev < len(s):
            piece = _piece(s, prev, len(s), shift, piece, word_index, encode_word,
                           ids, starts, ends, words)
    return Encoding.compact(ids, type_id, starts, ends, words, _token_strings(model, added))


def _piece(s, a, b, shift, piece, word_index, encode_word, ids, starts, ends, words):
    text = s[a:b]
    base = shift + a
    if text.isascii():
        pid, ps, pe = encode_word(text.translate(_ASCII))
        starts.extend([base + x for x in ps])
        ends.extend([base + x for x in pe])
    else:
        pid, ps, pe = encode_word(byte_level.encode_text(text))
        char_of = []
        for i, ch in enumerate(text):
            char_of.extend([base + i] * len(ch.encode("utf-8", "surrogatepass")))
        starts.extend([char_of[x] for x in ps])
        ends.extend([char_of[x - 1] + 1 for x in pe])
    ids.extend(pid)
    words.extend([piece if word_index is None else word_index] * len(pid))
    return piece + 1


def _token_strings(model, added):
    def make(ids):
        r = model.vocab_r
        out = list(map(r.get, ids))
        for k, value in added.items():
            out[k] = value
        return out
    return make

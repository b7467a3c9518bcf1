"""DecodeStream against tokenizers' DecodeStream, step by step, on real files.

A stream returns the text its new ids add, or None while the text ends in an
incomplete character. Byte tokens split characters: byte fallback (<0xE0>...
in Llama 2) and byte-level BPE (DeepSeek V3, GPT-2) both do. Each text is encoded by
tokenizers, then fed to both streams in the same random chunks, with and
without ids given up front; every step must return what tokenizers returns.
"""
from __future__ import annotations

import random

import pytest
import tokenizers

import assets
from subword_lab import Tokenizer
from subword_lab.decoders import DecodeStream

TEXTS = ["\u0e2d\u0e31", "\u2a6b\u3b9e \U0001d518\U00020000 \u0e4f\u0e5b", "Hello \u0e2d\u0e31 world", "na\u00efve caf\u00e9 \U0001f642\U0001f44d\U0001f3fd",
         "\u4eac\u90fd\u306e\u6625 \ud55c\uad6d\uc5b4 \u0645\u0631\u062d\u0628\u0627", "\u0915\u094d\u0937 \u0e41\u0e21\u0e27 abc"]


def _chunks(rng, ids):
    out, i = [], 0
    while i < len(ids):
        k = rng.choice([1, 1, 1, 2, 3])
        out.append(ids[i:i + k])
        i += k
    return out


@pytest.mark.parametrize("name", ["llama2.tokenizer.json", "deepseek-v3.tokenizer.json",
                                  "gpt2.tokenizer.json"])
def test_decode_stream_steps_match_tokenizers(name):
    path = assets.fetch([name], quiet=True)[name]
    ref = tokenizers.Tokenizer.from_file(str(path))
    ours = Tokenizer.from_file(str(path))
    rng = random.Random(27)
    partial = 0
    for text in TEXTS:
        ids = ref.encode(text, add_special_tokens=False).ids
        for _ in range(20):
            cut = rng.randint(0, len(ids) - 1)
            for given in (None, ids[:cut]):
                ref_stream = tokenizers.decoders.DecodeStream(given) if given else \
                    tokenizers.decoders.DecodeStream()
                our_stream = DecodeStream(given) if given else DecodeStream()
                rest = ids[cut:] if given else ids
                for chunk in _chunks(rng, rest):
                    expected = ref_stream.step(ref, chunk if len(chunk) > 1 else chunk[0])
                    got = our_stream.step(ours, chunk if len(chunk) > 1 else chunk[0])
                    assert got == expected, (text, given, chunk)
                    partial += expected is None
    assert partial > 0  # some steps did end inside a character


def test_byte_fallback_characters_as_tokenizers():
    # tokenizers' test_decode_stream_fallback (Thai from gpt2's byte tokens), on
    # Llama 2's byte-fallback tokens: "\u2a6b\u3b9e" is six <0x..> tokens.
    path = assets.fetch(["llama2.tokenizer.json"], quiet=True)["llama2.tokenizer.json"]
    ref = tokenizers.Tokenizer.from_file(str(path))
    ours = Tokenizer.from_file(str(path))
    ids = ref.encode("\u2a6b\u3b9e", add_special_tokens=False).ids
    assert len(ids) == 7 and ours.encode("\u2a6b\u3b9e", add_special_tokens=False).ids == ids
    for cut in range(1, len(ids)):  # ids given up front that end inside a character
        expected = tokenizers.decoders.DecodeStream(ids[:cut]).step(ref, ids[cut:])
        assert expected
        assert DecodeStream(ids[:cut]).step(ours, ids[cut:]) == expected
    for cut in range(1, len(ids)):  # a step that ends inside a character, then the rest
        ref_stream, our_stream = tokenizers.decoders.DecodeStream(), DecodeStream()
        assert our_stream.step(ours, ids[:cut]) == ref_stream.step(ref, ids[:cut])
        assert our_stream.step(ours, ids[cut:]) == ref_stream.step(ref, ids[cut:])


def test_gpt2_thai_from_byte_tokens_every_split_as_tokenizers():
    # tokenizers' test_decode_stream_fallback on gpt2's own file: "\u0e2d\u0e31" is
    # four ids, two of them bytes that end inside a character. Every way of
    # giving them (some up front, the rest in steps of any size) returns what
    # tokenizers returns, step by step.
    name = "gpt2.tokenizer.json"
    path = assets.fetch([name], quiet=True)[name]
    ref, ours = tokenizers.Tokenizer.from_file(str(path)), Tokenizer.from_file(str(path))
    ids = ref.encode("\u0e2d\u0e31").ids
    assert ids == ours.encode("\u0e2d\u0e31").ids and len(ids) == 4
    whole = 0
    for given in range(len(ids)):
        for cuts in range(1 << (len(ids) - given - 1)):  # every split of the rest
            chunks, start = [], given
            for k in range(given + 1, len(ids) + 1):
                if k == len(ids) or cuts >> (k - given - 1) & 1:
                    chunks.append(ids[start:k])
                    start = k
            ref_stream = tokenizers.decoders.DecodeStream(ids[:given])
            our_stream = DecodeStream(ids[:given])
            steps = [(ref_stream.step(ref, c), our_stream.step(ours, c)) for c in chunks]
            assert [b for _, b in steps] == [a for a, _ in steps], (given, chunks)
            whole += steps[-1][0] == "\u0e2d\u0e31"
    assert whole > 0  # some ways end in the whole text at once

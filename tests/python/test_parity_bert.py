"""Parity with `tokenizers` on bert-base-uncased's real tokenizer.json.

Every line of botchan.txt and of tests/data/multilingual.txt must give the same
ids, tokens and offsets (character offsets, as the HF Python binding returns);
pairs and the file's own truncation + padding are compared on every field.
The helpers here (`view`, `mismatches`) are shared by the other parity tests.
"""
from __future__ import annotations

import pytest
import tokenizers

from subword_lab import Tokenizer

RAW = ("ids", "tokens", "offsets")
FULL = ("ids", "tokens", "offsets", "type_ids", "attention_mask", "special_tokens_mask",
        "word_ids", "sequence_ids")


def view(encoding, fields=FULL):
    """The fields of an Encoding (ours or HF's) as plain comparable lists."""
    out = {}
    for name in fields:
        value = getattr(encoding, name)
        out[name] = [tuple(v) for v in value] if name == "offsets" else list(value)
    return out


def mismatches(ours, theirs, inputs, fields=FULL, limit=5, overflowing=True, **kwargs):
    """Encode every input with both; list (input, first differing field) where they differ."""
    found = []
    for item in inputs:
        args = item if isinstance(item, tuple) else (item,)
        a, b = ours.encode(*args, **kwargs), theirs.encode(*args, **kwargs)
        va, vb = view(a, fields), view(b, fields)
        if overflowing:
            va["overflowing"] = [view(o, fields) for o in a.overflowing]
            vb["overflowing"] = [view(o, fields) for o in b.overflowing]
        if va != vb:
            found.append((item, _first_difference(va, vb)))
            if len(found) >= limit:
                break
    return found


def _first_difference(a, b):
    for key in a:
        if a[key] != b.get(key):
            return {"field": key, "ours": a[key], "tokenizers": b.get(key)}
    return {}


@pytest.fixture(scope="module")
def pair_of_tokenizers(bert_json):
    """Ours and HF's, both loaded from the same file, truncation and padding off."""
    ours, theirs = Tokenizer.from_file(bert_json), tokenizers.Tokenizer.from_file(str(bert_json))
    for tok in (ours, theirs):
        tok.no_truncation()
        tok.no_padding()
    return ours, theirs


def test_the_file_really_has_truncation_and_padding(bert_json):
    tok = Tokenizer.from_file(bert_json)
    theirs = tokenizers.Tokenizer.from_file(str(bert_json))
    assert tok.truncation == theirs.truncation and tok.truncation["max_length"] == 128
    assert tok.padding == theirs.padding and tok.padding["length"] == 128


def test_botchan_every_line(pair_of_tokenizers, botchan_lines):
    ours, theirs = pair_of_tokenizers
    assert len(botchan_lines) > 4000
    assert mismatches(ours, theirs, botchan_lines) == []


def test_multilingual_every_line(pair_of_tokenizers, multilingual_lines):
    ours, theirs = pair_of_tokenizers
    assert len(multilingual_lines) >= 60
    assert mismatches(ours, theirs, multilingual_lines) == []


def test_without_special_tokens(pair_of_tokenizers, botchan_lines, multilingual_lines):
    ours, theirs = pair_of_tokenizers
    inputs = botchan_lines[::7] + multilingual_lines
    assert mismatches(ours, theirs, inputs, add_special_tokens=False) == []


def test_pairs(pair_of_tokenizers, botchan_lines, multilingual_lines):
    ours, theirs = pair_of_tokenizers
    lines = botchan_lines[:400] + multilingual_lines
    pairs = list(zip(lines[::2], lines[1::2]))
    assert mismatches(ours, theirs, pairs) == []
    assert mismatches(ours, theirs, pairs[:50], add_special_tokens=False) == []


def test_the_files_own_truncation_and_padding(bert_json, botchan_lines, multilingual_lines):
    """As loaded: max_length 128 and Fixed-128 padding, on lines and on long texts."""
    ours, theirs = Tokenizer.from_file(bert_json), tokenizers.Tokenizer.from_file(str(bert_json))
    long_texts = [" ".join(botchan_lines[i:i + 40]) for i in range(0, 400, 40)]
    long_texts.append(" ".join(multilingual_lines))
    inputs = botchan_lines[::11] + multilingual_lines + long_texts
    assert mismatches(ours, theirs, inputs) == []
    pairs = [(long_texts[i], long_texts[i + 1]) for i in range(len(long_texts) - 1)]
    pairs += [(botchan_lines[i], long_texts[0]) for i in range(0, 60, 3)]
    assert mismatches(ours, theirs, pairs) == []
    encoding = ours.encode(long_texts[0])
    assert len(encoding.ids) == 128 and encoding.overflowing  # truncation really happened
    short = ours.encode("short")
    assert short.attention_mask.count(0) == 128 - 3  # padding really happened


def test_pretokenized_input(pair_of_tokenizers, botchan_lines):
    """Each word is encoded on its own, offsets relative to the word, word id = index.

    The binding's own is_pretokenized path needs numpy (not installed), so the
    oracle is built from its parts: every word encoded by tokenizers, merged by
    tokenizers.Encoding.merge and post-processed by tokenizers."""
    ours, theirs = pair_of_tokenizers
    inputs = [line.split() for line in botchan_lines[:300] if line.strip()]
    inputs.append(["Hello", "[SEP]world", "naïve", "", "  "])
    fields = ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask")

    def oracle(words, pair=None):
        def merged(ws):
            parts = [theirs.encode(w, add_special_tokens=False) for w in ws]
            return tokenizers.Encoding.merge(parts, growing_offsets=False)
        return theirs.post_process(merged(words), None if pair is None else merged(pair))

    found = []
    for words in inputs:
        a = ours.encode(words, is_pretokenized=True)
        if view(a, fields) != view(oracle(words), fields):
            found.append(words)
        expected_words = [i for i, w in enumerate(words)
                          for _ in theirs.encode(w, add_special_tokens=False).ids]
        assert [w for w in a.word_ids if w is not None] == expected_words
    assert found == []
    a = ours.encode(inputs[0], inputs[1], is_pretokenized=True)
    assert view(a, fields) == view(oracle(inputs[0], inputs[1]), fields)


def test_batch_with_padding_to_the_longest(pair_of_tokenizers, multilingual_lines):
    ours, theirs = pair_of_tokenizers
    for tok in (ours, theirs):
        tok.enable_padding(pad_to_multiple_of=8)
    try:
        batch = multilingual_lines[:20] + [(multilingual_lines[0], multilingual_lines[5])]
        a = [view(e) for e in ours.encode_batch(batch)]
        b = [view(e) for e in theirs.encode_batch(batch)]
        assert a == b
        assert len({len(v["ids"]) for v in a}) == 1 and len(a[0]["ids"]) % 8 == 0
    finally:
        for tok in (ours, theirs):
            tok.no_padding()


def test_decode(pair_of_tokenizers, botchan_lines, multilingual_lines):
    ours, theirs = pair_of_tokenizers
    for line in botchan_lines[:500:5] + multilingual_lines:
        ids = theirs.encode(line).ids
        assert ours.decode(ids) == theirs.decode(ids)
        assert ours.decode(ids, skip_special_tokens=False) == \
            theirs.decode(ids, skip_special_tokens=False)

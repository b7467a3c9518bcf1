"""Arbitrary Unicode through the whole pipeline (hypothesis).

bert-base-uncased and a byte-level BPE trained here: encoding never raises,
offsets stay inside the text and never go backwards, the results equal
`tokenizers`' and byte-level BPE decodes back to the exact input.
"""
from __future__ import annotations

import pytest
import tokenizers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import decoders, models, pre_tokenizers, processors, trainers

from subword_lab import Tokenizer
from test_parity_bert import RAW, view

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

# whole Unicode, with extra weight on what breaks tokenizers: marks, joiners,
# spaces of every kind, CJK, emoji and astral characters
TRICKY = st.sampled_from(list(" \t\n\r\u00a0\u200b\u200c\u200d\ufeff\u0301\u0308\u3000"
                              "\u2028é中ü한😀👍🏽🇯\U0001f1f5#'-.,!?[]") + ["[CLS]", "[SEP]", "<s>"])
# (lone surrogates are not text: Python strs can hold them, tokenizers refuses them)
CHARS = st.characters(exclude_categories=("Cs",))
TEXT = st.lists(st.one_of(CHARS, TRICKY), max_size=40).map("".join) | st.text(CHARS)


@pytest.fixture(scope="module")
def bert(bert_json):
    ours, theirs = Tokenizer.from_file(bert_json), tokenizers.Tokenizer.from_file(str(bert_json))
    for tok in (ours, theirs):
        tok.no_truncation()
        tok.no_padding()
    return ours, theirs


@pytest.fixture(scope="module")
def byte_bpe(botchan_lines):
    theirs = tokenizers.Tokenizer(models.BPE())
    theirs.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    theirs.decoder = decoders.ByteLevel()
    theirs.post_processor = processors.ByteLevel(trim_offsets=True)
    theirs.train_from_iterator(botchan_lines, trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<s>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return Tokenizer.from_str(theirs.to_str()), theirs


def _check_offsets(encoding, text):
    last_start = last_end = 0
    for (start, end), special in zip(encoding.offsets, encoding.special_tokens_mask):
        if special:
            continue
        assert 0 <= start <= end <= len(text)
        assert start >= last_start and end >= last_end, "offsets went backwards"
        last_start, last_end = start, end


@SETTINGS
@given(text=TEXT)
def test_bert_arbitrary_unicode(bert, text):
    ours, theirs = bert
    encoding = ours.encode(text)
    _check_offsets(encoding, text)
    assert view(encoding, RAW) == view(theirs.encode(text), RAW)


@SETTINGS
@given(text=TEXT, pair=TEXT)
def test_bert_arbitrary_pairs(bert, text, pair):
    ours, theirs = bert
    assert view(ours.encode(text, pair)) == view(theirs.encode(text, pair))


@SETTINGS
@given(text=TEXT)
def test_byte_level_bpe_arbitrary_unicode(byte_bpe, text):
    ours, theirs = byte_bpe
    encoding = ours.encode(text)
    _check_offsets(encoding, text)
    assert view(encoding, RAW) == view(theirs.encode(text), RAW)
    # special tokens typed in the text are kept, so the text comes back whole
    assert ours.decode(encoding.ids, skip_special_tokens=False) == text
    assert ours.decode(encoding.ids) == theirs.decode(encoding.ids)

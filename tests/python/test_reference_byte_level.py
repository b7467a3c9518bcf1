"""GPT-2's byte-level pre-tokenization (pre_tokenizers.ByteLevel) equals the plain
reference (reference.byte_level): the same pieces, spelled the same, at the same
offsets, on generated texts mixing letters, digits, symbols, contractions and every
kind of whitespace run; and the same pre_tokenize event as real GPT-2 reports.

The reference reads character classes from Python's unicodedata, the fast path from
tables generated from tokenizers, so the texts keep to characters both agree on.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_helpers import Named
from subword_lab import load
from subword_lab.core.tables import byte_level as fast_table
from subword_lab.pre_tokenizers import ByteLevel
from subword_lab.reference import byte_level as reference

SETTINGS = settings(max_examples=300, deadline=None)
PARTS = st.sampled_from(["a", "Z", "é", "中", "7", "²", "!", "'", "-", "😀", " ", "  ", "\n", "\t",
                         "'s", "'re", "'ll", "'d", "'x", "ab", "12"])
TEXTS = st.lists(PARTS, max_size=25).map("".join)


def test_the_byte_table_is_gpt2s():
    assert reference.byte_characters() == fast_table.bytes_to_unicode()


@SETTINGS
@given(text=TEXTS)
def test_byte_level_split_equals_the_reference(text):
    fast = ByteLevel(add_prefix_space=False, use_regex=True).pre_tokenize_str(text)
    expected = reference.pre_tokenize(text)
    assert [(p, list(o)) for p, o in fast] == [(p["text"], p["offsets"]) for p in expected]


@pytest.fixture(scope="module")
def gpt2(gpt2_tiktoken):
    return Named("gpt2", load(gpt2_tiktoken))


@settings(max_examples=60, deadline=None)
@given(text=TEXTS)
def test_gpt2s_pre_tokenize_event_equals_the_reference(gpt2, text):
    (tokenizer,) = gpt2
    events = []
    tokenizer.encode(text, on_event=events.append)
    expected = []
    reference.pre_tokenize(text, on_event=expected.append)
    assert [e for e in events if e["type"] == "pre_tokenize"] == expected

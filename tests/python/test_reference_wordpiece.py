"""The fast WordPiece (models.WordPiece) equals the plain reference (reference.wordpiece).

Generated vocabularies (first pieces and "##" pieces over a small alphabet, many cut
from the word itself; a length limit) and generated words: the untraced fast path
(prefix tables, the whole-word shortcut) gives the reference's tokens, and the traced
path gives the reference's events, one for one. Last, real bert-base-uncased on real text.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from subword_lab import Tokenizer
from subword_lab.models import WordPiece
from reference_helpers import Named, model_events, model_words, rows
from subword_lab.reference import wordpiece as reference

SETTINGS = settings(max_examples=200, deadline=None)
LETTERS = "abcé中"


@st.composite
def vocabularies(draw, word):
    """Random pieces, and pieces cut from `word` itself (at its start: first pieces;
    elsewhere: "##" pieces), so that a shorter and a longer match often both exist
    where the greedy search stands."""
    pieces = st.text(st.sampled_from(LETTERS), min_size=1, max_size=4)
    firsts = draw(st.lists(pieces, max_size=12))
    rests = draw(st.lists(pieces, max_size=12))
    cuts = st.tuples(st.integers(0, len(word) - 1), st.integers(1, 4))
    for start, length in draw(st.lists(cuts, max_size=8)):
        (firsts if start == 0 else rests).append(word[start:start + length])
    tokens = list(dict.fromkeys(["[UNK]"] + firsts + ["##" + p for p in rests]))
    return {t: i for i, t in enumerate(tokens)}


@SETTINGS
@given(data=st.data(), word=st.text(st.sampled_from(LETTERS + "x"), min_size=1, max_size=12),
       limit=st.sampled_from([100, 8, 3]))
def test_generated_vocabularies_equal_the_reference(data, word, limit):
    vocab = data.draw(vocabularies(word))
    model = WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=limit)
    expected_events = []
    expected = reference.encode(model, word, on_event=expected_events.append)
    assert rows(model.tokenize(word)) == expected
    events = []
    assert rows(model.tokenize(word, on_event=events.append)) == expected
    assert events == expected_events


@pytest.fixture(scope="module")
def bert(bert_json):
    tokenizer = Tokenizer.from_file(bert_json)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return Named("bert-base-uncased", tokenizer)


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.sampled_from("unaffable tokenizers héllo 2026 中文 ✓ xqzj,.!"), max_size=60))
def test_bert_on_text_equals_the_reference(bert, text):
    """Real bert-base-uncased: each pre-tokenized word as the reference matches it."""
    (tokenizer,) = bert
    events = []
    encoding = tokenizer.encode(text, on_event=events.append)
    words = model_words(events)
    expected_events = []
    expected = [row[0] for word in words
                for row in reference.encode(tokenizer.model, word, on_event=expected_events.append)]
    assert tokenizer.encode(text).tokens[1:-1] == encoding.tokens[1:-1] == expected
    assert model_events(events, "wordpiece.") == expected_events

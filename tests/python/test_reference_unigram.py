"""The fast Unigram (models.Unigram) equals the plain reference (reference.unigram).

Generated vocabularies (pieces over a small alphabet, scores drawn from a few
values so that paths tie, an unknown piece or none, byte fallback) and generated
words: the untraced fast path (prefix table, cache) gives the reference's tokens,
the traced path gives the reference's events one for one, and both refuse an
unknown character when there is no unknown piece. Last, a real sentencepiece
Unigram model (botchan) on real text.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_helpers import Named, model_events, model_words, rows
from subword_lab import SubwordLabError, load
from subword_lab.models import Unigram
from subword_lab.reference import unigram as reference

SETTINGS = settings(max_examples=200, deadline=None)
LETTERS = "abcé中"
# a piece often scores minus its length: then every cut of the same characters ties
SCORES = st.just("length") | st.integers(-4, -1).map(float) | st.floats(-12.0, -0.1)
WORDS = st.text(st.sampled_from("abé") | st.sampled_from(LETTERS + "x"), min_size=1, max_size=8)


@st.composite
def unigram_models(draw, word):
    """A model whose pieces are mostly substrings of `word` (so its lattice is rich)."""
    substrings = sorted({word[a:a + n] for a in range(len(word)) for n in (1, 2, 3)})
    slices = [p for p in substrings if draw(st.booleans())]
    others = draw(st.lists(st.text(st.sampled_from(LETTERS), min_size=1, max_size=4), max_size=4))
    pieces = [p for p in slices + others if p and "x" not in p]
    vocab = [(p, score) for p in pieces
             for score in [draw(SCORES)] for score in [-len(p) if score == "length" else score]]
    unk = draw(st.sampled_from([True, True, True, False]))
    if unk:
        vocab.insert(0, ("<unk>", 0.0))
    byte_fallback = draw(st.booleans())
    if byte_fallback:
        vocab += [(f"<0x{b:02X}>", 0.0) for b in range(256)]
    if not vocab:
        vocab = [("a", -1.0)]
    return Unigram(vocab, unk_id=0 if unk else None, byte_fallback=byte_fallback)


@SETTINGS
@given(st.data())
def test_generated_models_equal_the_reference(data):
    word = data.draw(WORDS)
    model = data.draw(unigram_models(word))
    expected_events = []
    try:
        expected = reference.encode(model, word, on_event=expected_events.append)
    except ValueError:
        with pytest.raises(SubwordLabError, match="unk_id"):
            model.tokenize(word)
        with pytest.raises(SubwordLabError, match="unk_id"):
            model.tokenize(word, on_event=[].append)
        return
    assert rows(model.tokenize(word)) == expected
    assert rows(model.tokenize(word)) == expected  # again, from the cache
    events = []
    assert rows(model.tokenize(word, on_event=events.append)) == expected
    assert events == expected_events


@pytest.fixture(scope="module")
def botchan(botchan_unigram_model):
    return Named("botchan_en_unigram_1000", load(botchan_unigram_model))


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.sampled_from("Botchan said the tokenizer ran 2026 héllo 中文 ✓ qz,.!"),
                    max_size=60))
def test_botchan_on_text_equals_the_reference(botchan, text):
    """A real sentencepiece model: each word as the reference's Viterbi cuts it."""
    (tokenizer,) = botchan
    events = []
    encoding = tokenizer.encode(text, on_event=events.append)
    expected_events = []
    expected = [row[1] for word in model_words(events)
                for row in reference.encode(tokenizer.model, word, on_event=expected_events.append)]
    model_ids = [i for i, special in zip(encoding.ids, encoding.special_tokens_mask) if not special]
    assert model_ids == expected
    assert tokenizer.encode(text).ids == encoding.ids
    assert model_events(events, "unigram.") == expected_events

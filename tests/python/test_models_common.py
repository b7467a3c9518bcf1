"""Shared oracle helpers for the model tests, and the model-level format checks.

The oracle is Hugging Face `tokenizers`: a Tokenizer holding only the model (no
normalizer, no pre-tokenizer, no post-processor), built from the very dict our
model wrote with to_dict(), so every comparison also proves that HF loads our files.
"""
from __future__ import annotations

import json
import re

import pytest
import tokenizers
from hypothesis import given, settings, strategies as st

from subword_lab import models
from subword_lab.core.errors import SubwordLabError


def hf_from_model_dict(model_dict: dict) -> tokenizers.Tokenizer:
    doc = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
           "normalizer": None, "pre_tokenizer": None, "post_processor": None,
           "decoder": None, "model": model_dict}
    return tokenizers.Tokenizer.from_str(json.dumps(doc))


def model_dict_of(hf: tokenizers.Tokenizer) -> dict:
    return json.loads(hf.to_str())["model"]


def with_tokenizers_scores(ours):
    """(ours, hf): `ours` rebuilt with the scores tokenizers holds after reading its JSON,
    and that reading. tokenizers reads floats as serde_json does, not correctly rounded,
    so a long score can come back one unit in the last place; where two segmentations tie
    to within that unit, the same model would cut a word two ways. What tokenizers then
    writes, read here exactly, is what it holds."""
    hf = hf_from_model_dict(ours.to_dict())
    return models.from_dict(model_dict_of(hf)), hf


def mismatches(ours, hf: tokenizers.Tokenizer, words) -> list:
    """Every word whose ids, token strings or char offsets differ from HF's."""
    bad = []
    for word, enc in zip(words, hf.encode_batch(list(words), add_special_tokens=False)):
        got = ours.tokenize(word)
        mine = ([t.id for t in got], [t.value for t in got], [tuple(t.offsets) for t in got])
        theirs = (enc.ids, enc.tokens, [tuple(o) for o in enc.offsets])
        if mine != theirs:
            bad.append((word, mine, theirs))
    return bad


def words_of(text: str) -> list:
    return text.split()


# Words no English corpus has: scripts, combining marks, emoji with joiners,
# zero-width characters, so unknown, fused-unknown and byte-fallback paths run.
EXOTIC = ("naïve café Ἀθῆναι Привет мир こんにちは 世界 한국어 مرحبا שלום नमस्ते "
          "ภาษาไทย ሰላም 👩‍👩‍👧 👍🏽 e\u0301 a\u200bb x\u200dy \u00a0 ǅ ﬁ Ⅻ ①② "
          "https://example.com/a?b=c&d=e def(x):return{x:[1,2]} ~`^|\\ ∑∫√∞ 🇯🇵 "
          "Zürich Ærøskøbing İstanbul ß ΣΑΣ").split(" ")


def test_from_dict_dispatches_on_type_and_guesses_old_files():
    wp = {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
          "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "a": 1}}
    assert isinstance(models.from_dict(wp), models.WordPiece)
    del wp["type"]
    assert isinstance(models.from_dict(wp), models.WordPiece)
    assert isinstance(models.from_dict({"vocab": [["a", -1.0]], "unk_id": None}), models.Unigram)
    assert isinstance(models.from_dict({"vocab": {"a": 0}, "merges": []}), models.BPE)
    assert isinstance(models.from_dict({"vocab": {"a": 0}, "unk_token": "a"}), models.WordLevel)


@pytest.mark.parametrize("d, field", [
    ({"type": "Nope", "vocab": {}}, "model.type"),
    ({"type": "BPE", "vocab": {"a": 0}}, "model.merges"),
    ({"type": "BPE", "merges": []}, "model.vocab"),
    ({"type": "BPE", "vocab": {"a": 0}, "merges": ["a b"]}, "model.merges"),
    ({"type": "BPE", "vocab": {"a": 0}, "merges": ["a b c"]}, "model.merges"),
    ({"type": "BPE", "vocab": {"a": 0}, "merges": [], "dropout": 2.0}, "model.dropout"),
    ({"type": "BPE", "vocab": {"a": "zero"}, "merges": []}, "model.vocab"),
    ({"type": "WordPiece", "vocab": {"a": 0}, "unk_token": "[UNK]",
      "continuing_subword_prefix": "##"}, "model.max_input_chars_per_word"),
    ({"type": "Unigram", "vocab": [["a", "high"]]}, "model.vocab"),
    ({"type": "Unigram", "vocab": [["a", -1.0]], "unk_id": 3}, "model.unk_id"),
    ({"type": "WordLevel", "vocab": {"a": 0}}, "model.unk_token"),
])
def test_bad_model_dicts_raise_one_error_type_naming_the_field(d, field):
    with pytest.raises(SubwordLabError) as info:
        models.from_dict(d)
    assert info.value.field == field
    assert str(info.value).startswith(field + ": ")


def test_unknown_without_unk_is_a_clear_error():
    with pytest.raises(SubwordLabError, match=re.escape("model.unk_token")):
        models.WordPiece({"a": 0}).tokenize("b")
    # Unigram's message is tokenizers' own words (code written for it matches on them)
    with pytest.raises(SubwordLabError, match=re.escape("`unk_id` is missing")):
        models.Unigram([("a", -1.0)]).tokenize("ab")


@pytest.mark.parametrize("model", [
    models.WordPiece({"[UNK]": 0, "a": 1, "##b": 2}, max_input_chars_per_word=7),
    models.BPE({"<unk>": 0, "a": 1, "b": 2, "ab": 3}, [("a", "b")], unk_token="<unk>",
               fuse_unk=True, ignore_merges=True),
    models.Unigram([("<unk>", 0.0), ("a", -1.5), ("ab", -2.25)], unk_id=0, byte_fallback=False),
    models.WordLevel({"<unk>": 0, "ab": 1}, unk_token="<unk>"),
])
def test_to_dict_round_trips_here_and_in_tokenizers(model):
    d = model.to_dict()
    json.dumps(d)
    again = models.from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d
    hf = hf_from_model_dict(d)
    assert model_dict_of(hf) == d
    assert not mismatches(again, hf, ["ab", "aab", "abba", "b", "xaby", "abababab"])
    assert again.get_vocab() == hf.get_vocab() and again.get_vocab_size() == hf.get_vocab_size()
    for token, i in hf.get_vocab().items():
        assert again.token_to_id(token) == i and again.id_to_token(i) == token


_ANY = st.text(st.characters(codec="utf-8"), max_size=40)
_MODELS = [
    models.WordPiece({"[UNK]": 0, "a": 1, "##a": 2, "é": 3, "##b": 4}),
    models.BPE({"<unk>": 0, "a": 1, "b": 2, "ab": 3, "<0xC3>": 4, "<0xA9>": 5}, [("a", "b")],
               unk_token="<unk>", fuse_unk=True, byte_fallback=True),
    models.BPE({"a": 0, "b": 1, "ab": 2, "<0xC3>": 3, "<0xA9>": 4}, [("a", "b")],
               byte_fallback=True),
    models.Unigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.5), ("<0xC3>", -9.0), ("<0xA9>", -9.0)],
                   unk_id=0, byte_fallback=True),
]
_ORACLES = [hf_from_model_dict(m.to_dict()) for m in _MODELS]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_ANY, st.sampled_from(["a", "b", "ab", "é", "aé"])), max_size=6)
       .map("".join))
def test_arbitrary_text_matches_tokenizers_and_offsets_stay_in_the_word(text):
    for model, hf in zip(_MODELS, _ORACLES):
        assert mismatches(model, hf, [text]) == []
        tokens = model.tokenize(text)
        assert model.tokenize(text, on_event=lambda e: json.dumps(e)) == tokens
        starts = [t.offsets[0] for t in tokens]
        assert starts == sorted(starts)
        assert all(0 <= t.offsets[0] < t.offsets[1] <= len(text) for t in tokens)

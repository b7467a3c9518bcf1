"""The course's BPE numbers (the Hugging Face course's tokenizer chapter), from our own pre-tokenizer
and trainer: GPT-2 ByteLevel without prefix space, <|endoftext|>, vocab size 50."""
from __future__ import annotations

import pytest
import tokenizers as hf

from subword_lab import models
from subword_lab.trainers import BpeTrainer

from train_helpers import COURSE, merges_of, ours, theirs

FIRST = ["Ġt", "is", "er", "Ġa", "Ġto", "en", "Th", "This", "ou", "se", "Ġtok", "Ġtoken",
         "nd", "Ġis", "Ġth", "Ġthe", "in", "Ġab", "Ġtokeni"]
HF = ["Ġt", "er", "is", "Ġa", "en", "Ġto", "Th", "ken", "nd", "ou", "se", "Ġtoken", "This",
      "at", "he", "ho", "in", "io", "iz"]


def train(tie_break, events=None):
    tok = ours(models.BPE(), "byte_level")
    trainer = BpeTrainer(vocab_size=50, special_tokens=["<|endoftext|>"], tie_break=tie_break)
    tok.train_from_iterator(COURSE, trainer, on_event=None if events is None else events.append)
    return tok, trainer


def test_word_counts_and_alphabet():
    events = []
    train("first", events)
    words = {w["word"]: w["count"] for w in events[2]["words"]}
    assert words["This"] == 3 and words["Ġis"] == 2 and words["."] == 4 and len(words) == 30
    alphabet = events[1]["alphabet"]
    assert alphabet == sorted({c for w in words for c in w}) and len(alphabet) == 30
    assert events[1]["vocab_size"] == 31


@pytest.mark.parametrize("tie_break, expected", [("first", FIRST), ("hf", HF)])
def test_merges(tie_break, expected):
    tok, trainer = train(tie_break)
    assert ["".join(m) for m in trainer.merges()] == expected
    assert tok.get_vocab_size() == 50


def test_hf_rule_is_tokenizers_rule():
    tok, _ = train("hf")
    ref = theirs(hf.models.BPE(), "byte_level")
    ref.train_from_iterator(COURSE, hf.trainers.BpeTrainer(
        vocab_size=50, special_tokens=["<|endoftext|>"], show_progress=False))
    assert merges_of(tok.to_str()) == merges_of(ref.to_str())


def test_first_merge_count_and_tie():
    events = []
    train("first", events)
    merges = [e for e in events if e["type"] == "merge"]
    assert merges[0]["pair"] == ["Ġ", "t"] and merges[0]["count"] == 7
    # "is" (count 5) beat "er" and "Ġa" (5 too) by coming first in the corpus
    assert merges[1]["token"] == "is" and merges[1]["count"] == 5
    assert merges[1]["tie"]["rule"] == "first_occurrence"
    assert ["e", "r"] in merges[1]["tie"]["tied"]


def test_tokenize_new_text():
    tok, _ = train("first")
    assert tok.encode("This is not a token.").tokens == [
        "This", "Ġis", "Ġ", "n", "o", "t", "Ġa", "Ġtoken", "."]


def test_toy_corpus():
    trainer = BpeTrainer(vocab_size=10, tie_break="first")
    trainer.feed_word_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    events = []
    trainer.train(None, on_event=events.append)
    merges = [e for e in events if e["type"] == "merge"]
    assert [e["token"] for e in merges] == ["ug", "un", "hug"]
    assert [e["count"] for e in merges] == [20, 16, 15]

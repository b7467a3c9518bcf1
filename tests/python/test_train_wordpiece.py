"""WordPieceTrainer against a from-scratch reference of the score-based algorithm.

The reference recounts everything at every step with exact Fractions, as the
course's loop does, so the incremental trainer (heap, where-index, token
frequencies) must make the same choice at every step, for both tie-breaks.
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import tokenizers as hf
from hypothesis import given, settings, strategies as st

from subword_lab import models
from subword_lab.core.errors import SubwordLabError
from subword_lab.trainers import TrainingCancelled, WordPieceTrainer

from train_helpers import COURSE, ours, same_encodings


def reference(word_counts, vocab_size, specials, tie_break, prefix="##"):
    """Returns (learned tokens, the score of each step as a Fraction)."""
    splits = {w: [c if i == 0 else prefix + c for i, c in enumerate(w)] for w in word_counts}
    vocab = list(specials) + sorted({t for s in splits.values() for t in s})
    ids = {t: i for i, t in enumerate(vocab)}
    learned, scores = [], []
    while len(vocab) < vocab_size:
        freq, pairs, order = {}, {}, []
        for w, c in word_counts.items():
            s = splits[w]
            for t in s:
                freq[t] = freq.get(t, 0) + c
            for pair in zip(s, s[1:]):
                if pair not in pairs:
                    order.append(pair)
                pairs[pair] = pairs.get(pair, 0) + c
        if not pairs:
            break
        score = {p: Fraction(n, freq[p[0]] * freq[p[1]]) for p, n in pairs.items()}
        best = max(score.values())
        tied = [p for p in order if score[p] == best]
        pair = tied[0] if tie_break == "first" else min(tied, key=lambda p: (ids[p[0]], ids[p[1]]))
        a, b = pair
        new = a + (b[len(prefix):] if b.startswith(prefix) else b)
        for w, s in splits.items():
            i, out = 0, []
            while i < len(s):
                if i + 1 < len(s) and s[i] == a and s[i + 1] == b:
                    out.append(new)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            splits[w] = out
        if new not in ids:
            ids[new] = len(vocab)
            vocab.append(new)
        learned.append(new)
        scores.append(best)
    return learned, scores


def word_counts(pre_tokenizer, lines):
    counts = {}
    for line in lines:
        for w, _ in pre_tokenizer.pre_tokenize_str(line):
            counts[w] = counts.get(w, 0) + 1
    return counts


@pytest.mark.parametrize("tie_break", ["first", "hf"])
def test_matches_reference_on_botchan(botchan_lines, tie_break):
    lines = botchan_lines[:250]
    tok = ours(models.WordPiece(), "bert")
    events = []
    specials = ["[UNK]", "[CLS]"]
    trainer = WordPieceTrainer(vocab_size=400, special_tokens=specials, tie_break=tie_break)
    tok.train_from_iterator(lines, trainer, on_event=events.append)
    expected, scores = reference(word_counts(tok.pre_tokenizer, lines), 400, specials, tie_break)
    assert trainer.tokens() == expected
    merges = [e for e in events if e["type"] == "merge"]
    assert [Fraction(e["count"], e["left_count"] * e["right_count"]) for e in merges] == scores
    assert [e["score"] for e in merges] == [float(s) for s in scores]
    assert tok.get_vocab_size() == 400


def test_scores_are_not_bpe_counts(botchan_lines):
    """The real algorithm prefers rare parts: its first merges are not BPE's."""
    tok = ours(models.WordPiece(), "bert")
    trainer = WordPieceTrainer(vocab_size=300)
    tok.train_from_iterator(botchan_lines[:200], trainer)
    assert "##th" not in trainer.tokens()[:5] and "th" not in trainer.tokens()[:5]


def test_round_trip_in_tokenizers(botchan_lines, multilingual_lines):
    tok = ours(models.WordPiece(unk_token="[UNK]"), "bert")
    tok.train_from_iterator(botchan_lines, WordPieceTrainer(
        vocab_size=3000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    data = json.loads(tok.to_str())
    assert data["model"]["type"] == "WordPiece"
    loaded = hf.Tokenizer.from_str(tok.to_str())
    assert same_encodings(tok, loaded, botchan_lines + multilingual_lines) == []


def test_options(botchan_lines):
    lines = botchan_lines[:300]
    tok = ours(models.WordPiece(), "bert")
    trainer = WordPieceTrainer(vocab_size=500, min_frequency=3, max_token_length=5,
                               limit_alphabet=40, initial_alphabet=["é"])
    events = []
    tok.train_from_iterator(lines, trainer, on_event=events.append)
    merges = [e for e in events if e["type"] == "merge"]
    assert all(e["count"] >= 3 for e in merges)
    assert all(len(t.replace("##", "")) <= 5 for t in trainer.tokens())
    alphabet = events[1]
    assert "é" in alphabet["alphabet"] and "##é" in alphabet["alphabet"]
    chars = {t.replace("##", "") for t in alphabet["alphabet"]}
    assert len(chars) == 40 and alphabet["removed"]


def test_errors():
    tok = ours(models.WordPiece(), "bert")
    with pytest.raises(SubwordLabError, match="vocab_size: 20 is too small"):
        tok.train_from_iterator(COURSE, WordPieceTrainer(vocab_size=20))
    with pytest.raises(SubwordLabError, match="empty"):
        tok.train_from_iterator([], WordPieceTrainer(vocab_size=20))
    with pytest.raises(SubwordLabError, match="tie_break"):
        WordPieceTrainer(tie_break="random")


def test_cancel():
    tok = ours(models.WordPiece(), "bert")
    with pytest.raises(TrainingCancelled):
        tok.train_from_iterator(COURSE, WordPieceTrainer(vocab_size=70),
                                on_event=lambda e: "cancel" if e["type"] == "merge" else None)
    assert tok.get_vocab_size() == 0


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(alphabet="abcd", min_size=1, max_size=8), st.integers(1, 9),
                       min_size=1, max_size=15),
       st.integers(0, 25), st.sampled_from(["first", "hf"]))
def test_random_word_counts_match_reference(counts, extra, tie_break):
    """Small alphabets make many equal scores: the tie rules must hold exactly."""
    trainer = WordPieceTrainer(vocab_size=10 + extra, tie_break=tie_break)
    trainer.feed_word_counts(counts)
    try:
        trainer.train(None)
    except SubwordLabError as err:
        # Refused only when the alphabet alone (first letters and ##-continuations)
        # is already larger than the size asked for.
        assert "too small" in str(err)
        alphabet = {c if i == 0 else "##" + c for w in counts for i, c in enumerate(w)}
        assert len(alphabet) > 10 + extra
        return
    assert trainer.tokens() == reference(counts, 10 + extra, [], tie_break)[0]

"""BPE and WordPiece training (trainers.*) equal the plain references
(reference.bpe_train, reference.wordpiece_train), event for event.

Generated corpora (word counts over a small alphabet, so that pairs tie often),
vocabulary sizes, special tokens, both tie-breaks and (BPE) min_frequency: the
fast trainers, with their pair-count engines and lazy heaps, report the same
train_start, alphabet, words, merge (counts, scores, candidates, ties) and
train_end events as the references, which count every pair again at every step.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from subword_lab.models import BPE, WordPiece
from subword_lab.reference import bpe_train, wordpiece_train
from subword_lab.trainers import BpeTrainer, WordPieceTrainer

SETTINGS = settings(max_examples=120, deadline=None)
WORD_COUNTS = st.dictionaries(st.text(st.sampled_from("abcé"), min_size=1, max_size=7),
                              st.integers(1, 6), min_size=1, max_size=8)
SPECIALS = st.sampled_from([[], ["[UNK]"], ["<s>", "</s>"]])


def _events(trainer, model, counts):
    trainer.feed_word_counts(counts)
    events = []
    trainer.train(model, on_event=events.append)
    return events


@SETTINGS
@given(counts=WORD_COUNTS, extra=st.integers(0, 25), specials=SPECIALS,
       tie_break=st.sampled_from(["hf", "first"]), min_frequency=st.sampled_from([0, 0, 3]),
       trace=st.sampled_from(["summary", "full"]))
def test_bpe_training_equals_the_reference(counts, extra, specials, tie_break, min_frequency,
                                           trace):
    alphabet = len({c for w in counts for c in w})
    trainer = BpeTrainer(vocab_size=len(specials) + alphabet + extra, special_tokens=specials,
                         tie_break=tie_break, min_frequency=min_frequency, show_progress=False,
                         trace=trace)
    events = _events(trainer, BPE(), counts)
    expected = []
    vocab, merges = bpe_train.train(dict(counts), **bpe_train.trainer_options(trainer),
                                    on_event=expected.append)
    assert events == expected
    assert trainer.merges() == merges


@SETTINGS
@given(counts=WORD_COUNTS, extra=st.integers(0, 25), specials=SPECIALS,
       tie_break=st.sampled_from(["hf", "first"]), trace=st.sampled_from(["summary", "full"]))
def test_wordpiece_training_equals_the_reference(counts, extra, specials, tie_break, trace):
    initial = len({c if i == 0 else "##" + c for w in counts for i, c in enumerate(w)})
    trainer = WordPieceTrainer(vocab_size=len(specials) + initial + extra, special_tokens=specials,
                               tie_break=tie_break, show_progress=False, trace=trace)
    events = _events(trainer, WordPiece(), counts)
    expected = []
    wordpiece_train.train(dict(counts), **wordpiece_train.trainer_options(trainer),
                          on_event=expected.append)
    assert events == expected

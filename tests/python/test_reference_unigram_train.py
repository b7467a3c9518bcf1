"""Unigram training (trainers.UnigramTrainer) equals the plain reference
(reference.unigram_train), event for event, for both methods.

Generated corpora (short words over a few letters, with Metaspace's "▁", a digit
and a Greek letter so that the one-script rule of the seed matters), vocabulary
sizes, special and unknown tokens, seed sizes, shrinking factors and both traces.
The fast trainer finds each word's lattice once and filters it, and recounts only
the words a removal changes; the reference rebuilds every lattice and recounts the
whole corpus at every step. Both add the same floats in the same order, so the
events (objectives, losses, scores) are compared exactly, not within a tolerance.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from subword_lab.reference import unigram_train
from subword_lab.trainers import UnigramTrainer

SETTINGS = settings(max_examples=60, deadline=None)
WORD = st.text(st.sampled_from("abcé1β"), min_size=1, max_size=6).map(lambda w: "\u2581" + w)
WORD_COUNTS = st.dictionaries(WORD, st.integers(1, 9), min_size=1, max_size=10)
# few short words, so that a word ends some sentences and not others
SENTENCE_WORD = st.text(st.sampled_from("abc"), min_size=1, max_size=3).map(lambda w: "\u2581" + w)
SENTENCES = st.lists(st.lists(SENTENCE_WORD, min_size=1, max_size=5), min_size=1, max_size=8)
SPECIALS = st.sampled_from([([], None), ([], "<unk>"), (["<s>", "<unk>"], "<unk>"),
                            (["<s>"], None)])


def _room(counts, specials, unk):
    chars = len({c for w in counts for c in w})
    return chars + len(specials) + (1 if unk is not None and unk not in specials else 0)


def _compare(trainer, feed_reference):
    events = []
    trainer.train(on_event=events.append)
    expected = []
    counts, followers = feed_reference
    vocab, unk_id = unigram_train.train(counts, followers=followers,
                                        **unigram_train.trainer_options(trainer),
                                        on_event=expected.append)
    assert events == expected
    model = trainer.trained_model
    assert [[p, s] for p, s in vocab] == [[p, s] for p, s in zip(model.pieces, model.scores)]
    assert unk_id == model.unk_id


@SETTINGS
@given(counts=WORD_COUNTS, extra=st.integers(0, 12), specials=SPECIALS,
       seed_size=st.sampled_from([1_000_000, 30]), shrinking=st.sampled_from([0.75, 0.5]),
       subs=st.sampled_from([1, 2]), trace=st.sampled_from(["summary", "full"]))
def test_em_training_equals_the_reference(counts, extra, specials, seed_size, shrinking, subs,
                                          trace):
    names, unk = specials
    trainer = UnigramTrainer(vocab_size=_room(counts, names, unk) + extra, special_tokens=names,
                             unk_token=unk, seed_size=seed_size, shrinking_factor=shrinking,
                             n_sub_iterations=subs, max_piece_length=5, trace=trace,
                             show_progress=False)
    trainer.feed_word_counts(counts)
    _compare(trainer, (dict(counts), None))


@SETTINGS
@given(sentences=SENTENCES, extra=st.integers(0, 12))
def test_em_training_from_text_equals_the_reference(sentences, extra):
    """Fed running text, both read what follows each word (the seed's test at word ends)."""
    counts = {w for s in sentences for w in s}
    trainer = UnigramTrainer(vocab_size=_room(counts, [], None) + extra, show_progress=False)
    trainer.feed([" ".join(s) for s in sentences], str.split)
    _compare(trainer, unigram_train.count_words(sentences))


@SETTINGS
@given(counts=WORD_COUNTS, extra=st.integers(0, 12), specials=SPECIALS,
       seed_size=st.sampled_from([300, 20]), fraction=st.sampled_from([0.1, 0.3]),
       trace=st.sampled_from(["summary", "full"]))
def test_exact_training_equals_the_reference(counts, extra, specials, seed_size, fraction, trace):
    names, unk = specials
    trainer = UnigramTrainer(vocab_size=_room(counts, names, unk) + extra, special_tokens=names,
                             unk_token=unk, method="exact", seed_size=seed_size,
                             shrink_fraction=fraction, trace=trace, show_progress=False)
    trainer.feed_word_counts(counts)
    _compare(trainer, (dict(counts), None))


def test_runs_prune_and_drop():
    """The generated corpora reach the steps the reference spells out: a corpus of
    this kind prunes, and its M step drops pieces."""
    counts = {"\u2581abcab": 5, "\u2581abc": 3, "\u2581cabé": 2, "\u2581bca1": 1, "\u2581ab": 4}
    trainer = UnigramTrainer(vocab_size=_room(counts, [], None), max_piece_length=5,
                             show_progress=False)
    trainer.feed_word_counts(counts)
    events = []
    trainer.train(on_event=events.append)
    types = [e["type"] for e in events]
    assert "unigram_prune" in types
    assert any(e.get("dropped") for e in events if e["type"] == "unigram_em")

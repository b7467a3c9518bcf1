"""The Unigram numbers of the Hugging Face course's tokenizer chapter, exactly.

The course trains on four sentences pre-tokenized as XLNet does (WhitespaceSplit
then Metaspace) with its simplified trainer: UnigramTrainer(method="exact").
Numbers the README prints in full are compared with ==; only the ones it rounds
(the toy corpus) get a tolerance of the printed precision.
"""
from __future__ import annotations

import math

import pytest

from subword_lab import Tokenizer, models, pre_tokenizers
from subword_lab.trainers import UnigramTrainer
from subword_lab.trainers import unigram_exact as ux

CORPUS = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
TOY = [("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)]


def xlnet_pre_tokenizer():
    return pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace()])


@pytest.fixture(scope="module")
def word_freqs():
    counts = {}
    pre = xlnet_pre_tokenizer()
    for text in CORPUS:
        for word, _ in pre.pre_tokenize_str(text):
            counts[word] = counts.get(word, 0) + 1
    return list(counts.items())


@pytest.fixture(scope="module")
def initial(word_freqs):
    counts = ux.initial_vocabulary(word_freqs, 300)
    return counts, ux.model_scores(counts)


@pytest.fixture(scope="module")
def trained():
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.pre_tokenizer = xlnet_pre_tokenizer()
    trainer = UnigramTrainer(vocab_size=100, method="exact", seed_size=300,
                             shrink_fraction=0.1, show_progress=False, trace="full")
    events = []
    tokenizer.train_from_iterator(CORPUS, trainer, on_event=events.append)
    return tokenizer, events


def test_word_counts_are_the_courses(word_freqs):
    assert word_freqs[:4] == [("▁This", 3), ("▁is", 2), ("▁the", 1), ("▁Hugging", 1)]
    assert len(word_freqs) == 28


def test_top_substrings(initial):
    counts, _ = initial
    subs = [(t, c) for t, c in counts.items() if len(t) > 1]
    assert subs[:10] == [("▁t", 7), ("is", 5), ("er", 5), ("▁a", 5), ("▁to", 4), ("to", 4),
                         ("en", 4), ("▁T", 3), ("▁Th", 3), ("▁Thi", 3)]
    assert len(counts) == 300


def test_word_scores(initial):
    _, model = initial
    tokens, score, _ = ux.best_segmentation("Hopefully", model)
    assert tokens == ["H", "o", "p", "e", "f", "u", "ll", "y"]
    assert score == 41.5157494601402
    assert ux.best_segmentation("This", model)[:2] == (["This"], 6.288267030694535)


def test_initial_loss_and_removal_losses(word_freqs, initial):
    counts, model = initial
    assert ux.corpus_loss(word_freqs, model) == 413.10377642940875
    state = ux.ExactState(word_freqs, counts)
    assert state.loss == 413.10377642940875
    scores = state.removal_scores()
    assert scores["ll"] == 6.376412403623874
    assert scores["his"] == 0.0


def test_removal_shortcut_matches_full_recomputation(word_freqs, initial):
    """The trainer only re-segments the words that used the removed token; the
    course recomputes the whole loss. Both must give the same bits."""
    counts, model = initial
    state = ux.ExactState(word_freqs, counts)
    scores = state.removal_scores()
    base = ux.corpus_loss(word_freqs, model)
    for token in list(scores)[::7]:
        without = dict(model)
        del without[token]
        assert scores[token] == ux.corpus_loss(word_freqs, without) - base, token


def test_trained_vocabulary_and_tokenization(trained):
    tokenizer, events = trained
    assert tokenizer.get_vocab_size() == 98
    assert tokenizer.encode("This is the Hugging Face course.").tokens == [
        "▁This", "▁is", "▁the", "▁Hugging", "▁Face", "▁", "c", "ou", "r", "s", "e", "."]
    first = [e for e in events if e["type"] == "unigram_exact_round"][0]
    assert first["loss"] == 413.10377642940875
    assert dict(first["scores"])["ll"] == 6.376412403623874
    assert first["remove"] == 30  # int(300 x 0.1), characters counted in the 300


def test_exact_method_reproduces_the_course_loop(word_freqs):
    """The course's own loop, written out naively, gives the same 98 tokens."""
    token_freqs = ux.initial_vocabulary(word_freqs, 300)
    model = ux.model_scores(token_freqs)
    while len(model) > 100:
        base = ux.corpus_loss(word_freqs, model)
        scores = {}
        for token in model:
            if len(token) == 1:
                continue
            without = dict(model)
            del without[token]
            scores[token] = ux.corpus_loss(word_freqs, without) - base
        ranked = sorted(scores.items(), key=lambda x: x[1])
        for i in range(int(len(model) * 0.1)):
            token_freqs.pop(ranked[i][0])
        model = ux.model_scores(token_freqs)
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.pre_tokenizer = xlnet_pre_tokenizer()
    tokenizer.train_from_iterator(CORPUS, UnigramTrainer(
        vocab_size=100, method="exact", seed_size=300, show_progress=False))
    vocab = tokenizer.get_vocab()
    assert set(vocab) == set(model)
    assert len(model) == 98


# -- the toy corpus -------------------------------------------------------------------

TOY_VOCAB = ["h", "u", "g", "hu", "ug", "p", "pu", "n", "un", "b", "bu", "s", "hug", "gs", "ugs"]


def toy_counts():
    """Each vocabulary token's count: occurrences inside the corpus words."""
    counts = {}
    for token in TOY_VOCAB:
        counts[token] = sum(c * sum(1 for i in range(len(w)) if w.startswith(token, i))
                            for w, c in TOY)
    return counts


def test_toy_frequencies():
    counts = toy_counts()
    assert sum(counts.values()) == 210
    assert counts["ug"] == 20
    model = ux.model_scores(counts)
    assert math.exp(-model["ug"]) == pytest.approx(20 / 210, rel=1e-15)
    # P(p, u, g) uses 17/210 for "p" (the notebook's value, 0.00132)
    p_pug = math.exp(-(model["p"] + model["u"] + model["g"]))
    assert p_pug == pytest.approx(17 / 210 * 36 / 210 * 20 / 210, rel=1e-12)
    assert round(p_pug, 5) == 0.00132


def test_toy_viterbi_unhug():
    model = ux.model_scores(toy_counts())
    tokens, score, best = ux.best_segmentation("unhug", model, start_score=0)
    assert tokens == ["un", "hug"]
    per_position = [round(math.exp(-best[i][1]), 6) for i in range(1, 6)]
    assert per_position == [0.171429, 0.07619, 0.005442, 0.005442, 0.005442]
    # the course prints 0.076191 for 16/210 = 0.0761904...: a rounding slip there
    assert math.exp(-best[2][1]) == pytest.approx(0.076191, abs=1e-6)


def test_toy_loss_and_removals():
    counts = toy_counts()
    state = ux.ExactState(TOY, counts, start_score=0)
    assert round(state.loss, 1) == 169.8
    scores = state.removal_scores()
    assert round(scores["hug"], 1) == 23.5
    assert scores["pu"] == 0.0

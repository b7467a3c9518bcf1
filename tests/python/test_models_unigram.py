"""Unigram against HF `tokenizers`, sentencepiece's botchan model, the course, and brute force."""
from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest
import sentencepiece as spm
import tokenizers
from tokenizers import models as hf_models
from tokenizers import pre_tokenizers as hf_pre
from tokenizers import trainers as hf_trainers

from subword_lab import models
from test_models_common import (EXOTIC, hf_from_model_dict, mismatches, model_dict_of, with_tokenizers_scores,
                                words_of)

BYTES = [f"<0x{b:02X}>" for b in range(256)]


@pytest.fixture(scope="module")
def botchan_words(botchan_txt):
    return words_of(botchan_txt.read_text(encoding="utf-8"))


def metaspace(words):
    return ["\u2581" + w for w in words]


@pytest.fixture(scope="module")
def trained(botchan_lines):
    hf = tokenizers.Tokenizer(hf_models.Unigram())
    hf.pre_tokenizer = hf_pre.Metaspace()
    trainer = hf_trainers.UnigramTrainer(vocab_size=2000, special_tokens=["<unk>"],
                                         unk_token="<unk>")
    hf.train_from_iterator(botchan_lines, trainer)
    return model_dict_of(hf)


@pytest.fixture(scope="module")
def sp_pieces(botchan_unigram_model):
    sp = spm.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    pieces = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())]
    return pieces, sp.unk_id()


def test_trained_unigram_on_every_botchan_word(trained, botchan_words):
    ours = models.from_dict(trained)
    assert ours.to_dict() == trained
    ours, hf = with_tokenizers_scores(ours)
    words = metaspace(botchan_words) + botchan_words + EXOTIC + metaspace(EXOTIC)
    assert len(botchan_words) > 40_000
    assert mismatches(ours, hf, words) == []


def test_byte_fallback(trained, botchan_words):
    d = dict(trained, byte_fallback=True)
    low = min(score for _, score in trained["vocab"])
    d["vocab"] = trained["vocab"] + [[b, low - 1.0] for b in BYTES[:200]]  # some bytes missing
    ours, hf = with_tokenizers_scores(models.from_dict(d))
    words = metaspace(botchan_words[:5000]) + EXOTIC + metaspace(EXOTIC) + ["ÿþ", "a\U0010FFFFb"]
    assert mismatches(ours, hf, words) == []


def test_sentencepiece_botchan_model_pieces(sp_pieces, botchan_words):
    pieces, unk_id = sp_pieces
    ours, hf = with_tokenizers_scores(models.Unigram(pieces, unk_id=unk_id))
    assert len(pieces) == 1000
    words = metaspace(botchan_words) + metaspace([w.lower() for w in botchan_words]) + EXOTIC
    assert mismatches(ours, hf, words) == []


def test_viterbi_matches_sentencepiece_itself(sp_pieces, botchan_unigram_model, botchan_words):
    """On plain ASCII words sentencepiece's normalizer changes nothing but the ▁ prefix."""
    pieces, unk_id = sp_pieces
    sp = spm.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    ours = models.Unigram(pieces, unk_id=unk_id)
    words = sorted({w for w in botchan_words if w.isascii() and w.isalpha()})
    assert len(words) > 3000
    for word in words:
        assert [t.value for t in ours.tokenize("\u2581" + word)] == sp.encode_as_pieces(word), word
    for word in words[:300]:
        expected = sp.nbest_encode_as_pieces(word, 5)
        got = [pieces for pieces, _ in ours.nbest("\u2581" + word, 5)]
        # Equal-score ties may be listed in either order; the scores must agree.
        def score(seg):
            return sum(sp.get_score(sp.piece_to_id(p)) for p in seg)
        assert [round(score(s), 4) for s in got] == [round(score(s), 4) for s in expected], word
        assert sorted(map(tuple, got)) == sorted(map(tuple, expected)) or len(
            {round(score(s), 4) for s in got}) < len(got), word


# -- the course's toy corpus -------------------------------------------------

TOY = [("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)]


def toy_vocab():
    """Pieces: the strict substrings of the words; frequency: every occurrence, whole words too."""
    pieces = {w[a:b] for w, _ in TOY for a in range(len(w)) for b in range(a + 1, len(w) + 1)
              if b - a < len(w)}
    freq = Counter()
    for word, count in TOY:
        for a in range(len(word)):
            for b in range(a + 1, len(word) + 1):
                if word[a:b] in pieces:
                    freq[word[a:b]] += count
    return freq


def segmentations(word, vocab):
    if not word:
        yield []
        return
    for k in range(1, len(word) + 1):
        if word[:k] in vocab:
            for rest in segmentations(word[k:], vocab):
                yield [word[:k]] + rest


def test_course_unhug():
    freq = toy_vocab()
    total = sum(freq.values())
    assert total == 210 and freq["ug"] == 20
    ours = models.Unigram([(p, math.log(f / total)) for p, f in freq.items()])
    events = []
    tokens = ours.tokenize("unhug", on_event=events.append)
    assert [t.value for t in tokens] == ["un", "hug"]
    best = {e["position"]: e for e in events if e["type"] == "unigram.best"}
    assert sorted(best) == [1, 2, 3, 4, 5]
    for pos, e in best.items():
        # Independent check: the best product of probabilities over all segmentations.
        products = [math.prod(freq[p] / total for p in seg)
                    for seg in segmentations("unhug"[:pos], freq)]
        assert math.exp(e["score"]) == pytest.approx(max(products), rel=1e-12)
    assert best[5]["piece"] == "hug" and best[5]["start"] == 2
    path = next(e for e in events if e["type"] == "unigram.path")
    assert [row[0] for row in path["tokens"]] == ["un", "hug"]
    edges = [(e["start"], e["end"]) for e in events if e["type"] == "unigram.edge"]
    assert len(edges) == sum(1 for a in range(5) for b in range(a + 1, 6) if "unhug"[a:b] in freq)


# -- n-best and sampling -----------------------------------------------------

def random_model(rng, alphabet="abc", size=25):
    pieces = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3))) for _ in range(size)}
    pieces |= set(alphabet)
    return models.Unigram([(p, -rng.uniform(1, 10)) for p in sorted(pieces)])


def test_nbest_matches_brute_force():
    rng = random.Random(0)
    for trial in range(40):
        ours = random_model(rng)
        vocab = dict(zip(ours.pieces, ours.scores))
        word = "".join(rng.choice("abc") for _ in range(rng.randint(1, 8)))
        every = sorted(((sum(vocab[p] for p in seg), seg) for seg in segmentations(word, vocab)),
                       key=lambda x: -x[0])
        for n in (1, 3, 10, 1000):
            got = ours.nbest(word, n)
            assert len(got) == min(n, len(every))
            assert [s for _, s in got] == pytest.approx([s for s, _ in every[:n]])
            for pieces, score in got:
                assert "".join(pieces) == word
                assert score == pytest.approx(sum(vocab[p] for p in pieces))
            assert got[0][0] == [t.value for t in ours.tokenize(word)]


def test_nbest_event():
    ours = models.Unigram([("a", -1.0), ("b", -2.0), ("ab", -2.5)])
    events = []
    result = ours.nbest("ab", 2, on_event=events.append)
    assert result == [(["ab"], -2.5), (["a", "b"], -3.0)]
    assert events == [{"type": "unigram.nbest", "word": "ab", "n": 2, "paths": [
        {"score": -2.5, "tokens": [["ab", 2, 0, 2]]},
        {"score": -3.0, "tokens": [["a", 0, 0, 1], ["b", 1, 1, 2]]}]}]


def test_sampling_is_seeded_and_follows_the_distribution():
    ours = models.Unigram([("a", -1.0), ("b", -2.0), ("ab", -2.5), ("bb", -2.0), ("abb", -4.5)])
    word, alpha = "abb", 0.5
    def draw(seed, **kw):
        return [t.value for t in ours.sample(word, alpha, seed=seed, **kw)]
    assert draw(3) == draw(3)
    vocab = dict(zip(ours.pieces, ours.scores))
    segs = list(segmentations(word, vocab))
    weights = {tuple(s): math.exp(alpha * sum(vocab[p] for p in s)) for s in segs}
    for nbest_size in (-1, 3):
        kept = sorted(weights, key=weights.get, reverse=True)[:nbest_size] if nbest_size > 0 else list(weights)
        zk = sum(weights[s] for s in kept)
        rng = random.Random(1)
        counts = Counter(tuple(t.value for t in ours.sample(word, alpha, nbest_size, seed=rng.random()))
                         for _ in range(4000))
        assert set(counts) <= set(kept)
        for seg in kept:
            assert counts[seg] / 4000 == pytest.approx(weights[seg] / zk, abs=0.03), (nbest_size, seg)
    viterbi = [t.value for t in ours.tokenize(word)]
    assert draw(5, nbest_size=1) == viterbi == draw(6, nbest_size=0)


# -- events and unknowns -----------------------------------------------------

def test_traced_path_gives_the_fast_path_result(trained, botchan_words):
    ours = models.from_dict(trained)
    for word in metaspace(sorted(set(botchan_words))[:3000]) + EXOTIC:
        events = []
        assert ours.tokenize(word, on_event=events.append) == ours.tokenize(word), word
        json.dumps(events)
        assert events[0] == {"type": "unigram.word", "word": word}
        assert events[-1]["type"] == "unigram.done"
        best = [e for e in events if e["type"] == "unigram.best"]
        assert [e["position"] for e in best] == list(range(1, len(word) + 1))
        path = next(e for e in events if e["type"] == "unigram.path")
        assert path["score"] == pytest.approx(best[-1]["score"])
        assert "".join(row[0] for row in path["tokens"]) == word


def test_unknowns_fuse_and_score_min_minus_ten():
    ours = models.Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -3.0)], unk_id=0)
    events = []
    tokens = ours.tokenize("a€€b", on_event=events.append)
    assert [(t.value, t.id, t.offsets) for t in tokens] == [
        ("a", 1, (0, 1)), ("€€", 0, (1, 3)), ("b", 2, (3, 4))]
    unk = [e for e in events if e["type"] == "unigram.edge" and e["unk"]]
    assert [e["score"] for e in unk] == [-13.0, -13.0]
    assert mismatches(ours, hf_from_model_dict(ours.to_dict()), ["a€€b", "€", "ab€a€"]) == []

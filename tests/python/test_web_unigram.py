"""web_unigram: the course's toy Unigram model and the n-best facade, checked against
the course's own trainer (unigram_exact) and by brute force over all segmentations."""
from __future__ import annotations

import json
import math

import pytest

from subword_lab.web import api as webapi, unigram as web_unigram
from subword_lab.trainers import unigram_exact as ux


def all_segmentations(word, vocab):
    if not word:
        yield []
        return
    for end in range(1, len(word) + 1):
        if word[:end] in vocab:
            for rest in all_segmentations(word[end:], vocab):
                yield [word[:end]] + rest


def test_toy_vocabulary_is_the_courses():
    vocab = dict(web_unigram.course_toy_vocab())
    counts = {p: round(math.exp(s) * 210) for p, s in vocab.items()}
    assert sum(counts.values()) == 210
    assert counts["ug"] == 20 and counts["hug"] == 15 and counts["u"] == 36
    assert "hugs" not in vocab and "pug" not in vocab and "pun" not in vocab and "bun" not in vocab
    # the same table as the course trainer's initial vocabulary (all substrings kept)
    course = ux.initial_vocabulary(web_unigram.COURSE_TOY_WORDS, 300)
    strict = {t: c for t, c in course.items() if t not in dict(web_unigram.COURSE_TOY_WORDS) or t == "hug"}
    assert {p: counts[p] for p in vocab} == strict


def test_unhug_best_path_and_positions():
    webapi.course_toy_unigram("{}")
    events = []
    webapi.trace_encode(json.dumps({"key": "course-toy-unigram", "text": "unhug"}), events.append)
    events = [json.loads(e) for e in events]
    best = [math.exp(e["score"]) for e in events if e["type"] == "unigram.best"]
    assert best == pytest.approx([0.171429, 0.076190, 0.005442, 0.005442, 0.005442], abs=1e-6)
    path = next(e for e in events if e["type"] == "unigram.path")
    assert [t[0] for t in path["tokens"]] == ["un", "hug"]
    # P(un) P(hug) with the counts read off the toy words: un in pun and bun, hug in hug and hugs
    words = dict(web_unigram.COURSE_TOY_WORDS)
    p_un = (words["pun"] + words["bun"]) / 210
    p_hug = (words["hug"] + words["hugs"]) / 210
    assert path["score"] == pytest.approx(math.log(p_un) + math.log(p_hug), rel=1e-12)


@pytest.mark.parametrize("word", ["unhug", "pugs", "hugs", "bun"])
def test_nbest_probabilities_over_all_segmentations(word):
    webapi.course_toy_unigram("{}")
    result = json.loads(webapi.unigram_nbest(json.dumps({"key": "course-toy-unigram", "word": word, "n": 50})))
    vocab = dict(web_unigram.course_toy_vocab())
    segs = list(all_segmentations(word, vocab))
    assert result["segmentations"] == len(segs)
    brute = sorted((sum(vocab[p] for p in s) for s in segs), reverse=True)
    assert [p["score"] for p in result["paths"]] == pytest.approx(brute, rel=1e-12)
    total = sum(math.exp(s) for s in brute)
    for path in result["paths"]:
        assert path["probability"] == pytest.approx(math.exp(path["score"]) / total, rel=1e-12)
    # all segmentations listed: the two normalisations agree and sum to 1
    assert sum(p["probability"] for p in result["paths"]) == pytest.approx(1.0)
    assert sum(p["share_of_listed"] for p in result["paths"]) == pytest.approx(1.0)


def test_nbest_on_botchan_model(botchan_unigram_model):
    webapi.open_path("botchan-test", str(botchan_unigram_model))
    result = json.loads(webapi.unigram_nbest(json.dumps({"key": "botchan-test", "word": "▁reckless", "n": 3})))
    assert len(result["paths"]) == 3
    assert result["paths"][0]["probability"] >= result["paths"][1]["probability"]
    assert "".join(result["paths"][0]["pieces"]) == "▁reckless"
    encoded = webapi.encode_text("botchan-test", "reckless")["tokens"]
    assert result["paths"][0]["pieces"] == encoded


def test_nbest_errors():
    with pytest.raises(Exception, match="no tokenizer"):
        webapi.unigram_nbest(json.dumps({"key": "nope", "word": "a"}))
    webapi.course_toy_unigram("{}")
    with pytest.raises(Exception, match="n must be"):
        webapi.unigram_nbest(json.dumps({"key": "course-toy-unigram", "word": "a", "n": 0}))

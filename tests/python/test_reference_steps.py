"""reference.steps and web.code: each event's line is the reference line that reported
it, read from the running code, and the Code panel's answer follows the fast path's
events (saying so) when the reference cannot repeat the run."""
from __future__ import annotations

import json

from subword_lab.models import BPE
from subword_lab.pre_tokenizers import Whitespace
from subword_lab.reference import bpe, steps, unigram, wordpiece
from subword_lab import Tokenizer
from subword_lab.web import api as webapi
from subword_lab.web.registry import REGISTRY


def _line(step):
    src = steps.source(step["module"], step["function"])
    return src["lines"][step["line"] - src["first_line"]]


def test_each_step_points_at_the_line_that_reported_its_event():
    recorder = steps.Steps()
    bpe.encode_word("hugs", {"h": 0, "u": 1, "g": 2, "s": 3, "ug": 4}, {("u", "g"): 0},
                    on_event=recorder)
    wordpiece.encode_word("hugs", {"[UNK]": 0, "hug": 1, "##s": 2}, on_event=recorder)
    unigram.encode_word("ab", *unigram.lookup_tables([("a", -1.0), ("b", -1.0), ("ab", -1.5)]),
                        on_event=recorder)
    for event, step in zip(recorder.events, recorder.steps, strict=True):
        line = _line(step)
        assert "report(" in line and event["type"].split(".")[1] in line + _line(
            {**step, "line": step["line"] + 1}), (event, line)
    merge = recorder.steps[[e["type"] for e in recorder.events].index("bpe.merge")]
    assert merge["vars"] == {"word": "hugs", "symbols": [["h", 0, 1], ["ug", 1, 3], ["s", 3, 4]],
                             "pair": ["u", "g"], "rank": 0, "position": 1, "new": "ug"}


def test_the_panel_follows_the_fast_path_when_the_reference_cannot():
    vocab = {"a": 0, "b": 1, "ab": 2}
    tokenizer = Tokenizer(BPE(vocab, [("a", "b")], dropout=1.0))  # every merge skipped: the same events each run
    tokenizer.pre_tokenizer = Whitespace()
    REGISTRY.add("test-dropout", "test-dropout", tokenizer)
    answer = json.loads(webapi.reference_encode(json.dumps({"key": "test-dropout", "text": "ab ab"})))
    assert answer["follows"] == "fast"
    events = []
    tokenizer.encode("ab ab", on_event=events.append)
    fast = [e for e in events if e["type"].startswith("bpe.")]
    assert len(answer["steps"]) == len(fast)
    for event, step in zip(fast, answer["steps"]):
        assert step["vars"] == {k: v for k, v in event.items() if k != "type"}
        if event["type"] != "bpe.dropout_skip":  # the reference has no dropout line
            assert "report(" in _line(step)


def test_the_panel_follows_the_reference_on_the_toys():
    webapi.open_toy(json.dumps({"corpus": "course-toy", "algo": "unigram"}))
    answer = json.loads(webapi.reference_encode(json.dumps({"key": "course-toy-unigram", "text": "unhug"})))
    assert answer["follows"] == "reference"
    assert [s["function"] for s in answer["sources"]] == ["encode_word", "report_best"]


def test_a_long_training_run_is_placed_by_event_type():
    """The page sends no events for a long run: the answer says where each type is reported."""
    answer = json.loads(webapi.reference_train(json.dumps({"algorithm": "wordpiece", "events": []})))
    assert answer["follows"] == "fast" and answer["steps"] == []
    merge = answer["lines"]["merge"]
    assert "report(" in _line({**merge, "vars": {}})
    assert answer["shown"] == ["step", "pair", "count", "score", "token"]


def test_a_training_run_follows_the_reference():
    events = []
    webapi.train(json.dumps({"algo": "bpe", "corpus": "course-sentences"}),
                 lambda e: events.append(json.loads(e)))
    answer = json.loads(webapi.reference_train(json.dumps({"algorithm": "bpe", "events": events})))
    assert answer["follows"] == "reference"
    merges = [s for e, s in zip(events, answer["steps"]) if e["type"] == "merge"]
    assert [s["vars"]["pair"] for s in merges] == [e["pair"] for e in events if e["type"] == "merge"]


def _focus(step):
    return _line({**step, "line": step["focus"]})


def test_a_merge_step_focuses_on_the_pick_of_the_best_pair():
    """The merge is reported after the words are rewritten; the panel highlights the
    line that picks the pair and its count, where a learner looks."""
    from subword_lab.reference import bpe_train

    recorder = steps.Steps()
    bpe_train.train({"hug": 3, "pug": 2}, vocab_size=7, on_event=recorder)
    for event, step in zip(recorder.events, recorder.steps, strict=True):
        if event["type"] == "merge":
            assert "pair, count, score = best[" in _focus(step) and step["focus"] < step["line"]
            assert step["vars"]["pair"] == event["pair"] and step["vars"]["count"] == event["count"]
        else:
            assert step["focus"] == step["line"]


UNIGRAM_FOCUS = {"unigram_em": "m_step(", "unigram_prune": "prune(", "unigram_exact_round": "ranked[:"}


def _unigram_run(args):
    events = []
    webapi.train(json.dumps(args), lambda e: events.append(json.loads(e)))
    return events


def test_a_unigram_training_run_follows_the_reference():
    """Both methods: with the run's training arguments the reference reads the same
    corpus (through the same pre-tokenizer) and reports exactly the same events; each
    step focuses on the line that takes it (M step, pruning, removal)."""
    for args in ({"algo": "unigram", "corpus": "course-sentences"},
                 {"algo": "unigram", "corpus": "course-sentences", "method": "em", "vocab_size": 40}):
        events = _unigram_run(args)
        answer = json.loads(webapi.reference_train(json.dumps(
            {"algorithm": "unigram", "events": events, "train": args})))
        assert answer["follows"] == "reference"
        kept = [e for e in events if e["type"].startswith(("train_", "unigram_"))]
        assert len(answer["steps"]) == len(kept)
        types = set()
        for event, step in zip(kept, answer["steps"]):
            focus = UNIGRAM_FOCUS.get(event["type"])
            types.add(event["type"])
            assert focus in _focus(step) if focus else "report(" in _focus(step), (event, step)
        assert types >= ({"unigram_exact_round"} if "method" not in args
                         else {"unigram_em", "unigram_prune"})


def test_a_unigram_run_without_its_corpus_follows_the_fast_path():
    args = {"algo": "unigram", "corpus": "course-sentences", "method": "em", "vocab_size": 40}
    events = _unigram_run(args)
    answer = json.loads(webapi.reference_train(json.dumps({"algorithm": "unigram", "events": events})))
    assert answer["follows"] == "fast"
    em = [s for e, s in zip([e for e in events if e["type"].startswith(("train_", "unigram_"))],
                            answer["steps"]) if e["type"] == "unigram_em"]
    first = next(e for e in events if e["type"] == "unigram_em")
    assert em[0]["vars"]["objective"] == first["objective"]
    assert "m_step(" in _focus(em[0])


def test_the_panel_makes_a_models_tables_once_per_text_not_once_per_word(monkeypatch):
    """The Code panel runs every word of a text through the reference: the pair ranks of a
    BPE and the lookup tables of a Unigram are made once for the text. (Made per word, a
    6 KB text with o200k took minutes: 200,000 tokens' pairs listed for each of 1,199 words.)"""
    made = []
    for module, name in ((bpe, "ranks_of_tokens"), (bpe, "ranks_of_merges"), (unigram, "lookup_tables")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, _f=original, _n=name: made.append(_n) or _f(*args))
    words = "hug hugs bun buns pun puns hugging " * 4
    tokenizer = Tokenizer(BPE.from_ranks({"h": 0, "u": 1, "g": 2, "s": 3, "b": 4, "n": 5, "p": 6, "i": 7,
                                          "ug": 8, "hug": 9, "un": 10, "in": 11}, unk_token=None))
    tokenizer.pre_tokenizer = Whitespace()
    REGISTRY.add("test-ranks", "test-ranks", tokenizer)
    answer = json.loads(webapi.reference_encode(json.dumps({"key": "test-ranks", "text": words})))
    assert answer["follows"] == "reference" and made == ["ranks_of_tokens"]
    webapi.open_toy(json.dumps({"corpus": "course-toy", "algo": "unigram"}))
    answer = json.loads(webapi.reference_encode(json.dumps({"key": "course-toy-unigram", "text": words})))
    assert answer["follows"] == "reference" and made == ["ranks_of_tokens", "lookup_tables"]

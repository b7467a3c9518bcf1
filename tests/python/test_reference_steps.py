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
    unigram.encode_word("ab", [("a", -1.0), ("b", -1.0), ("ab", -1.5)], on_event=recorder)
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

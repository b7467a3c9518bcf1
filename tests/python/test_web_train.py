"""webapi.train / corpus_info (py/subword_lab/web/train.py): the page's training calls.

The course presets must give the course's numbers; the botchan recipe must train
what `tokenizers` trains with the same settings; the returned tokenizer.json must
load in `tokenizers` and encode as ours does."""
from __future__ import annotations

import json

import pytest
import tokenizers as hf

from subword_lab import Tokenizer
from subword_lab.web import api as webapi
from subword_lab.core.errors import SubwordLabError

from train_helpers import COURSE, merges_of


def run(**args):
    events = []
    result = json.loads(webapi.train(json.dumps(args), lambda e: events.append(json.loads(e))))
    return result, events


def merged(events):
    return [e["token"] for e in events if e["type"] == "merge"]


def test_corpus_info_lists_presets_with_defaults():
    info = json.loads(webapi.corpus_info("{}", None))
    ids = [c["id"] for c in info["corpora"]]
    assert ids[:3] == ["course-toy", "course-sentences", "botchan"]
    sentences = info["corpora"][1]
    assert sentences["lines"] == COURSE
    assert sentences["defaults"]["bpe"]["vocab_size"] == 50
    assert sentences["defaults"]["wordpiece"]["special_tokens"] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def test_course_sentences_bpe_both_rules_against_tokenizers():
    first, events = run(algo="bpe", corpus="course-sentences", tie_break="first")
    assert merged(events)[:4] == ["Ġt", "is", "er", "Ġa"] and len(merged(events)) == 19
    hf_result, hf_events = run(algo="bpe", corpus="course-sentences", tie_break="hf")
    ref = hf.Tokenizer(hf.models.BPE())
    ref.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False)
    ref.train_from_iterator(COURSE, hf.trainers.BpeTrainer(
        vocab_size=50, special_tokens=["<|endoftext|>"], show_progress=False))
    assert merges_of(hf_result["tokenizer_json"]) == merges_of(ref.to_str())
    assert merged(hf_events) != merged(events)
    # the course's sentence, through the trained file loaded by both libraries
    ours = Tokenizer.from_str(first["tokenizer_json"])
    theirs = hf.Tokenizer.from_str(first["tokenizer_json"])
    text = "This is not a token."
    assert ours.encode(text).tokens == theirs.encode(text).tokens
    assert ours.encode(text).tokens == ["This", "Ġis", "Ġ", "n", "o", "t", "Ġa", "Ġtoken", "."]


def test_course_wordpiece_presets():
    result, events = run(algo="wordpiece", corpus="course-sentences")
    assert len(merged(events)) == 25 and merged(events)[:3] == ["ab", "##fu", "Fa"]
    theirs = hf.Tokenizer.from_str(result["tokenizer_json"])
    ours = Tokenizer.from_str(result["tokenizer_json"])
    for text in ("Hugging", "HOgging", "This is the Hugging Face course!"):
        assert ours.encode(text).tokens == theirs.encode(text).tokens
    toy, events = run(algo="wordpiece", corpus="course-toy")
    merges = [e for e in events if e["type"] == "merge"]
    assert merges[0]["pair"] == ["##g", "##s"]
    assert (merges[0]["count"], merges[0]["left_count"], merges[0]["right_count"]) == (5, 20, 5)
    assert merges[1]["token"] == "hu"
    assert toy["summary"]["vocab_size"] == 11


def test_toy_bpe_and_full_trace_replays():
    _, events = run(algo="bpe", corpus="course-toy")
    assert merged(events) == ["ug", "un", "hug"]
    words = [list(w["tokens"]) for w in events[2]["words"]]
    for e in (e for e in events if e["type"] == "merge"):
        for i, tokens in enumerate(words):
            out, j = [], 0
            while j < len(tokens):
                if tokens[j:j + 2] == e["pair"]:
                    out.append(e["token"])
                    j += 2
                else:
                    out.append(tokens[j])
                    j += 1
            assert (out != tokens) == (i in e["words"])
            words[i] = out
    assert words == [["hug"], ["p", "ug"], ["p", "un"], ["b", "un"], ["hug", "s"]]


def test_botchan_bpe_is_what_tokenizers_trains(botchan_txt):
    text = open(botchan_txt, encoding="utf-8").read()
    result, events = run(algo="bpe", corpus="botchan", text=text, vocab_size=1257)
    assert result["summary"]["steps"] == 1000 and events[1]["vocab_size"] == 257
    ref = hf.Tokenizer(hf.models.BPE())
    ref.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False)
    ref.train_from_iterator(text.splitlines(keepends=True), hf.trainers.BpeTrainer(
        vocab_size=1257, special_tokens=["<|endoftext|>"], show_progress=False,
        initial_alphabet=hf.pre_tokenizers.ByteLevel.alphabet()))
    assert merges_of(result["tokenizer_json"]) == merges_of(ref.to_str())


def test_unigram_course_preset():
    result, events = run(algo="unigram", corpus="course-sentences")
    assert result["summary"]["vocab_size"] == 98
    rounds = [e for e in events if e["type"] == "unigram_exact_round"]
    assert rounds[0]["loss"] == 413.10377642940875


@pytest.mark.parametrize("args, field, why", [
    ({"algo": "lstm"}, "algo", "unknown algorithm 'lstm'"),
    ({"algo": "bpe", "corpus": "wikipedia"}, "corpus", "unknown corpus 'wikipedia'"),
    ({"algo": "bpe", "corpus": "custom", "text": "   "}, "text", "the corpus is empty"),
    ({"algo": "bpe", "corpus": "course-toy", "vocab_size": "many"}, "vocab_size",
     "must be a whole number, got 'many'"),
    ({"algo": "bpe", "corpus": "course-toy", "tie_break": "random"}, "tie_break",
     "unknown tie_break 'random'"),
])
def test_bad_options_are_subword_lab_errors(args, field, why):
    with pytest.raises(SubwordLabError) as error:
        webapi.train(json.dumps(args), None)
    assert error.value.field == field
    assert error.value.reason.startswith(why), error.value.reason


def test_custom_text_trains():
    result, events = run(algo="wordpiece", corpus="custom", text="low lower lowest\nnew newer\n",
                         vocab_size=40)
    assert events[0]["type"] == "train_start" and events[-1]["type"] == "train_end"
    assert result["summary"]["corpus"] == "custom"
    # 40 tokens are enough to learn the corpus's words whole
    assert Tokenizer.from_str(result["tokenizer_json"]).encode("lowest").tokens == ["lowest"]


def test_a_long_corpus_reports_its_reading(monkeypatch):
    """Reading comes before the trainer's first event: the facade reports it, one
    corpus_read event per READ_EVENT_CHARS, and training learns the same as without."""
    from subword_lab.web import train as web_train
    text = "".join(f"word{i % 97} other{i % 13} line\n" for i in range(400))
    quiet, quiet_events = run(algo="bpe", corpus="custom", text=text, vocab_size=300)
    assert not [e for e in quiet_events if e["type"] == "corpus_read"]  # a short text: none
    monkeypatch.setattr(web_train, "READ_EVENT_CHARS", 1000)
    result, events = run(algo="bpe", corpus="custom", text=text, vocab_size=300)
    reads = [e for e in events if e["type"] == "corpus_read"]
    start = next(i for i, e in enumerate(events) if e["type"] == "train_start")
    assert events[:start] == reads  # all of them before training starts
    assert len(text) // 2000 <= len(reads) <= len(text) // 1000
    assert all(r["total"] == len(text) for r in reads)
    chars = [r["chars"] for r in reads]
    assert chars == sorted(chars) and chars[0] >= 1000 and chars[-1] <= len(text)
    assert all(b - a >= 1000 for a, b in zip(chars, chars[1:]))
    assert events[start:] == quiet_events  # the trainer's own events are untouched
    assert result["tokenizer_json"] == quiet["tokenizer_json"]

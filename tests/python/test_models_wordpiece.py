"""WordPiece against HF `tokenizers` on real vocabularies, the course examples, and events."""
from __future__ import annotations

import json

import pytest
import tokenizers
from tokenizers import models as hf_models
from tokenizers import pre_tokenizers as hf_pre
from tokenizers import trainers as hf_trainers

from subword_lab import models
from test_models_common import EXOTIC, hf_from_model_dict, mismatches, model_dict_of, words_of


@pytest.fixture(scope="module")
def botchan_words(botchan_txt):
    return words_of(botchan_txt.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bert(bert_vocab):
    return models.WordPiece.from_file(bert_vocab, unk_token="[UNK]")


def test_vocab_txt_reads_as_hf_reads_it(bert, bert_vocab):
    hf = hf_models.WordPiece.read_file(str(bert_vocab))
    assert bert.get_vocab() == hf
    assert bert.get_vocab_size() == len(hf) == 30522


@pytest.mark.parametrize("case", ["as_is", "lower"])
def test_bert_vocab_on_every_botchan_word(bert, botchan_words, case):
    words = botchan_words if case == "as_is" else [w.lower() for w in botchan_words]
    hf = hf_from_model_dict(bert.to_dict())
    assert len(words) > 40_000
    assert mismatches(bert, hf, words) == []


@pytest.mark.parametrize("limit", [1, 4, 9])
def test_max_input_chars_per_word_counts_characters(bert_vocab, botchan_words, limit):
    vocab = models.WordPiece.read_file(bert_vocab)
    ours = models.WordPiece(vocab, max_input_chars_per_word=limit)
    hf = hf_from_model_dict(ours.to_dict())
    assert mismatches(ours, hf, botchan_words[:5000] + EXOTIC) == []


def test_exotic_words_and_other_prefix(bert_vocab):
    vocab = models.WordPiece.read_file(bert_vocab)
    for prefix in ("##", "@@", ""):
        renamed = {(prefix + t[2:] if t.startswith("##") else t): i for t, i in vocab.items()}
        ours = models.WordPiece(renamed, continuing_subword_prefix=prefix)
        hf = hf_from_model_dict(ours.to_dict())
        assert mismatches(ours, hf, EXOTIC + [w.lower() for w in EXOTIC]) == []


def test_cased_wordpiece_trained_by_tokenizers(botchan_lines, botchan_words):
    hf = tokenizers.Tokenizer(hf_models.WordPiece(unk_token="[UNK]"))
    hf.pre_tokenizer = hf_pre.BertPreTokenizer()
    trainer = hf_trainers.WordPieceTrainer(vocab_size=3000, special_tokens=["[UNK]"],
                                           limit_alphabet=60)
    hf.train_from_iterator(botchan_lines, trainer)
    ours = models.from_dict(model_dict_of(hf))
    assert ours.get_vocab() == hf.get_vocab()
    bare = hf_from_model_dict(ours.to_dict())
    assert mismatches(ours, bare, botchan_words + EXOTIC) == []


COURSE_VOCAB = ["[UNK]", "b", "h", "p", "##g", "##n", "##s", "##u", "##gs", "hu", "hug"]


@pytest.mark.parametrize("word, expected", [
    ("hugs", ["hug", "##s"]),
    ("bugs", ["b", "##u", "##gs"]),
    ("mug", ["[UNK]"]),
    ("bum", ["[UNK]"]),
])
def test_course_examples(word, expected):
    ours = models.WordPiece({t: i for i, t in enumerate(COURSE_VOCAB)})
    assert [t.value for t in ours.tokenize(word)] == expected
    hf = hf_from_model_dict(ours.to_dict())
    assert mismatches(ours, hf, [word]) == []


def test_events_tell_the_course_story_for_bugs_and_bum():
    ours = models.WordPiece({t: i for i, t in enumerate(COURSE_VOCAB)})
    events = []
    ours.tokenize("bugs", on_event=events.append)
    json.dumps(events)
    tries = [(e["candidate"], e["found"]) for e in events if e["type"] == "wordpiece.try"]
    # Longest first; windows longer than any vocabulary entry are not tried.
    assert tries == [("bugs", False), ("bug", False), ("bu", False), ("b", True),
                     ("##ug", False), ("##u", True), ("##gs", True)]
    assert [e["token"] for e in events if e["type"] == "wordpiece.match"] == ["b", "##u", "##gs"]
    assert events[0] == {"type": "wordpiece.word", "word": "bugs"}
    assert events[-1]["type"] == "wordpiece.done"

    events = []
    ours.tokenize("bum", on_event=events.append)
    unk = [e for e in events if e["type"] == "wordpiece.unk"]
    assert len(unk) == 1 and unk[0]["reason"] == "no_match" and unk[0]["position"] == 2
    assert events[-1]["tokens"] == [["[UNK]", 0, 0, 3]]

    events = []
    short = models.WordPiece({t: i for i, t in enumerate(COURSE_VOCAB)}, max_input_chars_per_word=3)
    short.tokenize("hugs", on_event=events.append)
    assert [e["type"] for e in events] == ["wordpiece.word", "wordpiece.unk", "wordpiece.done"]
    assert events[1]["reason"] == "too_long" and events[1]["chars"] == 4


def test_traced_path_gives_the_fast_path_result(bert, botchan_words):
    words = sorted(set(botchan_words))[:4000] + EXOTIC
    for word in words:
        events = []
        assert bert.tokenize(word, on_event=events.append) == bert.tokenize(word), word
        done = events[-1]
        assert done["type"] == "wordpiece.done"
        assert done["tokens"] == [[t.value, t.id, *t.offsets] for t in bert.tokenize(word)]


def test_empty_word_gives_no_tokens(bert):
    assert bert.tokenize("") == []

"""Post-processors against `tokenizers`: same JSON, same encodings on every field.

Each processor is built on our side, written with to_dict(), put into a real
tokenizer.json and loaded by both libraries; then single inputs, pairs, inputs
without special tokens and truncated inputs (overflowing) must all agree.
"""
from __future__ import annotations

import json

import pytest
import tokenizers
from tokenizers import decoders as hf_decoders
from tokenizers import models as hf_models
from tokenizers import pre_tokenizers as hf_pre
from tokenizers import processors as hf_processors
from tokenizers import trainers as hf_trainers

from subword_lab import Tokenizer, processors
from subword_lab.core.errors import SubwordLabError
from test_parity_bert import FULL, mismatches, view

BERT_PROCESSORS = {
    "template_string": lambda: processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 101), ("[SEP]", 102)]),
    "template_odd": lambda: processors.TemplateProcessing(
        single="$0 [SEP] [MASK]:3", pair="[CLS]:2 $B:1 [SEP] $A:0 [MASK]:4",
        special_tokens=[("[CLS]", 101), ("[SEP]", 102),
                        {"id": "[MASK]", "ids": [103, 100], "tokens": ["[MASK]", "[UNK]"]}]),
    "template_default": lambda: processors.TemplateProcessing(),
    "bert": lambda: processors.BertProcessing(("[SEP]", 102), ("[CLS]", 101)),
    "roberta_on_wordpiece": lambda: processors.RobertaProcessing(("[SEP]", 102), ("[CLS]", 101)),
    "sequence": lambda: processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.BertProcessing(("[SEP]", 102), ("[CLS]", 101))]),
}


def _texts(botchan_lines, multilingual_lines):
    long_text = " ".join(botchan_lines[20:26])
    return botchan_lines[:200:4] + multilingual_lines[::3] + [long_text]


def _with_processor(json_text, proc):
    data = json.loads(json_text)
    data["post_processor"] = proc.to_dict()
    data["truncation"] = data["padding"] = None
    text = json.dumps(data)
    return Tokenizer.from_str(text), tokenizers.Tokenizer.from_str(text)


def _check(ours, theirs, texts):
    pairs = list(zip(texts[::2], texts[1::2]))
    assert mismatches(ours, theirs, texts, FULL) == []
    assert mismatches(ours, theirs, pairs, FULL) == []
    assert mismatches(ours, theirs, texts[:20], FULL, add_special_tokens=False) == []
    assert mismatches(ours, theirs, pairs[:20], FULL, add_special_tokens=False) == []
    assert ours.num_special_tokens_to_add(True) == theirs.num_special_tokens_to_add(True)
    assert ours.num_special_tokens_to_add(False) == theirs.num_special_tokens_to_add(False)
    # truncation with overflowing windows, on singles and pairs, both directions
    for strategy, direction in [("longest_first", "right"), ("only_first", "left"),
                                ("longest_first", "left")]:
        for tok in (ours, theirs):
            tok.enable_truncation(24, stride=3, strategy=strategy, direction=direction)
        assert mismatches(ours, theirs, texts, FULL) == []
        long_text = max(texts, key=len)
        for pair in [(long_text, texts[1]), (texts[1], long_text), (long_text, long_text)]:
            try:
                expected = theirs.encode(*pair)
            except Exception:  # e.g. only_first when the first is too short to cut
                with pytest.raises(SubwordLabError):
                    ours.encode(*pair)
                continue
            assert view(ours.encode(*pair)) == view(expected)
            assert [view(o) for o in ours.encode(*pair).overflowing] == \
                [view(o) for o in expected.overflowing]
    for tok in (ours, theirs):
        tok.no_truncation()


@pytest.mark.parametrize("name", sorted(BERT_PROCESSORS))
def test_processor_on_bert(name, bert_json, botchan_lines, multilingual_lines):
    proc = BERT_PROCESSORS[name]()
    ours, theirs = _with_processor(bert_json.read_text(encoding="utf-8"), proc)
    # the JSON we wrote is what tokenizers itself writes for that processor
    assert json.loads(theirs.to_str())["post_processor"] == proc.to_dict()
    _check(ours, theirs, _texts(botchan_lines, multilingual_lines))


@pytest.fixture(scope="module")
def byte_level_json(botchan_lines):
    tok = tokenizers.Tokenizer(hf_models.BPE())
    tok.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=True)
    tok.decoder = hf_decoders.ByteLevel()
    tok.train_from_iterator(botchan_lines, hf_trainers.BpeTrainer(
        vocab_size=500, special_tokens=["<s>", "</s>"],
        initial_alphabet=hf_pre.ByteLevel.alphabet()))
    return tok.to_str()


@pytest.mark.parametrize("proc", [
    lambda: processors.RobertaProcessing(("</s>", 1), ("<s>", 0)),
    lambda: processors.RobertaProcessing(("</s>", 1), ("<s>", 0), trim_offsets=True,
                                         add_prefix_space=False),
    lambda: processors.RobertaProcessing(("</s>", 1), ("<s>", 0), trim_offsets=False),
    lambda: processors.ByteLevel(trim_offsets=True),
    lambda: processors.ByteLevel(trim_offsets=True, add_prefix_space=False),
    lambda: processors.Sequence([processors.ByteLevel(),
                                 processors.TemplateProcessing("<s> $A </s>", "$A </s> $B:1",
                                                               [("<s>", 0), ("</s>", 1)])]),
], ids=["roberta", "roberta_no_prefix", "roberta_untrimmed", "byte_level",
        "byte_level_no_prefix", "sequence"])
def test_processor_on_byte_level(proc, byte_level_json, botchan_lines, multilingual_lines):
    proc = proc()
    ours, theirs = _with_processor(byte_level_json, proc)
    assert json.loads(theirs.to_str())["post_processor"] == proc.to_dict()
    texts = _texts(botchan_lines, multilingual_lines) + ["  two leading", "trailing  ", " "]
    _check(ours, theirs, texts)


def test_from_dict_round_trips_hf_json():
    made = [
        hf_processors.TemplateProcessing(single="[CLS] $A [SEP]", pair="$A $B:1",
                                         special_tokens=[("[CLS]", 1), ("[SEP]", 2)]),
        hf_processors.BertProcessing(("[SEP]", 2), ("[CLS]", 1)),
        hf_processors.RobertaProcessing(("</s>", 2), ("<s>", 0), trim_offsets=False),
        hf_processors.ByteLevel(trim_offsets=False),
        hf_processors.Sequence([hf_processors.ByteLevel(),
                                hf_processors.BertProcessing(("[SEP]", 2), ("[CLS]", 1))]),
    ]
    for hf_proc in made:
        d = json.loads(hf_proc.__getstate__())
        assert processors.from_dict(d).to_dict() == d


@pytest.mark.parametrize("bad, field", [
    ({"type": "TemplateProcessing", "single": "[X] $A", "pair": "$A $B",
      "special_tokens": {}}, "special_tokens"),
    ({"type": "TemplateProcessing", "single": "$A", "pair": "$A", "special_tokens": {}},
     "pair"),
    ({"type": "TemplateProcessing", "single": "$A"}, "pair"),
    ({"type": "BertProcessing", "sep": "[SEP]", "cls": ["[CLS]", 1]}, "sep"),
    ({"type": "NoSuchProcessor"}, "type"),
])
def test_bad_processor_json_is_named(bad, field):
    with pytest.raises(SubwordLabError) as info:
        processors.from_dict(bad)
    assert info.value.field == field


def test_template_errors_match_tokenizers():
    with pytest.raises(SubwordLabError, match=r"\[X\]"):
        processors.TemplateProcessing(single="[X] $A")
    with pytest.raises(ValueError):
        hf_processors.TemplateProcessing(single="[X] $A")

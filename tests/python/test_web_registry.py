"""The browser facade's registry: one shape of description, whoever opened the tokenizer."""
from __future__ import annotations

import json

import pytest

import subword_lab
from subword_lab.core.errors import SubwordLabError
from subword_lab.web import api
from subword_lab.web.registry import REGISTRY, describe

KEYS = {"key", "name", "model", "vocab_size", "unk_id", "byte_level"}


def test_every_entry_has_the_same_shape(gpt2_tiktoken, botchan_unigram_model):
    opened = [json.loads(api.open_path("g", str(gpt2_tiktoken))),
              json.loads(api.open_path("u", str(botchan_unigram_model))),
              json.loads(api.course_toy_unigram("{}")),
              json.loads(api.open_toy(json.dumps({"corpus": "course-toy", "algo": "bpe"})))]
    for info in opened:
        assert KEYS <= set(info), info
    assert [i["model"] for i in opened] == ["BPE", "Unigram", "Unigram", "BPE"]
    assert opened[0]["byte_level"] is True and opened[1]["byte_level"] is False
    # The toy Unigram's unknown id is read from the model, not assumed.
    toy = REGISTRY.get("course-toy-unigram")
    assert opened[2]["unk_id"] == toy.model.unk_id


def test_model_names_are_public(asset_paths):
    """A sentencepiece BPE is shown as BPE, never as a private subclass's name."""
    tokenizer = subword_lab.load(str(asset_paths["botchan_en_bpe_1000.model"]))
    assert describe("k", "botchan bpe", tokenizer)["model"] == "BPE"


def test_unknown_key_is_a_clear_error():
    with pytest.raises(SubwordLabError, match="no tokenizer named 'nope' is open"):
        api.encode("nope", "text")
    with pytest.raises(SubwordLabError, match="no tokenizer named 'nope' is open"):
        api.describe("nope")

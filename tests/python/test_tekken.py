"""Mistral's tekken.json: a small file made here, against tiktoken built the way
mistral-common builds its Tekkenizer (special tokens first, ranks shifted), and the
errors a malformed file gives. tests/realfiles checks the real file from
mistral-common against the same reference on 1,632 inputs."""
from __future__ import annotations

import base64
import json

import pytest
import tiktoken

import subword_lab
from subword_lab.core.errors import SubwordLabError

PATTERN = r"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+|\s+"
MERGES = [b"th", b"he", b"the", b" t", b"in", b"ing", b" the"]
SPECIALS = 25  # past the 20 implicit names: fillers <SPECIAL_20>.. follow


def _vocab(merges=MERGES):
    tokens = [bytes([i]) for i in range(256)] + merges
    return [{"rank": i, "token_bytes": base64.b64encode(t).decode(), "token_str": None}
            for i, t in enumerate(tokens)]


def _doc(**changes):
    doc = {"config": {"pattern": PATTERN, "num_vocab_tokens": 256 + len(MERGES),
                      "default_vocab_size": 256 + len(MERGES) - 1 + SPECIALS,
                      "default_num_special_tokens": SPECIALS, "version": "v3"},
           "vocab": _vocab()}
    doc.update(changes)
    return doc


def _write(tmp_path, doc, name="tekken.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_ids_are_tiktoken_ranks_after_the_special_tokens(tmp_path):
    doc = _doc()
    size = doc["config"]["default_vocab_size"] - SPECIALS  # the last merge is cut off
    ranks = {base64.b64decode(t["token_bytes"]): t["rank"] for t in doc["vocab"][:size]}
    ref = tiktoken.Encoding("t", pat_str=PATTERN, mergeable_ranks=ranks, special_tokens={})
    ours = subword_lab.load(_write(tmp_path, doc, "any-name.json"))
    for text in ["the thing in the theatre", "  thething\n\n12 <s> [INST]", "日本 the", ""]:
        want = [i + SPECIALS for i in ref.encode_ordinary(text)]
        encoding = ours.encode(text)
        assert encoding.ids == want, text
        assert ours.decode(encoding.ids) == text
    assert ours.rules["format"] == "tekken"
    assert ours.token_to_id("<s>") == 1 and ours.token_to_id("<SPECIAL_24>") == 24
    assert ours.decode([1, *ours.encode("the").ids, 2]) == "the"  # specials left out


def test_special_tokens_listed_in_the_file(tmp_path):
    listed = [{"rank": 0, "token_str": "<unk>", "is_control": True},
              {"rank": 1, "token_str": "<s>", "is_control": True}]
    ours = subword_lab.load(_write(tmp_path, _doc(special_tokens=listed)))
    assert ours.token_to_id("<s>") == 1 and ours.token_to_id("<SPECIAL_2>") == 2
    assert ours.token_to_id("[INST]") is None


@pytest.mark.parametrize("change,field", [
    ({"vocab": "no"}, "vocab"),
    ({"config": {"pattern": PATTERN}}, "config.default_num_special_tokens"),
    ({"vocab": _vocab()[:10]}, "config.default_vocab_size"),
    ({"vocab": [{"rank": 0, "token_bytes": "!!", "token_str": None}] + _vocab()[1:]},
     "vocab[0].token_bytes"),
    ({"vocab": _vocab()[1:]}, "vocab[0]"),
    ({"vocab": _vocab([b"th", b"th", b"he", b"x", b"y", b"z", b"w"])}, "vocab[257]"),
    ({"special_tokens": [{"rank": 0, "token_str": "<s>"}, {"rank": 1, "token_str": "<s>"}]},
     "special_tokens"),
])
def test_malformed_files_name_file_and_field(tmp_path, change, field):
    path = _write(tmp_path, _doc(**change))
    with pytest.raises(SubwordLabError) as info:
        subword_lab.load(path, format="tekken")
    assert info.value.path == str(path) and info.value.field == field, str(info.value)

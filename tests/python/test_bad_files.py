"""Malformed or unsupported files: one error type, naming the file, the field and
what was wrong."""
from __future__ import annotations

import json
import random
import re

import pytest

import subword_lab
from subword_lab.core.errors import SubwordLabError
from subword_lab.io.sentencepiece_model import parse_model


def _error(path, **options) -> SubwordLabError:
    with pytest.raises(SubwordLabError) as info:
        subword_lab.load(path, **options)
    err = info.value
    assert err.path == str(path), str(err)
    assert str(err).startswith(str(path) + ": ")
    return err


def _varint(data, pos):
    value = shift = 0
    while True:
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos += 1
        shift += 7
        if byte < 0x80:
            return value, pos


def _top_level_record(data, offset):
    """The ModelProto field holding byte `offset`: its name, where its length prefix
    starts and where its body starts (every top-level field of a .model is
    length-delimited)."""
    names = {1: "pieces", 2: "trainer_spec", 3: "normalizer_spec"}
    pos, seen = 0, {}
    while True:
        key, after_key = _varint(data, pos)
        length, body = _varint(data, after_key)
        number = key >> 3
        index = seen.get(number, 0)
        seen[number] = index + 1
        if offset < body + length:
            name = names[number] + (f"[{index}]" if number == 1 else "")
            return name, after_key, body
        pos = body + length


@pytest.mark.parametrize("cut", [1, 7, 100, 5000, -3])
def test_truncated_model(tmp_path, botchan_unigram_model, cut):
    data = botchan_unigram_model.read_bytes()
    kept = data[:cut]
    path = tmp_path / "cut.model"
    path.write_bytes(kept)
    err = _error(path)
    field, length_at, body = _top_level_record(data, len(kept))
    assert err.field == field
    if len(kept) < body:  # the cut falls in the record's length prefix
        assert err.reason == f"truncated varint at byte {len(kept)}"
    else:
        assert err.reason == (f"length {_varint(data, length_at)[0]} at byte {body} "
                              f"runs past the end ({len(kept)})")


def test_truncated_model_names_the_field(tmp_path, botchan_unigram_model):
    # Cut inside the pieces: the field path points at the piece being read.
    path = tmp_path / "cut.model"
    path.write_bytes(botchan_unigram_model.read_bytes()[:5000])
    err = _error(path)
    assert err.field.startswith("pieces[")


@pytest.mark.parametrize("seed", range(20))
def test_random_bytes_model(tmp_path, seed):
    rng = random.Random(seed)
    path = tmp_path / "random.model"
    data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000)))
    path.write_bytes(data)
    err = _error(path)
    # Random bytes fail on the first record that does not fit: the field is a
    # ModelProto field by name, or by number when it has none.
    assert re.fullmatch(r"pieces\[\d+\](\.\w+)?|(trainer|normalizer|denormalizer)_spec(\.\w+)?"
                        r"|\(field \d+\)|\(top level\)", err.field), err.field
    past_end = re.fullmatch(r"length (\d+) at byte (\d+) runs past the end \((\d+)\)",
                            err.reason)
    if past_end:
        length, at, size = map(int, past_end.groups())
        assert size == len(data) and at < size < at + length
    else:
        assert re.fullmatch(r"unsupported wire type [3467] \(not a sentencepiece model\?\)"
                            r"|wire type \d, expected 2|invalid field number 0 at byte \d+"
                            r"|truncated (varint|float) at byte \d+", err.reason), err.reason


def test_empty_files(tmp_path):
    for name in ("empty.model", "empty.tiktoken", "vocab.txt", "tokenizer.json"):
        path = tmp_path / name
        path.write_bytes(b"")
        assert _error(path).reason.startswith("empty file")


def test_json_without_model(tmp_path, bert_json):
    data = json.loads(bert_json.read_text(encoding="utf-8"))
    del data["model"]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data))
    err = _error(path)
    assert err.field == "model" and "missing" in err.reason


def test_json_unknown_model_type(tmp_path, bert_json):
    data = json.loads(bert_json.read_text(encoding="utf-8"))
    data["model"]["type"] = "Transformer"
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data))
    err = _error(path)
    assert err.field == "model.type"
    assert err.reason.startswith("unsupported model type 'Transformer'")


def test_json_not_json(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text('{"model": ')
    err = _error(path)
    assert err.field == "line 1 column 11" and err.reason == "not valid JSON (Expecting value)"


def test_binary_vocab_txt(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"[PAD]\n[UNK]\n\x00\x01\x02\xff\xfe binary\n")
    err = _error(path)
    assert err.reason.startswith("binary data") and err.field == "byte 12"


def test_non_utf8_vocab_txt(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"[UNK]\nhello\n\xff\xfe\n")
    err = _error(path)
    assert "UTF-8" in err.reason and err.field == "byte 12"


def test_vocab_txt_without_unk(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("hello\nworld\n")
    err = _error(path)
    assert err.field == "unk_token" and "'[UNK]' is not in the vocabulary" in err.reason


def test_unknown_extension(tmp_path):
    path = tmp_path / "tokenizer.bin"
    path.write_bytes(b"whatever")
    assert _error(path).reason.startswith("unknown file type '.bin'")


def test_missing_file(tmp_path):
    err = _error(tmp_path / "nope.model")
    assert err.reason == "no such file" and err.field is None


@pytest.mark.parametrize("line, why", [
    ("IQ== notanumber", "expected"),
    ("IQ==", "expected"),
    ("QQ 5", "base64"),           # tiktoken's b64decode: "Incorrect padding"
    # tiktoken's decoder drops characters outside base64: "!!!!" is the empty token,
    # which is fine, but rank 5 is already taken.
    ("!!!! 5", "rank 5 is given to two tokens"),
    ("IQ== 1e20", "expected a whole-number rank"),
    ("IQ== \u0661\u0662", "expected a whole-number rank"),  # Arabic-Indic digits
    ("IQ== 4294967296", "outside"),
    ("IQ== -1", "outside"),
    ("IQ== 0 extra", "expected"),
])
def test_tiktoken_bad_line(tmp_path, gpt2_tiktoken, line, why):
    lines = gpt2_tiktoken.read_text(encoding="ascii").splitlines()[:300]
    lines.insert(41, line)
    path = tmp_path / "bad.tiktoken"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    err = _error(path)
    assert err.field == "line 42" and why in err.reason


def test_tiktoken_missing_bytes(tmp_path, gpt2_tiktoken):
    lines = gpt2_tiktoken.read_text(encoding="ascii").splitlines()
    path = tmp_path / "short.tiktoken"
    path.write_text("\n".join(lines[1:300]) + "\n")
    err = _error(path)
    assert err.field == "ranks" and err.reason.startswith("1 single bytes have no rank (first: 33)")


def test_merges_without_vocab(tmp_path):
    path = tmp_path / "merges.txt"
    path.write_text("#version: 0.2\na b\n")
    with pytest.raises(SubwordLabError) as info:
        subword_lab.load(path)
    # The message names the file that is missing.
    assert info.value.path == str(tmp_path / "vocab.json")
    assert "vocab.json not found" in info.value.reason


def test_merges_bad_line(tmp_path):
    (tmp_path / "vocab.json").write_text(json.dumps({"a": 0, "b": 1, "ab": 2}))
    (tmp_path / "merges.txt").write_text("#version: 0.2\na b\nab\n")
    err = _error(tmp_path / "merges.txt")
    assert err.field == "line 3" and err.reason == ("expected two tokens separated by one "
                                                    "space, got 'ab'")


def test_merge_outside_vocab(tmp_path):
    (tmp_path / "vocab.json").write_text(json.dumps({"a": 0, "b": 1}))
    (tmp_path / "merges.txt").write_text("a b\n")
    err = _error(tmp_path / "merges.txt")
    assert err.field == "merge 1" and "'ab'" in err.reason


def test_unknown_option(bert_vocab):
    err = _error(bert_vocab, lowercas=False)
    assert err.field == "lowercas" and "unknown option" in err.reason


def test_unsupported_sentencepiece_model_type(tmp_path, botchan_unigram_model):
    # trainer_spec.model_type is field 3 of TrainerSpec (field 2 of ModelProto):
    # append a second trainer_spec holding model_type = WORD (3); protobuf merges it.
    data = botchan_unigram_model.read_bytes() + bytes([0x12, 0x02, 0x18, 0x03])
    path = tmp_path / "word.model"
    path.write_bytes(data)
    err = _error(path)
    assert err.field == "trainer_spec.model_type" and "WORD" in err.reason


def test_protobuf_wrong_wire_type():
    # pieces (field 1) written as a varint instead of a message.
    with pytest.raises(SubwordLabError) as info:
        parse_model(bytes([0x08, 0x01]), path="x.model")
    assert info.value.field == "pieces[0]" and "wire type" in info.value.reason


def test_cli_prints_message_and_exits_2(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "random.model"
    path.write_bytes(b"\x0a\xff\xff")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-m", "subword_lab", "encode", "--tokenizer",
                           str(path)], input="hello\n", capture_output=True, text=True,
                          cwd=root / "py")
    assert proc.returncode == 2
    assert str(path) in proc.stderr and "Traceback" not in proc.stderr

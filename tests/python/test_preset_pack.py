"""A preset's pre-parsed form (io/preset_pack.py) opens as its tokenizer.json does and
as tokenizers reads that file; a damaged one is refused by name; and a pack is never
taken for a user's file (only the page's presets are read this way). The shipped
packs of the real files are compared with their files in tests/realfiles.
"""
from __future__ import annotations

import json
import random

import pytest
import tokenizers

import subword_lab
from subword_lab.core.errors import SubwordLabError
from subword_lab.io.preset_pack import MAGIC, load_pack, write_pack
from subword_lab.web import api

ALPHABET = "abcé▁ \n"


def _corpus(rng):
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 14))) for _ in range(600)]


def _bpe_file(tmp_path, rng):
    """A trained BPE with a repeated merge (the last rank counts), merges as pairs
    whose tokens hold spaces, and tokens holding a newline (so the vocabulary's
    separator must be another character)."""
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(unk_token="<unk>"))
    hf.train_from_iterator(_corpus(rng), tokenizers.trainers.BpeTrainer(
        vocab_size=90, special_tokens=["<unk>", "<s>"]))
    d = json.loads(hf.to_str())
    merges = d["model"]["merges"]  # [a, b] pairs: tokens here may hold a space
    assert any(" " in a + b for a, b in merges) and any("\n" in t for t in d["model"]["vocab"])
    d["model"]["merges"] = merges + [merges[4]]
    path = tmp_path / "bpe.tokenizer.json"
    path.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    return path


def _bpe_strings_file(tmp_path, rng):
    """The usual file: merges as "a b" strings (no token holds a space), one repeated."""
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(unk_token="<unk>"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    hf.train_from_iterator(_corpus(rng), tokenizers.trainers.BpeTrainer(
        vocab_size=90, special_tokens=["<unk>", "<s>"]))
    d = json.loads(hf.to_str())
    merges = [" ".join(m) if isinstance(m, list) else m for m in d["model"]["merges"]]
    d["model"]["merges"] = merges + [merges[2]]
    path = tmp_path / "bpe-strings.tokenizer.json"
    path.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    return path


def _unigram_file(tmp_path, rng):
    hf = tokenizers.Tokenizer(tokenizers.models.Unigram())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace()
    hf.train_from_iterator(_corpus(rng), tokenizers.trainers.UnigramTrainer(
        vocab_size=60, special_tokens=["<unk>"], unk_token="<unk>"))
    path = tmp_path / "unigram.tokenizer.json"
    path.write_text(hf.to_str(), encoding="utf-8")
    return path


@pytest.mark.parametrize("make", [_bpe_file, _bpe_strings_file, _unigram_file])
def test_a_pack_opens_as_its_file_and_as_tokenizers(tmp_path, make):
    rng = random.Random(5)
    path = make(tmp_path, rng)
    original = subword_lab.load(str(path))
    packed = load_pack(write_pack(path), path.name)
    reference = tokenizers.Tokenizer.from_file(str(path))
    assert packed.to_dict() == original.to_dict()
    assert packed.get_vocab() == original.get_vocab()
    for text in _corpus(rng)[:300] + ["<s>abc", "zzz é\n\n", ""]:
        got = packed.encode(text)
        assert got.ids == reference.encode(text).ids, text
        assert (got.tokens, got.offsets) == (original.encode(text).tokens,
                                             original.encode(text).offsets), text


def test_what_cannot_be_packed_is_refused(tmp_path):
    hf = tokenizers.Tokenizer(tokenizers.models.WordPiece({"[UNK]": 0, "a": 1},
                                                          unk_token="[UNK]"))
    path = tmp_path / "wordpiece.tokenizer.json"
    path.write_text(hf.to_str(), encoding="utf-8")
    with pytest.raises(SubwordLabError, match="only BPE and Unigram"):
        write_pack(path)


def _damaged(data: bytes):
    """(what was done, the bytes)"""
    head_end = data.index(b"\n", len(MAGIC))
    size = int(data[len(MAGIC):head_end])
    head = json.loads(data[head_end + 1:head_end + 1 + size])

    def with_head(change):
        new = dict(head)
        change(new)
        text = json.dumps(new).encode()
        return MAGIC + str(len(text)).encode() + b"\n" + text + data[head_end + 1 + size:]

    yield "magic", b"x" + data[1:]
    yield "cut short", data[:len(data) // 2]
    yield "header length", MAGIC + b"99999999\n" + data[head_end + 1:]
    yield "count", with_head(lambda h: h.update(count=h["count"] + 1))
    yield "section", with_head(lambda h: h["sections"].update(tokens=[0, 10 ** 9]))
    yield "vocab in header", with_head(lambda h: h["tokenizer"]["model"].update(vocab={"a": 0}))
    yield "model", with_head(lambda h: h["tokenizer"]["model"].update(type="WordPiece"))


@pytest.mark.parametrize("make", [_bpe_file, _bpe_strings_file, _unigram_file])
def test_a_damaged_pack_is_refused_by_name(tmp_path, make):
    data = write_pack(make(tmp_path, random.Random(9)))
    for what, bad in _damaged(data):
        with pytest.raises(SubwordLabError) as caught:
            load_pack(bad, "the.tokenizer.json")
        assert caught.value.path is not None and "the.tokenizer.json" in str(caught.value), what


def test_a_pack_is_never_a_users_file(tmp_path):
    data = write_pack(_bpe_file(tmp_path, random.Random(2)))
    pack = tmp_path / "tokenizer.json.pack"
    pack.write_bytes(data)
    with pytest.raises(SubwordLabError):
        subword_lab.load(str(pack))
    with pytest.raises(SubwordLabError):
        api.open_bytes("user", "tokenizer.json", data)
    with pytest.raises(SubwordLabError):
        api.open_bytes("user", "tokenizer.json.pack", data)
    opened = json.loads(api.open_pack("preset", "bpe.tokenizer.json", data))
    assert opened["name"] == "bpe.tokenizer.json" and opened["model"] == "BPE"

"""GGUF files as tokenizers: detection, the kinds refused by name, BOS/EOS, special
tokens, and the command line (`encode --tokenizer model.gguf`, `info model.gguf`).
Parity with llama.cpp itself is tests/realfiles/test_gguf_parity.py."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import subword_lab
from subword_lab.core.errors import SubwordLabError

import gguf_writer as W
from opened_files import opened

ROOT = Path(__file__).resolve().parents[2]



def _bpe_file(tmp_path, extra=(), name="tiny.gguf", pre="gpt-2", size=None):
    from subword_lab.core.tables.byte_level import alphabet
    tokens = list(alphabet()) + ["he", "ll", "hell", "hello", "Ġw", "<|endoftext|>", "<tool>"]
    types = [1] * (len(tokens) - 2) + [3, 4]
    merges = ["h e", "l l", "he ll", "hell o", "Ġ w"]
    entries = W.tokenizer_entries("gpt2", tokens, merges, types, extra=[
        ("tokenizer.ggml.pre", "string", pre),
        ("tokenizer.ggml.eos_token_id", "uint32", len(tokens) - 2), *extra])
    path = tmp_path / name
    path.write_bytes(W.gguf(entries))
    if size:
        with open(path, "r+b") as handle:
            handle.truncate(size)
    return path, {t: i for i, t in enumerate(tokens)}


def test_detected_and_merged_by_rank(tmp_path):
    path, ids = _bpe_file(tmp_path)
    tok = subword_lab.load(path)
    assert tok.rules["format"] == "gguf"
    enc = tok.encode("hello wo", add_special_tokens=False)
    # "hello" merges h+e, l+l, he+ll, hell+o; " w" is Ġ+w; "o" stays
    assert enc.ids == [ids["hello"], ids["Ġw"], ids["o"]]
    assert enc.offsets == [(0, 5), (5, 7), (7, 8)]
    assert tok.decode(enc.ids) == "hello wo"


def test_special_tokens_modes(tmp_path):
    path, ids = _bpe_file(tmp_path)
    tok = subword_lab.load(path)
    text = "he<|endoftext|>x<tool>"
    recognised = tok.encode(text, add_special_tokens=False).ids
    assert recognised == [ids["he"], ids["<|endoftext|>"], ids["x"], ids["<tool>"]]
    as_text = tok.encode(text, add_special_tokens=False, special_tokens="as_text").ids
    # control token text is plain text; a user-defined token is still matched
    assert ids["<|endoftext|>"] not in as_text and as_text[-1] == ids["<tool>"]
    assert tok.decode(recognised) == "hex<tool>"
    assert tok.decode(recognised, skip_special_tokens=False) == text


def test_bos_eos_as_the_file_says(tmp_path):
    path, ids = _bpe_file(tmp_path, extra=[("tokenizer.ggml.bos_token_id", "uint32", 0),
                                           ("tokenizer.ggml.add_bos_token", "bool", True),
                                           ("tokenizer.ggml.add_eos_token", "bool", True)])
    tok = subword_lab.load(path)
    assert tok.encode("he").ids == [0, ids["he"], ids["<|endoftext|>"]]


def test_chat_template_from_the_file(tmp_path):
    """load() of a GGUF file exposes its tokenizer.chat_template, with the named special
    tokens the template sees; a tokenizer_config.json beside it wins, as in transformers."""
    template = "{% for m in messages %}{{ m.content }}{{ eos_token }}{% endfor %}"
    path, ids = _bpe_file(tmp_path, extra=[("tokenizer.chat_template", "string", template)])
    tok = subword_lab.load(path)
    assert tok.chat_template == template
    assert tok.special_tokens_map["eos_token"] == "<|endoftext|>"
    chat = [{"role": "user", "content": "hello"}]
    assert tok.apply_chat_template(chat) == "hello<|endoftext|>"
    assert tok.apply_chat_template(chat, tokenize=True) == [ids["hello"], ids["<|endoftext|>"]]
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"chat_template": "[{{ messages[0].content }}]"}))
    assert subword_lab.load(path).apply_chat_template(chat) == "[hello]"


@pytest.mark.parametrize("model", ["rwkv", "plamo2", "mystery"])
def test_unsupported_models_are_refused_by_name(tmp_path, model):
    path = tmp_path / "m.gguf"
    path.write_bytes(W.gguf(W.tokenizer_entries(model, ["a", "b"])))
    with pytest.raises(SubwordLabError, match=f"tokenizer.ggml.model '{model}' is not "
                                              "supported") as info:
        subword_lab.load(path)
    assert str(path) in str(info.value)


def test_unknown_pre_and_missing_tokenizer(tmp_path):
    path, _ = _bpe_file(tmp_path, pre="never-heard-of-it")
    with pytest.raises(SubwordLabError, match="never-heard-of-it"):
        subword_lab.load(path)
    bare = tmp_path / "weights-only.gguf"
    bare.write_bytes(W.gguf([("general.architecture", "string", "llama")]))
    with pytest.raises(SubwordLabError, match="no tokenizer"):
        subword_lab.load(bare)
    wrong = tmp_path / "bad-tokens.gguf"
    wrong.write_bytes(W.gguf([("tokenizer.ggml.model", "string", "gpt2"),
                              ("tokenizer.ggml.tokens", ("array", "int32"), [1, 2])]))
    with pytest.raises(SubwordLabError, match="tokenizer.ggml.tokens"):
        subword_lab.load(wrong)


def _cli(args, stdin=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "subword_lab", *args], input=stdin.encode(),
                          capture_output=True, env=env, timeout=120)


def test_cli_encode_and_info_on_a_sparse_multi_gib_file(tmp_path):
    path, ids = _bpe_file(tmp_path, name="model-Q4.gguf", size=5 << 30)  # takes no disk
    done = _cli(["encode", "--tokenizer", str(path)], "hello wo\n")
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["ids"] == [ids["hello"], ids["Ġw"], ids["o"]]
    info = _cli(["info", str(path), "--json"])
    assert info.returncode == 0, info.stderr.decode()
    summary = json.loads(info.stdout)
    assert summary["file_size"] == 5 << 30 and summary["tokenizer"] == "gpt2"
    assert summary["name"] == "tiny test vocabulary" and summary["pre_tokenizer"] == "gpt-2"
    assert summary["special_tokens"]["eos"] == {"id": ids["<|endoftext|>"],
                                                "token": "<|endoftext|>"}
    text = _cli(["info", str(path)])
    assert b"architecture: test" in text.stdout


def test_cli_refuses_a_broken_gguf_in_one_line(tmp_path):
    path = tmp_path / "cut.gguf"
    path.write_bytes(W.gguf(W.tokenizer_entries("gpt2", ["a", "b"]))[:60])
    for args in (["info", str(path)], ["encode", "--tokenizer", str(path)]):
        done = _cli(args)
        assert done.returncode == 2
        err = done.stderr.decode()
        assert err.startswith("error: ") and str(path) in err and "Traceback" not in err


BAD_METADATA = {
    "scores too short": ("tokenizer.ggml.scores", ("array", "float32"), [0.0]),
    "scores of text": ("tokenizer.ggml.scores", ("array", "string"), ["a"] * 300),
    "token types of text": ("tokenizer.ggml.token_type", ("array", "string"), ["x"] * 300),
    "add_bos not a bool": ("tokenizer.ggml.add_bos_token", "uint8", 1),
    "negative special id": ("tokenizer.ggml.bos_token_id", "int32", -5),
    "pre not a string": ("tokenizer.ggml.pre", "uint32", 7),
    "charsmap on gpt2 ignored, bad add_space_prefix": (
        "tokenizer.ggml.add_space_prefix", "string", "yes"),
}


@pytest.mark.parametrize("case", sorted(BAD_METADATA))
def test_malformed_tokenizer_metadata_is_one_error_naming_the_key(tmp_path, case):
    key, kind, value = BAD_METADATA[case]
    path, _ = _bpe_file(tmp_path, extra=[(key, kind, value)], pre="gpt-2")
    if key == "tokenizer.ggml.pre":  # given twice otherwise: write it alone
        path, _ = _bpe_file(tmp_path, extra=[], pre="gpt-2")
        data = path.read_bytes().replace(W.kv("tokenizer.ggml.pre", "string", "gpt-2"),
                                         W.kv(key, kind, value))
        path.write_bytes(data)
    with pytest.raises(SubwordLabError) as info:
        subword_lab.load(path)
    assert info.value.field == key and str(path) in str(info.value), str(info.value)


def test_a_missing_byte_token_is_an_error_as_in_llama_cpp(tmp_path):
    # SentencePiece-style vocabulary without byte tokens: "é" has no token at all
    tokens = ["<unk>", "<s>", "</s>", "\u2581", "a"]
    path = tmp_path / "spm.gguf"
    path.write_bytes(W.gguf(W.tokenizer_entries("llama", tokens, types=[2, 3, 3, 1, 1],
                                                scores=[0.0] * 5)))
    tok = subword_lab.load(path)
    assert tok.encode("a a", add_special_tokens=False).ids == [3, 4, 3, 4]
    with pytest.raises(SubwordLabError, match="no token for the byte 0xC3"):
        tok.encode("é")


# -- the model events of the kinds that are not BPE by rank ---------------------------

NOT_BY_RANK = {"ggml-vocab-llama-spm.gguf": ("SPM", "bpe.word", "bpe.merge"),
               "ggml-vocab-phi-3.gguf": ("SPM", "bpe.word", "bpe.merge"),
               "ggml-vocab-baichuan.gguf": ("SPM", "bpe.word", "bpe.merge"),
               "ggml-vocab-bert-bge.gguf": ("WPM", "wordpiece.word", "wordpiece.try"),
               "ggml-vocab-nomic-bert-moe.gguf": ("UGM", "unigram.word", "unigram.edge")}
DONE = ("bpe.done", "wordpiece.done", "unigram.done")


def _hard_texts():
    """The hard inputs of tests/realfiles, every kind of fragment but with 100 of their 800
    random mixes and none of their 5-20 KB documents: a trace must end where the untraced
    encode does on each kind of input, and tests/realfiles holds that encode to llama.cpp
    on the whole list. (The whole list, traced, took 170 s of the test run.)"""
    spec = importlib.util.spec_from_file_location(
        "_hard_inputs", ROOT / "tests" / "realfiles" / "hard_inputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [text for kind, text in module.hard_inputs(mixes=100)
            if not kind.startswith("document:")]


@pytest.mark.parametrize("name", sorted(NOT_BY_RANK))
def test_traced_steps_end_in_the_untraced_tokens(name):
    """llama (merges by score), bert (WordPiece), t5 (Unigram): each piece's `*.done`
    tokens, with the special-token pieces between them, are the ids of an encode
    without on_event; every piece reports its model's steps."""
    kind, word, step = NOT_BY_RANK[name]
    tok = opened(name)
    steps = 0
    assert tok.gguf.kind == kind
    for text in _hard_texts():
        events = []
        tok.encode(text, add_special_tokens=False, on_event=events.append)
        pieces = next(e for e in events if e["type"] == "pre_tokenize")["pieces"]
        done = iter(e for e in events if e["type"] in DONE)
        traced = []
        for piece in pieces:
            traced.extend([tok.token_to_id(piece["text"])] if piece["added"]
                          else [row[1] for row in next(done)["tokens"]])
        assert next(done, None) is None
        assert traced == tok.encode(text, add_special_tokens=False).ids, text
        # each piece the model sees: model_piece, then its model's word event
        kinds = [e["type"] for e in events]
        opened_at = [k for k, t in enumerate(kinds) if t == "model_piece"]
        assert len(opened_at) == sum(1 for p in pieces if not p["added"])
        assert all(kinds[k + 1] == word for k in opened_at), text
        steps += kinds.count(step)
    assert steps > 1000  # the loop's own steps are reported, not only the results

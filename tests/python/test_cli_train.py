"""`python -m subword_lab train`: trains, saves a tokenizer.json tokenizers loads and
encodes identically, shows progress on stderr, and fails cleanly on bad input."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tokenizers as hf

from subword_lab import Tokenizer

from train_helpers import same_encodings

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "subword_lab", "train", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, botchan_lines):
    path = tmp_path_factory.mktemp("cli") / "corpus.txt"
    path.write_text("\n".join(botchan_lines[:1500]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("algo, extra", [
    ("bpe", []),
    ("bpe", ["--pre-tokenizer", "whitespace", "--tie-break", "first", "--min-frequency", "2"]),
    ("wordpiece", ["--lowercase"]),
    ("unigram", ["--method", "em"]),
])
def test_train_and_load_in_tokenizers(tmp_path, corpus, botchan_lines, multilingual_lines,
                                      algo, extra):
    out = tmp_path / "tokenizer.json"
    events = tmp_path / "events.jsonl"
    result = run("--algo", algo, "--vocab-size", 600, *extra, corpus, "-o", out,
                 "--events", events)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{algo}: vocabulary of" in result.stderr
    records = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert records[0]["type"] == "train_start" and records[-1]["type"] == "train_end"
    ours = Tokenizer.from_file(str(out))
    assert ours.get_vocab_size() == 600
    theirs = hf.Tokenizer.from_file(str(out))
    assert same_encodings(ours, theirs, botchan_lines[1500:2500] + multilingual_lines) == []


def test_progress_bar_on_stderr(tmp_path, corpus):
    result = run("--algo", "bpe", "--vocab-size", 2000, corpus, "-o", tmp_path / "t.json")
    assert result.returncode == 0
    assert "merge" in result.stderr and "%" in result.stderr and "vocab" in result.stderr
    quiet = run("--algo", "bpe", "--vocab-size", 400, "-q", corpus, "-o", tmp_path / "q.json")
    assert "merge" not in quiet.stderr


def test_matches_library_training(tmp_path, corpus):
    """The command line trains what the library trains."""
    from subword_lab import models, pre_tokenizers
    from subword_lab.trainers import BpeTrainer
    out = tmp_path / "t.json"
    assert run("--algo", "bpe", "--vocab-size", 800, "--pre-tokenizer", "whitespace",
               corpus, "-o", out).returncode == 0
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train([str(corpus)], BpeTrainer(vocab_size=800))
    assert json.loads(out.read_text())["model"]["merges"] == tok.to_dict()["model"]["merges"]


@pytest.mark.parametrize("args, message", [
    (["--algo", "bpe", "--vocab-size", "10"], "vocab_size: 10 is too small"),
    (["--algo", "bpe", "--vocab-size", "0"], "--vocab-size"),
    (["--algo", "bpe", "--vocab-size", "100", "--method", "em"], "--method: applies to unigram"),
    (["--algo", "unigram", "--vocab-size", "100", "--tie-break", "first"], "--tie-break"),
    (["--algo", "bpe", "--vocab-size", "100", "--tie-break", "last"], "invalid choice"),
    (["--algo", "bpe", "--vocab-size", "100", "--bogus"], "unrecognized arguments: --bogus"),
    (["--algo", "rnn", "--vocab-size", "100"], "invalid choice"),
    (["--algo", "bpe", "--vocab-size", "many"], "invalid int value"),
])
def test_bad_options(tmp_path, corpus, args, message):
    result = run(*args, corpus, "-o", tmp_path / "t.json")
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "t.json").exists()


def test_bad_files(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n", encoding="utf-8")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00abc")
    for path, message in ((tmp_path / "missing.txt", "missing.txt: cannot read"),
                          (empty, "corpus is empty"), (binary, "not UTF-8")):
        result = run("--algo", "wordpiece", "--vocab-size", 100, path, "-o", tmp_path / "t.json")
        assert result.returncode == 2, result.stderr
        assert message in result.stderr and "Traceback" not in result.stderr


def test_progress_speaks_words_not_event_names(tmp_path, corpus):
    """The bar says what the trainer is doing; the events' names (train_start, unigram_em...)
    are for programs and stay out of it."""
    import re
    for algo in ("bpe", "unigram"):
        result = run("--algo", algo, "--vocab-size", 400, corpus, "-o", tmp_path / f"{algo}.json")
        assert result.returncode == 0, result.stderr
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", result.stderr), result.stderr


@pytest.mark.parametrize("args", [["--help"], ["train", "--help"], ["encode", "--help"]])
def test_help_names_the_installed_command(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    done = subprocess.run([sys.executable, "-m", "subword_lab", *args], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: subword-lab"), done.stdout[:200]
    assert "python -m" not in done.stdout

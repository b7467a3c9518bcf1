"""`python -m subword_lab encode`: JSON lines identical to `tokenizers`; bad files
exit 2 with one readable message and no traceback."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import tokenizers

ROOT = Path(__file__).resolve().parents[2]


def _run(args, stdin=""):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "subword_lab", *args], input=stdin.encode(),
                          capture_output=True, env=env, timeout=120)


def _expected(bert_json, lines, add_special_tokens=True):
    tok = tokenizers.Tokenizer.from_file(str(bert_json))
    tok.no_truncation()
    tok.no_padding()
    return tok, [tok.encode(line, add_special_tokens=add_special_tokens) for line in lines]


def test_encode_lines_like_tokenizers(bert_json, multilingual_lines):
    # the file as it is: its truncation and Fixed-128 padding apply on both sides
    lines = multilingual_lines
    done = _run(["encode", "--tokenizer", str(bert_json)], "\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr.decode()
    records = [json.loads(row) for row in done.stdout.decode("utf-8").splitlines()]
    assert len(records) == len(lines)
    hf = tokenizers.Tokenizer.from_file(str(bert_json))  # the file's own truncation+padding
    for line, record in zip(lines, records):
        expected = hf.encode(line)
        assert record == {"ids": expected.ids, "tokens": expected.tokens,
                          "offsets": [list(o) for o in expected.offsets]}, line


def test_no_special_tokens(bert_json, botchan_lines, tmp_path):
    data = json.loads(bert_json.read_text(encoding="utf-8"))
    data["truncation"] = data["padding"] = None
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    lines = botchan_lines[:50]
    done = _run(["encode", "--tokenizer", str(path), "--no-special-tokens"],
                "\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr.decode()
    records = [json.loads(row) for row in done.stdout.decode("utf-8").splitlines()]
    _, expected = _expected(bert_json, lines, add_special_tokens=False)
    assert [r["ids"] for r in records] == [e.ids for e in expected]
    assert [r["offsets"] for r in records] == [[list(o) for o in e.offsets] for e in expected]
    assert all("[CLS]" not in r["tokens"] for r in records)


def _assert_clean_failure(done, *needles):
    err = done.stderr.decode()
    assert done.returncode == 2
    assert "Traceback" not in err
    assert err.strip().count("\n") == 0  # one line
    for needle in needles:
        assert needle in err
    assert done.stdout == b""


def test_malformed_file_exits_2(tmp_path):
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{not json", encoding="utf-8")
    _assert_clean_failure(_run(["encode", "--tokenizer", str(bad)], "hello\n"), str(bad))


def test_wrong_field_is_named(tmp_path, bert_json):
    data = json.loads(bert_json.read_text(encoding="utf-8"))
    data["post_processor"]["single"] = [{"SpecialToken": {"id": "[NOPE]", "type_id": 0}}]
    bad = tmp_path / "tokenizer.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    _assert_clean_failure(_run(["encode", "--tokenizer", str(bad)], "hello\n"),
                          str(bad), "post_processor", "[NOPE]")


def test_missing_file_exits_2(tmp_path):
    missing = tmp_path / "missing.json"
    _assert_clean_failure(_run(["encode", "--tokenizer", str(missing)], "x\n"), str(missing))


def test_usage_errors_exit_2():
    done = _run(["encode"])
    assert done.returncode == 2 and b"--tokenizer" in done.stderr
    assert _run([]).returncode == 2

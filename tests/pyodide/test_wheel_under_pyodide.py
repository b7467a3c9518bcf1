"""The built wheel, imported from its zip under Pyodide in Node as the page does, tokenizes as CPython does."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import subword_lab

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("encode_in_pyodide.mjs")
sys.path.insert(0, str(ROOT))
import build

TEXTS = [
    "Hello world! Tokenizers don't read words; they read pieces.",
    "naïve café Zürich 2023 🙂 — «quotes» 東京\n\nnew lines\tand tabs",
]


@pytest.fixture(scope="module")
def dist():
    if os.environ.get("SUBWORD_LAB_BUILT") != "1" or not (build.DIST / "build.json").exists():
        build.build()
    return build.DIST


def reference_ids(fixture: str, path: Path, text: str) -> list[int]:
    """The ids the file's own library gives for `text` (with the file's own
    post-processor, as the page encodes)."""
    if fixture == "bert_json":
        import tokenizers
        tok = tokenizers.Tokenizer.from_file(str(path))
        tok.no_truncation()
        tok.no_padding()
        return tok.encode(text).ids
    if fixture == "gpt2_tiktoken":
        import tiktoken
        from tiktoken.load import load_tiktoken_bpe
        from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str
        enc = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                                mergeable_ranks=load_tiktoken_bpe(str(path)),
                                special_tokens={ENDOFTEXT: 50256})
        return enc.encode_ordinary(text)
    import sentencepiece
    return sentencepiece.SentencePieceProcessor(model_file=str(path)).encode(text)


@pytest.mark.parametrize("fixture", ["bert_json", "gpt2_tiktoken", "botchan_unigram_model"])
def test_wheel_encodes_like_cpython(dist, request, tmp_path, fixture):
    path = request.getfixturevalue(fixture)
    texts = tmp_path / "texts.json"
    texts.write_text(json.dumps(TEXTS), encoding="utf-8")
    node = shutil.which("node")
    assert node, "node is needed for the Pyodide tests"
    done = subprocess.run([node, str(SCRIPT), str(dist), str(path), str(texts)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["platform"] == "emscripten" and out["python"].startswith("3.14")
    assert out["packages"] == []  # no micropip, nor any other package: only our wheel
    wheel = json.loads((dist / "build.json").read_text())["wheel"].split("/")[-1]
    assert out["module"] == f"/lib/subword-lab/{wheel}/subword_lab/__init__.py"
    from subword_lab.web import api as webapi
    webapi.open_path("cpython", str(path))
    for text, got in zip(TEXTS, out["results"]):
        want = json.loads(webapi.encode("cpython", text))
        assert got["ids"] == want["ids"]
        assert got["tokens"] == want["tokens"]
        assert got["offsets"] == want["offsets"]
        assert len(got["ids"]) > 3
        assert got["ids"] == reference_ids(fixture, path, text), \
            f"{fixture}: under Pyodide the ids differ from the file's own library"
    assert subword_lab.__version__ == json.loads((dist / "build.json").read_text())["wheel"].split("-")[1]

"""The built wheel, imported from its zip under Pyodide in Node as the page does, tokenizes as CPython does."""
from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import zipfile
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
    assert out["module"] == f"/lib/subword-lab/{wheel}/subword_lab/__init__.pyc"
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


# The first view's work (web/api.py imported, the default preset opened, its text encoded),
# done in a fresh CPython: the modules it runs, as paths in the wheel.
FIRST_VIEW = """
import json, sys
sys.path[:0] = [sys.argv[1] + "/py", sys.argv[1] + "/tools"]
import precompute
from subword_lab.web import api
key, text = precompute.page_defaults()[0]
presets = json.load(open(sys.argv[2] + "/presets/presets.json", encoding="utf-8"))["presets"]
file = next(p["file"] for p in presets if p["id"] == key)
api.open_bytes(key, file.split("/")[-1], open(sys.argv[2] + "/" + file, "rb").read())
api.encode(key, text, None)
print(json.dumps(sorted(m.__spec__.origin.split("/py/", 1)[1] for n, m in list(sys.modules.items())
                        if n.split(".")[0] == "subword_lab")))
"""


def test_first_view_modules_are_pyodides_bytecode(dist, tmp_path):
    """The modules the page's first view runs are in its wheel as .pyc files only, made
    for Pyodide's Python (its magic number; unchecked hash-based, so no source is looked
    for): under Pyodide nothing of them is compiled while the page starts."""
    done = subprocess.run([sys.executable, "-c", FIRST_VIEW, str(ROOT), str(dist)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    first_view = json.loads(done.stdout)
    assert "subword_lab/web/api.py" in first_view and "subword_lab/models/bpe.py" in first_view
    code = tmp_path / "magic.py"
    code.write_text("import importlib.util\nprint(importlib.util.MAGIC_NUMBER.hex())\n")
    ran = subprocess.run([shutil.which("node"), str(SCRIPT.with_name("run_in_pyodide.mjs")), str(dist), str(code)],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr[-3000:]
    magic = bytes.fromhex(ran.stdout.split()[-1])
    build_info = json.loads((dist / "build.json").read_text())
    with zipfile.ZipFile(dist / build_info["wheel"]) as wheel:
        names = set(wheel.namelist())
        for path in first_view:
            assert path not in names and path + "c" in names, f"{path}: not in the wheel as bytecode only"
            header = wheel.read(path + "c")[:8]
            assert header[:4] == magic, f"{path}c: not Pyodide's Python's bytecode"
            assert header[4:] == b"\x01\x00\x00\x00", f"{path}c: not an unchecked hash-based .pyc"
        # The rest stays source: the Code panel shows the reference modules' own lines.
        assert "subword_lab/reference/bpe_train.py" in names


def test_page_fetches_the_wheel_gzipped_whole(dist):
    """build.json's wheel_packed, what the worker downloads, is the page's wheel gzipped."""
    build_info = json.loads((dist / "build.json").read_text())
    packed = (dist / build_info["wheel_packed"]).read_bytes()
    assert gzip.decompress(packed) == (dist / build_info["wheel"]).read_bytes()
    assert build.sha256(gzip.decompress(packed)) == build_info["wheel_sha256"]


def test_stored_category_runs_are_pyodides_own(dist, tmp_path):
    """The general categories the page's wheel carries (core/regex/_category_runs, made at
    build time) are those Pyodide's unicodedata gives, run for run, and are what the
    regex translation reads there."""
    code = tmp_path / "runs.py"
    code.write_text("import json, unicodedata\n"
                    "from subword_lab.core.regex import _category_runs as stored, translate\n"
                    "print(json.dumps([stored.UNIDATA_VERSION == unicodedata.unidata_version,\n"
                    "                  translate._category_runs() == translate.scan_category_runs(),\n"
                    "                  len(stored.KINDS)]))\n")
    ran = subprocess.run([shutil.which("node"), str(SCRIPT.with_name("run_in_pyodide.mjs")), str(dist), str(code)],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr[-3000:]
    same_version, same_runs, count = json.loads(ran.stdout.splitlines()[-1])
    assert same_version and count > 1000
    assert same_runs, "the stored category runs differ from Pyodide's unicodedata"

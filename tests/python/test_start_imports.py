"""What the page imports to start, and to open its first preset: only what the tokenize
view needs. Under Pyodide every module imported costs start-up time (compiled from
source in the browser), so the other views' modules (web/api.py's _ON_DEMAND) and the
readers of the other file formats (io/loaders.py's _LOADERS) are imported when first
used; this checks they stay out, and that they still answer when asked for.

Each check runs in a fresh interpreter: this process has imported everything already.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import assets

# The modules of the other views and of the other file formats.
NOT_AT_START = ["subword_lab.web.code", "subword_lab.web.train", "subword_lab.web.unigram",
                "subword_lab.web.views", "subword_lab.web.why", "subword_lab.reference",
                "subword_lab.trainers"]
OTHER_FORMATS = ["subword_lab.io.sentencepiece", "subword_lab.io.gguf_tokenizer",
                 "subword_lab.io.tekken_file", "subword_lab.io.tokenizer_json",
                 "subword_lab.io.vocab_files", "subword_lab.sentencepiece",
                 "subword_lab.llama_cpp"]


def imported_after(code: str) -> list[str]:
    """The subword_lab modules a fresh interpreter holds after running `code`."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('subword_lab'))))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT / "py", timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def held(modules: list[str], names: list[str]) -> list[str]:
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


def test_the_facade_starts_without_the_other_views():
    modules = imported_after("import subword_lab.web.api")
    assert "subword_lab.web.live" in modules  # the encode while typing is there
    assert held(modules, NOT_AT_START + OTHER_FORMATS) == []


def test_a_tiktoken_preset_opens_without_the_other_readers():
    path = assets.fetch(["gpt2.tiktoken"], quiet=True)["gpt2.tiktoken"]
    modules = imported_after(
        "from subword_lab.web import api\n"
        f"data = open({str(path)!r}, 'rb').read()\n"
        "api.open_bytes('gpt2', 'gpt2.tiktoken', data)\n"
        "assert api.encode('gpt2', 'Hello world')")
    assert "subword_lab.io.tiktoken_file" in modules
    assert held(modules, NOT_AT_START + OTHER_FORMATS) == []


@pytest.mark.parametrize("name", ["reference_encode", "reference_train", "corpus_info", "train",
                                  "course_toy_unigram", "unigram_nbest", "open_toy"])
def test_the_other_views_functions_answer_when_asked(name):
    from subword_lab.web import api
    from subword_lab.web import code, train, unigram, views
    owner = {"reference_encode": code, "reference_train": code, "corpus_info": train,
             "train": train, "course_toy_unigram": unigram, "unigram_nbest": unigram,
             "open_toy": views}[name]
    assert getattr(api, name) is getattr(owner, name)
    assert name in dir(api)


def test_an_unknown_facade_name_is_an_attribute_error():
    from subword_lab.web import api
    with pytest.raises(AttributeError, match="no_such_call"):
        api.no_such_call


@pytest.mark.parametrize("name", ["load_bert_vocab", "load_bpe_files", "load_tiktoken",
                                  "load_sentencepiece"])
def test_the_loaders_exported_are_the_readers_own(name):
    from subword_lab.io import loaders
    from subword_lab.io import sentencepiece, tiktoken_file, vocab_files
    owner = {"load_bert_vocab": vocab_files, "load_bpe_files": vocab_files,
             "load_tiktoken": tiktoken_file, "load_sentencepiece": sentencepiece}[name]
    assert getattr(loaders, name) is getattr(owner, name)
    assert name in loaders.__all__

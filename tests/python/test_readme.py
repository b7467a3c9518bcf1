"""The README's examples, and those of the docs it points to (docs/*.md), run as written:
every code block after a `<!-- readme-example -->` line (or `<!-- readme-example: first -->`,
the library's first example), in a folder holding the files docs/library.md names."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- readme-example(?:: first)? -->\n```(python|sh)\n(.*?)```", re.S)
FIRST = re.compile(r"<!-- readme-example: first -->\n```python\n(.*?)```", re.S)
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = [example for path in DOCS for example in BLOCK.findall(path.read_text(encoding="utf-8"))]


def test_the_readme_has_examples():
    assert {lang for lang, _ in EXAMPLES} == {"python", "sh"}


@pytest.fixture
def folder(tmp_path, bert_json, botchan_txt, gpt2_tiktoken):
    shutil.copy(bert_json, tmp_path / "tokenizer.json")
    shutil.copy(gpt2_tiktoken, tmp_path / "gpt2.tiktoken")
    shutil.copy(botchan_txt, tmp_path / "botchan.txt")
    return tmp_path


def run_example(folder, lang, code):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    # `python` in the shell examples is this interpreter (the one with the package).
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    cmd = [sys.executable, "-c", code] if lang == "python" else ["bash", "-euo", "pipefail", "-c", code]
    done = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip(), "an example should show something"
    return done.stdout


@pytest.mark.parametrize("lang,code", EXAMPLES, ids=[f"{lang}-{i}" for i, (lang, _) in enumerate(EXAMPLES)])
def test_example_runs_as_written(folder, lang, code):
    run_example(folder, lang, code)


def test_the_first_library_example_shows_the_text_s_tokens_only(folder):
    """bert-base-uncased's file pads to 128: the first thing a reader runs must not print
    118 [PAD] tokens, and its tokens are what the text says they are."""
    code = FIRST.findall((ROOT / "docs" / "library.md").read_text(encoding="utf-8"))
    assert len(code) == 1
    out = run_example(folder, "python", code[0])
    assert "[PAD]" not in out
    tokens = "['[CLS]', 'sub', '##word', 'token', '##izer', '##s', 'are', 'fun', '!', '[SEP]']"
    assert out.startswith(tokens)
    assert f"It prints `{tokens}`" in (ROOT / "docs" / "library.md").read_text(encoding="utf-8").replace("\n", " ")


def test_every_embed_attribute_is_documented():
    """docs/embedding.md lists every attribute web/embed.js reads."""
    source = (ROOT / "web" / "embed.js").read_text(encoding="utf-8")
    keys = re.search(r"const KEYS = \{(.*?)\};", source, re.S).group(1)
    names = set(re.findall(r'"?([a-z-]+)"?:', keys))
    extra = re.search(r"ATTRIBUTES = \[\.\.\.Object\.keys\(KEYS\), (.*?)\]", source).group(1)
    names |= set(re.findall(r'"([a-z-]+)"', extra))
    doc = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
    assert {"view", "tokenizers", "method", "height"} <= names
    assert not [n for n in sorted(names) if f"| `{n}` |" not in doc]


SAYS = re.compile(r"^print\(.*\)\n((?:# .*\n)+)", re.M)


def test_what_an_example_says_it_prints_is_what_it_prints(folder):
    """An example that writes its output under its print() (README's first: GPT-2's tokens)
    prints exactly that."""
    said = [(code, m.group(1)) for lang, code in EXAMPLES if lang == "python" for m in SAYS.finditer(code)]
    assert said, "the README's first example shows what it prints"
    for code, comment in said:
        expected = "".join(line[2:] + "\n" for line in comment.splitlines())
        assert expected in run_example(folder, "python", code), (code, expected)

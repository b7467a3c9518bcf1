"""The README's examples run as written: every code block after a
`<!-- readme-example -->` line, in a folder holding the files the README names."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- readme-example -->\n```(python|sh)\n(.*?)```", re.S)
EXAMPLES = BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_has_examples():
    assert {lang for lang, _ in EXAMPLES} == {"python", "sh"}


@pytest.fixture
def folder(tmp_path, bert_json, botchan_txt, gpt2_tiktoken):
    shutil.copy(bert_json, tmp_path / "tokenizer.json")
    shutil.copy(gpt2_tiktoken, tmp_path / "gpt2.tiktoken")
    shutil.copy(botchan_txt, tmp_path / "botchan.txt")
    return tmp_path


@pytest.mark.parametrize("lang,code", EXAMPLES, ids=[f"{l}-{i}" for i, (l, _) in enumerate(EXAMPLES)])
def test_example_runs_as_written(folder, lang, code):
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

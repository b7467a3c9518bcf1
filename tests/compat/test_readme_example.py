"""The "Coming from tokenizers" example (docs/library.md, linked from the README) runs as
written, and prints what the real tokenizers prints for the same code (without the install
line)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- readme-example: coming-from-tokenizers -->"


def readme_example() -> str:
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    after = text.split(MARKER, 1)[1]
    match = re.match(r"\s*```python\n(.*?)```", after, re.S)
    assert match, "the example's code block must follow its marker"
    return match.group(1)


def run(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_readme_example_matches_tokenizers():
    pytest.importorskip("tokenizers")
    code = readme_example()
    assert "install_as_tokenizers()" in code
    ours = run(code)
    theirs = run(code.replace("subword_lab.install_as_tokenizers()", "pass"))
    assert ours.strip(), "the example printed nothing"
    assert ours == theirs

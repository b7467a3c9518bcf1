"""install_as_tokenizers() under Pyodide: docs/library.md's "Coming from tokenizers"
example, run with the built wheel in Node, prints what tokenizers prints in CPython."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "compat"))
import build
from test_readme_example import readme_example, run


@pytest.fixture(scope="module")
def dist():
    if os.environ.get("SUBWORD_LAB_BUILT") != "1" or not (build.DIST / "build.json").exists():
        build.build()
    return build.DIST


def test_readme_example_under_pyodide(dist, tmp_path):
    pytest.importorskip("tokenizers")
    code = readme_example()
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    node = shutil.which("node")
    assert node, "node is needed for the Pyodide tests"
    done = subprocess.run([node, str(ROOT / "tests" / "pyodide" / "run_in_pyodide.mjs"),
                           str(dist), str(script)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    theirs = run(code.replace("subword_lab.install_as_tokenizers()", "pass"))
    assert done.stdout.strip(), "the example printed nothing under Pyodide"
    assert done.stdout == theirs

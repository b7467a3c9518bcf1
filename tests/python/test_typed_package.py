"""The package says it is typed (PEP 561): py.typed in the source and in the wheel."""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # build.py is at the root, not on the path


def test_the_wheel_carries_py_typed(tmp_path):
    assert (ROOT / "py" / "subword_lab" / "py.typed").is_file()
    with zipfile.ZipFile(build.build_wheel(tmp_path)) as wheel:
        assert "subword_lab/py.typed" in wheel.namelist()

"""The build's lines about presets it leaves out: Llama 4 is listed but never shipped (its
licence text is in no package), which is the design, not a failure, and must not read as one;
a preset that could not be downloaded is a warning."""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
import assets  # tools/assets.py
import build
import catalog  # tools/catalog.py

ALARMING = re.compile(r"\b(missing|warning|error|fail\w*)\b", re.I)


def test_a_preset_left_out_by_its_licence_reads_as_a_note():
    reasons = {key: catalog.why_missing(assets, key) for key in catalog.PRESETS}
    by_design = {key for key, why in reasons.items() if why}
    assert "llama4" in by_design
    lines = build.missing_report({key: reasons[key] for key in by_design}, by_design)
    assert len(lines) == len(by_design)
    for line in lines:
        assert not ALARMING.search(line), line
        assert "not shipped, as intended" in line
    assert any(line.startswith("note: llama4 ") for line in lines)


def test_a_preset_that_could_not_be_fetched_is_a_warning():
    lines = build.missing_report({"gpt2": "it could not be fetched (timed out)."}, set())
    assert lines == ["WARNING: gpt2 is not in this build: it could not be fetched (timed out)."]

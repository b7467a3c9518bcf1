"""tokenizers' own Python test suite, run against Subword Lab installed under its names.

tools/run_tokenizers_suite.py runs the suite of the pinned tokenizers sdist with
tokenizers (outcomes kept in the cache while nothing they depend on changes), then with
Subword Lab; this test fails if fewer of the tests that tokenizers passes offline pass
with Subword Lab than the floor below. Raise the floor when more pass, never lower it.
Slow (about a minute the first time, 45 s after): `npm run test:compat`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import run_tokenizers_suite

FLOOR = 176  # of 176 counted (tokenizers 0.23.3); see docs/library.md, "Coming from tokenizers"

pytest.importorskip("tokenizers", reason="the reference run needs tokenizers installed")


def test_subword_lab_passes_tokenizers_own_suite():
    result = run_tokenizers_suite.main([])
    failed = "\n".join(f"  {t}: {r[:200]}" for t, r in sorted(result["failed"].items()))
    assert result["counted"] > 100, "the reference run counted too few tests: is it broken?"
    assert result["passed"] >= FLOOR, (
        f"{result['passed']} of {result['counted']} pass, below the floor {FLOOR}:\n{failed}")

"""Where browser tests put the screenshots they take: never into the repository.

Look at them after a run (test-results/screenshots/, or $SUBWORD_LAB_SCREENSHOTS);
copy the good ones to docs/ by hand.
"""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("SUBWORD_LAB_SCREENSHOTS", ROOT / "test-results" / "screenshots"))


def shot_path(name: str) -> str:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return str(SHOTS / name)

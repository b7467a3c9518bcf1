"""tools/commit_subjects.py: a subject over 72 characters after the starting commit fails."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import commit_subjects


def _commit(repo: Path, subject: str) -> str:
    env = ["-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    subprocess.run(["git", "-C", str(repo), *env, "commit", "-q", "--allow-empty", "-m", subject],
                   check=True)
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_only_subjects_after_the_start_and_over_the_limit_are_reported(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _commit(tmp_path, "x" * 90)  # before the start: left as it is
    start = _commit(tmp_path, "the start")
    _commit(tmp_path, "y" * 72)
    assert commit_subjects.long_subjects(tmp_path, start) == []
    over = _commit(tmp_path, "z" * 73)
    assert commit_subjects.long_subjects(tmp_path, start) == [f"{over} (73): {'z' * 73}"]


def test_this_repository_keeps_the_rule():
    assert commit_subjects.long_subjects(ROOT) == []

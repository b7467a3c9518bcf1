"""Commit subjects of 72 characters or fewer, for every commit after SINCE.

The rule holds from SINCE on (earlier history is left as it is: rewriting it would
change every commit id). `build.py test` runs this before any test, beside the linters;
a subject over the limit fails the run with the commit and its length.

    python3 tools/commit_subjects.py [REPO]
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LIMIT = 72
SINCE = "3ae74b2"  # the last commit before the rule was checked (2026-11-26)


def long_subjects(repo: Path, since: str = SINCE, limit: int = LIMIT) -> list[str]:
    """'<short id> (<length>): <subject>' for each commit after `since` whose subject is
    longer than `limit` characters; [] for a checkout that is not a git repository."""
    if not (repo / ".git").exists():
        return []
    run = subprocess.run(["git", "-C", str(repo), "log", "--format=%h%x00%s", f"{since}..HEAD"],
                         capture_output=True, text=True, encoding="utf-8")
    if run.returncode:
        raise SystemExit(f"commit subjects: git log {since}..HEAD failed: {run.stderr.strip()}")
    found = []
    for row in run.stdout.splitlines():
        commit, subject = row.split("\0", 1)
        if len(subject) > limit:
            found.append(f"{commit} ({len(subject)}): {subject}")
    return found


def main(argv: list[str]) -> int:
    repo = Path(argv[0]) if argv else Path(__file__).resolve().parents[1]
    found = long_subjects(repo)
    for line in found:
        print(f"commit subject over {LIMIT} characters: {line}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tools/precompute.py: what the page shows before Python is ready equals a fresh run.

The fresh runs here call the facade directly (not through precompute's helpers), so
a mistake in how precompute calls it shows up too. Under `build.py test` (which builds
dist/ first and sets SUBWORD_LAB_BUILT=1) the built site's files are checked as well:
data left over from an older build of the trainers fails here.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from subword_lab.web import api as webapi, train as web_train

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import precompute  # noqa: E402

DIST = ROOT / "dist" / "precomputed"


def fresh(fn, args):
    events = []
    result = json.loads(fn(json.dumps(args), lambda text: events.append(json.loads(text))))
    return result, events


def without_timing(result):
    """A training result minus the seconds it took, the one value that may differ."""
    out = dict(result)
    if "summary" in out:
        out["summary"] = {k: v for k, v in out["summary"].items() if k != "seconds"}
    return out


def expected(kind, args):
    if kind == "corpus_info":
        return json.loads(web_train.corpus_info("{}")), []
    if kind == "train":
        return fresh(web_train.train, args)
    if kind == "open_toy":
        return fresh(webapi.open_toy, args)
    if kind == "trace_encode":
        webapi.open_toy(json.dumps({"corpus": "course-toy",
                                    "algo": args["key"].rsplit("-", 1)[1]}))
        return fresh(webapi.trace_encode, args)
    raise AssertionError(f"unknown kind {kind}")


def check(folder: Path):
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    assert index["format"] == precompute.FORMAT
    for entry in index["entries"]:
        stored = json.loads((folder / entry["file"]).read_text(encoding="utf-8"))
        result, events = expected(entry["kind"], entry["args"])
        where = f"{folder.name}/{entry['file']} ({entry['kind']} {entry['args']})"
        assert stored["events"] == events, f"{where}: events differ from a fresh run; rebuild"
        assert without_timing(stored["result"]) == without_timing(result), \
            f"{where}: result differs from a fresh run; rebuild (python3 build.py build)"
    return index


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("precomputed")
    return folder, precompute.write(folder)


def test_every_course_preset_and_algorithm_is_stored(written):
    _, index = written
    trained = {(e["args"]["corpus"], e["args"]["algo"]) for e in index["entries"] if e["kind"] == "train"}
    assert trained == {(c, a) for c in ("course-toy", "course-sentences")
                       for a in ("bpe", "wordpiece", "unigram")}
    kinds = {e["kind"] for e in index["entries"]}
    assert kinds == {"corpus_info", "train", "open_toy", "trace_encode"}


def test_stored_args_are_the_views_defaults(written):
    """The train view sends the corpus defaults from corpus_info; the lookup key must match."""
    _, index = written
    info = json.loads(web_train.corpus_info("{}"))
    for entry in index["entries"]:
        if entry["kind"] != "train":
            continue
        args = entry["args"]
        d = next(c for c in info["corpora"] if c["id"] == args["corpus"])["defaults"][args["algo"]]
        assert args["vocab_size"] == d["vocab_size"]
        assert args.get("tie_break") == d["tie_break"] and args.get("method") == d["method"]


def test_written_data_equals_a_fresh_run(written):
    folder, _ = written
    check(folder)


def test_built_site_serves_a_fresh_run():
    """What dist/ serves equals a fresh run. Without a build (a bare pytest run), the
    data is written to a temporary folder, as `build.py build` would write it."""
    if os.environ.get("SUBWORD_LAB_BUILT"):
        assert (DIST / "index.json").exists(), "build.py test built no dist/precomputed"
        check(DIST)
    else:
        check_folder = precompute.write  # the same function build.py runs
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            check_folder(Path(tmp))
            check(Path(tmp))


def test_course_toy_wordpiece_first_merge_is_stored(written):
    """The course's first WordPiece merge (##g + ##s -> ##gs) is in the stored events."""
    folder, index = written
    entry = next(e for e in index["entries"] if e["kind"] == "train"
                 and e["args"] == {"algo": "wordpiece", "corpus": "course-toy",
                                   "vocab_size": 11, "tie_break": "first"})
    stored = json.loads((folder / entry["file"]).read_text(encoding="utf-8"))
    merges = [e for e in stored["events"] if e["type"] == "merge"]
    assert merges[0]["token"] == "##gs"


def test_encode_defaults_match_the_view():
    """precompute traces the texts the encode view opens with (DEFAULT_TEXT in encode.js)."""
    source = (ROOT / "web" / "views" / "encode.js").read_text(encoding="utf-8")
    line = next(l for l in source.splitlines() if l.startswith("const DEFAULT_TEXT"))
    for algo, text in precompute.ENCODE_DEFAULTS.items():
        assert f'{algo}: "{text}"' in line


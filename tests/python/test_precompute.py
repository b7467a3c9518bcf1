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
import precompute

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


def fresh_preset(presets: Path, key: str, text: str) -> dict:
    """A preset opened and the text encoded as the worker does it (web/worker.js)."""
    manifest = json.loads((presets / "presets.json").read_text(encoding="utf-8"))
    file = next(p["file"] for p in manifest["presets"] if p["id"] == key)
    details = json.loads(webapi.open_bytes(key, Path(file).name, (presets.parent / file).read_bytes()))
    return {"result": json.loads(webapi.encode(key, text, 20000)), "details": details}


def check(folder: Path, presets: Path | None = None):
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    assert index["format"] == precompute.FORMAT
    for entry in index["entries"]:
        stored = json.loads((folder / entry["file"]).read_text(encoding="utf-8"))
        if entry["kind"] == "encode_preset":
            assert presets is not None, "tokens of a preset stored, but no presets given"
            assert stored == fresh_preset(presets, entry["args"]["key"], entry["args"]["text"]), \
                f"{entry['file']}: differs from a fresh run; rebuild"
            assert entry.get("payload", stored) == stored, "the inlined copy differs from the file"
            continue
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
        check(DIST, DIST.parent / "presets")
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
    line = next(s for s in source.splitlines() if s.startswith("const DEFAULT_TEXT"))
    for algo, text in precompute.ENCODE_DEFAULTS.items():
        assert f'{algo}: "{text}"' in line



@pytest.fixture(scope="module")
def with_presets(tmp_path_factory, gpt2_tiktoken):
    """precompute given a presets folder holding GPT-2 only, as build.py lays it out."""
    site = tmp_path_factory.mktemp("site")
    (site / "presets").mkdir()
    (site / "presets" / "gpt2.tiktoken").write_bytes(Path(gpt2_tiktoken).read_bytes())
    manifest = {"presets": [{"id": "gpt2", "file": "presets/gpt2.tiktoken"},
                            {"id": "bert-base-uncased", "file": None}]}
    (site / "presets" / "presets.json").write_text(json.dumps(manifest))
    return site, precompute.write(site / "precomputed", site / "presets")


def test_default_tokens_of_both_views_are_stored_and_are_gpt2s(with_presets, gpt2_tiktoken):
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

    site, index = with_presets
    stored = [e for e in index["entries"] if e["kind"] == "encode_preset"]
    texts = {e["args"]["text"] for e in stored}
    # The texts are the views' own defaults (read from their sources, not copied here).
    for path, name in (("web/views/tokenize.js", "SAMPLE"), ("web/embed-tokenize.js", "DEFAULT_TEXT")):
        source = (ROOT / path).read_text(encoding="utf-8")
        first = source.split(f"const {name} = ", 1)[1].split('"')[1]
        assert any(text.startswith(first) for text in texts), (path, texts)
    assert len(stored) == 2 and {e["args"]["key"] for e in stored} == {"gpt2"}
    oracle = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                               mergeable_ranks=load_tiktoken_bpe(str(gpt2_tiktoken)),
                               special_tokens={ENDOFTEXT: 50256})
    for entry in stored:
        assert entry["payload"]["result"]["ids"] == oracle.encode(entry["args"]["text"])
        assert entry["payload"]["details"]["vocab_size"] > 50000
    check(site / "precomputed", site / "presets")


def test_a_preset_missing_from_the_build_is_left_out(tmp_path):
    (tmp_path / "presets").mkdir()
    (tmp_path / "presets" / "presets.json").write_text(json.dumps({"presets": [{"id": "gpt2", "file": None}]}))
    index = precompute.write(tmp_path / "precomputed", tmp_path / "presets")
    assert not [e for e in index["entries"] if e["kind"] == "encode_preset"]

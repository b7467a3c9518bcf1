"""Fixtures of the real-files parity suite: the files (fetched once, cached), the hard
inputs, and each case's result computed once for the tests that read it. The
timings of every case are written to test-results/realfiles.json and summed up at
the end of the run."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import assets  # tests/conftest.py put tools/ on the path
import parity
from cases import assets_needed
from hard_inputs import hard_inputs

RESULTS: dict = {}
OUT = HERE.parent.parent / "test-results" / "realfiles.json"


@pytest.fixture(scope="session")
def realfile_paths():
    return assets.fetch(assets_needed() + ["botchan.txt"], quiet=True)


@pytest.fixture(scope="session")
def inputs(realfile_paths):
    return hard_inputs(realfile_paths["botchan.txt"].read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def reference_root(tmp_path_factory):
    return tmp_path_factory.mktemp("reference-packages")


@pytest.fixture(scope="session")
def result_of(realfile_paths, inputs, reference_root):
    def get(case):
        if case.id not in RESULTS:
            RESULTS[case.id] = parity.run_case(case, realfile_paths, inputs, reference_root)
        return RESULTS[case.id]
    return get


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    rows = {}
    write = terminalreporter.write_line
    write("real files: seconds (ours / reference) and inputs that differ")
    for case_id, r in RESULTS.items():
        t = r.times
        rows[case_id] = {"times": {k: round(v, 3) for k, v in t.items()},
                         "differ": r.counts, "inputs": r.inputs, "load_error": r.load_error}
        if r.load_error:
            write(f"  {case_id:28} not loaded: {r.load_error[:90]}")
            continue
        write(f"  {case_id:28} load {t['load_ours']:6.2f} / {t['load_ref']:5.2f}   "
              f"encode {t['encode_ours']:5.2f} / {t['encode_ref']:5.2f}   "
              + "  ".join(f"{a} {n}" for a, n in r.counts.items()))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rows, indent=1))

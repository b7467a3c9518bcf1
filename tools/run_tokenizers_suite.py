"""Run tokenizers' own Python test suite with tokenizers, then with Subword Lab installed
under tokenizers' names. Prints "N of M offline tests that tokenizers passes".

    python tools/run_tokenizers_suite.py [--json out.json] [-v] [--fresh]

The suite comes from the pinned tokenizers sdist (tools/assets.py), unpacked into the
cache and copied to a temporary folder for each run (its tests write files beside
themselves). Hub downloads are served by tools/tokenizers_suite_plugin.py.

tokenizers' own run gives the same outcomes whenever nothing it depends on changed (the
sdist, the installed tokenizers and Python, this runner, its plugin and the pinned files
the plugin serves for the hub, tools/assets.py), so they are kept
in the cache under a key made of those and reused (a third of the whole run's time);
`--fresh` runs it again.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import assets

TIMEOUT = 1200  # seconds for one run; a hang must not stall CI


def run_suite(as_subword_lab: bool, verbose=False) -> dict:
    """Run the suite in a fresh copy; return {test id: {"outcome", "reason"}}."""
    source = assets.fetch_tokenizers_tests(quiet=not verbose)
    with tempfile.TemporaryDirectory(prefix="tokenizers-suite-") as tmp:
        workdir = Path(tmp) / "python"  # the suite insists on running from ".../python"
        shutil.copytree(source, workdir)
        (workdir / "data").mkdir()  # made by the suite's Makefile, which some tests write into
        report = Path(tmp) / "report.json"
        env = dict(os.environ, TOKENIZERS_SUITE_REPORT=str(report), HF_HUB_OFFLINE="1",
                   SUBWORD_LAB_AS_TOKENIZERS="1" if as_subword_lab else "0",
                   PYTHONPATH=os.pathsep.join([str(ROOT / "tools"), str(ROOT / "py")]))
        command = [sys.executable, "-m", "pytest", "tests", "-q", "-p", "tokenizers_suite_plugin",
                   "-p", "no:cacheprovider", "--continue-on-collection-errors", "--tb=line" if verbose else "--tb=no", "-rN"]
        out = None if verbose else subprocess.DEVNULL
        subprocess.run(command, cwd=workdir, env=env, timeout=TIMEOUT, stdout=out, stderr=out)
        if not report.exists():
            raise RuntimeError("the suite did not write its report (did pytest start?)")
        return json.loads(report.read_text())


def reference_key() -> str:
    """What tokenizers' own outcomes depend on, hashed: the pinned sdist, the installed
    tokenizers (its version and its compiled module's bytes), numpy and Python, and the
    source of this runner, of its plugin and of tools/assets.py (the hub's files)."""
    import tokenizers
    parts = [assets.TOKENIZERS_SDIST.sha256, importlib.metadata.version("tokenizers"),
             sys.version, _version_of("numpy")]
    compiled = Path(tokenizers.tokenizers.__file__)
    here = Path(__file__)
    for path in (compiled, here, here.with_name("tokenizers_suite_plugin.py"), here.with_name("assets.py")):
        parts.append(hashlib.sha256(path.read_bytes()).hexdigest())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def _version_of(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def reference_outcomes(fresh=False, verbose=False) -> dict:
    """tokenizers' own outcomes: read from the cache under reference_key(), or run (and
    kept there, written whole or not at all) when that key is new or `fresh`."""
    kept = assets.cache_dir() / "tokenizers-suite-reference" / f"{reference_key()}.json"
    if kept.exists() and not fresh:
        try:
            return json.loads(kept.read_text(encoding="utf-8"))
        except ValueError:  # a damaged copy: run again
            pass
    outcomes = run_suite(as_subword_lab=False, verbose=verbose)
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(outcomes, sort_keys=True), encoding="utf-8")
    os.replace(partial, kept)
    return outcomes


def compare(reference: dict, ours: dict) -> dict:
    """Count the tests tokenizers passes offline, and how many of them we pass."""
    counted = sorted(t for t, r in reference.items() if r["outcome"] == "passed")
    passed = [t for t in counted if ours.get(t, {}).get("outcome") == "passed"]
    failed = {t: ours.get(t, {"reason": "not run"})["reason"] for t in counted if t not in passed}
    excluded = {t: f'{r["outcome"]}: {r["reason"]}' for t, r in reference.items()
                if r["outcome"] != "passed"}
    return {"passed": len(passed), "counted": len(counted), "failed": failed,
            "excluded": excluded}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the full result here")
    parser.add_argument("-v", "--verbose", action="store_true", help="show both pytest runs")
    parser.add_argument("--fresh", action="store_true",
                        help="run tokenizers' own run again, even if its outcomes are cached")
    args = parser.parse_args(argv)
    start = time.monotonic()
    reference = reference_outcomes(fresh=args.fresh, verbose=args.verbose)
    ours = run_suite(as_subword_lab=True, verbose=args.verbose)
    result = compare(reference, ours)
    result["seconds"] = round(time.monotonic() - start, 1)
    for test, reason in sorted(result["excluded"].items()):
        print(f"excluded  {test}  ({reason})")
    for test, reason in sorted(result["failed"].items()):
        print(f"FAILED    {test}  ({reason[:160]})")
    print(f'{result["passed"]} of {result["counted"]} offline tests that tokenizers passes '
          f'({len(result["excluded"])} excluded, {result["seconds"]} s)')
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, sort_keys=True))
    return result


if __name__ == "__main__":
    main()

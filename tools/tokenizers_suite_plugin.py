"""pytest plugin for running tokenizers' own test suite offline, with either library.

Loaded by tools/run_tokenizers_suite.py as `-p tokenizers_suite_plugin`, before the
suite's conftest and test modules are imported. It
- installs Subword Lab under the name `tokenizers` when SUBWORD_LAB_AS_TOKENIZERS=1;
- serves the suite's hub downloads from our cached real files, and skips a test
  that needs a file we do not have (the runner counts it as excluded, with why);
- gives the suite a stand-in `datasets` when it is not installed, whose
  load_dataset skips the test that needs a hub data set;
- deselects the few tests of Rust internals listed in RUST_INTERNALS;
- writes each test's outcome to the JSON file named by TOKENIZERS_SUITE_REPORT.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import assets

if os.environ.get("SUBWORD_LAB_AS_TOKENIZERS") == "1":
    import subword_lab
    subword_lab.install_as_tokenizers()

# Tests of the Rust binding itself rather than of the tokenization API. Matched as
# substrings of the test id; each with the reason it does not apply.
RUST_INTERNALS = {
    "test_multiprocessing_with_parallelism":
        "rayon thread pool and TOKENIZERS_PARALLELISM after fork()",
    "test_freethreaded.py": "free-threaded CPython locking of the Rust objects",
    "TestBpeTrainer::test_can_pickle": "BpeTrainer's __getstate__ bytes: the Rust struct's "
                                       "serde JSON, with fields (progress_format, words) "
                                       "that exist only there",
    "test_benchmarks.py": "timing of the Rust parallel encoder (needs the hub's big.txt too)",
}

# Hub files the suite downloads ("repo/file", or a file name alone) -> our cached real
# file of the same content, from a pinned package (tools/assets.py).
HUB_SUBSTITUTES = {
    "bert-base-uncased-vocab.txt": "bert-base-uncased.vocab.txt",
    "hf-internal-testing/gpt-oss-20b/tokenizer.json": "gpt-oss.tokenizer.json",
    "hf-internal-testing/Llama-3.1-8B-Instruct/tokenizer.json": "llama3_1.tokenizer.json",
    "gpt2/tokenizer.json": "gpt2.tokenizer.json",
    "big.txt": "big.txt",
}
# Hub files no package carries but that tokenizers' own Makefile made from one that
# is: file name -> (asset, how many of its first lines). small.txt was `head -100
# big.txt` there before it moved to the hub.
HUB_HEADS = {"small.txt": ("big.txt", 100)}


def _head_of(asset: str, lines: int) -> Path:
    target = assets.cache_dir() / f"tokenizers-suite-{asset}-head{lines}"
    if not target.exists():
        source = assets.fetch([asset], quiet=True)[asset]
        with open(source, "rb") as whole:
            target.write_bytes(b"".join(line for _, line in zip(range(lines), whole)))
    return target


def _hub_download(repo_id=None, filename=None, *args, **kwargs):
    asset = HUB_SUBSTITUTES.get(f"{repo_id}/{filename}", HUB_SUBSTITUTES.get(filename))
    if asset is None and filename in HUB_HEADS:
        return str(_head_of(*HUB_HEADS[filename]))
    if asset is None:
        pytest.skip(f"needs {repo_id}/{filename} from the Hugging Face hub (offline)")
    return str(assets.fetch([asset], quiet=True)[asset])


def _install_hub_substitutes():
    try:
        import huggingface_hub
    except ImportError:  # the suite's utils import it; give them a stand-in
        import types
        huggingface_hub = types.ModuleType("huggingface_hub")
        sys.modules["huggingface_hub"] = huggingface_hub
    huggingface_hub.hf_hub_download = _hub_download
    try:
        import datasets  # noqa: F401
    except ImportError:  # one module imports it for a hub data set alone; its other
        import types     # tests run, and the one that loads the data set is skipped
        stand_in = types.ModuleType("datasets")
        stand_in.load_dataset = lambda name, *a, **k: pytest.skip(
            f"needs the data set {name} from the Hugging Face hub (offline)")
        sys.modules["datasets"] = stand_in


_install_hub_substitutes()
_outcomes: dict[str, dict] = {}


def pytest_collection_modifyitems(config, items):
    keep, drop = [], []
    for item in items:
        (drop if any(key in item.nodeid for key in RUST_INTERNALS) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
    for item in drop:
        reason = next(r for key, r in RUST_INTERNALS.items() if key in item.nodeid)
        _outcomes[item.nodeid] = {"outcome": "rust-internal", "reason": reason}


def pytest_collectreport(report):
    if report.failed:  # e.g. a test module that imports a package we do not install
        crash = getattr(report.longrepr, "reprcrash", None)
        reason = crash.message if crash else str(report.longrepr).strip().splitlines()[-1]
        _outcomes[report.nodeid] = {"outcome": "not collected", "reason": reason}


def pytest_runtest_logreport(report):
    entry = _outcomes.setdefault(report.nodeid, {"outcome": "passed", "reason": ""})
    if report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        entry.update(outcome="skipped", reason=reason.removeprefix("Skipped: "))
    elif report.failed and entry["outcome"] != "skipped":
        message = getattr(report.longrepr, "reprcrash", None)
        entry.update(outcome="failed", reason=message.message if message else str(report.longrepr)[-300:])


def pytest_sessionfinish(session):
    path = os.environ.get("TOKENIZERS_SUITE_REPORT")
    if path:
        Path(path).write_text(json.dumps(_outcomes, indent=1, sort_keys=True))

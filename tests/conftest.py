"""Shared fixtures: paths to the real tokenizer files (fetched and pinned by tools/assets.py)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tools"))

import assets

DATA = Path(__file__).resolve().parent / "data"

# A bare `pytest` (library tests only, say) works without Playwright: the browser
# tests are left out with a message. `python3 build.py test` installs it and runs them.
try:
    import playwright.sync_api  # noqa: F401  (only: is it installed?)
    collect_ignore = []
except ImportError:
    if os.environ.get("SUBWORD_LAB_BUILT"):
        raise  # build.py test must run every layer
    collect_ignore = ["browser"]


def pytest_report_header(config):
    if collect_ignore:
        return ("Playwright is not installed: tests/browser is left out "
                "(`python3 build.py test` or `npm test` runs it)")
    return None


@pytest.fixture(scope="session")
def asset_paths():
    """All real files, fetched once; a failed fetch fails the tests that need it."""
    return assets.fetch(quiet=True)


@pytest.fixture(scope="session")
def bert_json(asset_paths):
    return asset_paths["bert-base-uncased.tokenizer.json"]


@pytest.fixture(scope="session")
def bert_vocab(asset_paths):
    return asset_paths["bert-base-uncased.vocab.txt"]


@pytest.fixture(scope="session")
def gpt2_tiktoken(asset_paths):
    return asset_paths["gpt2.tiktoken"]


@pytest.fixture(scope="session")
def botchan_txt(asset_paths):
    return asset_paths["botchan.txt"]


@pytest.fixture(scope="session")
def botchan_unigram_model(asset_paths):
    return asset_paths["botchan_en_unigram_1000.model"]


@pytest.fixture(scope="session")
def botchan_bpe_model(asset_paths):
    return asset_paths["botchan_en_bpe_1000.model"]


@pytest.fixture(scope="session")
def book(botchan_txt) -> str:
    """botchan.txt as the page reads a pasted or dropped file: CRLF line ends kept."""
    return botchan_txt.read_bytes().decode("utf-8")


@pytest.fixture(scope="session")
def botchan_lines(botchan_txt):
    return botchan_txt.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="session")
def multilingual_lines():
    return (DATA / "multilingual.txt").read_text(encoding="utf-8").splitlines()

"""Shared fixtures: paths to the real tokenizer files (fetched and pinned by tools/assets.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tools"))

import assets  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


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
def botchan_lines(botchan_txt):
    return botchan_txt.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="session")
def multilingual_lines():
    return (DATA / "multilingual.txt").read_text(encoding="utf-8").splitlines()

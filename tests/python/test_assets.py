"""tools/assets.py: the table of real files is complete and consistent, and a file
already in the cache is never downloaded again."""
from __future__ import annotations

import re

import pytest

import assets

HEX64 = re.compile(r"[0-9a-f]{64}")


@pytest.mark.parametrize("name", list(assets.ASSETS))
def test_every_row_is_complete(name):
    a = assets.ASSETS[name]
    archive = assets.ARCHIVES[a.archive]
    assert archive.registry in ("pypi", "npm")
    assert archive.package and archive.version and HEX64.fullmatch(archive.sha256)
    assert HEX64.fullmatch(a.sha256)
    assert a.family and a.format and a.licence
    assert a.redistribute in ("yes", "with-notice", "no")
    if a.member is None:
        assert a.sha256 == archive.sha256


def test_every_archive_is_used():
    used = {a.archive for a in assets.ASSETS.values()}
    assert used == set(assets.ARCHIVES)


def test_core_is_what_the_page_and_tests_python_use():
    assert set(assets.CORE) >= {"bert-base-uncased.tokenizer.json", "gpt2.tiktoken",
                                "botchan_en_unigram_1000.model", "botchan.txt"}


def test_a_missing_file_is_downloaded_and_a_failure_named(monkeypatch, tmp_path):
    monkeypatch.setenv("SUBWORD_LAB_CACHE", str(tmp_path))
    names = ["botchan_en_bpe_1000.model", "botchan_en_unigram_1000.model"]
    calls = []

    def download(key, quiet):
        calls.append(key)
        raise assets.AssetError("offline in this test")
    monkeypatch.setattr(assets, "_download", download)
    paths, errors = assets.fetch_some(names, quiet=True)
    # Both come from one archive: it is asked for once, and each file names the failure.
    assert not paths and set(errors) == set(names)
    assert calls == [assets.ASSETS[names[0]].archive]


def test_cached_file_with_right_hash_is_used(monkeypatch, tmp_path, botchan_bpe_model):
    monkeypatch.setenv("SUBWORD_LAB_CACHE", str(tmp_path))
    name = "botchan_en_bpe_1000.model"
    (tmp_path / name).write_bytes(botchan_bpe_model.read_bytes())
    monkeypatch.setattr(assets, "_download", lambda key, quiet: pytest.fail("downloaded"))
    assert assets.fetch([name], quiet=True) == {name: tmp_path / name}


def test_cached_file_with_wrong_hash_is_fetched_again(monkeypatch, tmp_path):
    monkeypatch.setenv("SUBWORD_LAB_CACHE", str(tmp_path))
    name = "botchan_en_bpe_1000.model"
    (tmp_path / name).write_bytes(b"not the model")
    monkeypatch.setattr(assets, "_download", lambda key, quiet: (_ for _ in ()).throw(
        assets.AssetError("offline")))
    with pytest.raises(assets.AssetError, match=name):
        assets.fetch([name], quiet=True)

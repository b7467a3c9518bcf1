"""Fetching a tokenizer.json from the Hugging Face Hub (Tokenizer.from_pretrained).

With huggingface_hub installed, its hf_hub_download does the work, so its cache,
HF_HUB_OFFLINE and tokens apply. Without it (as in the browser), a plain HTTPS
download into a temporary file.
"""
from __future__ import annotations

import os
import tempfile
import urllib.parse
import urllib.request

from ..core.errors import SubwordLabError

HUB_URL = "https://huggingface.co/{repo}/resolve/{revision}/tokenizer.json"


def download_tokenizer_json(identifier: str, revision: str = "main", token=None) -> str:
    """Return a local path to `identifier`'s tokenizer.json."""
    try:
        from huggingface_hub import hf_hub_download
    except ImportError:
        return _plain_download(identifier, revision, token)
    return hf_hub_download(identifier, "tokenizer.json", revision=revision, token=token)


def _plain_download(identifier, revision, token):
    url = HUB_URL.format(repo=identifier, revision=urllib.parse.quote(revision, safe=""))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                    timeout=60) as response:
            data = response.read()
    except OSError as exc:
        raise SubwordLabError(f"could not download tokenizer.json of {identifier!r} "
                              f"(revision {revision!r}): {exc}") from None
    handle, path = tempfile.mkstemp(suffix="-tokenizer.json")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    return path

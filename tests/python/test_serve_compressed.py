"""build.py writes gzip copies of the site's files and its server sends them to browsers
that accept gzip, with the original's type (a .wasm stays application/wasm), the CSP, and
revalidation (304) as for the plain file."""
from __future__ import annotations

import gzip
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build


@pytest.fixture()
def served(tmp_path):
    site = tmp_path / "site"
    (site / "pyodide").mkdir(parents=True)
    wasm = b"\0asm\1\0\0\0" + bytes(range(256)) * 400  # compresses well
    (site / "pyodide" / "x.wasm").write_bytes(wasm)
    (site / "index.html").write_text("<!doctype html><title>t</title>" + "<p>hello</p>" * 500)
    (site / "random.bin").write_bytes(bytes((i * 7919) % 251 for i in range(4000)))
    build.compress(site)
    server = build.make_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", site
    server.shutdown()
    server.server_close()


def get(url, **headers):
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, b""


def test_gzip_copies_are_written_only_where_they_pay(served):
    _, site = served
    assert (site / "pyodide" / "x.wasm.gz").exists() and (site / "index.html.gz").exists()
    assert not (site / "random.bin.gz").exists()  # not a compressed type
    assert gzip.decompress((site / "pyodide" / "x.wasm.gz").read_bytes()) == (site / "pyodide" / "x.wasm").read_bytes()


def test_a_browser_that_takes_gzip_gets_the_copy_with_the_original_type(served):
    url, site = served
    status, headers, body = get(f"{url}/pyodide/x.wasm", **{"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert headers["Content-Type"] == "application/wasm"
    assert "wasm-unsafe-eval" in headers["Content-Security-Policy"]
    assert int(headers["Content-Length"]) == len(body) < (site / "pyodide" / "x.wasm").stat().st_size
    assert gzip.decompress(body) == (site / "pyodide" / "x.wasm").read_bytes()
    status, headers, body = get(f"{url}/", **{"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] == "gzip" and headers["Content-Type"].startswith("text/html")
    assert gzip.decompress(body) == (site / "index.html").read_bytes()


def test_others_get_the_plain_file_and_revalidation_works(served):
    url, site = served
    status, headers, body = get(f"{url}/pyodide/x.wasm", **{"Accept-Encoding": "identity"})
    assert headers.get("Content-Encoding") is None and body == (site / "pyodide" / "x.wasm").read_bytes()
    status, headers, _ = get(f"{url}/pyodide/x.wasm", **{"Accept-Encoding": "gzip"})
    status, _, body = get(f"{url}/pyodide/x.wasm", **{"Accept-Encoding": "gzip",
                                                       "If-Modified-Since": headers["Last-Modified"]})
    assert status == 304 and body == b""
    status, _, _ = get(f"{url}/nothing.js", **{"Accept-Encoding": "gzip"})
    assert status == 404

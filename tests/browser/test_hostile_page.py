"""Hostile input in the page (issue 13): a user regex that backtracks without end is
ended from the page with an error naming the file, the field and the pattern, and
typing goes on; bad files open as one clear error that names the user's file.

The inputs are made by the generators of the CPython hostile suite
(tests/python/hostile_cases.py, test_regex_guard.py), so both suites see the same cases.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import subword_lab
from subword_lab.core.errors import SubwordLabError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import hostile_cases  # noqa: E402
from test_regex_guard import PLACES, SLOW, TEXT  # noqa: E402

from shots import shot_path  # noqa: E402
from test_recovery import poll  # noqa: E402

FIELD = PLACES["split"][1]  # pre_tokenizer.pretokenizers[1].pattern


def open_bytes(app, name, data: bytes):
    """Open one file through the page's file input, as a user would."""
    app.page.get_by_test_id("file-input").set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data})


def reference_ids(path, text):
    tokenizer = subword_lab.load(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer.encode(text).ids


def test_catastrophic_pattern_is_ended_and_typing_goes_on(app, tmp_path):
    """A pattern that passes the load-time shape check (polynomial, degree 7) hangs on a
    run of a's: the page's watchdog ends the match, the error names the file, the field
    and the pattern within 2 s, the same file comes back and tokenizes other texts, and
    the text that hung fails at once instead of hanging again."""
    pattern = SLOW[0]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(PLACES["split"][0](pattern)), encoding="utf-8")
    subword_lab.load(str(path))  # passes the shape check: only the run-time bound can stop it
    app.open()
    open_bytes(app, "tokenizer.json", path.read_bytes())
    app.page.get_by_test_id("tokenizer-select").filter(has_text="tokenizer.json").wait_for()
    app.settled()
    chosen = app.page.get_by_test_id("tokenizer-select").input_value()
    app.type_text("a b ab")
    assert app.ids() == reference_ids(path, "a b ab")

    # The error area and the header are watched from inside the page, so the time is the
    # page's own, not that of this test's polling.
    app.page.evaluate("""() => {
        window.__hung = { typed: performance.now(), error: null };
        const box = document.querySelector('[data-testid=error]');
        new MutationObserver(() => {
          if (window.__hung.error === null && box.textContent.includes('pattern')) {
            window.__hung.error = performance.now();
          }
        }).observe(box, { childList: true, characterData: true, subtree: true });
    }""")
    app.page.get_by_test_id("text-input").fill(TEXT)
    poll(app, "window.__hung.error !== null", timeout=30)
    hung = app.page.evaluate("window.__hung")
    assert hung["error"] - hung["typed"] < 2000, f"error after {hung['error'] - hung['typed']:.0f} ms"
    for where in (app.error_text(), app.page.get_by_test_id("engine-note").inner_text()):
        assert "tokenizer.json" in where and FIELD in where and pattern in where, where
        assert "/tmp" not in where and "Traceback" not in where, where

    # Python comes back by itself with the same file; the text that hung is not run again.
    poll(app, "subwordLab.restarts() === 1 && document.documentElement.dataset.engine === 'ready'",
         timeout=180)
    app.page.get_by_test_id("engine-note").filter(has_text="restarted").wait_for(timeout=180_000)
    app.settled()
    assert app.page.get_by_test_id("tokenizer-select").input_value() == chosen
    app.page.screenshot(path=shot_path("regex-hang-restored.png"))

    # Typing goes on: a harmless text paints the same file's tokens, the error is gone.
    app.type_text("ab a b")
    assert app.ids() == reference_ids(path, "ab a b")
    assert app.error_text() == ""
    # The piece that hung, inside a new text: refused at once, no second restart.
    app.type_text(TEXT + " ab")
    error = app.error_text()
    assert FIELD in error and pattern in error and "too long" in error, error
    assert app.page.evaluate("subwordLab.restarts()") == 1
    app.type_text("b a")
    assert app.ids() == reference_ids(path, "b a")

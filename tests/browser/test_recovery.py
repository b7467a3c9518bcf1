"""Long work in the page can be stopped, and Python comes back by itself: the Stop
control, subwordLab.cancel(), and a worker ended on purpose that returns with the
user's own file and text (docs/automation.md, "Stopping and recovery")."""
from __future__ import annotations

import shutil

import subword_lab

from shots import shot_path

BIG = "Stopping long work must be quick. " * 60_000  # ~2 MB: seconds of work in Pyodide


def reference_ids(path, text):
    tokenizer = subword_lab.load(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer.encode(text).ids


def start_long_encode(app):
    """Start encoding BIG; returns once the Stop control is on screen."""
    app.page.evaluate("""(text) => {
        window.__long = { done: null };
        subwordLab.encode(text).then(
          () => { window.__long.done = { ok: true, at: performance.now() }; },
          (error) => { window.__long.done = { ok: false, kind: error.kind, at: performance.now() }; });
    }""", BIG)
    app.page.get_by_test_id("stop").wait_for(state="visible", timeout=10_000)


def test_stop_ends_long_work_quickly_and_python_comes_back(app, bert_json, tmp_path):
    app.open()
    # The user's own file, not a preset: its bytes must come back from the page.
    path = tmp_path / "tokenizer.json"
    shutil.copy(bert_json, path)
    app.page.get_by_test_id("file-input").set_input_files(str(path))
    app.page.get_by_test_id("tokenizer-select").filter(has_text="tokenizer.json").wait_for()
    app.settled()
    text = "Recovery keeps your file and your text."
    app.type_text(text)
    before = app.ids()
    assert before == reference_ids(bert_json, text)
    chosen = app.page.get_by_test_id("tokenizer-select").input_value()

    start_long_encode(app)
    clicked = app.page.evaluate("performance.now()")
    app.page.get_by_test_id("stop").click()
    poll(app, "window.__long.done !== null")
    done = app.page.evaluate("window.__long.done")
    assert done["ok"] is False and done["kind"] == "cancelled"
    # Stop must not wait for the work: encoding BIG takes Pyodide several seconds even on an
    # idle machine, so a reply within 1.5 s (generous, for a busy one) can only be the stop.
    assert done["at"] - clicked < 1500, f"stopped after {done['at'] - clicked:.0f} ms"
    assert "Stopped" in app.page.get_by_test_id("engine-note").inner_text()

    # Python comes back with the same tokenizer and text, by itself.
    poll(app, "document.documentElement.dataset.engine === 'ready' && subwordLab.restarts() === 1",
         timeout=180)
    app.page.get_by_test_id("engine-note").filter(has_text="restarted").wait_for(timeout=180_000)
    app.settled()
    assert app.page.get_by_test_id("tokenizer-select").input_value() == chosen
    assert app.ids() == before
    # and keeps working
    app.type_text("Still working.")
    assert app.ids() == reference_ids(bert_json, "Still working.")
    app.page.screenshot(path=shot_path("recovered.png"))


def test_cancel_api_with_nothing_running_says_so(app):
    app.open()
    assert app.page.evaluate("subwordLab.cancel()") is False
    assert app.page.evaluate("subwordLab.restarts()") == 0


def poll(app, condition: str, timeout: float = 10):
    """Wait until a JavaScript condition holds (the page's CSP forbids wait_for_function)."""
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if app.page.evaluate(f"() => Boolean({condition})"):
            return
        app.page.wait_for_timeout(50)
    raise AssertionError(f"not within {timeout} s: {condition}")

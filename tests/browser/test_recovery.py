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
        window.__long.settled = subwordLab.encode(text).then(
          () => { window.__long.done = { ok: true }; },
          (error) => { window.__long.done = { ok: false, kind: error.kind }; });
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
    app.page.get_by_test_id("stop").click()
    app.page.evaluate("() => window.__long.settled")  # the encode's promise has settled
    done = app.page.evaluate("window.__long.done")
    # Stop does not wait for the work: the encode ends as cancelled, not with its tokens,
    # and the Python that was busy with it is thrown away (restarted below), not waited on.
    assert done["ok"] is False and done["kind"] == "cancelled"
    assert "Stopped" in app.page.get_by_test_id("engine-note").inner_text()

    # Python comes back with the same tokenizer and text, by itself.
    app.page.get_by_test_id("engine-note").filter(has_text="restarted").wait_for(timeout=180_000)
    app.page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=180_000)
    assert app.page.evaluate("subwordLab.restarts()") == 1
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


def test_a_request_waiting_behind_long_work_is_not_timed_out(app):
    """Python answers one request at a time: a short request sent while a long one runs
    waits for it, and its own time starts only then. (It used to start at once: behind a
    long training or encode the short request "had no answer", and Python was restarted
    under the long work, which was lost.) An engine of its own, with a 1 s limit."""
    app.open()
    done = app.page.evaluate("""async (text) => {
        const { Engine } = await import('./lib/engine.js');
        const engine = new Engine(new URL('./worker.js', location.href), { timeouts: { default: 1000 } });
        await engine.booted;
        await engine.request('openPreset', { key: 't', file: 'presets/bert-base-uncased.tokenizer.json' },
                             [], { timeout: 0 });
        const started = performance.now();
        const long = engine.request('encode', { key: 't', text, limit: null }, [], { timeout: 0 });
        const short = engine.request('encode', { key: 't', text: 'hello world', limit: null });
        const results = await Promise.allSettled([long, short]);
        const took = performance.now() - started;
        engine.terminate(new Error('the test is over'));
        return { took, restarts: engine.restarts,
                 results: results.map((r) => r.status === 'fulfilled' ? 'ok' : r.reason.kind || String(r.reason)) };
    }""", BIG)
    assert done["took"] > 1500, done  # the long encode did outlast the short one's limit
    assert done["results"] == ["ok", "ok"] and done["restarts"] == 0, done

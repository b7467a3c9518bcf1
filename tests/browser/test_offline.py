"""A second visit works without the network: the service worker (web/sw.js) keeps the page,
Pyodide and our wheel, web/lib/presets.js the preset that was used. The network is cut
after the first visit (the browser context goes offline); the page must still become
ready and tokenize as CPython does."""
from __future__ import annotations

import pytest

import subword_lab

# A context of its own: the service worker and an offline context are what it tests.
pytestmark = pytest.mark.fresh_context

TEXT = "Offline, the tokens still come: naïve café."

CONTROLLED = "() => navigator.serviceWorker.ready.then(() => Boolean(navigator.serviceWorker.controller))"

CACHED = """async () => {
  const names = (await caches.keys()).filter((n) => n.startsWith('subword-lab-app-'));
  const urls = [];
  for (const name of names) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
  return { names, urls };
}"""


def test_second_visit_works_offline(app, gpt2_tiktoken):
    app.open("")
    page = app.page
    page.wait_for_function(CONTROLLED, timeout=120_000)
    cached = page.evaluate(CACHED)
    assert len(cached["names"]) == 1, cached["names"]
    paths = [u[len(app.site) + 1:] for u in cached["urls"]]
    assert {"index.html", "app.js", "worker.js", "pyodide/pyodide.asm.wasm", "build.json"} <= set(paths)
    assert any(p.startswith("wheels/subword_lab-") for p in paths)
    # Preset files are cached by presets.js when picked, never all at once by the worker.
    assert [p for p in paths if p.startswith("presets/")] == ["presets/presets.json"]

    page.context.set_offline(True)
    second = page.context.new_page()
    second.goto(f"{app.site}/?tokenizer=gpt2")
    second.wait_for_selector("html[data-engine=ready], html[data-engine=error]", state="attached",
                             timeout=120_000)
    assert second.evaluate("document.documentElement.dataset.engine") == "ready", \
        second.evaluate("document.getElementById('engine-error').textContent")
    second.evaluate("async (t) => await window.subwordLab.setText(t)", TEXT)
    state = second.evaluate("window.subwordLab.state()")
    expected = subword_lab.load(str(gpt2_tiktoken)).encode(TEXT)
    assert state["tokenizer"] == "gpt2"
    assert state["ids"] == list(expected.ids)
    assert second.get_by_test_id("error").text_content() == ""
    second.close()


def test_nosw_removes_the_service_worker(app):
    app.open("")
    page = app.page
    page.wait_for_function(CONTROLLED, timeout=120_000)
    app.open("?nosw")
    page.wait_for_function("async () => !(await navigator.serviceWorker.getRegistration())", timeout=30_000)

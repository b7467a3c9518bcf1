"""A second visit starts Python from the memory snapshot the first one stored
(web/lib/snapshot.js): same tokens as CPython, offline too; a damaged or foreign
snapshot is dropped and the page starts fresh without a word; ?nosnapshot opts out."""
from __future__ import annotations

import json

import pytest

import subword_lab

# A context of its own: a first visit storing the snapshot is what it tests.
pytestmark = pytest.mark.fresh_context

TEXT = "From memory, the tokens still come: naïve café, 東京."

STORED = """async () => {
  if (!(await caches.has('subword-lab-snapshot'))) return [];
  const cache = await caches.open('subword-lab-snapshot');
  return (await cache.keys()).map((r) => r.url);
}"""

# Replace the stored snapshot by `kind`: "garbage" (not a stored snapshot at all), or
# "other-runtime" (the real snapshot with another Pyodide build id, as a snapshot kept from
# an older runtime would be: stored whole and of the right size, Pyodide refuses it; read
# and stored again with the page's own web/lib/snapshot.js).
SPOIL = """async (kind) => {
  const cache = await caches.open('subword-lab-snapshot');
  const [request] = await cache.keys();
  const hit = await cache.match(request);
  const size = hit.headers.get('x-subword-lab-size');
  let body;
  if (kind === 'garbage') {
    body = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
  } else {
    const { packSnapshot, unpackSnapshot } = await import('./lib/snapshot.js');
    const bytes = unpackSnapshot(await hit.arrayBuffer(), Number(size));
    for (let i = 16; i < 48; i++) bytes[i] ^= 0x5a; // the Pyodide build id (after magic and offsets)
    body = packSnapshot(bytes);
  }
  await cache.put(request, new Response(body, { headers: { 'x-subword-lab-size': size } }));
}"""


def stored_snapshot(app):
    """Wait until the first visit stored its snapshot; the stored entries' URLs."""
    page = app.page
    page.wait_for_selector("html[data-snapshot]", state="attached", timeout=120_000)
    assert page.evaluate("document.documentElement.dataset.snapshot") == "stored"
    urls = page.evaluate(STORED)
    key = json.loads(page.evaluate("fetch('build.json').then((r) => r.text())"))["snapshot_key"]
    assert urls == [f"{app.site}/snapshot/{key}.bin"]
    return urls


def visit(app, query=""):
    """A new page in the same browser context, watched like the fixture's own."""
    page = app.page.context.new_page()
    page.on("console", lambda msg: app.watch.console.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda error: app.watch.errors.append(str(error)))
    page.on("worker", lambda worker: worker.on("console", lambda msg: app.watch.console.append(
        f"worker {msg.type}: {msg.text}")))
    page.goto(f"{app.site}/{query}")
    page.wait_for_selector("html[data-engine=ready], html[data-engine=error]", state="attached", timeout=120_000)
    assert page.evaluate("document.documentElement.dataset.engine") == "ready", \
        page.evaluate("document.getElementById('engine-error').textContent")
    return page


def assert_tokens_as_cpython(page, gpt2_tiktoken):
    page.evaluate("async (t) => await window.subwordLab.setText(t)", TEXT)
    state = page.evaluate("window.subwordLab.state()")
    assert state["tokenizer"] == "gpt2"
    assert state["ids"] == list(subword_lab.load(str(gpt2_tiktoken)).encode(TEXT).ids)
    assert page.get_by_test_id("error").text_content() == ""


def test_second_visit_starts_from_the_snapshot_offline_too(app, gpt2_tiktoken):
    app.open("?tokenizer=gpt2")
    assert app.page.evaluate("document.documentElement.dataset.start") == "fresh"
    stored_snapshot(app)

    second = visit(app, "?tokenizer=gpt2")
    assert second.evaluate("document.documentElement.dataset.start") == "snapshot"
    # The tokenizer opens through modules first imported now: their files came back too.
    assert_tokens_as_cpython(second, gpt2_tiktoken)
    second.close()

    app.page.wait_for_function(
        "() => navigator.serviceWorker.ready.then(() => Boolean(navigator.serviceWorker.controller))",
        timeout=120_000)
    app.page.context.set_offline(True)
    offline = visit(app, "?tokenizer=gpt2")
    assert offline.evaluate("document.documentElement.dataset.start") == "snapshot"
    assert_tokens_as_cpython(offline, gpt2_tiktoken)
    offline.close()


def test_a_spoilt_snapshot_is_dropped_for_a_fresh_start(app, gpt2_tiktoken):
    """Each way a snapshot is spoilt, in turn in one context (a first visit costs a few
    core-seconds): the next visit starts fresh, stores a good one, and the one after it
    starts from that."""
    app.open("?tokenizer=gpt2")
    stored_snapshot(app)
    for kind in ("garbage", "other-runtime"):
        app.page.evaluate(SPOIL, kind)
        second = visit(app, "?tokenizer=gpt2")
        assert second.evaluate("document.documentElement.dataset.start") == "fresh", kind
        assert_tokens_as_cpython(second, gpt2_tiktoken)
        # The fresh start stores a good snapshot again, and the next visit uses it.
        second.wait_for_selector("html[data-snapshot=stored]", state="attached", timeout=120_000)
        second.close()
        third = visit(app, "?tokenizer=gpt2")
        assert third.evaluate("document.documentElement.dataset.start") == "snapshot", kind
        third.close()


def test_nosnapshot_starts_fresh_and_forgets_the_snapshot(app):
    app.open("")
    stored_snapshot(app)
    page = visit(app, "?nosnapshot")
    assert page.evaluate("document.documentElement.dataset.start") == "fresh"
    assert page.evaluate(STORED) == []
    # No snapshot is made either: the worker runs under a name with "nosnapshot", which
    # neither reads nor makes one (docs/automation.md), and none was reported.
    names = [worker.evaluate("self.name") for worker in page.workers]
    assert names and all("nosnapshot" in name for name in names), names
    assert page.evaluate("window.subwordLab.started().snapshot") is None
    assert page.evaluate("document.documentElement.dataset.snapshot") is None
    page.close()

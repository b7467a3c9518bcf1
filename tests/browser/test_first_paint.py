"""The tokenize view's first paint: the default text's tokens are on screen before Python
is ready (computed at build time, tools/precompute.py), they are GPT-2's real ids, Python's
answer takes over without redrawing them, and nothing on the page jumps meanwhile.

Python is kept from starting by holding back pyodide.asm.wasm (the request hangs).
"""
from __future__ import annotations

import pytest

import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

import subword_lab

# A context of its own: first paint comes before Python on a first visit, with routes held.
pytestmark = pytest.mark.fresh_context

HELD = "**/pyodide/pyodide.asm.wasm"

# Runs before the page's scripts: the layout shifts a reader would see (CLS).
SHIFTS = """
window.__shifts = [];
window.__shiftObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
});
window.__shiftObserver.observe({ type: 'layout-shift', buffered: true });
"""

# Every shift up to the last frame drawn: once the view has settled and its fonts are
# in, two more frames are drawn, and the shifts the observer holds undelivered are
# taken with the ones it delivered.
ALL_SHIFTS = """async () => {
  await window.subwordLab.settled();
  await document.fonts.ready;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  for (const e of window.__shiftObserver.takeRecords()) if (!e.hadRecentInput) window.__shifts.push(e.value);
  return window.__shifts;
}"""


def hold_python(app):
    held = []
    app.page.context.route(HELD, lambda route: held.append(route))
    return held


def release(app, held):
    for route in held:
        route.continue_()
    app.page.context.unroute(HELD)


def chips(page):
    return page.eval_on_selector_all(
        "#tokens [data-testid=token]",
        "els => els.map(e => [Number(e.dataset.tokenId), Number(e.dataset.start), Number(e.dataset.end)])")


def test_default_tokens_are_drawn_before_python_and_are_gpt2s(app, gpt2_tiktoken):
    held = hold_python(app)
    page = app.page
    # The worker asks for the runtime once it has looked for a stored memory snapshot
    # (web/lib/snapshot.js), which may come after the chips: wait for that request.
    with page.context.expect_event("request", lambda r: r.url.endswith("pyodide.asm.wasm"),
                                   timeout=30_000):
        app.open("", wait=False)
        page.wait_for_selector("#tokens[data-source=precomputed] [data-testid=token]", timeout=15_000)
    page.evaluate("0")  # a round trip: the route handler has run
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    assert held, "the test did not hold Python back"
    text = page.get_by_test_id("text-input").input_value()
    assert page.get_by_test_id("tokenizer-select").input_value() == "gpt2"
    shown = chips(page)
    # Our CPython package, with the page's settings, and tiktoken itself agree with the chips.
    ours = subword_lab.load(str(gpt2_tiktoken)).encode(text)
    assert [c[0] for c in shown] == list(ours.ids)
    assert [[c[1], c[2]] for c in shown] == [list(o) for o in ours.offsets]
    oracle = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                               mergeable_ranks=load_tiktoken_bpe(str(gpt2_tiktoken)),
                               special_tokens={ENDOFTEXT: 50256})
    assert [c[0] for c in shown] == oracle.encode(text)
    assert page.get_by_test_id("token-count").get_attribute("data-count") == str(len(shown))
    assert page.get_by_test_id("tokens").is_visible()


def test_python_takes_over_the_same_chips(app):
    held = hold_python(app)
    page = app.page
    app.open("", wait=False)
    page.wait_for_selector("#tokens[data-source=precomputed] [data-testid=token]", timeout=15_000)
    before = chips(page)
    page.evaluate("() => { window.__first = document.querySelector('#tokens [data-testid=token]'); }")
    release(app, held)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    state = app.settled()
    assert page.get_attribute("#tokens", "data-source") is None
    assert chips(page) == before
    assert state["ids"] == [c[0] for c in before]
    # Python's answer kept the elements it found equal: the first chip was never redrawn.
    assert page.evaluate("() => window.__first.isConnected")


def test_a_typed_text_is_not_overwritten_by_the_stored_tokens(app):
    held = hold_python(app)
    page = app.page
    app.open("?text=Hello%20there", wait=False)
    page.wait_for_selector("html[data-drawn]", state="attached", timeout=15_000)
    assert chips(page) == []
    assert page.get_attribute("#tokens", "data-source") is None
    release(app, held)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    assert app.settled()["text"] == "Hello there"
    assert len(chips(page)) >= 2


def test_nothing_jumps_from_first_paint_to_ready(app):
    """Cumulative layout shift from navigation until Python has drawn the tokens: at most
    0.05 (the stored tokens, the engine's steps and the download line keep their places)."""
    page = app.page
    page.add_init_script(SHIFTS)
    app.open("")
    shifts = page.evaluate(ALL_SHIFTS)  # a shift right after ready still counts
    assert sum(shifts) <= 0.05, shifts


def test_a_link_to_the_train_view_asks_for_its_modules_at_once(app):
    """Opened on ?view=train, the page draws the course run before Python is ready,
    and every module it fetched is either preloaded by index.html (app.js's graph) or on
    the train view's list in lib/view-modules.js (both written by build.py): none came a
    round trip later because an import form went unseen."""
    import build
    import module_graph
    from modules_seen import fetched_modules, preloaded_modules, view_modules

    held = hold_python(app)
    page = app.page
    app.open("?view=train&algo=wordpiece&corpus=course-toy&step=1", wait=False)
    page.locator("[data-testid=vocab-item]").first.wait_for(timeout=30_000)
    # (The wasm may come from this context's cache, unheld: Python is still far from ready.)
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    listed = view_modules()
    preloaded = preloaded_modules()
    assert preloaded == set(module_graph.closure(build.DIST / "app.js", build.DIST))
    modules = fetched_modules(page, page.evaluate("location.origin"))
    later = set(module_graph.closure(build.DIST / "share.js", build.DIST))  # import() after first paint
    later |= set(module_graph.closure(build.DIST / "worker.js", build.DIST))  # the worker's own graph
    assert modules - later <= preloaded | set(listed["train"]), sorted(modules - later - preloaded - set(listed["train"]))
    release(app, held)

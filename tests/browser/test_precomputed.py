"""Before Python is ready: the course presets play from data precomputed at build time.

Python is kept from starting by holding back pyodide.asm.wasm (the request hangs, so
the worker waits on it forever); the views must still draw the course's numbers, and
the player must work on them. The stored data itself is checked against a fresh
CPython run in tests/python/test_precompute.py.
"""
from __future__ import annotations

import pytest

# A context of its own: the precomputed steps show before Python, with routes held.
pytestmark = pytest.mark.fresh_context

HELD = "**/pyodide/pyodide.asm.wasm"


def hold_python(app):
    """Hang the WebAssembly download: the worker never gets past its first stage."""
    held = []
    app.page.context.route(HELD, lambda route: held.append(route))
    return held


def python_asked(page):
    """Wraps opening the page: on leaving, the page has asked for Python's WebAssembly
    (the worker starts after the first paint, so the request may come after the drawing
    a test waits for); a round trip after it (page.evaluate) lets the route handler run."""
    return page.context.expect_event("request", lambda r: r.url.endswith("pyodide.asm.wasm"),
                                     timeout=60_000)


def vocab(page):
    return page.eval_on_selector_all("[data-testid=vocab-item]", "els => els.map(e => e.textContent)")


def test_train_view_shows_course_toy_step_without_python(app):
    held = hold_python(app)
    page = app.page
    with python_asked(page):
        app.open("?view=train&algo=wordpiece&corpus=course-toy&step=1", wait=False)
        page.wait_for_function("() => document.querySelectorAll('[data-testid=vocab-item]').length === 1",
                               timeout=15_000)
    page.evaluate("0")  # a round trip: the route handler has run
    assert vocab(page)[-1] == "##gs"
    winner = page.locator("[data-testid=pair-row][data-winner=true]")
    assert winner.get_by_test_id("pair-score").text_content().startswith("1/20")
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    assert held, "the test did not hold Python back"
    # The player works on the stored run: one step on gives the course's second merge.
    page.get_by_test_id("player-step-forward").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=vocab-item]').length === 2")
    assert vocab(page) == ["##gs", "hu"]
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '2'")
    page.get_by_test_id("player-step-back").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=vocab-item]').length === 1")
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"


@pytest.mark.parametrize("algo, tokens", [("wordpiece", ["hug", "##s"]), ("bpe", ["hug", "s"]),
                                          ("unigram", ["un", "hug"])])
def test_encode_view_shows_course_toy_without_python(app, algo, tokens):
    held = hold_python(app)
    page = app.page
    with python_asked(page):
        app.open(f"?view=encode&corpus=course-toy&algo={algo}", wait=False)
        page.wait_for_function("() => window.subwordLab && window.subwordLab.player().length > 0",
                               timeout=15_000)
    page.evaluate("0")  # a round trip: the route handler has run
    page.evaluate("() => window.subwordLab.player().seek(window.subwordLab.player().length)")
    if algo == "unigram":  # the lattice: the best path's edges
        page.wait_for_selector("[data-testid=lattice-edge][data-best=true]")
        shown = page.eval_on_selector_all(
            "[data-testid=lattice-edge][data-best=true]:not(.is-hidden)", "els => els.map(e => e.dataset.piece)")
        shown = sorted(shown)
        tokens = sorted(tokens)
    else:
        page.wait_for_selector("[data-testid=encode-result][data-final=true]")
        shown = page.eval_on_selector_all(
            "[data-testid=encode-result] [data-testid=result-token]", "els => els.map(e => e.textContent)")
    assert shown == tokens
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    assert held


def test_python_takes_over_without_a_jump(app):
    """Once Python is ready the stored run stays on screen as it was (same step, same items)."""
    held = hold_python(app)
    page = app.page
    with python_asked(page):
        app.open("?view=train&algo=wordpiece&corpus=course-toy&step=1", wait=False)
        page.wait_for_function("() => document.querySelectorAll('[data-testid=vocab-item]').length === 1",
                               timeout=15_000)
    page.evaluate("0")  # a round trip: the route handler has run
    before = page.inner_text(".train-stage")
    # A few frames later the stored run is still what is drawn (nothing waits on Python).
    page.evaluate("() => new Promise((done) => { let n = 5; const f = () => (--n ? requestAnimationFrame(f) : done()); requestAnimationFrame(f); })")
    assert held
    for route in held:  # let Python start now
        route.continue_()
    page.context.unroute(HELD)
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    app.settled()
    assert page.inner_text(".train-stage") == before
    assert vocab(page) == ["##gs"]
    assert page.evaluate("window.subwordLab.player().k") == 1

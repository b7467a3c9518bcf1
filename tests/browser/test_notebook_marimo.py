"""docs/notebook_marimo.py in a real marimo editor (from PyPI, on loopback, no token, a
temporary root, no update check), opened in Chromium and run with marimo's own "run all"
button: every widget is drawn through mo.ui.anywidget, the tokens widgets' chips carry the
ids the library gives, typing in one reaches the kernel (the chips follow, and so does the
cell that reads the widget's traits), the training runs finish and step when played, a
click on a chip draws its steps, the steps widget ends in the encode's tokens; then again
in marimo's dark theme. No console error, no request leaves the machine. Screenshots in
test-results/."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from jupyter_host import assert_run_plays, chip_ids, look, watched_page
from marimo_host import open_editor, serve, settle
from shots import shot_path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "python"))
from train_helpers import NOTEBOOK_SAMPLE, notebook_runs

from installed import require

require("marimo", "anywidget")

NEW_TEXT = "They understand how tokenizers are trained."
ALGOS = ("bpe", "wordpiece", "unigram")


@pytest.fixture
def server(tmp_path, request):
    """A marimo editor in the theme the test names (`@pytest.mark.parametrize` "server")."""
    with serve(tmp_path, request.param) as url:
        yield url


def run_all(page, url, name):
    """Open the notebook, press marimo's "run all", wait for the three runs to end and every
    cell to be idle."""
    open_editor(page, url).click()
    tokens = page.locator("[data-testid=notebook-tokens]")
    try:
        expect(tokens).to_have_count(3, timeout=60_000)
        expect(page.locator("[data-testid=training-status][data-state=done]")).to_have_count(3, timeout=120_000)
        # the run has ended only when every cell is idle: one still running (the side-by-side
        # cell, the one reading the traits) would draw an output, and move the page, under a click
        busy = page.locator("[data-testid=cell-status]:not([data-status=idle])")
        expect(busy).to_have_count(0, timeout=120_000)
    except AssertionError:
        page.screenshot(path=shot_path(f"marimo-{name}-failed.png"))
        raise
    return tokens, page.locator("[data-testid=notebook-training]")


# Marks the widget, and lists the presses and clicks it sees (with their target's test id)
# in `el.clicks`: a press on a chip and a click on the widget itself mean the page moved
# between press and release.
CLICKS = """(el) => { el.clicks = [];
    for (const type of ["mousedown", "click"])
        el.addEventListener(type, (e) => el.clicks.push(`${type} ${e.target.dataset?.testid || e.target.nodeName}`), true); }"""


def why_traffic(page) -> list[str]:
    """What the page sends with `why_index` in it, and the updates it receives with `why` in
    them or any widget model closed by the kernel (marimo then drops that model's updates
    without a word), over marimo's websocket or its HTTP API: the trace of a "why this
    token?" round trip."""
    seen: list[str] = []

    def frame(way, payload):
        text = payload if isinstance(payload, str) else payload.decode("utf-8", "replace")
        if "why_index" in text if way == "sent" else (
                '"why"' in text and '"update"' in text or '"method":"close"' in text):
            seen.append(f"{way} (ws) {text[:160]}")

    page.on("websocket", lambda ws: (ws.on("framesent", lambda f: frame("sent", f)),
                                     ws.on("framereceived", lambda f: frame("received", f))))
    page.on("request", lambda r: "why_index" in (r.post_data or "") and seen.append(
        f"sent (http) {r.url} {(r.post_data or '')[:160]}"))
    return seen


def assert_tokens_widgets(tokens, runs, theme):
    """Each tokens widget, in `theme`, shows the sample's chips with the library's ids."""
    for widget, algo in zip(tokens.all(), ALGOS):
        widget.locator("[data-testid=token]").first.wait_for()
        assert chip_ids(widget) == runs[algo][0].encode(NOTEBOOK_SAMPLE).ids
        expect(widget).to_have_attribute("data-theme", theme)


@pytest.mark.parametrize("server", ["light"], indirect=True)
def test_notebook_widgets_in_marimo(browser, server):
    url = server
    runs = notebook_runs()
    with watched_page(browser, url) as page:
        sent = why_traffic(page)
        tokens, training = run_all(page, url, "light")
        assert_tokens_widgets(tokens, runs, "light")
        rows = page.locator("[data-testid=notebook-compare] [data-testid=compare-row]")
        expect(rows).to_have_count(3)
        for row, algo in zip(rows.all(), ALGOS):
            assert chip_ids(row) == runs[algo][0].encode(NOTEBOOK_SAMPLE).ids
        look(page, tokens.first, "marimo-tokens.png")
        look(page, page.locator("[data-testid=notebook-compare]"), "marimo-compare.png")

        # "why this token?": the click goes to the kernel through marimo, the steps come back;
        # pressed for as long as a person presses (a page that moves in between loses it)
        settle(page)
        second = tokens.nth(1)
        second.evaluate(CLICKS)
        second.locator("[data-testid=token][data-index='1']").click(delay=120)
        why = second.locator("[data-testid=why]")
        try:
            expect(why).to_have_attribute("data-state", "steps")
        except AssertionError as error:  # where the click was lost, for whoever mends it
            replaced = not second.evaluate("(el) => Boolean(el.clicks)")
            raise AssertionError(
                f"no steps drawn; the widget {'was' if replaced else 'was not'} replaced after the "
                f"click; presses and clicks it saw: {None if replaced else second.evaluate('(el) => el.clicks')}; "
                f"why_index sent and why received: {sent}") from error
        expect(why.locator("[data-testid=player-position]")).to_have_text(re.compile(r"^0 / [1-9]\d*$"))
        look(page, second, "marimo-tokens-why.png")

        # typing: the kernel encodes again, the chips follow, and so does the cell below
        # that reads the widget's traits (marimo runs it again when the widget changes)
        first = tokens.first
        first.locator("[data-testid=text]").fill(NEW_TEXT)
        encoding = runs["bpe"][0].encode(NEW_TEXT)
        chips = first.locator("[data-testid=token]")
        expect(chips).to_have_count(len(encoding.ids))
        expect(chips.first).to_have_attribute("data-token-id", str(encoding.ids[0]))
        assert chip_ids(first) == encoding.ids
        reader = page.locator(".markdown", has_text=f"{NEW_TEXT} →")
        expect(reader).to_contain_text(f"{encoding.tokens[-1]} ({encoding.ids[-1]})")

        # each run ends on its last step; played, it starts again from the first and steps
        for widget, algo in zip(training.all(), ALGOS):
            assert_run_plays(widget, algo, runs[algo][1])
            look(page, widget, f"marimo-training-{algo}.png")

        # the BPE steps widget, played to its end: the encode's own tokens
        steps = page.locator("[data-testid=notebook-steps]").first
        steps.locator("[data-testid=player-step-forward]").click()
        expect(steps.locator("[data-testid=player-position]")).to_have_text(re.compile(r"^1 / [1-9]\d*$"))
        steps.locator("[data-testid=player-end]").click()
        encoding = runs["bpe"][0].encode(" tokenization", add_special_tokens=False)
        expect(steps.locator("[data-testid=result-token]")).to_have_count(len(encoding.ids))
        assert chip_ids(steps, "result-token") == encoding.ids
        look(page, steps, "marimo-steps-bpe.png")


@pytest.mark.parametrize("server", ["dark"], indirect=True)
def test_notebook_widgets_in_marimo_dark(browser, server):
    """marimo's dark theme: the widgets take the page's dark palette."""
    url = server
    runs = notebook_runs()
    with watched_page(browser, url) as page:
        tokens, training = run_all(page, url, "dark")
        widgets = page.locator("[data-testid=notebook-tokens], [data-testid=notebook-training], "
                               "[data-testid=notebook-steps], [data-testid=notebook-compare]")
        expect(widgets).to_have_count(9)
        for widget in widgets.all():
            expect(widget).to_have_attribute("data-theme", "dark")
        assert_tokens_widgets(tokens, runs, "dark")
        look(page, tokens.first, "marimo-tokens-dark.png")
        look(page, training.first, "marimo-training-dark.png")
        look(page, page.locator("[data-testid=notebook-steps]").nth(1), "marimo-steps-unigram-dark.png")

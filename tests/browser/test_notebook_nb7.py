"""docs/notebook.ipynb in Jupyter Notebook 7 (from PyPI, on loopback, no token, a temporary
root), opened in Chromium and run from Notebook's own Run menu: the widgets render there as
in JupyterLab (tests/browser/test_notebook_lab.py checks them in depth): the tokens
widgets' chips carry the ids the library gives, the training runs finish, a click on a chip
draws its steps, no console error, no request leaves the machine."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from jupyter_host import serve, watched_page
from shots import shot_path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "python"))
from train_helpers import NOTEBOOK_SAMPLE, notebook_runs

from installed import require

require("notebook", "anywidget")


# Notebook 7.6.5's own keyboard-shortcuts settings code raises this as its page loads, before
# any cell runs, with every extension (ours, anywidget, ipywidgets) disabled and none of our
# settings written: it is Notebook's, not the widgets'.
NOTEBOOK_OWN = ("Cannot read properties of undefined (reading 'schema')",)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("nb7"), "notebook") as url:
        yield url


def test_notebook_7_draws_the_widgets(browser, server):
    runs = notebook_runs()
    with watched_page(browser, server, host_errors=NOTEBOOK_OWN) as page:
        page.goto(f"{server}/notebooks/notebook.ipynb")
        # Notebook 7's kernel indicator: the kernel connected and idle
        page.wait_for_function("""() => document.querySelector('.jp-Toolbar-kernelName')?.textContent?.includes('Python 3')
            && document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status === 'idle'""",
                               timeout=120_000)
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()
        tokens = page.locator("[data-testid=notebook-tokens]")
        try:
            expect(tokens).to_have_count(4, timeout=60_000)
            expect(page.locator("[data-testid=training-status][data-state=done]")).to_have_count(3, timeout=120_000)
        except AssertionError:
            page.screenshot(path=shot_path("notebook7-failed.png"), full_page=True)
            raise
        for widget, algo in zip(tokens.all(), ("bpe", "wordpiece", "unigram", "bpe")):
            widget.locator("[data-testid=token]").first.wait_for()
            ids = widget.locator("[data-testid=token]").evaluate_all("chips => chips.map((c) => Number(c.dataset.tokenId))")
            assert ids == runs[algo][0].encode(NOTEBOOK_SAMPLE).ids
        # "why this token?" there too: the steps of the clicked token's word, drawn
        second = tokens.nth(1)
        second.locator("[data-testid=token][data-index='1']").click()
        expect(second.locator("[data-testid=why]")).to_have_attribute("data-state", "steps")
        expect(second.locator("[data-testid=why] [data-testid=player-position]")).to_have_text(re.compile(r"^0 / [1-9]\d*$"))
        second.evaluate("(node) => node.scrollIntoView({block: 'start'})")
        page.screenshot(path=shot_path("notebook7-tokens-why.png"))

"""A view counts as settled only once its own stylesheet applies.

The views other than Tokenize add their sheets when their module loads (lib/dom.js
loadCss). A test, or a learner's eye, that meets a view before its sheet arrives sees the
wrong layout: the layout sweep once measured the train view's lists unstyled. Here the
train view's sheet is held back at the network: the view must not settle while it is held,
and once it is let through, settled() resolves with the sheet's rules in force.
"""
from __future__ import annotations

import time

SHOW = """() => {
  window.__trainSettled = null;
  window.__trainSettling = window.subwordLab.showView('train').then((view) => view.settled())
    .then(() => {
      const form = document.querySelector('#view-train .train-form');
      return window.__trainSettled = {display: form && getComputedStyle(form).display};
    });
}"""


def test_the_train_view_settles_only_with_its_own_sheet(sized_page, site):
    page = sized_page(1280, 900)
    held = []
    page.route("**/views/train.css", lambda route: held.append(route))  # answered below
    page.goto(f"{site}/")
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    page.evaluate(SHOW)
    end = time.monotonic() + 60  # bounds only how long a failure takes to say so
    while not held and time.monotonic() < end:
        page.wait_for_timeout(50)  # lets Playwright hand the request to the route
    assert held, "the train view never asked for its sheet"
    page.wait_for_selector("#view-train .train-form", state="attached")
    # Everything the view does once shown, short of its sheet: a round trip through Python
    # (the view's own start asks Python for nothing more than this) and two frames.
    page.evaluate("""async () => {
        await window.subwordLab.call('corpus_info', {});
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }""")
    assert page.evaluate("window.__trainSettled") is None, "settled before its sheet arrived"
    held[0].continue_()
    assert page.evaluate("window.__trainSettling") == {"display": "grid"}

"""A marimo editor from PyPI on loopback, with no token, in a temporary root holding
docs/notebook_marimo.py, its configuration and caches in that root too (none of the user's),
with no update check. For the notebook widgets' marimo browser test; the page it is opened
in is jupyter_host.watched_page's (no request leaves the machine, no console error)."""
from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

from jupyter_host import listening

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "notebook_marimo.py"
LISTENING = re.compile(r"URL: http://(?:localhost|127\.0\.0\.1):(\d+)")


@contextlib.contextmanager
def serve(base: Path, theme: str = "light", source: str | None = None):
    """`marimo edit` of the worked notebook (or of a notebook whose text is `source`) in
    `base`/root, in marimo's own `theme` ("light" or "dark", its display setting); yields
    the notebook's URL."""
    root = base / "root"
    for folder in (root, base / "config" / "marimo", base / "cache", base / "state"):
        folder.mkdir(parents=True, exist_ok=True)
    (root / NOTEBOOK).write_text((ROOT / "docs" / NOTEBOOK).read_text(encoding="utf-8") if source is None else source,
                                 encoding="utf-8")
    (base / "config" / "marimo" / "marimo.toml").write_text(f'[display]\ntheme = "{theme}"\n')
    env = dict(os.environ, XDG_CONFIG_HOME=str(base / "config"), XDG_CACHE_HOME=str(base / "cache"),
               XDG_STATE_HOME=str(base / "state"),
               PYTHONPATH=os.pathsep.join([str(ROOT / "py"), os.environ.get("PYTHONPATH", "")]))
    server = subprocess.Popen(
        [sys.executable, "-m", "marimo", "edit", NOTEBOOK, "--headless", "--no-token", "--host", "127.0.0.1",
         "--skip-update-check", "--no-sandbox"],
        env=env, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = listening(server, server.stdout, LISTENING, "marimo").group(1)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait()


def open_editor(page, url: str):
    """Open the notebook at `url` in marimo's editor; return its "run all" button, enabled.

    On a busy machine marimo's page can reach its server twice while the kernel starts;
    marimo then serves the second connection as a reader (no run button) and offers
    "Take over", which is what a person would press, so it is pressed here."""
    page.goto(url)
    expect(page.locator(".marimo-cell").first).to_be_attached(timeout=120_000)
    run = page.locator("[data-testid=chrome-controls-bottom-right] [data-testid=run-button]")
    take_over = page.get_by_role("button", name="Take over")
    expect(run.or_(take_over)).to_be_visible(timeout=120_000)
    if take_over.is_visible():
        take_over.click()
    expect(run).to_be_enabled(timeout=120_000)
    return run


# Resolves once nothing on the page has moved for 300 ms.
STILL = """() => new Promise((done) => {
    let timer = 0;
    const watch = new PerformanceObserver(() => arm());
    const arm = () => { clearTimeout(timer); timer = setTimeout(() => { watch.disconnect(); done(); }, 300); };
    watch.observe({ type: "layout-shift" });
    arm();
})"""


# Scrolls the notebook's scroller a screen at a time to its end, then back to the top,
# waiting at each screen until nothing has moved for 300 ms.
WALK = """async (cell) => {
    let scroller = document.scrollingElement;
    for (let e = cell.parentElement; e; e = e.parentElement) {
        const overflow = getComputedStyle(e).overflowY;
        if ((overflow === "auto" || overflow === "scroll") && e.scrollHeight > e.clientHeight) { scroller = e; break; }
    }
    const still = """ + STILL + """;
    for (let top = 0; top < scroller.scrollHeight; top += scroller.clientHeight) {
        scroller.scrollTop = top;
        await still();
    }
    scroller.scrollTop = 0;
}"""


def settle(page) -> None:
    """Bring every cell of the notebook into view once, waiting at each screen for the page
    to be still, then go back to the top.

    marimo's code editors (CodeMirror) measure their lines again when scrolled into view; an
    editor last measured while its long lines wrapped (seen: 36 px lines that are 18 px once
    measured) then shrinks, moving everything below by 100 px, some 100 ms after the scroll
    (seen after a "run all" at 1280x900, not why the lines had wrapped). A click aimed
    just before that lands its press on one element and its release on another, and the
    browser sends no click to either (seen: "why this token?" lost after a chip scrolled
    into view). After this walk no editor is left to measure, so no later scroll moves the
    page under a click."""
    page.locator(".marimo-cell").first.evaluate(WALK)
    page.evaluate(STILL)

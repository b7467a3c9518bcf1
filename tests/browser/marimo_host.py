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

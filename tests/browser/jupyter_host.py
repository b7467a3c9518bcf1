"""A Jupyter server from PyPI (JupyterLab 4 or Notebook 7) on loopback, with no token, in a
temporary root holding docs/notebook.ipynb, and a browser context that lets no request
leave the machine and collects console errors; what the notebook widgets' browser tests
(JupyterLab, Notebook 7, marimo) share."""
from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from shots import shot_path

ROOT = Path(__file__).resolve().parents[2]
RUNNING = re.compile(r"(http://127\.0\.0\.1:\d+)/(?:lab|tree)")
# Below Linux's ephemeral range (32768-60999): Jupyter probes its port, closes it and binds
# it again later, and a port the kernel hands out meanwhile (to any connection) is lost.
PORTS = (20000, 32000)
# the servers' own extras that would ask the internet (news, update checks)
QUIET = {"jupyterlab": ["--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
         "notebook": []}


@contextlib.contextmanager
def serve(base: Path, app: str):
    """`python -m <app>` (jupyterlab or notebook) serving `base`/root; yields its base URL."""
    root, config, runtime = base / "root", base / "config", base / "runtime"
    settings = config / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    for folder in (root, config / "labconfig", settings, runtime):
        folder.mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "notebook.ipynb", root / "notebook.ipynb")
    # no "news" prompt (it would ask the internet)
    (config / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
    # the notebook's own kernel starts with it (no "Select Kernel" dialog on a first open)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"autoStartDefaultKernel": True}))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(runtime),
               JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
               PYTHONPATH=os.pathsep.join([str(ROOT / "py"), os.environ.get("PYTHONPATH", "")]))
    server = subprocess.Popen(
        [sys.executable, "-m", app, "--no-browser", "--allow-root", "--IdentityProvider.token=",
         "--ServerApp.password=", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={random.randrange(*PORTS)}",
         f"--ServerApp.root_dir={root}", *QUIET[app]],
        env=env, cwd=root, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    url = listening(server, server.stderr, RUNNING, app).group(1)
    try:
        yield url
    finally:
        server.terminate()
        server.wait()


def listening(server: subprocess.Popen, stream, pattern: re.Pattern, app: str) -> re.Match:
    """The match of `pattern` in the line where the server says where it listens, once that
    port takes connections; the test fails with its log if it exits first. Its log is read
    on after that, so that a full pipe never blocks it."""
    log = []
    found = None
    for line in stream:
        log.append(line)
        found = pattern.search(line)
        if found:
            break
    threading.Thread(target=lambda: log.extend(stream), daemon=True).start()
    if found is None:
        server.kill()
        pytest.fail(f"{app} did not start:\n" + "".join(log))
    accepting(server, int(re.search(r":(\d+)", found.group(0)).group(1)), app, log)
    return found


def accepting(server: subprocess.Popen, port: int, app: str, log: list, seconds: float = 60) -> None:
    """Wait until `port` on loopback takes a connection. Jupyter (ServerApp.start_app) and
    marimo (its startup hook, before uvicorn binds) print their address before they listen:
    on a busy machine a page opened at once was refused."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"{app} said it listens on port {port} but takes no connection there:\n"
                            + "".join(log))
            time.sleep(0.05)


def chip_ids(widget, testid="token"):
    """The ids of a widget's chips (`testid`: token, or the steps' result-token), in order."""
    return [int(i) for i in widget.locator(f"[data-testid={testid}]").evaluate_all(
        "chips => chips.map((c) => c.dataset.tokenId)")]


def look(page, widget, name):
    """A screenshot of the notebook with `widget` at the top (the host scrolls its own panel)."""
    widget.evaluate("(node) => node.scrollIntoView({block: 'start'})")
    page.screenshot(path=shot_path(name))


@contextlib.contextmanager
def watched_page(browser, base_url: str, host_errors: tuple[str, ...] = ()):
    """A page at 1280x900 whose requests may only go to the server (and blob:/data:); at the
    end, no console error and no request elsewhere. `host_errors`: page errors the server's
    own page raises whatever it shows (named and explained by the caller), left out."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    seen = {"errors": [], "foreign": []}

    def route(r):
        if r.request.url.startswith((base_url, base_url.replace("http", "ws"), "blob:", "data:")):
            r.continue_()
        else:
            seen["foreign"].append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and seen["errors"].append(m.text))
    page.on("pageerror", lambda e: str(e) in host_errors or seen["errors"].append(str(e)))
    yield page
    context.close()
    assert seen["errors"] == [] and seen["foreign"] == [], seen


def assert_run_plays(widget, algo, events) -> int:
    """A training widget whose run (`events`) ended stands on its last step; played, it
    starts again from the first and steps; paused, it narrates. Returns its step count."""
    position = widget.locator("[data-testid=player-position]")
    steps = int(position.text_content().split(" / ")[1])
    if algo != "unigram":
        assert steps == sum(e["type"] == "merge" for e in events)
    expect(position).to_have_text(f"{steps} / {steps}")
    widget.locator("[data-testid=player-play]").click()
    # first off the last step (back to the first), then stepping: in the other order the
    # last step itself matched "stepping", and the pause could land on step 0
    expect(position).not_to_have_text(f"{steps} / {steps}")
    expect(position).to_have_text(re.compile(rf"^[1-9]\d* / {steps}$"))
    widget.locator("[data-testid=player-play]").click()  # pause
    assert widget.locator("[data-testid=narration]").text_content().strip()
    return steps

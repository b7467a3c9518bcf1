"""A Jupyter server from PyPI (JupyterLab 4 or Notebook 7) on loopback, with no token, in a
temporary root holding docs/notebook.ipynb, and a browser context that lets no request
leave the machine and collects console errors. For the notebook widgets' browser tests."""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNING = re.compile(r"(http://127\.0\.0\.1:\d+)/(?:lab|tree)")
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
         "--ServerApp.password=", "--ServerApp.ip=127.0.0.1", "--ServerApp.port=0",
         f"--ServerApp.root_dir={root}", *QUIET[app]],
        env=env, cwd=root, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    log = []
    url = None
    for line in server.stderr:  # until the server says where it listens (or exits)
        log.append(line)
        found = RUNNING.search(line)
        if found:
            url = found.group(1)
            break
    # keep reading its log, so a full pipe never blocks the server
    threading.Thread(target=lambda: log.extend(server.stderr), daemon=True).start()
    if url is None:
        server.kill()
        pytest.fail(f"{app} did not start:\n" + "".join(log))
    try:
        yield url
    finally:
        server.terminate()
        server.wait()


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

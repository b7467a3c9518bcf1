"""Browser fixtures: dist/ served on a free port, one headless Chromium, a watched page per test.

Every request to another origin is refused and recorded; every console message,
page error and dialog is recorded; a test fails if any of them happened and it
did not expect it.
"""
from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (build.py: the same server `npm start` runs)

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
READY = "html[data-engine=ready], html[data-engine=error]"


def chromium_path() -> str | None:
    env = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None  # Playwright's own browser, if installed


@pytest.fixture(scope="session")
def site():
    """dist/ (built here unless build.py test just built it), served on a free port."""
    if os.environ.get("SUBWORD_LAB_BUILT") != "1" or not (build.DIST / "index.html").exists():
        build.build()
    server = build.make_server(build.DIST, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Watch:
    """What a page did that a clean run must not do."""

    def __init__(self, origin):
        self.origin = origin
        self.foreign = []
        self.console = []
        self.errors = []
        self.dialogs = []
        self.requests = []

    def route(self, route):
        url = route.request.url
        self.requests.append(url)
        if url.startswith(self.origin + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()


class Page:
    """A Playwright page plus helpers for the automation contract (docs/automation.md)."""

    def __init__(self, page, site, watch):
        self.page = page
        self.site = site
        self.watch = watch

    def open(self, query: str = "", wait=True):
        self.page.goto(f"{self.site}/{query}")
        if wait:
            self.page.wait_for_selector(READY, state="attached", timeout=120_000)
            assert self.page.evaluate("document.documentElement.dataset.engine") == "ready", \
                self.page.evaluate("document.getElementById('engine-error').textContent")
            self.settled()
        return self

    def settled(self):
        return self.page.evaluate("async () => await window.subwordLab.settled()")

    def tokens(self):
        """[(id, start, end, text)] of every token element on screen."""
        return self.page.evaluate("""() => [...document.querySelectorAll('[data-testid=token]')].map(
            (el) => [Number(el.dataset.tokenId), Number(el.dataset.start), Number(el.dataset.end), el.textContent])""")

    def ids(self):
        return [t[0] for t in self.tokens()]

    def type_text(self, text: str, then: str = ""):
        """Fill the text box, then type a few more keys (real key presses), and wait for tokens."""
        box = self.page.get_by_test_id("text-input")
        box.fill(text)
        if then:
            box.press_sequentially(then)
        self.settled()

    def select(self, tokenizer: str):
        self.page.get_by_test_id("tokenizer-select").select_option(tokenizer)
        self.settled()

    def error_text(self) -> str:
        return self.page.get_by_test_id("error").text_content() or ""

    def inject_axe(self):
        # Served from our own origin, so the page's Content-Security-Policy allows it.
        self.page.add_script_tag(url=f"{self.site}/__test__/axe.min.js")


@pytest.fixture
def app(browser, site, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch = Watch(site)
    context.route(f"{site}/__test__/axe.min.js",
                  lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"))
    context.route(lambda url: not url.startswith(f"{site}/__test__/"), watch.route)
    page = context.new_page()
    page.on("console", lambda msg: watch.console.append(f"{msg.type}: {msg.text}"))
    page.on("pageerror", lambda error: watch.errors.append(str(error)))
    page.on("dialog", lambda dialog: (watch.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("worker", lambda worker: worker.on("console", lambda msg: watch.console.append(
        f"worker {msg.type}: {msg.text}")))
    yield Page(page, site, watch)
    context.close()
    if not request.node.get_closest_marker("noisy"):
        assert watch.console == [], watch.console
    assert watch.errors == [], watch.errors
    assert watch.dialogs == [], watch.dialogs
    assert watch.foreign == [], watch.foreign


def pytest_configure(config):
    config.addinivalue_line("markers", "noisy: the test expects console output (none do yet)")

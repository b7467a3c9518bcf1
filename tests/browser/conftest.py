"""Browser fixtures: dist/ served on a free port, a headless Chromium per xdist worker, a
watched page per test.

Every request to another origin is refused and recorded; every console message,
page error and dialog is recorded; a test fails if any of them happened and it
did not expect it.

Each test's page opens in one browser context that the whole session shares, as a
returning visitor's tab would: a Chromium profile on disk, where Python starts from the
memory snapshot that a first visit stored (web/lib/snapshot.js), in about a third of a
first visit's time, and Pyodide's WebAssembly and the page's scripts come compiled from
Chromium's code cache.
Between tests the context keeps only that snapshot (and the browser's HTTP cache, whose
files the test server lets it keep: dist/ does not change during a run): every other cache
is emptied, in the test's
own page before the test gets it, and a test that dropped the snapshot (?nosnapshot,
?nosw) has it stored again, so every test starts from the same state. A test that needs
a first visit, or that changes its context (routes, offline, service workers), is marked
`fresh_context` and gets a context of its own.
"""
from __future__ import annotations

import functools
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # build.py: the same server `npm start` runs

# Every host but this machine's is unknown to the browser, so a request to another origin
# fails at once without the tests intercepting requests (Playwright routes cost about a
# tenth of each page open: every request goes through the test process).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
READY = "html[data-engine=ready], html[data-engine=error]"
# How long an `expect` waits for what it expects (Playwright's default is 5 s). It only
# bounds how long a failing wait takes, so a generous bound costs a passing test nothing
# and keeps a busy machine from failing one that is merely slow.
expect.set_options(timeout=30_000)


def chromium_path() -> str | None:
    env = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None  # Playwright's own browser, if installed


BLANK = Path(__file__).resolve().parent / "blank.html"
# Served beside dist/ for the tests: axe-core (from our own origin, so the page's
# Content-Security-Policy allows it) and an empty page of the origin.
TEST_FILES = {"/__test__/axe.min.js": AXE, "/__test__/blank.html": BLANK}


class SiteHandler(build.Handler):
    """build.py's handler, but the browser may keep what it fetched for the session:
    `npm start` has every file revalidated on every load (a developer's next build must show),
    and dist/ does not change while the tests run (built once, before them). Fifty-odd
    revalidations a page load cost about 0.4 of its 2.1 core-s (measured)."""

    def translate_path(self, path):
        known = TEST_FILES.get(path.split("?", 1)[0])
        return str(known) if known else super().translate_path(path)

    def send_header(self, keyword, value):
        if keyword == "Cache-Control":
            value = "max-age=86400"
        super().send_header(keyword, value)


@pytest.fixture(scope="session")
def site():
    """dist/ (built here unless build.py test just built it), served on a free port."""
    if os.environ.get("SUBWORD_LAB_BUILT") != "1" or not (build.DIST / "index.html").exists():
        build.build()
    server = build.Server(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(build.DIST)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def playwright_driver():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """Chromium for the contexts a test makes for itself: each is a private window's,
    with nothing stored, as a first visit's."""
    chromium = playwright_driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
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

    def saw(self, request):
        """A request the page made (the context's "request" event): kept; one to another
        origin is a finding (the browser refuses it: CHROMIUM_ARGS)."""
        url = request.url
        self.requests.append(url)
        if not url.startswith((self.origin + "/", "data:", "blob:")):
            self.foreign.append(url)


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


SNAPSHOT_CACHE = "subword-lab-snapshot"  # web/lib/snapshot.js
# What Playwright itself writes to the console where it blocks the service worker: not the
# page's words, so not counted against it.
BLOCKED_WORKER = "Service Worker registration blocked by Playwright"
# Empty every cache of the origin but the snapshot's; whether the snapshot is there.
KEEP_ONLY_THE_SNAPSHOT = """async (keep) => {
  for (const name of await caches.keys()) if (name !== keep) await caches.delete(name);
  return caches.has(keep);
}"""


def new_context(browser, site, **options):
    """A context whose every request but the test server's own files is shown to the watch
    of the test running (`watched[0]`)."""
    return watch_context(browser.new_context(**{"viewport": {"width": 1280, "height": 900},
                                                **options}), site)


def watch_context(context, site):
    watched = [Watch(site)]
    context.on("request", lambda request: None if "/__test__/" in request.url
               else watched[0].saw(request))
    return context, watched


# A phone's context: a touch screen that lays the page out as a phone's browser does.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


# What a test can do to its tab that outlives a navigation (these, and installing Playwright's
# clock): a tab a test used so is closed after it instead of being handed to the next test.
LASTING = ("route", "route_from_har", "unroute", "unroute_all", "add_init_script", "expose_function",
           "expose_binding", "emulate_media", "set_extra_http_headers", "set_default_timeout",
           "set_default_navigation_timeout", "add_locator_handler", "on", "once")


class SharedContext:
    """A context the session shares: a returning visitor's, holding the stored snapshot, and
    its tab, which the tests take in turn (a new tab per test cost about 0.7 core-s more:
    a renderer process started and ended)."""

    def __init__(self, playwright, profile, site, **options):
        # A browser of its own with a profile on disk, as a returning visitor's: Chromium
        # keeps the code it compiled (Pyodide's WebAssembly, the scripts) only there, not
        # in a private window's context, and compiling it again cost some 1.2 core-s per
        # page (3.5-3.7 -> 2.6-2.8 core-s a load, measured). Service workers are blocked here: a
        # page a worker controls is served from its cache, out of the watch's sight
        # (test_offline.py checks the worker, in its own).
        self.site = site
        self.viewport = options.setdefault("viewport", {"width": 1280, "height": 900})
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), args=CHROMIUM_ARGS,
            service_workers="block", **options)
        self.context, self.watched = watch_context(context, site)
        self.tab = _marks_lasting(context.pages[0]) if context.pages else None
        self.listeners = []  # the fixtures' own listeners on the tab: (event, handler)

    def take(self):
        """The tab for the next test, reset: the one the last test used, at this context's
        viewport and without that test's listeners, unless the test closed it or did to it
        something that outlives a navigation (LASTING); else a new one."""
        tab = self.tab
        if tab is None or tab.is_closed() or tab.__dict__.get("lasting"):
            if tab is not None and not tab.is_closed():
                tab.close()
            tab = self.tab = _marks_lasting(self.context.new_page())
        else:
            for event, handler in self.listeners:
                tab.remove_listener(event, handler)
            if tab.viewport_size != self.viewport:
                tab.set_viewport_size(self.viewport)
        self.listeners = []
        self.reset(tab)
        return tab

    def listen(self, tab, event, handler):
        """A fixture's listener on the tab (not a test's: those mark the tab LASTING),
        removed before the tab goes to the next test."""
        type(tab).on(tab, event, handler)
        if tab is self.tab:
            self.listeners.append((event, handler))

    def reset(self, page):
        """In `page`, before the test sees it: empty every cache but the snapshot's; store
        the snapshot if it is not there. (The browser's HTTP cache stays: it holds this
        run's build, which does not change while the tests run.)"""
        page.goto(f"{self.site}/__test__/blank.html")
        if page.evaluate(KEEP_ONLY_THE_SNAPSHOT, SNAPSHOT_CACHE):
            return
        self.watched[0] = Watch(self.site)
        page.goto(f"{self.site}/")
        page.wait_for_selector("html[data-snapshot]", state="attached", timeout=120_000)
        state = page.evaluate("document.documentElement.dataset.snapshot")
        assert state == "stored", f"the first visit stored no snapshot: {state}"


def _marks_lasting(tab):
    for name in LASTING:  # each marks the tab as one not to hand on
        setattr(tab, name, functools.partial(_lasting, tab, getattr(type(tab), name)))
    # Playwright's clock, once installed, is the tab's clock on every later page too.
    clock = tab.clock
    clock.install = functools.partial(_lasting, tab, lambda _, *args, **kwargs:
                                      type(clock).install(clock, *args, **kwargs))
    return tab


def _lasting(tab, method, *args, **kwargs):
    tab.lasting = True
    return method(tab, *args, **kwargs)


@pytest.fixture(scope="session")
def shared_contexts(playwright_driver, site, tmp_path_factory):
    """`shared_contexts(phone)`: the session's desktop context, or its phone context (PHONE),
    each made on first use and kept, snapshot and all, for every later test."""
    made = {}

    def get(phone: bool = False) -> SharedContext:
        if phone not in made:
            profile = tmp_path_factory.mktemp("phone-profile" if phone else "profile")
            made[phone] = SharedContext(playwright_driver, profile, site, **(PHONE if phone else {}))
        return made[phone]
    yield get
    for shared in made.values():
        shared.context.close()


@pytest.fixture(scope="session")
def shared_context(shared_contexts):
    return shared_contexts(False)


@pytest.fixture
def sized_page(shared_contexts, site):
    """`sized_page(width, height, phone=False)`: a page of that size in a shared context
    (the phone's one if `phone`: touch screen, a phone's layout), reset as `app`'s is, so
    Python starts from the stored snapshot: the context's tab for the first page of a test,
    a new page for each other (a test that opens several should close the one before).
    Every request to another origin is refused, and fails the test, as are errors the page
    throws."""
    opened = []

    def open_page(width: int, height: int, phone: bool = False):
        shared = shared_contexts(phone)
        if any(kept and tab is shared.tab for tab, _, kept in opened):
            page = shared.context.new_page()
            shared.reset(page)
        else:
            page = shared.take()
        page.set_viewport_size({"width": width, "height": height})
        watch = shared.watched[0] = Watch(site)
        shared.listen(page, "pageerror", lambda error: watch.errors.append(str(error)))
        opened.append((page, watch, page is shared.tab))
        return page
    yield open_page
    for page, watch, kept in opened:
        if not page.is_closed() and not kept:
            page.close()
    for page, watch, kept in opened:
        assert watch.errors == [], watch.errors
        assert watch.foreign == [], watch.foreign


@pytest.fixture
def app(site, request):
    fresh = request.node.get_closest_marker("fresh_context")
    if fresh:  # the private-window browser is started only for the tests that need one
        context, watched = new_context(request.getfixturevalue("browser"), site)
        page = context.new_page()
        listen = page.on
    else:
        shared = request.getfixturevalue("shared_context")
        context, watched = shared.context, shared.watched
        page = shared.take()
        listen = functools.partial(shared.listen, page)
    watch = watched[0] = Watch(site)
    listen("console", lambda msg: msg.text != BLOCKED_WORKER and watch.console.append(
        f"{msg.type}: {msg.text}"))
    listen("pageerror", lambda error: watch.errors.append(str(error)))
    listen("dialog", lambda dialog: (watch.dialogs.append(dialog.message), dialog.dismiss()))
    listen("worker", lambda worker: worker.on("console", lambda msg: watch.console.append(
        f"worker {msg.type}: {msg.text}")))
    yield Page(page, site, watch)
    if fresh:
        context.close()
    if not request.node.get_closest_marker("noisy"):
        assert watch.console == [], watch.console
    assert watch.errors == [], watch.errors
    assert watch.dialogs == [], watch.dialogs
    assert watch.foreign == [], watch.foreign


def pytest_configure(config):
    config.addinivalue_line("markers", "noisy: the test expects console output (none do yet)")
    config.addinivalue_line("markers", "fresh_context: the test needs a first visit's browser "
                            "context of its own (no stored snapshot, its own routes)")

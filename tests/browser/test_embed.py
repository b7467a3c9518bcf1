"""Embedding (docs/automation.md, Embedding): <subword-lab> elements and an embed.html iframe on a
host page served from ANOTHER origin (a second server, another port), the copy-link and
copy-embed buttons of the app, and the messages for bad attributes.

Expected tokens come from the real `tokenizers` (bert-base-uncased) and from subword_lab's
webapi in CPython (the same code the page runs under Pyodide)."""
from __future__ import annotations

import functools
import http.server
import json
import threading
from pathlib import Path

import pytest
from tokenizers import Tokenizer

import build

from subword_lab.web import api as webapi
from shots import shot_path
import module_graph
from modules_seen import fetched_modules, view_modules


HEIGHT_SNIPPET = """
<script>
addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "subwordlab:height") return;
  for (const frame of document.querySelectorAll("iframe"))
    if (frame.contentWindow === event.source) frame.style.height = event.data.height + "px";
});
</script>"""

HOST = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host course page</title>
<script type="module" src="{site}/embed.js"></script>{snippet}</head>
<body>
<h1 id="host-title">A course page on another origin</h1>
<p id="host-text">Some prose of the course.</p>
<subword-lab id="a" view="tokenize" text="hugs" tokenizer="bert-base-uncased"></subword-lab>
<subword-lab id="b" view="train" algo="wordpiece" corpus="course-toy" vocab-size="12" step="3"></subword-lab>
<iframe id="frame" title="Subword Lab" style="width: 100%; border: 0; height: 50px"
        src="{site}/embed.html?view=encode&algo=wordpiece&corpus=course-toy&text=hugs"></iframe>
<p id="host-after">The end of the page.</p>
<script>
window.hostEvents = [];
for (const type of ["subwordlab:ready", "subwordlab:step", "subwordlab:error"])
  document.addEventListener(type, (e) => hostEvents.push({{type, id: e.target.id, detail: e.detail}}));
</script>
</body></html>"""

BAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bad attributes</title>
<script type="module" src="{site}/embed.js"></script></head>
<body>
<p id="host-text">The host's own text stays.</p>
<subword-lab id="view" view="spreadsheet"></subword-lab>
<subword-lab id="preset" view="tokenize" tokenizer="no-such-tokenizer"></subword-lab>
<subword-lab id="number" view="train" algo="bpe" corpus="course-toy" vocab-size="twelve"></subword-lab>
<subword-lab id="corpus" view="train" corpus="wikipedia"></subword-lab>
</body></html>"""

OPTIONS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Options</title>
<script type="module" src="{site}/embed.js"></script></head>
<body>
<subword-lab id="vi" view="tokenize" lang="vi" theme="dark" height="300" text="hugs" tokenizer="bert-base-uncased"></subword-lab>
<subword-lab id="auto" view="encode" algo="bpe" corpus="course-toy" text="hugs" autoplay></subword-lab>
<script>
window.steps = [];
document.getElementById("auto").addEventListener("subwordlab:step", (e) => steps.push(e.detail));
</script>
</body></html>"""


DEFAULT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Default widget</title>
<script type="module" src="{site}/embed.js"></script></head>
<body><subword-lab id="plain"></subword-lab></body></html>"""

# Every lazily imported view: the train widget draws its course run before Python.
VIEWS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Every view</title>
<script type="module" src="{site}/embed.js"></script></head>
<body>
<subword-lab id="train" view="train" algo="wordpiece" corpus="course-toy" step="1"></subword-lab>
<subword-lab id="encode" view="encode" algo="wordpiece" corpus="course-toy" text="hugs"></subword-lab>
<subword-lab id="pipeline" view="pipeline" tokenizer="gpt2" text="Tokenizers read pieces."></subword-lab>
<subword-lab id="compare" view="compare" text="hugs"></subword-lab>
</body></html>"""

CODE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Code panel</title>
<script type="module" src="{site}/embed.js"></script></head>
<body><subword-lab id="uni" view="encode" algo="unigram" corpus="course-toy" text="hugs"></subword-lab></body></html>"""


@pytest.fixture(scope="module")
def host(tmp_path_factory, site):
    """A second server on another port: the course page's origin."""
    folder = tmp_path_factory.mktemp("host")
    (folder / "host.html").write_text(HOST.format(site=site, snippet=HEIGHT_SNIPPET), encoding="utf-8")
    (folder / "bad.html").write_text(BAD.format(site=site), encoding="utf-8")
    (folder / "options.html").write_text(OPTIONS.format(site=site), encoding="utf-8")
    (folder / "default.html").write_text(DEFAULT.format(site=site), encoding="utf-8")
    (folder / "views.html").write_text(VIEWS.format(site=site), encoding="utf-8")
    (folder / "code.html").write_text(CODE.format(site=site), encoding="utf-8")
    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        # The browser asks a page's origin for its icon (out of Playwright's sight); a
        # course page's server has one, and a 404 would be the host's console error.
        if self.path == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


@pytest.fixture
def visit(browser, site, host):
    """Pages of a context that may talk to the two origins only (the browser knows no other
    host: conftest.CHROMIUM_ARGS; a request elsewhere is read from the context's events, not
    intercepted, which would cost every request a trip through this process); console
    output fails the test."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    problems, workers = [], []

    def saw(request):
        if not request.url.startswith((site + "/", host + "/", "blob:", "data:")):
            problems.append(f"foreign request {request.url}")

    context.on("request", saw)

    def open_page(url):
        page = context.new_page()
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        page.on("worker", lambda w: workers.append(w.url))
        page.goto(url)
        return page

    open_page.workers = workers
    open_page.context = context
    yield open_page
    context.close()
    assert problems == []


def ready(page, selector, timeout=120_000):
    page.wait_for_selector(f"{selector}[data-state=ready], {selector}[data-state=error]",
                           state="attached", timeout=timeout)
    assert page.get_attribute(selector, "data-state") == "ready", \
        page.locator(selector).inner_text()


def chips(locator):
    return locator.locator("[data-testid=token]").evaluate_all("els => els.map(e => e.textContent)")


def test_two_elements_and_an_iframe_on_another_origin(visit, host, bert_json, tmp_path):
    page = visit(f"{host}/host.html")
    frame = page.frame_locator("#frame")
    ready(page, "#a")
    ready(page, "#b")
    frame.locator("subword-lab[data-state=ready]").wait_for(state="attached", timeout=120_000)

    # tokenize: the tokens of the real bert-base-uncased, and their count
    bert = Tokenizer.from_file(str(bert_json))
    bert.no_padding()
    bert.no_truncation()
    a = page.locator("#a")
    assert chips(a) == bert.encode("hugs").tokens
    assert a.get_by_test_id("token-count").text_content() == str(len(bert.encode("hugs").ids))
    # the picker names the preset as presets.json does, not by its id
    manifest = json.loads((Path(__file__).resolve().parents[2] / "dist" / "presets" / "presets.json")
                          .read_text(encoding="utf-8"))
    label = next(p["label"] for p in manifest["presets"] if p["id"] == "bert-base-uncased")
    assert a.locator("[data-testid=embed-tokenizer] option:checked").inner_text() == label
    # a licence that asks for words where the model is used gets them in the picker too
    llama3 = next(p for p in manifest["presets"] if p["id"] == "llama3")
    assert llama3["notice"] == "Built with Meta Llama 3"
    option = a.locator("[data-testid=embed-tokenizer] option[value=llama3]").inner_text()
    assert option.startswith(llama3["label"]) and llama3["notice"] in option

    # train: the course's WordPiece toy run at step 3, as webapi.train computes it
    events = []
    webapi.train(json.dumps({"algo": "wordpiece", "corpus": "course-toy", "vocab_size": 12}),
                 lambda e: events.append(json.loads(e)))
    merges = [e["token"] for e in events if e["type"] == "merge"]
    b = page.locator("#b")
    assert b.locator("[data-testid=vocab-item]").evaluate_all("els => els.map(e => e.textContent)") == merges[:3]
    assert b.get_by_test_id("player-position").text_content().startswith("3 /")

    # encode in the iframe: the toy WordPiece result
    webapi.open_toy(json.dumps({"corpus": "course-toy", "algo": "wordpiece"}))
    result = json.loads(webapi.encode("course-toy-wordpiece", "hugs"))
    frame.get_by_test_id("player-end").click()
    frame.locator("[data-testid=result-token]").first.wait_for()
    shown = frame.locator("[data-testid=result-token]").evaluate_all("els => els.map(e => Number(e.dataset.tokenId))")
    assert shown == result["ids"]

    # one Python worker for the two elements (plus the training worker); the iframe has its own
    assert page.evaluate("window.SubwordLab.workers") == 1
    assert page.evaluate("window.SubwordLab.elements") == 2
    host_workers = [u for u in visit.workers if u.startswith(f"blob:{host}/")]
    assert 1 <= len(host_workers) <= 2, visit.workers

    # the iframe fits: its height is the frame's content height, reported by postMessage
    page.wait_for_function("""() => {
        const f = document.getElementById('frame');
        return parseFloat(f.style.height) > 200; }""", timeout=30_000)
    content = frame.locator("html").evaluate("e => Math.ceil(e.getBoundingClientRect().height)")
    page.wait_for_function("(h) => parseFloat(document.getElementById('frame').style.height) === h", arg=content)
    scroll = frame.locator("html").evaluate("e => e.scrollHeight - e.clientHeight")
    assert scroll <= 1

    # events for the host page
    events_seen = page.evaluate("hostEvents")
    assert {e["id"] for e in events_seen if e["type"] == "subwordlab:ready"} >= {"a", "b"}
    b.get_by_test_id("player-step-forward").click()
    page.wait_for_function("() => hostEvents.some(e => e.type === 'subwordlab:step' && e.id === 'b' && e.detail.step === 4)")
    step = [e for e in page.evaluate("hostEvents") if e["type"] == "subwordlab:step" and e["detail"]["step"] == 4][-1]
    assert step["detail"]["length"] >= 4 and merges[3] in step["detail"]["narration"]

    # attributes change after load: the widgets follow
    page.evaluate("document.getElementById('a').setAttribute('text', 'tokenization')")
    page.wait_for_function("() => document.getElementById('a').shadowRoot.querySelector('[data-testid=token]')?.textContent !== 'hugs' && document.getElementById('a').dataset.state === 'ready'", timeout=60_000)
    assert chips(a) == bert.encode("tokenization").tokens
    page.evaluate("document.getElementById('b').setAttribute('step', '1')")
    page.wait_for_function("() => document.getElementById('b').dataset.state === 'ready' && document.getElementById('b').dataset.step === '1'", timeout=60_000)
    assert b.locator("[data-testid=vocab-item]").evaluate_all("els => els.map(e => e.textContent)") == merges[:1]
    assert page.evaluate("window.SubwordLab.workers") == 1
    # the host's own content is untouched
    assert page.locator("#host-title").text_content() == "A course page on another origin"
    # (a full-page capture leaves the cross-origin frame blank; the viewport shows it)
    page.locator("#frame").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "embed-host.png"))


def embed_default_text() -> str:
    """The text a tokenize widget shows when given none (web/embed-tokenize.js)."""
    source = (Path(__file__).resolve().parents[2] / "web" / "embed-tokenize.js").read_text(encoding="utf-8")
    line = next(s for s in source.splitlines() if s.startswith("const DEFAULT_TEXT"))
    return json.loads(line.split("=", 1)[1].strip().rstrip(";"))


def test_bad_attributes_show_a_message(visit, host, gpt2_tiktoken):
    page = visit(f"{host}/bad.html")
    for name in ("view", "preset", "number", "corpus"):
        page.wait_for_selector(f"#{name}[data-state=error]", state="attached", timeout=60_000)
    texts = {name: page.locator(f"#{name}").get_by_test_id("embed-error").text_content()
             for name in ("view", "preset", "number", "corpus")}
    assert "spreadsheet" in texts["view"] and "tokenize" in texts["view"]
    assert "no-such-tokenizer" in texts["preset"] and "bert-base-uncased" in texts["preset"]
    assert "vocab-size" in texts["number"] and "twelve" in texts["number"]
    assert "wikipedia" in texts["corpus"] and "course-toy" in texts["corpus"]
    for name in texts:
        assert page.locator(f"#{name}").bounding_box()["height"] > 20  # never an empty box
    assert page.locator("#host-text").text_content() == "The host's own text stays."
    # fixing the attribute brings the widget up
    page.evaluate("document.getElementById('preset').setAttribute('tokenizer', 'gpt2')")
    ready(page, "#preset")
    shown = page.locator("#preset [data-testid=token]").evaluate_all("els => els.map(e => Number(e.dataset.tokenId))")
    webapi.open_path("embed-gpt2", str(gpt2_tiktoken))
    assert shown == json.loads(webapi.encode("embed-gpt2", embed_default_text()))["ids"]


def test_language_theme_height_and_autoplay(visit, host, site):
    page = visit(f"{host}/options.html")
    ready(page, "#vi")
    ready(page, "#auto")
    vi = page.locator("#vi")
    label = vi.locator(".sl-bar label").text_content()
    wanted = page.evaluate("async (url) => (await import(url)).t('etok.tokenizer', {}, 'vi')", f"{site}/i18n/index.js")
    english = page.evaluate("async (url) => (await import(url)).t('etok.tokenizer', {}, 'en')", f"{site}/i18n/index.js")
    assert label == wanted != english
    assert vi.evaluate("e => getComputedStyle(e).colorScheme") == "dark"
    assert vi.bounding_box()["height"] == 300
    # autoplay: the player runs to the end by itself, telling the host each step
    page.wait_for_function("() => steps.length && steps[steps.length - 1].step === steps[steps.length - 1].length",
                           timeout=30_000)
    assert [d["step"] for d in page.evaluate("steps")][-1] > 0


def test_copy_link_restores_the_state(visit, site):
    page = visit(f"{site}/?view=train&algo=wordpiece&corpus=course-toy&vocab_size=12")
    page.wait_for_selector("[data-testid=train-status]:has-text('Done')", timeout=120_000)
    page.evaluate("window.subwordLab.player().seek(2)")
    page.get_by_test_id("copy-link").click()
    field = page.get_by_test_id("share-text")
    page.wait_for_function("() => document.querySelector('[data-testid=share-text]').value.includes('step=2')")
    link = field.input_value()
    # Copied, or (a browser that refuses the clipboard) selected for Ctrl+C: either way said.
    assert page.get_by_test_id("share-status").text_content() in (
        "Link copied.", "Your browser did not allow copying: the text is selected, press Ctrl+C (⌘C) to copy it.")
    assert link.startswith(site) and "view=train" in link and "algo=wordpiece" in link
    vocab = page.locator("[data-testid=vocab-item]").evaluate_all("els => els.map(e => e.textContent)")

    again = visit(link)
    again.wait_for_selector("[data-testid=train-status]:has-text('Done')", timeout=120_000)
    assert again.get_by_test_id("player-position").text_content().startswith("2 /")
    assert again.locator("[data-testid=vocab-item]").evaluate_all("els => els.map(e => e.textContent)") == vocab

    page.get_by_test_id("copy-embed").click()
    page.wait_for_function("() => document.querySelector('[data-testid=share-text]').value.includes('<subword-lab')")
    code = field.input_value()
    assert f'<script type="module" src="{site}/embed.js"></script>' in code
    for part in ('view="train"', 'algo="wordpiece"', 'corpus="course-toy"', 'vocab-size="12"', 'step="2"'):
        assert part in code


def test_copy_link_of_the_tokenize_view(visit, site):
    page = visit(f"{site}/?tokenizer=bert-base-uncased")
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    page.get_by_test_id("text-input").fill("Embedding works")
    page.evaluate("async () => await window.subwordLab.settled()")
    page.get_by_test_id("copy-link").click()
    page.wait_for_function("() => document.querySelector('[data-testid=share-text]').value.includes('Embedding')")
    link = page.get_by_test_id("share-text").input_value()
    again = visit(link)
    again.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    again.evaluate("async () => await window.subwordLab.settled()")
    assert again.get_by_test_id("text-input").input_value() == "Embedding works"
    assert again.get_by_test_id("tokenizer-select").input_value() == "bert-base-uncased"


def test_course_page(visit, site):
    page = visit(f"{site}/examples/course.html")
    page.wait_for_function("() => [...document.querySelectorAll('subword-lab')].every(e => e.dataset.state === 'ready')",
                           timeout=180_000)
    assert page.evaluate("window.SubwordLab.workers") == 1
    views = page.evaluate("[...document.querySelectorAll('subword-lab')].map(e => e.dataset.view)")
    assert set(views) >= {"tokenize", "pipeline", "train", "encode", "compare"}
    page.screenshot(path=shot_path("screenshot-embed.png"), full_page=True)


def serve_folder(folder, make_server):
    """Serve `folder` on a free port in a thread; returns (url, server)."""
    server = make_server(folder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


@pytest.fixture
def broken_site(tmp_path):
    """start(missing): a copy of dist/ (links to its files) with one file missing, as a
    host that forgot to upload it, served with the site's own server; its URL."""
    servers = []

    def start(missing):
        root = tmp_path / "site"
        for path in build.DIST.rglob("*"):
            relative = path.relative_to(build.DIST)
            if path.is_dir() or relative.as_posix() in (missing, missing + ".gz"):
                continue  # the compressed copy too, or the server would send that
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).symlink_to(path)
        url, server = serve_folder(root, lambda folder: build.make_server(folder, 0))
        servers.append(server)
        return url

    start.servers = servers
    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("missing", ["pyodide/pyodide.asm.wasm", "presets/presets.json"])
def test_a_widget_that_cannot_start_says_so_and_links_the_full_page(browser, broken_site, tmp_path,
                                                                    missing):
    """A host that lost a file of the site: the widget shows one short message where it
    stands, with a link to the full page, and the host's own content is untouched."""
    site = broken_site(missing)
    assert not (tmp_path / "site" / missing).exists()
    folder = tmp_path / "host"
    folder.mkdir()
    (folder / "host.html").write_text(HOST.format(site=site, snippet=""), encoding="utf-8")
    host, server = serve_folder(folder, lambda f: http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(f))))
    broken_site.servers.append(server)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{host}/host.html")
        page.wait_for_selector("#a[data-state=error]", state="attached", timeout=120_000)
        error = page.locator("#a").get_by_test_id("embed-error")
        assert error.get_attribute("role") == "alert"
        assert error.inner_text().startswith("Subword Lab could not start")
        assert error.get_by_role("link").get_attribute("href") == f"{site}/index.html"
        assert page.locator("#host-text").inner_text() == "Some prose of the course."
        events = page.evaluate("hostEvents")
        assert any(e["type"] == "subwordlab:error" and e["id"] == "a" for e in events)
        page.screenshot(path=shot_path(f"embed-cannot-start-{Path(missing).name}.png"))
    finally:
        context.close()


def test_the_full_page_says_when_python_cannot_start(browser, broken_site):
    """The same broken host, the full page: html[data-engine=error], the reason in the
    status line, subwordLab.ready rejects, and nothing uncaught reaches the console."""
    site = broken_site("pyodide/pyodide.asm.wasm")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems = []
    try:
        page = context.new_page()
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
        page.goto(f"{site}/index.html")
        page.wait_for_selector("html[data-engine=error]", state="attached", timeout=120_000)
        message = page.locator("#engine-error").inner_text()
        assert "pyodide.asm.wasm" in message and "did not load" in message
        assert page.evaluate("window.subwordLab.ready.then(() => 'ready', () => 'rejected')") == "rejected"
        assert problems == []
    finally:
        context.close()




def test_default_widget_shows_its_tokens_before_python(visit, host, gpt2_tiktoken):
    """The tokenize widget's default text in GPT-2 is drawn from the build's precomputed
    answer while Python is held back (its WebAssembly never arrives), on another origin."""
    held = []
    visit.context.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    # The worker asks for the runtime once it has looked for a stored memory snapshot
    # (web/lib/snapshot.js), which may come after the chips: wait for that request.
    with visit.context.expect_event("request", lambda r: r.url.endswith("pyodide.asm.wasm"),
                                    timeout=30_000):
        page = visit(f"{host}/default.html")
        chips = page.locator("#plain [data-testid=token]")
        chips.first.wait_for(timeout=30_000)
    page.evaluate("0")  # a round trip: the route handler has run
    assert held, "the test did not hold Python back"
    assert page.get_attribute("#plain", "data-state") == "loading"
    text = page.locator("#plain [data-testid=embed-text]").input_value()
    ids = [int(chip.get_attribute("data-token-id")) for chip in chips.all()]
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str
    oracle = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                               mergeable_ranks=load_tiktoken_bpe(str(gpt2_tiktoken)),
                               special_tokens={ENDOFTEXT: 50256})
    assert ids == oracle.encode(text)
    assert page.locator("#plain [data-testid=token-count]").text_content() == str(len(ids))
    for route in held:
        route.continue_()


def test_views_arrive_in_one_round_trip_and_leave_the_host_head_alone(visit, host, site):
    """build.py writes each view's whole module list into lib/view-modules.js, so a widget asks for
    all of them at once: every module the browser fetched for the four views is on that
    list (a missed import form would leave a module to a later round trip). The train
    widget draws its course run from the build's answers while Python is held back, and
    no widget adds a stylesheet to the host page's head (each frame links its own)."""
    held = []
    visit.context.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    with visit.context.expect_event("request", lambda r: r.url.endswith("pyodide.asm.wasm"),
                                    timeout=30_000):
        page = visit(f"{host}/views.html")
        page.locator("#train [data-testid=vocab-item]").first.wait_for(timeout=30_000)
        assert page.get_attribute("#train", "data-state") == "loading"
    page.evaluate("0")  # a round trip: the route handler has run
    assert held, "the test did not hold Python back"
    listed = view_modules()
    assert set(listed) == {"train", "encode", "pipeline", "compare", "chat"}
    # embed.js's own static graph arrives before any widget starts.
    wanted = set(module_graph.closure(build.DIST / "embed.js", build.DIST))
    wanted |= {rel for modules in listed.values() for rel in modules}
    for route in held:
        route.continue_()
    for name in ("train", "encode", "pipeline", "compare"):
        ready(page, f"#{name}")
    views = fetched_modules(page, site)
    # What a view imports with import() when asked (an algorithm's renderer) is not listed,
    # nor the worker's own graph.
    lazily = {rel for entry in ("views/train/unigram.js", "views/encode/wordpiece.js", "worker.js")
              for rel in module_graph.closure(build.DIST / entry, build.DIST)}
    assert views - lazily <= wanted, sorted(views - lazily - wanted)
    assert page.evaluate("document.head.querySelectorAll('link[rel=stylesheet]').length") == 0


def unigram_reference_steps(text):
    """The Code panel's step at each step of the Unigram encode view's first piece, from
    the reference (subword_lab.reference.unigram) run here: the lattice's edge and best
    steps, then one backtrack step per token of the path (the path's step), then the
    n best (no reference line)."""
    from subword_lab.reference import steps, unigram
    from subword_lab.web.registry import REGISTRY

    webapi.open_toy(json.dumps({"corpus": "course-toy", "algo": "unigram"}))
    tokenizer = REGISTRY.get("course-toy-unigram")
    events = []
    tokenizer.encode(text, on_event=events.append)
    first = next(e["text"] for e in events if e["type"] == "model_piece")
    recorder = steps.Steps()
    unigram.encode(tokenizer.model, first, on_event=recorder)
    pairs = list(zip(recorder.events, recorder.steps))
    lattice = [s for e, s in pairs if e["type"] in ("unigram.edge", "unigram.best")]
    path_event, path_step = next((e, s) for e, s in pairs if e["type"] == "unigram.path")
    return lattice + [path_step] * len(path_event["tokens"]) + [None]


def test_the_code_panel_steps_in_an_embed(visit, host):
    """A <subword-lab view="encode"> on a course page shows the Code panel too: at each
    step of the Unigram lattice, the reference's line and variables for that step."""
    expected = unigram_reference_steps("hugs")
    page = visit(f"{host}/code.html")
    ready(page, "#uni")
    widget = page.locator("#uni")
    page.wait_for_selector("#uni [data-testid=code-panel][data-follows=reference]", timeout=120_000)
    position = widget.get_by_test_id("player-position")
    assert position.text_content().strip() == f"0 / {len(expected)}"
    for k, step in enumerate(expected, start=1):
        widget.get_by_test_id("player-step-forward").click()
        page.wait_for_function(
            f"() => document.querySelector('#uni').shadowRoot.querySelector("
            f"'[data-testid=player-position]').textContent.trim() === '{k} / {len(expected)}'")
        seen = widget.locator("[data-testid=code-panel]").evaluate("""(panel) => {
          const line = panel.querySelector('[data-testid=code-line][data-current=true]');
          const vars = [...panel.querySelectorAll('[data-testid=code-var]')]
            .map((v) => [v.dataset.name, JSON.parse(v.dataset.value)]);
          return {line: line ? Number(line.dataset.line) : null, vars: Object.fromEntries(vars)};
        }""")
        if step is None:
            assert seen == {"line": None, "vars": {}}, (k, seen)
        else:
            assert seen == {"line": step["focus"], "vars": step["vars"]}, (k, seen, step)
        if k == 3:
            widget.screenshot(path=shot_path("embed-code-unigram.png"))

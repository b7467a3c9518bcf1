"""The page's start-up and typing speed, in one headless Chromium run.

Measures, with a fresh browser context (empty cache) for every first visit:
  - navigation to `ready` (Python up, Subword Lab installed, the first tokens drawn
    come after) against a bare page that only starts the same Pyodide in the
    same kind of worker: the ratio is what Subword Lab adds;
  - the bytes the server sent for each (counted at the server, so the worker's and
    the service worker's requests count too, compressed as served), as a ratio, and the
    CPU the browser's processes used until ready (steadier than the time on a busy machine);
  - when the default text's tokens were first on screen, and the layout shift
    (PerformanceObserver "layout-shift", the CLS sum) until a second after ready;
  - a second visit in the same browser context (HTTP cache, service worker, the
    memory snapshot the first visit stored): its ready time and the bytes it fetched
    again, against a second visit of the bare page (HTTP cache) in the same run; and
    the snapshot's size and the time to make it (before ready) and to store it (idle);
  - the time until the interface is drawn (first contentful paint) and wired;
  - a key pressed in a 10 KB text until its tokens are painted, for each preset, with
    the caret at the end, in the middle and at the start of the text; and the longest
    main-thread task (a "longtask" entry, over 50 ms) seen while typing;
  - the whole-text count of botchan.txt (278 KB): from setting the text until
    `token-count` is complete (counted in slices in the worker), against one
    whole-text encode of the same text in CPython (the ratio is Pyodide's cost
    plus the slicing's).
Absolute times vary with the machine; the ratio is the figure to compare.
BENCH_START_ONLY=1 measures only the start (no keypresses, no whole-book count).

    python3 build.py bench            (or: .venv/bin/python bench/bench_page.py)
    BENCH_PARTS=keys .venv/bin/python bench/bench_page.py    (only the keypress part;
                                      parts: load, keys, count; all by default)
    BENCH_BASE=/other/dist ...        (another build, say main's, measured in the same run:
                                      its starts interleaved with this one's and the bare
                                      page's, its keypresses preset by preset in turn with
                                      this one's: before/after figures from one run)
A first visit's steps (web/worker.js's "worker:*" marks, the ends of the worker's
downloads, the preset file on the page, the first tokens Python drew) are printed as
medians on the page's timeline.
"""
from __future__ import annotations

import functools
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
import assets
import build

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
KEYS = int(os.environ.get("BENCH_KEYS", "15"))  # per caret position
PARTS = set(os.environ.get("BENCH_PARTS", "load,keys,count").split(","))
BASE = os.environ.get("BENCH_BASE")
KEY_PRESETS = ("gpt2", "bert-base-uncased", "botchan-unigram", "o200k-base", "mistral-v3")
CARETS = ("end", "middle", "start")
READY = "html[data-engine=ready]"
START_ONLY = os.environ.get("BENCH_START_ONLY") == "1"
if START_ONLY:
    PARTS = {"load"}

# Before the page's scripts: the layout shifts (CLS) and the first frame with token chips.
PROBE = """
(() => {
  const box = window.__start = { cls: 0, shifts: [], tokens: null };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.hadRecentInput) continue;
        box.cls += e.value;
        const moved = (e.sources || []).map((x) => x.node && x.node.nodeType === 1
          ? x.node.tagName.toLowerCase() + (x.node.id ? '#' + x.node.id : '') + (x.node.className ? '.' + String(x.node.className).split(' ')[0] : '')
          : x.node ? x.node.nodeName : '?');
        box.shifts.push([Math.round(e.startTime), Number(e.value.toFixed(4)), moved.join(' ')]);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  } catch {}
  const tick = () => {
    const chip = document.querySelector('#tokens [data-testid=token]');
    if (chip && chip.getBoundingClientRect().width > 0) { box.tokens = performance.now(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""


class CountingHandler(build.Handler):
    """build.py's handler, counting every byte it writes (headers and bodies)."""

    sent = 0
    lock = threading.Lock()

    def setup(self):
        super().setup()
        raw = self.wfile
        handler = type(self)

        class Writer:
            def write(self, data):
                with handler.lock:
                    handler.sent += len(data)
                return raw.write(data)

            def __getattr__(self, name):
                return getattr(raw, name)

        self.wfile = Writer()


def counting_server(directory=build.DIST):
    handler = functools.partial(CountingHandler, directory=str(directory))
    return build.Server(("127.0.0.1", 0), handler)


def sent_since(start):
    return CountingHandler.sent - start


def chromium_path():
    return os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE") or build.shutil.which("chromium")


def browser_cpu() -> float:
    """Core-seconds this process's descendants (the browser's processes) have run: less
    noisy than the ready time on a busy machine, and what a load takes from the others."""
    children: dict[int, list[int]] = {}
    used: dict[int, int] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # a process that just ended
        children.setdefault(int(fields[1]), []).append(int(entry))
        used[int(entry)] = sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
    total, stack = 0, list(children.get(os.getpid(), []))
    while stack:
        pid = stack.pop()
        total += used.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total / os.sysconf("SC_CLK_TCK")


def visit(page, url, mark):
    """Open `url` in `page`; times, layout shift, bytes sent and the browser's CPU
    until it settled."""
    before, cpu = CountingHandler.sent, browser_cpu()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    cpu = browser_cpu() - cpu
    if mark == "subwordlab:ready":
        page.evaluate("async () => await window.subwordLab.settled()")
    page.wait_for_timeout(1000)  # a layout shift just after ready still counts
    if mark == "subwordlab:ready" and page.evaluate("window.subwordLab.started().start") == "fresh":
        # A fresh start stores its memory snapshot once the page is idle; the next visit needs it.
        page.wait_for_selector("html[data-snapshot]", state="attached", timeout=180_000)
    # A service worker that caches the site finishes its install before it counts as ready.
    page.evaluate("""async () => { if (navigator.serviceWorker && navigator.serviceWorker.controller === null
        && (await navigator.serviceWorker.getRegistration())) await navigator.serviceWorker.ready; }""")
    time.sleep(0.3)
    timings = page.evaluate("""(mark) => {
        const ready = performance.getEntriesByName(mark)[0].startTime;
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        const ui = performance.getEntriesByName('subwordlab:interface')[0];
        const s = window.__start;
        return {ready, fcp: fcp ? fcp.startTime : null, interface: ui ? ui.startTime : null,
                tokens: s.tokens, cls: s.cls, shifts: s.shifts};
    }""", mark)
    timings["bytes"] = sent_since(before)
    timings["cpu"] = cpu
    if mark == "subwordlab:ready":
        timings["started"] = page.evaluate("window.subwordLab.started()")
        timings["steps"] = start_steps(page)
    return timings


# The worker's marks (web/worker.js: "worker:<step>") and the ends of its downloads, moved
# onto the page's timeline (ms since navigation), with the page's own steps.
WORKER_STEPS = """() => ({ origin: performance.timeOrigin,
    marks: performance.getEntriesByType('mark').map((e) => [e.name, e.startTime]),
    fetched: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime, e.responseEnd]) })"""
PAGE_STEPS = """() => ({ origin: performance.timeOrigin,
    painted: window.subwordLab.state().paintedAt,
    fetched: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime, e.responseEnd]) })"""


def start_steps(page):
    """{step: ms since navigation} for one start, or {} where the worker is gone."""
    here = page.evaluate(PAGE_STEPS)
    steps = {"python tokens painted": here["painted"]}
    for name, _, end in here["fetched"]:
        if "/presets/" in name and not name.endswith(".json"):
            steps["page: preset file fetched"] = end
        if name.endswith("/worker.js"):
            steps["page: worker.js fetched"] = end
    for worker in page.workers:
        try:
            there = worker.evaluate(WORKER_STEPS)
        except Exception:  # a service worker, or a worker that ended
            continue
        if not any(name.startswith("worker:") for name, _ in there["marks"]):
            continue
        shift = there["origin"] - here["origin"]
        for name, at in there["marks"]:
            steps[name] = at + shift
        for name, start, end in there["fetched"]:
            file = name.rsplit("/", 1)[-1]
            if file.endswith((".wasm", ".zip", ".whl", "pyodide.asm.mjs", "pyodide-lock.json")):
                steps[f"fetched {file}"] = end + shift
    return steps


def load_once(browser, url, mark, visits=1):
    """A first visit with an empty cache (and `visits - 1` more in the same context)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(PROBE)
    runs = []
    for _ in range(visits):
        page = context.new_page()
        runs.append(visit(page, url, mark))
        page.close()
    context.close()
    return runs


# Waits, in the page, until `tokens` shows the tokens of a text of length n (the contract of
# docs/automation.md), then for the paint after that; returns when it was painted. Waiting
# with window.subwordLab.settled() instead made the page copy its whole state for the
# answer, and Playwright carry it over, in a task before that paint (100 ms and more on
# gpt2's 2,400 tokens), which was counted in both figures.
PAINTED = """(n) => new Promise((done) => {
    const tokens = document.querySelector('[data-testid=tokens]');
    const drawn = () => tokens.dataset.textLength === String(n) && tokens.dataset.status === 'done';
    const after = () => requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() =>
        setTimeout(() => done(window.subwordLab.state().paintedAt), 0)), 0));
    if (drawn()) return after();
    const watch = new MutationObserver(() => { if (drawn()) { watch.disconnect(); after(); } });
    watch.observe(tokens, { attributes: true, attributeFilter: ['data-text-length', 'data-status'] });
})"""


def keypress_times(browser, url, text, preset):
    """Key → painted tokens (ms) for KEYS keys at each caret position, and the longest task."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/?tokenizer={preset}")
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    page.evaluate("async (t) => { await window.subwordLab.setText(t); }", text)
    page.evaluate("""() => {
        const box = document.querySelector('[data-testid=text-input]');
        box.addEventListener('keydown', (e) => { window.__keyAt = e.timeStamp; });
        window.__longest = 0;
        new PerformanceObserver((list) => {
            for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
        }).observe({ type: 'longtask' });
        box.focus();
    }""")
    times = {}
    length = page.evaluate("document.querySelector('[data-testid=text-input]').value.length")
    for caret in CARETS:
        at = {"end": len(text), "middle": len(text) // 2, "start": 0}[caret]
        page.evaluate("(p) => document.querySelector('[data-testid=text-input]').setSelectionRange(p, p)", at)
        times[caret] = []
        for i in range(KEYS):
            page.keyboard.type("ab"[i % 2])
            length += 1
            painted = page.evaluate(PAINTED, length)
            key_at = page.evaluate("window.__keyAt")
            times[caret].append(painted - key_at)
    longest = page.evaluate("window.__longest")
    tokens = page.evaluate("window.subwordLab.state().ids.length")
    context.close()
    return times, tokens, longest


def book_count_time(browser, url, text, preset, on_ready=None, chips=None):
    """(ms, count): `text` set on a fresh page until its whole count is complete;
    on_ready(page), if given, runs once the page is ready, just before. `chips`, a list if
    given, gets the ms until the chips of the text's head were drawn (setText resolved)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/?tokenizer={preset}")
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    if on_ready is not None:
        on_ready(page)
    start = page.evaluate("""(t) => {
        const at = performance.now();
        window.chipsDrawnAt = null;
        Promise.resolve(window.subwordLab.setText(t)).then(() => { window.chipsDrawnAt = performance.now(); });
        return at; }""", text)
    # Complete for this text: its characters are shown (the default text was complete before).
    page.wait_for_function("""(n) => {
        const chars = document.querySelector('[data-testid=char-count]');
        return chars && chars.dataset.count === String(n)
          && document.querySelector('[data-testid=token-count][data-complete=true]'); }""",
                           arg=len(text), timeout=600_000, polling="raf")
    end = page.evaluate("performance.now()")
    count = int(page.get_by_test_id("token-count").get_attribute("data-count"))
    if chips is not None:
        page.wait_for_function("() => window.chipsDrawnAt !== null", timeout=600_000)
        chips.append(page.evaluate("window.chipsDrawnAt") - start)
    context.close()
    return end - start, count


def cpython_count_time(name, text):
    import time
    import subword_lab
    tokenizer = subword_lab.load(str(assets.fetch([name], quiet=True)[name]))
    for method in ("no_truncation", "no_padding"):
        getattr(tokenizer, method, lambda: None)()
    start = time.perf_counter()
    n = len(tokenizer.encode(text).ids)
    return (time.perf_counter() - start) * 1000, n


BOOK_FILES = {"gpt2": "gpt2.tiktoken", "bert-base-uncased": "bert-base-uncased.tokenizer.json",
              "botchan-unigram": "botchan_en_unigram_1000.model"}


def start_report(ours, bare):
    """The start figures as ratios to the bare Pyodide page of the same run, printed."""
    med = statistics.median
    first = [runs[0] for runs in ours]
    second = [runs[1] for runs in ours if len(runs) > 1]
    bare_second = [runs[1] for runs in bare if len(runs) > 1]
    bare_ready = med(r[0]["ready"] for r in bare)
    bare_bytes = med(r[0]["bytes"] for r in bare)
    row = {
        "bare_ready_ms": bare_ready, "bare_bytes": bare_bytes,
        "ours_ready_ms": med(t["ready"] for t in first),
        "tokens_visible_ms": med(t["tokens"] for t in first if t["tokens"] is not None)
        if any(t["tokens"] is not None for t in first) else None,
        "ours_bytes": med(t["bytes"] for t in first),
        "bare_cpu": med(r[0]["cpu"] for r in bare), "ours_cpu": med(t["cpu"] for t in first),
        "cls": max(t["cls"] for t in first), "shifts": [t["shifts"] for t in first],
        "first_paint_ms": med(t["fcp"] for t in first),
        "interface_ms": med(t["interface"] for t in first),
    }
    steps = [t.get("steps") or {} for t in first]
    names = sorted({n for s in steps for n in s if s[n] is not None},
                   key=lambda n: med(s[n] for s in steps if s.get(n) is not None))
    row["steps_ms"] = {n: med(s[n] for s in steps if s.get(n) is not None) for n in names}
    row["ratio"] = row["ours_ready_ms"] / bare_ready
    row["bytes_ratio"] = row["ours_bytes"] / bare_bytes
    if second:
        row["second_ready_ms"] = med(t["ready"] for t in second)
        row["second_bytes"] = med(t["bytes"] for t in second)
        row["second_ratio"] = row["second_ready_ms"] / bare_ready
        row["second_starts"] = [t["started"]["start"] for t in second]
    if bare_second:
        row["bare_second_ready_ms"] = med(t["ready"] for t in bare_second)
        row["bare_second_bytes"] = med(t["bytes"] for t in bare_second)
    if second and bare_second:
        row["second_ratio_to_bare_second"] = row["second_ready_ms"] / row["bare_second_ready_ms"]
    made = [t["started"]["snapshot"] for t in first if (t["started"]["snapshot"] or {}).get("state") == "stored"]
    if made:
        row["snapshot"] = {k: med(m[k] for m in made) for k in ("size", "stored", "makeMs", "storeMs")}
        row["snapshot"]["make_ratio_to_bare_ready"] = row["snapshot"]["makeMs"] / bare_ready
    print(f"\nSubword Lab page, headless Chromium, median of {len(first)} cold loads")
    print(f"{'measure':<50}{'value':>12}{'÷ bare':>9}")
    print(f"{'bare Pyodide page: navigation to ready (ms)':<50}{bare_ready:>12.0f}{1:>9.2f}")
    print(f"{'bare Pyodide page: bytes sent':<50}{bare_bytes:>12,.0f}{1:>9.2f}")
    print(f"{'Subword Lab: navigation to ready (ms)':<50}{row['ours_ready_ms']:>12.0f}{row['ratio']:>9.2f}")
    print(f"{'Subword Lab: first visit, bytes sent':<50}{row['ours_bytes']:>12,.0f}{row['bytes_ratio']:>9.2f}")
    print(f"{'bare Pyodide page: browser CPU to ready (core-s)':<50}{row['bare_cpu']:>12.2f}{1:>9.2f}")
    print(f"{'Subword Lab: browser CPU to ready (core-s)':<50}{row['ours_cpu']:>12.2f}"
          f"{row['ours_cpu'] / row['bare_cpu']:>9.2f}")
    if row["tokens_visible_ms"] is not None:
        label = "Subword Lab: default tokens on screen (ms)"
        print(f"{label:<50}{row['tokens_visible_ms']:>12.0f}{row['tokens_visible_ms'] / bare_ready:>9.2f}")
    if second:
        print(f"{'Subword Lab: second visit, ready (ms)':<50}{row['second_ready_ms']:>12.0f}{row['second_ratio']:>9.2f}")
        print(f"{'Subword Lab: second visit, bytes sent':<50}{row['second_bytes']:>12,.0f}"
              f"{row['second_bytes'] / bare_bytes:>9.2f}")
    if bare_second:
        print(f"{'bare Pyodide page: second visit, ready (ms)':<50}{row['bare_second_ready_ms']:>12.0f}"
              f"{row['bare_second_ready_ms'] / bare_ready:>9.2f}")
    if second and bare_second:
        print(f"{'second visit: Subword Lab ÷ bare second visit':<50}{'':>12}"
              f"{row['second_ratio_to_bare_second']:>9.2f}   (started: {', '.join(row['second_starts'])})")
    if made:
        snap = row["snapshot"]
        print(f"{'memory snapshot: made before ready (ms)':<50}{snap['makeMs']:>12.0f}"
              f"{snap['make_ratio_to_bare_ready']:>9.2f}")
        print(f"{'memory snapshot: packed + Cache API, when idle (ms)':<50}{snap['storeMs']:>12.0f}")
        print(f"{'memory snapshot: bytes (pages kept)':<50}{snap['size']:>12,.0f}   ({snap['stored']:,.0f} kept)")
    print(f"{'Subword Lab: layout shift (CLS, worst load)':<50}{row['cls']:>12.3f}")
    print(f"{'Subword Lab: first contentful paint (ms)':<50}{row['first_paint_ms']:>12.0f}")
    print(f"{'Subword Lab: interface drawn and wired (ms)':<50}{row['interface_ms']:>12.0f}")
    print("first visit, step by step (median ms since navigation; worker:* are web/worker.js's marks)")
    for name, at in row["steps_ms"].items():
        print(f"  {name:<48}{at:>12.0f}")
    return row


def main() -> int:
    if not (build.DIST / "bench" / "bare.html").exists():
        build.build()
    server = counting_server()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    base_url = None
    if BASE:
        base_server = counting_server(Path(BASE))
        threading.Thread(target=base_server.serve_forever, daemon=True).start()
        base_url = f"http://127.0.0.1:{base_server.server_address[1]}"
    text = assets.fetch(["botchan.txt"], quiet=True)["botchan.txt"].read_text(encoding="utf-8")
    book = text.replace("\r\n", "\n")
    text = text[:10_000]
    results = {"rounds": ROUNDS, "keys": KEYS}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=ARGS)
        ours, bare, base = [], [], []
        for round_ in range(ROUNDS if "load" in PARTS else 0):  # interleaved, so drift hits all alike
            bare.append(load_once(browser, f"{url}/bench/bare.html", "bare:ready", visits=2))
            builds = [(ours, url)] + ([(base, base_url)] if base_url else [])
            for runs, at in builds[::-1] if round_ % 2 else builds:  # each goes first in turn
                runs.append(load_once(browser, f"{at}/", "subwordlab:ready", visits=2))
        keys, base_keys = {}, {}
        for preset in (KEY_PRESETS if "keys" in PARTS else ()):
            if base_url:
                base_keys[preset] = keypress_times(browser, base_url, text, preset)
            keys[preset] = keypress_times(browser, url, text, preset)
        counts = {preset: book_count_time(browser, url, book, preset)
                  for preset in (BOOK_FILES if "count" in PARTS else ())}
        browser.close()
    server.shutdown()
    if base:
        print(f"\nbase: {BASE}")
        results["base"] = BASE
        results["base_start"] = start_report(base, bare)
        print("\nthis build:")
    if ours:
        results["start"] = start_report(ours, bare)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    if START_ONLY:
        (out / "page_start.json").write_text(json.dumps(results, indent=1))
        return 0
    sys.path.insert(0, str(ROOT / "py"))
    cpython = {preset: cpython_count_time(name, book) for preset, name in BOOK_FILES.items()
               if preset in counts}

    med = statistics.median
    print(f"\n{KEYS} keys per caret position and preset")
    def keypress_rows(measured):
        return {p: {"median": med(sum(v.values(), [])), "max": max(sum(v.values(), [])), "tokens": n,
                    "longest_task": longest, **{f"median_{c}": med(v[c]) for c in CARETS}}
                for p, (v, n, longest) in measured.items()}

    results["keypress_ms"] = keypress_rows(keys)
    if base_keys:
        results["base"] = BASE
        results["base_keypress_ms"] = keypress_rows(base_keys)
    for name, rows in (("base: ", results.get("base_keypress_ms", {})), ("", results["keypress_ms"])):
        for preset, row in rows.items():
            label = f"{name}key in 10 KB text -> tokens painted ({preset})"
            carets = ", ".join(f"{c} {row['median_' + c]:.0f}" for c in CARETS)
            print(f"{label:<46}{row['median']:>10.1f}   ({carets}; max {row['max']:.0f}; "
                  f"longest task {row['longest_task']:.0f}; {row['tokens']:,} tokens)")
    for preset, row in results.get("base_keypress_ms", {}).items():
        now = results["keypress_ms"][preset]
        print(f"{'ratio base / this, ' + preset:<46}{row['median'] / now['median']:>10.1f}x median key, "
              f"{row['longest_task'] / max(now['longest_task'], 1):.1f}x longest task")
    results["book_count_ms"] = {
        p: {"page": ms, "cpython_whole_encode": cpython[p][0], "tokens": n,
            "cpython_tokens": cpython[p][1]} for p, (ms, n) in counts.items()}
    for preset, row in results["book_count_ms"].items():
        label = f"278 KB book counted whole on the page ({preset})"
        ratio = row["page"] / row["cpython_whole_encode"]
        same = "equal" if row["tokens"] == row["cpython_tokens"] else "DIFFERENT"
        print(f"{label:<46}{row['page']:>10.0f}{ratio:>9.2f}   ({row['tokens']:,} tokens, {same} in CPython)")
    (out / "page.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

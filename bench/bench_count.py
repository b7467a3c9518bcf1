"""A whole document counted on the page, beside JavaScript tokenizers in the same engine.

In one headless Chromium run: botchan.txt (278 KB, LF line ends as a text box holds
them) is set as the page's text, and the time until `token-count` is complete is taken
for GPT-2, o200k_base, BERT and the botchan Unigram model (a fresh page each, ROUNDS
times; the median). In the same browser, a page that loads gpt-tokenizer and
js-tiktoken from node_modules (devDependencies, pinned) counts the same text with
GPT-2's and o200k's ranks: gpt-tokenizer's `countTokens` (first call, and the median
of later calls) and js-tiktoken's `encode(...).length`. The ratios page / gpt-tokenizer
are printed per tokenizer (BERT and Unigram against gpt-tokenizer's GPT-2 count of the
same text), with the load average: absolute times vary with the machine. "/ beside" is
the median over runs of the page's time over gpt-tokenizer's later calls timed just
before that run, the steadiest figure when the load changes during the bench. "chips"
is the median time until the chips of the text's head are drawn (setText resolves): a
long text's count is asked for right behind their encode, and shares the worker with it.

    python3 build.py build && .venv/bin/python bench/bench_count.py
    BENCH_ROUNDS=5 .venv/bin/python bench/bench_count.py
    BENCH_BASE=/other/dist .venv/bin/python bench/bench_count.py   (another build, say
        main's, timed in turn with this one: the page's time as a ratio to it)
    BENCH_TRACE=1 .venv/bin/python bench/bench_count.py   (the page runs traced: the CPU
        time of the worker's and the main thread's tasks from the text set to the count
        complete, which a busy machine stretches far less than the wall clock)
    BENCH_FROM_READY=1 .venv/bin/python bench/bench_count.py   (the text is set as soon
        as Python is ready, while the page's tokenizer may still be opening; by default
        the page is settled first: its tokenizer open and its own text drawn, so that
        the figure is the count's alone, as a reader who pastes a book sees it)
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))
import assets
import build
from bench_page import book_count_time

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
BASE = os.environ.get("BENCH_BASE")
TRACE = os.environ.get("BENCH_TRACE") == "1"
FROM_READY = os.environ.get("BENCH_FROM_READY") == "1"
TRACE_CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline"]
PRESETS = ("gpt2", "o200k-base", "bert-base-uncased", "botchan-unigram")
READY = "html[data-engine=ready]"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

# The JavaScript side: node_modules served as they are, bare imports mapped.
JS_PAGE = """<!doctype html><meta charset="utf-8"><title>count bench</title>
<script type="importmap">{"imports": {"base64-js": "/base64-shim.js"}}</script>
<script type="module">
import * as gptR50k from "/gpt-tokenizer/esm/encoding/r50k_base.js";
import * as gptO200k from "/gpt-tokenizer/esm/encoding/o200k_base.js";
import { Tiktoken } from "/js-tiktoken/dist/lite.js";
import gpt2Ranks from "/js-tiktoken/dist/ranks/gpt2.js";
import o200kRanks from "/js-tiktoken/dist/ranks/o200k_base.js";
window.libs = { gptR50k, gptO200k, Tiktoken, gpt2Ranks, o200kRanks };
document.documentElement.dataset.ready = "1";
</script>"""
BASE64_SHIM = ('import "/base64-js/base64js.min.js";\n'
               "export default globalThis.base64js;\n")
JS_COUNT = """async ({ text, rounds }) => {
  const { gptR50k, gptO200k, Tiktoken, gpt2Ranks, o200kRanks } = window.libs;
  const out = {};
  const time = (fn) => { const t = performance.now(); const v = fn(); return [performance.now() - t, v]; };
  for (const [name, lib] of [["gpt2", gptR50k], ["o200k-base", gptO200k]]) {
    const [first, n] = time(() => lib.countTokens(text));
    const later = [];
    for (let i = 0; i < rounds; i++) later.push(time(() => lib.countTokens(text))[0]);
    out["gpt-tokenizer " + name] = { first, later, count: n };
  }
  for (const [name, ranks] of [["gpt2", gpt2Ranks], ["o200k-base", o200kRanks]]) {
    const [init, enc] = time(() => new Tiktoken(ranks));
    const [first, ids] = time(() => enc.encode(text));
    const later = [];
    for (let i = 0; i < rounds; i++) later.push(time(() => enc.encode(text))[0]);
    out["js-tiktoken " + name] = { init, first, later, count: ids.length };
  }
  return out;
}"""


# gpt-tokenizer's later calls again, just before each page run: under a changing load the
# ratio of two times taken moments apart is steadier than one of times taken minutes apart.
JS_BESIDE = """({ text, rounds }) => {
  const { gptR50k, gptO200k } = window.libs;
  const out = {};
  for (const [name, lib] of [["gpt2", gptR50k], ["o200k-base", gptO200k]]) {
    const times = [];
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      lib.countTokens(text);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    out[name] = times[Math.floor(times.length / 2)];
  }
  return out;
}"""


class NodeModules(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        page = {"/": ("text/html", JS_PAGE), "/base64-shim.js": ("text/javascript", BASE64_SHIM)}
        if self.path in page:
            kind, body = page[self.path]
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        super().do_GET()

    def guess_type(self, path):
        return "text/javascript" if str(path).endswith(".js") else super().guess_type(path)


def serve(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


CALL_COUNT = """async ({ key, text, fastChars }) => {
  const args = { key, text, session: "bench" };
  if (fastChars !== null) args.fast_chars = fastChars;
  const start = performance.now();
  let state = await window.subwordLab.call("count_start", args);
  let calls = 1;
  while (!state.complete) {
    state = await window.subwordLab.call("count_step", { session: "bench" });
    calls += 1;
  }
  return [performance.now() - start, state.count, calls];
}"""


def page_count(browser, url, text, preset, cpu, chips=None):
    """(ms, count) of the page counting `text` (bench_page.book_count_time); traced when
    TRACE, adding to cpu[thread name] the CPU ms of the tasks each thread ran meanwhile;
    `chips` gets the ms until the head's chips were drawn."""
    if not TRACE:
        return book_count_time(browser, url, text, preset, on_ready=settle, chips=chips)

    def settle_then_trace(page):
        settle(page)
        browser.start_tracing(categories=TRACE_CATEGORIES)
    result = book_count_time(browser, url, text, preset, on_ready=settle_then_trace, chips=chips)
    trace = json.loads(browser.stop_tracing())["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"].get("name") for e in trace if e.get("name") == "thread_name"}
    for e in trace:
        if e.get("ph") == "X" and e.get("name") == "ThreadControllerImpl::RunTask" and "tdur" in e:
            name = names.get((e["pid"], e["tid"]), "?")
            if name in ("DedicatedWorker thread", "CrRendererMain"):
                cpu[name] = cpu.get(name, 0) + e["tdur"] / 1000
    return result


def settle(page):
    """Unless FROM_READY: wait until the page's tokenizer is open and its text drawn."""
    if not FROM_READY:
        page.evaluate("async () => { await window.subwordLab.settled(); }")


def worker_count(browser, url, text, preset, fast_chars):
    """(ms, count, calls) of the worker's count alone (count_start, then count_step until
    complete) on a fresh page: fast_chars 0 is the count before Tokenizer.count (every
    slice encoded, 4,000 characters a call), None the page's own."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/?tokenizer={preset}")
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    settle(page)
    result = page.evaluate(CALL_COUNT, {"key": preset, "text": text, "fastChars": fast_chars})
    context.close()
    return result


def main() -> int:
    if not (build.DIST / "index.html").exists():
        build.build()
    text = assets.fetch(["botchan.txt"], quiet=True)["botchan.txt"].read_text(encoding="utf-8")
    text = text.replace("\r\n", "\n")
    dist_server = build.make_server(build.DIST, 0)
    threading.Thread(target=dist_server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{dist_server.server_address[1]}"
    js_server, js_url = serve(functools.partial(NodeModules, directory=str(ROOT / "node_modules")))
    base_url = None
    if BASE:
        base_server = build.make_server(Path(BASE), 0)
        threading.Thread(target=base_server.serve_forever, daemon=True).start()
        base_url = f"http://127.0.0.1:{base_server.server_address[1]}"
    based = {preset: [] for preset in PRESETS}  # this build's time / the other's, per round
    load = os.getloadavg()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE") or build.shutil.which("chromium"),
            args=ARGS)
        js_page = browser.new_page()
        js_page.goto(js_url + "/")
        js_page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
        js = js_page.evaluate(JS_COUNT, {"text": text, "rounds": 5})
        runs = {preset: [] for preset in PRESETS}
        chips = {preset: [] for preset in PRESETS}  # ms until the head's chips were drawn
        base_chips = {preset: [] for preset in PRESETS}
        beside = {preset: [] for preset in PRESETS}  # page run / gpt-tokenizer just before
        cpu = {preset: {} for preset in PRESETS}  # thread -> CPU ms over the traced runs
        base_cpu = {preset: {} for preset in PRESETS}
        old = {preset: [] for preset in PRESETS}
        new = {preset: [] for preset in PRESETS}
        for _ in range(ROUNDS):  # presets in turn, so drift hits each alike
            for preset in PRESETS:
                gpt_now = js_page.evaluate(JS_BESIDE, {"text": text, "rounds": 3})
                runs[preset].append(page_count(browser, url, text, preset, cpu[preset], chips[preset]))
                beside[preset].append(runs[preset][-1][0] / gpt_now[preset if preset in gpt_now else "gpt2"])
                if base_url:
                    base_ms, base_n = page_count(browser, base_url, text, preset, base_cpu[preset],
                                                 base_chips[preset])
                    based[preset].append((runs[preset][-1][0] / base_ms, base_ms, base_n))
                old[preset].append(worker_count(browser, url, text, preset, 0))
                new[preset].append(worker_count(browser, url, text, preset, None))
        js_page.close()
        browser.close()
    dist_server.shutdown()
    js_server.shutdown()
    if base_url:
        base_server.shutdown()
    load_after = os.getloadavg()

    med = statistics.median
    gpt = {name: med(js[f"gpt-tokenizer {name}"]["later"]) for name in ("gpt2", "o200k-base")}
    gpt_first = {name: js[f"gpt-tokenizer {name}"]["first"] for name in ("gpt2", "o200k-base")}
    print(f"botchan.txt, {len(text):,} characters; {ROUNDS} fresh pages per tokenizer, the text "
          f"set {'once Python is ready' if FROM_READY else 'once the page is settled'}; "
          f"load average {load[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"{'':34}{'ms':>9}{'tokens':>10}{'/ gpt-tok':>11}{'/ gpt-tok 1st':>15}{'/ beside':>10}"
          f"{'chips':>8}")
    for name, row in js.items():
        later = med(row["later"])
        print(f"{name:34}{later:>9.1f}{row['count']:>10,}   (first call {row['first']:.1f} ms"
              + (f", ranks read {row['init']:.0f} ms" if "init" in row else "") + ")")
    results = {"load_average": [load[0], load_after[0]], "js": js, "page": {}}
    for preset in PRESETS:
        times = [ms for ms, _ in runs[preset]]
        counts = {n for _, n in runs[preset]}
        against = preset if preset in gpt else "gpt2"
        ms = med(times)
        same = ""
        if preset in gpt:
            same = "  equal to gpt-tokenizer" if counts == {js[f"gpt-tokenizer {preset}"]["count"]} \
                else "  DIFFERENT from gpt-tokenizer"
        label = f"page {preset}" + ("" if preset in gpt else " (vs GPT-2)")
        print(f"{label:34}{ms:>9.0f}{min(counts):>10,}{ms / gpt[against]:>10.1f}x"
              f"{ms / gpt_first[against]:>14.1f}x{med(beside[preset]):>9.1f}x{med(chips[preset]):>8.0f}"
              f"   (runs {', '.join(f'{t:.0f}' for t in times)}){same}")
        results["page"][preset] = {"ms": times, "counts": sorted(counts), "beside": beside[preset],
                                   "chips_ms": chips[preset]}
    if base_url:
        print(f"\nthis build against {BASE}, the same text, in turn:")
        for preset in PRESETS:
            ratios = [r for r, _, _ in based[preset]]
            same = {n for _, _, n in based[preset]} == {n for _, n in runs[preset]}
            print(f"{preset:34}{med(r for _, r, _ in based[preset]):>9.0f} ms there, this / that "
                  f"{med(ratios):.2f}x (runs {', '.join(f'{r:.2f}' for r in ratios)}); chips drawn "
                  f"{med(base_chips[preset]):.0f} ms there"
                  + ("" if same else "   COUNTS DIFFER"))
            results["page"][preset]["base"] = based[preset]
            results["page"][preset]["base_chips_ms"] = base_chips[preset]
    if TRACE:
        print("\nCPU ms a run (traced), the worker's tasks + the main thread's:")
        for preset in PRESETS:
            row = {name: ms / ROUNDS for name, ms in cpu[preset].items()}
            line = (f"{preset:34}{row.get('DedicatedWorker thread', 0):>7.0f} +"
                    f"{row.get('CrRendererMain', 0):>5.0f}")
            if base_url:
                there = {name: ms / ROUNDS for name, ms in base_cpu[preset].items()}
                line += (f"   there {there.get('DedicatedWorker thread', 0):.0f} +"
                         f" {there.get('CrRendererMain', 0):.0f}")
            print(line)
            results["page"][preset]["cpu"] = row
    print("\nthe worker's count alone (count_start + count_step calls, no chips), fresh pages:")
    print(f"{'':34}{'encoded':>9}{'calls':>7}{'counted':>9}{'calls':>7}{'ratio':>8}{'/ gpt-tok':>11}")
    for preset in PRESETS:
        before, after = med(r[0] for r in old[preset]), med(r[0] for r in new[preset])
        counts = {r[1] for r in old[preset] + new[preset]} | {n for _, n in runs[preset]}
        against = preset if preset in gpt else "gpt2"
        print(f"{preset:34}{before:>9.0f}{old[preset][0][2]:>7}{after:>9.0f}{new[preset][0][2]:>7}"
              f"{before / after:>7.1f}x{after / gpt[against]:>10.1f}x"
              + ("" if len(counts) == 1 else "   COUNTS DIFFER"))
        results["page"][preset].update(worker_encoded=old[preset], worker_counted=new[preset])
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "count.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

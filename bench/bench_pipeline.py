"""The pipeline view with a page of text: the view drawn, then a step, in headless Chromium.

The 6 KB multilingual text of tests/data/multilingual.txt (92 lines, every script the
tests use) is set in the tokenize view, then the pipeline view is opened on it. For each
tokenizer it prints the median of BENCH_ROUNDS rounds of:

    open    showView('pipeline') until the view is settled and two frames are drawn
            (the trace from Python, the stages drawn at the last step)
    step    the player taken to step 1 and back to the last one, each until two frames
            are drawn
    cpu     the machine's busy core-seconds over both (/proc/stat: the page's main
            thread, its worker and the browser's other processes)

Each build has a browser profile of its own on disk, warmed first, as a returning
visitor's (Python starts from the stored snapshot, the code cache holds the runtime).

    .venv/bin/python bench/bench_pipeline.py [tokenizer ...]   (default: gpt2, bert-base-uncased, botchan-bpe)
    BENCH_BASE=/other/dist BENCH_ROUNDS=3 .venv/bin/python bench/bench_pipeline.py
        (another build, say main's, served too and measured in turn with this one)
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # its server
from playwright.sync_api import sync_playwright

DEFAULT = ["gpt2", "bert-base-uncased", "botchan-bpe"]
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
BASE = os.environ.get("BENCH_BASE")
TEXT = (ROOT / "tests" / "data" / "multilingual.txt").read_text(encoding="utf-8")
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
OPEN = """async () => {
  const t = performance.now();
  const view = await window.subwordLab.showView('pipeline');
  await view.settled();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return performance.now() - t;
}"""
STEP = """async () => {
  const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const player = window.subwordLab.player();
  const last = player.k;
  const t = performance.now();
  player.seek(1);
  await frames();
  player.seek(last);
  await frames();
  return performance.now() - t;
}"""


def busy() -> float:
    """Core-seconds the whole machine has been busy (/proc/stat)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def serve(directory: Path) -> str:
    server = build.make_server(directory, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def measure(page, site: str, key: str) -> tuple[float, float, float]:
    page.goto(f"{site}/?tokenizer={key}")
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    page.evaluate("async (t) => { await window.subwordLab.setText(t); await window.subwordLab.settled(); }", TEXT)
    page.evaluate(FRAMES)
    start = busy()
    opened = page.evaluate(OPEN)
    stepped = page.evaluate(STEP)
    return opened, stepped, busy() - start


def main(argv: list[str]) -> int:
    keys = argv or DEFAULT
    build.build()
    sites = {"this build": serve(build.DIST)}
    if BASE:
        sites["base"] = serve(Path(BASE))
    chromium = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    results: dict = {}
    with tempfile.TemporaryDirectory() as profiles, sync_playwright() as playwright:
        contexts = {}
        for name, site in sites.items():
            context = playwright.chromium.launch_persistent_context(
                Path(profiles) / name.replace(" ", "-"), executable_path=chromium,
                args=["--no-sandbox", "--disable-gpu"], viewport={"width": 1280, "height": 900})
            page = context.pages[0]
            page.goto(f"{site}/")  # the first visit stores the snapshot
            page.wait_for_selector("html[data-snapshot]", state="attached", timeout=120_000)
            contexts[name] = (context, page)
        for round_no in range(ROUNDS):
            order = list(sites) if round_no % 2 == 0 else list(sites)[::-1]
            for key in keys:
                for name in order:
                    results.setdefault((key, name), []).append(measure(contexts[name][1], sites[name], key))
        for context, _ in contexts.values():
            context.close()
    print(f"pipeline view, {len(TEXT):,} characters, median of {ROUNDS}:")
    print(f"{'tokenizer':20} {'build':11} {'open ms':>8} {'step ms':>8} {'cpu core-s':>11}")
    for (key, name), rows in results.items():
        columns = [statistics.median(row[i] for row in rows) for i in range(3)]
        print(f"{key:20} {name:11} {columns[0]:8.0f} {columns[1]:8.0f} {columns[2]:11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

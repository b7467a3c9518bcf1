"""Picking a preset in the page: pick → first painted tokens, by stage.

Headless Chromium, a fresh browser context per round (so every pick downloads its
file), the page's three-line text of tests/browser/test_catalog_page.py, each preset
picked in turn from the picker. For every pick it prints the total (the `change`
event to `paintedAt`) and its stages, read from the page's messages to the worker:

    fetch   the pick until the bytes go to the worker (download, sha256 check)
    open    the worker's openPreset (Python reads and checks the file)
    encode  the first encode of the text (and its reply)
    paint   the reply until the tokens are drawn

    .venv/bin/python bench/bench_pick.py [preset ...]           (default: four big ones)
    BENCH_BASE=/other/dist BENCH_ROUNDS=3 .venv/bin/python bench/bench_pick.py
        (another build, say main's, served too and measured in turn with this one:
        before/after figures from one run; compare the ratios, the machine is shared)
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # its server
from playwright.sync_api import sync_playwright

DEFAULT = ["gemma", "xlm-roberta", "o200k-base", "deepseek-v3"]
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "1"))
BASE = os.environ.get("BENCH_BASE")
TEXT = ("Tokenizers read pieces: naïve café in Zürich, 1234567 and 3.14159 — ok?\n"
        "Привет, мир! こんにちは世界。 مرحبا بالعالم 👩‍👩‍👧 🇫🇷 👍🏽\n"
        "def area(r):\n    return 3.14 * r ** 2  # π r²\n")
# Every request to a worker and every reply, with the page's clock.
WATCH = r"""
(() => {
  const log = (window.__pickLog = []);
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.cmd) log.push({ t: performance.now(), id: message.id, cmd: message.cmd });
    if (!this.__watched) {
      this.__watched = true;
      this.addEventListener("message", (e) => {
        if (e.data && e.data.id) log.push({ t: performance.now(), id: e.data.id, reply: true });
      });
    }
    return post.call(this, message, ...rest);
  };
})();
"""


def serve(directory: Path):
    server = build.make_server(directory, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def stages(log, start, painted) -> dict:
    """fetch / open / encode / paint in ms from the worker messages of one pick."""
    sent, replied = {}, {}
    for entry in log:
        (replied if entry.get("reply") else sent)[entry["id"]] = (entry["t"], entry.get("cmd"))
    opened = next(i for i, (_, cmd) in sent.items() if cmd == "openPreset")
    encoded = min((i for i in sent if i > opened), default=None)
    out = {"fetch": sent[opened][0] - start, "open": replied[opened][0] - sent[opened][0]}
    if encoded is not None and encoded in replied:
        out["encode"] = replied[encoded][0] - sent[encoded][0]
        out["paint"] = painted - replied[encoded][0]
    return {k: round(v) for k, v in out.items()}


def pick(page, key) -> dict:
    page.evaluate("window.__pickLog.length = 0")
    start = page.evaluate("performance.now()")
    page.get_by_test_id("tokenizer-select").select_option(key)
    page.wait_for_function("(k) => window.subwordLab.state().tokenizer === k", arg=key,
                           timeout=180_000)
    page.evaluate("async () => await window.subwordLab.settled()")
    page.wait_for_function("(t) => (window.subwordLab.state().paintedAt || 0) > t", arg=start)
    painted = page.evaluate("window.subwordLab.state().paintedAt")
    return {"total": round((painted - start) / 1000, 2),
            **stages(page.evaluate("window.__pickLog"), start, painted)}


def one_round(browser, site, presets, label, results):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(WATCH)
    page.goto(f"{site}/?tokenizer=bert-base-uncased")
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=180_000)
    page.get_by_test_id("text-input").fill(TEXT)
    page.evaluate("async () => await window.subwordLab.settled()")
    time.sleep(1)
    for key in presets:
        load = os.getloadavg()[0]
        row = pick(page, key)
        results[label][key].append(row["total"])
        print(f"{label:6} {key:16} {row['total']:5.2f} s  (load {load:4.1f})  " + "  ".join(
            f"{k} {v} ms" for k, v in row.items() if k != "total"), flush=True)
        time.sleep(1)
    context.close()


def main() -> int:
    presets = sys.argv[1:] or DEFAULT
    builds = [("ours", build.DIST)] + ([("base", Path(BASE))] if BASE else [])
    servers = {label: serve(directory) for label, directory in builds}
    results = {label: {key: [] for key in presets} for label, _ in builds}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=build_chromium(),
                                             args=["--no-sandbox", "--disable-gpu"])
        for _ in range(ROUNDS):
            for label, _ in builds[::-1]:  # the base first in each round
                one_round(browser, servers[label][1], presets, label, results)
        browser.close()
    for server, _ in servers.values():
        server.shutdown()
    print("median pick → paint, s:")
    for key in presets:
        ours = statistics.median(results["ours"][key])
        line = f"  {key:16} ours {ours:5.2f}"
        if BASE:
            base = statistics.median(results["base"][key])
            line += f"  base {base:5.2f}  ours/base {ours / base:4.2f}"
        print(line)
    print(json.dumps(results))
    return 0


def build_chromium() -> str:
    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    from conftest import chromium_path  # finds /usr/bin/chromium
    return chromium_path()


if __name__ == "__main__":
    sys.exit(main())

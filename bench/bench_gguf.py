"""Load and encode times of the GGUF test vocabularies: Subword Lab against llama.cpp
(node-llama-cpp, tests/realfiles/llama_oracle/oracle.mjs), in one run, on the hard inputs of
tests/realfiles (both special-token modes). Prints a Markdown table for BENCHMARKS.md.

With --page, instead: the page's time to usable for each file opened through its file
input as a 3 GiB model file (the real header, then a sparse "tensor" that takes no disk),
in headless Chromium, beside llama.cpp's vocab-only load of the same header in one run.

    python3 bench/bench_gguf.py [NAME ...]
    python3 bench/bench_gguf.py --page [NAME ...]     (default: gemma-4 and llama-spm)
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "tools"), str(ROOT / "tests" / "realfiles")]

import assets
from hard_inputs import hard_inputs

import subword_lab


def llama_cpp(path, texts):
    """node-llama-cpp's seconds ({load, tokenize}) for `path` and `texts`."""
    run = subprocess.run(["node", str(ROOT / "tests/realfiles/llama_oracle/oracle.mjs")],
                         input=json.dumps({"model": str(path), "texts": texts}),
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(run.stdout)["seconds"]


PAGE_TEXT = "Hello world, it's 2026! Ünïcödé 中文 🙂"
GIB3 = 3 << 30


def page_main(names):
    """Time to usable in the page: from the file input's change to the first tokens of
    the opened model, the page already ready (Python up) on its default tokenizer."""
    import build
    from playwright.sync_api import sync_playwright

    names = names or ["ggml-vocab-gemma-4.gguf", "ggml-vocab-llama-spm.gguf"]
    paths = assets.fetch(names, quiet=True)
    server = build.make_server(build.DIST, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_address[1]}"
    chromium = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE") or shutil.which("chromium")
    print(f"load average {os.getloadavg()[0]:.1f}; each file as a 3 GiB sparse model file")
    print("| file | header | page: to usable (s) | llama.cpp vocab-only load (s) | ratio |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for name in names:
            model = Path(tmp) / (name[len("ggml-vocab-"):-len(".gguf")] + ".Q4_K_M.gguf")
            shutil.copyfile(paths[name], model)
            with open(model, "r+b") as handle:
                handle.truncate(GIB3)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(f"{site}/?nosnapshot")
            page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=180_000)
            page.evaluate("async (t) => await window.subwordLab.setText(t)", PAGE_TEXT)
            start = time.perf_counter()
            page.get_by_test_id("file-input").set_input_files(str(model))
            page.locator("#opened-group option").filter(has_text=model.name).wait_for(
                state="attached", timeout=180_000)
            page.evaluate("async () => await window.subwordLab.settled()")
            usable = time.perf_counter() - start
            context.close()
            ref = llama_cpp(paths[name], [PAGE_TEXT])["load"]
            print(f"| {model.stem.split('.')[0]} | {paths[name].stat().st_size / 1e6:.1f} MB | "
                  f"{usable:.2f} | {ref:.2f} | {usable / ref:.2f}x |", flush=True)
        browser.close()
    server.shutdown()


def main(names):
    names = names or sorted(n for n in assets.ASSETS
                            if n.startswith("ggml-vocab-") and n.endswith(".gguf"))
    paths = assets.fetch(names + ["botchan.txt"], quiet=True)
    texts = [t.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
             for _, t in hard_inputs(paths["botchan.txt"].read_text(encoding="utf-8"))]
    print(f"load average {os.getloadavg()[0]:.1f}; {len(texts)} texts, "
          f"{sum(map(len, texts)):,} characters, both special-token modes")
    print("| file | load: ours / llama.cpp (s) | ratio | encode: ours / llama.cpp (s) | ratio |")
    print("|---|---|---|---|---|")
    for name in names:
        t0 = time.perf_counter()
        tok = subword_lab.load(paths[name])
        t1 = time.perf_counter()
        for text in texts:
            tok.encode(text, add_special_tokens=False, special_tokens="recognise")
            tok.encode(text, add_special_tokens=False, special_tokens="as_text")
        t2 = time.perf_counter()
        ref = llama_cpp(paths[name], texts)
        load, enc = t1 - t0, t2 - t1
        print(f"| {name[len('ggml-vocab-'):-len('.gguf')]} | {load:.2f} / {ref['load']:.2f} | "
              f"{load / ref['load']:.2f}x | {enc:.2f} / {ref['tokenize']:.2f} | "
              f"{enc / ref['tokenize']:.1f}x |", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--page"]:
        page_main(sys.argv[2:])
    else:
        main(sys.argv[1:])

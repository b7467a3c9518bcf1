"""Load and encode times of the GGUF test vocabularies: Subword Lab against llama.cpp
(node-llama-cpp, tests/realfiles/llama_oracle/oracle.mjs), in one run, on the hard inputs of
tests/realfiles (both special-token modes). Prints a Markdown table for BENCHMARKS.md.

    python3 bench/bench_gguf.py [NAME ...]
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tools"), str(ROOT / "tests" / "realfiles")]

import assets  # noqa: E402
from hard_inputs import hard_inputs  # noqa: E402

import subword_lab  # noqa: E402


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
        run = subprocess.run(["node", str(ROOT / "tests/realfiles/llama_oracle/oracle.mjs")],
                             input=json.dumps({"model": str(paths[name]), "texts": texts}),
                             capture_output=True, text=True, cwd=ROOT, check=True)
        ref = json.loads(run.stdout)["seconds"]
        load, enc = t1 - t0, t2 - t1
        print(f"| {name[len('ggml-vocab-'):-len('.gguf')]} | {load:.2f} / {ref['load']:.2f} | "
              f"{load / ref['load']:.2f}x | {enc:.2f} / {ref['tokenize']:.2f} | "
              f"{enc / ref['tokenize']:.1f}x |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

"""The same work under Pyodide (in Node) and under CPython: how much slower is the web page?

One Python workload runs twice, unchanged: in a fresh CPython process and in
Pyodide under Node (node_modules/pyodide, with py/subword_lab and the asset
files copied into its file system). It times loading the three preset files,
encoding every line of botchan.txt with each (best of --repeat passes), and two
small training runs on botchan.txt (byte-level BPE and Unigram, vocab 1,000).
We print both times and the Pyodide / CPython ratio per step.

    python bench/bench_pyodide.py [--repeat 3] [--json]
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools")]

import assets

PRESETS = ["bert-base-uncased.tokenizer.json", "gpt2.tiktoken", "botchan_en_unigram_1000.model"]

# Runs in both interpreters. ASSET_DIR, PY_DIR and REPEAT are set before it.
WORKLOAD = r'''
import json, sys, time
sys.path.insert(0, PY_DIR)
import subword_lab
from subword_lab import Tokenizer, models, pre_tokenizers
from subword_lab.trainers import BpeTrainer, UnigramTrainer

def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value

lines = open(ASSET_DIR + "/botchan.txt", encoding="utf-8").read().splitlines()
result = {"python": sys.version.split()[0]}
for name in PRESETS:
    seconds, tok = timed(lambda: subword_lab.load(ASSET_DIR + "/" + name))
    result["load " + name] = seconds
    tok.no_truncation()
    tok.no_padding()
    special = not name.endswith(".tiktoken")
    best = float("inf")
    for _ in range(REPEAT):
        seconds, _ = timed(lambda: [tok.encode(line, add_special_tokens=special) for line in lines])
        best = min(best, seconds)
    result["encode " + name] = best

def train_bpe():
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.train_from_iterator(lines, BpeTrainer(vocab_size=1000, show_progress=False))

def train_unigram():
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                 pre_tokenizers.Metaspace()])
    tok.train_from_iterator(lines, UnigramTrainer(vocab_size=1000, show_progress=False,
                                                  unk_token="<unk>"))

result["train BPE byte-level 1000"] = timed(train_bpe)[0]
result["train Unigram 1000"] = timed(train_unigram)[0]
RESULT = json.dumps(result)
'''

# Node side: load Pyodide, copy the package and the assets in, run the workload.
RUNNER = r'''
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [pyodideDir, pyDir, assetDir, workloadFile, prelude] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdout: () => {},
                                    stderr: (m) => console.error(m) });
function copyTree(src, dst, keep) {
  pyodide.FS.mkdirTree(dst);
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    if (entry.name === "__pycache__") continue;
    const from = join(src, entry.name), to = `${dst}/${entry.name}`;
    if (entry.isDirectory()) copyTree(from, to, keep);
    else if (keep(entry.name)) pyodide.FS.writeFile(to, readFileSync(from));
  }
}
copyTree(join(pyDir, "subword_lab"), "/home/pyodide/py/subword_lab", (n) => n.endsWith(".py"));
copyTree(assetDir, "/home/pyodide/assets", () => true);
await pyodide.runPythonAsync(prelude + "\n" + readFileSync(workloadFile, "utf8"));
console.log(pyodide.globals.get("RESULT"));
'''


def prelude(py_dir, asset_dir, repeat):
    return (f"PY_DIR = {str(py_dir)!r}\nASSET_DIR = {str(asset_dir)!r}\n"
            f"REPEAT = {repeat}\nPRESETS = {PRESETS!r}\n")


def run_cpython(asset_dir, repeat):
    code = prelude(ROOT / "py", asset_dir, repeat) + WORKLOAD + "\nprint(RESULT)\n"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_pyodide(asset_dir, repeat, work):
    """Pyodide's file system only sees what we copy in: the assets needed, by name."""
    staged = work / "assets"
    staged.mkdir()
    for name in PRESETS + ["botchan.txt"]:
        shutil.copy(asset_dir / name, staged / name)
    (work / "workload.py").write_text(WORKLOAD)
    (work / "runner.mjs").write_text(RUNNER)
    args = ["node", str(work / "runner.mjs"), str(ROOT / "node_modules" / "pyodide"),
            str(ROOT / "py"), str(staged), str(work / "workload.py"),
            prelude("/home/pyodide/py", "/home/pyodide/assets", repeat)]
    out = subprocess.run(args, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="also print the raw results")
    args = parser.parse_args()
    paths = assets.fetch(quiet=True)
    asset_dir = paths["botchan.txt"].parent
    cpython = run_cpython(asset_dir, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        pyodide = run_pyodide(asset_dir, args.repeat, Path(tmp))
    print(f"CPython {cpython['python']} vs Pyodide (Python {pyodide['python']}, Node), "
          f"encode best of {args.repeat}")
    print(f"{'step':50} {'CPython s':>10} {'Pyodide s':>10} {'ratio':>7}")
    for key in cpython:
        if key == "python":
            continue
        print(f"{key:50} {cpython[key]:10.3f} {pyodide[key]:10.3f} "
              f"{pyodide[key] / cpython[key]:7.2f}")
    if args.json:
        print(json.dumps({"cpython": cpython, "pyodide": pyodide}))


if __name__ == "__main__":
    main()

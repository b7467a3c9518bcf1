"""Load time, encode throughput and big-input cost of large vocabularies, ours vs
each file's own library, measured side by side in one run and printed as ratios.

    python bench/bench_load_encode.py            # every file in the cache
    python bench/bench_load_encode.py --quick    # skip the big inputs

Files come from ~/.cache/subword-lab (tools/assets.py fetches them); those
missing are skipped and named. Times are CPU time of this process (best of
--repeat), so other jobs on a shared machine disturb them less than wall time.
Big inputs (a 5 MB single line, a 1 MB word) run each library in a fresh
subprocess and report its CPU time and peak RSS (ru_maxrss): whole-process peak
and the growth during the encode call alone.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py")]

import subword_lab
from subword_lab.core.tables import byte_level

CACHE = Path(os.environ.get("SUBWORD_LAB_CACHE", Path.home() / ".cache" / "subword-lab"))
MULTILINGUAL = ROOT / "tests" / "data" / "multilingual.txt"

# name -> (file, kind, our load options); kind picks the reference library.
FILES = {
    "gpt2.tiktoken": ("gpt2.tiktoken", "tiktoken", {"pattern": "gpt2"}),
    "cl100k_base": ("cl100k_base.tiktoken", "tiktoken", {"pattern": "cl100k_base"}),
    "o200k_base": ("o200k_base.tiktoken", "tiktoken", {"pattern": "o200k_base"}),
    "Llama 3 (tiktoken)": ("llama3.tokenizer.model", "tiktoken", {"pattern": "cl100k_base"}),
    "bert-base-uncased": ("bert-base-uncased.tokenizer.json", "tokenizers", {}),
    "claude-legacy": ("claude-legacy.tokenizer.json", "tokenizers", {}),
    "Llama 2": ("llama2.tokenizer.json", "tokenizers", {}),
    "DeepSeek V3": ("deepseek-v3.tokenizer.json", "tokenizers", {}),
    "Gemma": ("gemma.tokenizer.json", "tokenizers", {}),
}
BIG_FILES = ["gpt2.tiktoken", "o200k_base"]


def cpu(fn, repeat):
    best, result = float("inf"), None
    for _ in range(repeat):
        start, wall = time.process_time(), time.perf_counter()
        result = fn()
        spent = time.process_time() - start
        # This VM's process clock has now and then read the same before and after a
        # 10 KB encode (a ZeroDivisionError in two runs): the wall clock stands in then.
        best = min(best, spent if spent > 0 else time.perf_counter() - wall)
    return best, result


def load_ours(name):
    file, kind, options = FILES[name]
    if kind == "tiktoken":  # by name, Llama 3's tokenizer.model would go to sentencepiece
        from subword_lab.io.tiktoken_file import load_tiktoken
        return load_tiktoken(CACHE / file, **options)
    tok = subword_lab.load(CACHE / file, **options)
    tok.no_truncation()  # as the reference is set up: the file's own settings off
    tok.no_padding()
    return tok


def load_reference(name):
    file, kind, options = FILES[name]
    path = CACHE / file
    if kind == "tokenizers":
        import tokenizers
        tok = tokenizers.Tokenizer.from_file(str(path))
        tok.no_truncation()
        tok.no_padding()
        return lambda text: tok.encode(text, add_special_tokens=False).ids
    import tiktoken
    # tiktoken's own reader (load_tiktoken_bpe), done inline: it only takes paths
    # through its blob cache.
    ranks = {}
    for line in path.read_bytes().splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    pattern = byte_level.TIKTOKEN_PATTERNS[options["pattern"]]
    enc = tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    return enc.encode_ordinary


def ours_encoder(tok):
    return lambda text: tok.encode(text, add_special_tokens=False).ids


def texts():
    botchan = (CACHE / "botchan.txt").read_text(encoding="utf-8")
    multi = MULTILINGUAL.read_text(encoding="utf-8")
    multi = (multi * (10_000 // len(multi.encode()) + 1))[:10_000]
    return botchan, multi


def bench_file(name, repeat):
    botchan, multi = texts()
    lines = botchan.splitlines()
    t_ours, tok = cpu(lambda: load_ours(name), 1)
    t_ref, ref = cpu(lambda: load_reference(name), 1)
    ours = ours_encoder(tok)
    ours(multi), ref(multi)  # warm up: regexes compile on first use
    row = {"file": name, "load_ours": t_ours, "load_ref": t_ref}
    for label, run_ours, run_ref, size in (
            ("multi10k", lambda: ours(multi), lambda: ref(multi), len(multi.encode())),
            ("botchan", lambda: [ours(x) for x in lines], lambda: [ref(x) for x in lines],
             len(botchan.encode()))):
        a, got = cpu(run_ours, repeat)
        b, want = cpu(run_ref, repeat)
        row[label] = (size / a / 1e6, size / b / 1e6)
        row[label + "_same"] = got == want
    return row


# -- big inputs, one subprocess each --------------------------------------------------

CHILD = r"""
import resource, sys, time, json
sys.path.insert(0, {py!r}); sys.path.insert(0, {bench!r})
import bench_load_encode as b
name, which, what = {name!r}, {which!r}, {what!r}
enc = b.ours_encoder(b.load_ours(name)) if which == "ours" else b.load_reference(name)
botchan = (b.CACHE / "botchan.txt").read_text(encoding="utf-8")
if what == "line":
    one = botchan.replace("\n", " ")
    text = (one * (5_000_000 // len(one.encode()) + 1))[:5_000_000]
else:
    letters = "".join(ch for ch in botchan if ch.isalpha())
    text = (letters * (1_000_000 // len(letters) + 1))[:1_000_000]
enc("warm up: " + text[:1000])
def hwm():  # peak RSS of this process image, in MB (ru_maxrss would count the parent's)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
before = rss()
try:  # reset the high-water mark so that the peak is the encode call's
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
except OSError:
    pass
start = time.process_time()
ids = enc(text)
seconds = time.process_time() - start
peak = hwm()
print(json.dumps({{"seconds": seconds, "peak_mb": peak,
                  "encode_mb": peak - before, "n": len(ids), "sum": sum(ids)}}))
"""


def big_input(name, which, what):
    code = CHILD.format(py=str(ROOT / "py"), bench=str(ROOT / "bench"), name=name,
                        which=which, what=what)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="skip the big inputs")
    parser.add_argument("--only", nargs="*", help="file names to run")
    args = parser.parse_args()
    names = [n for n in FILES if (CACHE / FILES[n][0]).exists()
             and (not args.only or n in args.only)]
    missing = [n for n in FILES if not (CACHE / FILES[n][0]).exists()]
    if missing:
        print("not in the cache (run tools/assets.py --all):", ", ".join(missing))
    print(f"{'file':22} {'load ours s':>11} {'ref s':>7} {'ratio':>6} | "
          f"{'10 KB MB/s ours':>15} {'ref':>6} {'ratio':>6} | "
          f"{'botchan ours':>12} {'ref':>6} {'ratio':>6} | same ids")
    load_r, enc_r = [], []
    for name in names:
        try:
            row = bench_file(name, args.repeat)
        except Exception as exc:  # a file we cannot load is reported, not fatal
            where = traceback.extract_tb(exc.__traceback__)[-1]
            print(f"{name:22} failed: {type(exc).__name__}: {exc} "
                  f"({Path(where.filename).name}:{where.lineno})", flush=True)
            continue
        lr = row["load_ours"] / row["load_ref"]
        m, b = row["multi10k"], row["botchan"]
        mr, br = m[1] / m[0], b[1] / b[0]
        load_r.append(lr)
        enc_r += [mr, br]
        same = row["multi10k_same"] and row["botchan_same"]
        print(f"{name:22} {row['load_ours']:11.3f} {row['load_ref']:7.3f} {lr:5.1f}x | "
              f"{m[0]:15.2f} {m[1]:6.2f} {mr:5.1f}x | {b[0]:12.2f} {b[1]:6.2f} {br:5.1f}x | "
              f"{same}", flush=True)
    if load_r:
        print(f"load ratio: median {statistics.median(load_r):.1f}x, worst {max(load_r):.1f}x; "
              f"encode ratio (time, ours / reference): median {statistics.median(enc_r):.1f}x, "
              f"worst {max(enc_r):.1f}x")
    if args.quick:
        return
    print(f"\n{'big input':32} {'ours s':>7} {'ref s':>6} {'ratio':>6} | {'peak MB ours':>12} "
          f"{'ref':>5} {'ratio':>6} | {'encode MB ours':>14} {'ref':>5} {'ratio':>6} | same")
    for name in [n for n in BIG_FILES if n in names]:
        for what in ("line", "word"):
            a, b = big_input(name, "ours", what), big_input(name, "ref", what)
            label = f"{name}, {'5 MB line' if what == 'line' else '1 MB word'}"
            print(f"{label:32} {a['seconds']:7.2f} {b['seconds']:6.2f} "
                  f"{a['seconds'] / b['seconds']:5.1f}x | {a['peak_mb']:12.0f} {b['peak_mb']:5.0f} "
                  f"{a['peak_mb'] / b['peak_mb']:5.1f}x | {a['encode_mb']:14.0f} "
                  f"{b['encode_mb']:5.0f} {a['encode_mb'] / max(b['encode_mb'], 1):5.1f}x | "
                  f"{(a['n'], a['sum']) == (b['n'], b['sum'])}", flush=True)


if __name__ == "__main__":
    main()

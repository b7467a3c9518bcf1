"""sentencepiece `.model` encode: ours against the sentencepiece library, on every
`.model` file of tests/realfiles, as slowdown ratios measured in one run.

    python bench/bench_spm_encode.py [--repeat 5] [--only botchan]

Three workloads, one encode call per text (as a page or a data loader calls it):
botchan.txt line by line, the parity suite's hard inputs (tests/realfiles/
hard_inputs.py, documents included), and tests/data/multilingual.txt line by line
(its Japanese lines are what kyoto_ja_unigram_8000.model was trained for). Each
round times our pass and then sentencepiece's (CPU time of this process), so a
busy machine slows both alike; the best of --repeat rounds is kept for each.
A ratio is ours / sentencepiece: 4.0 means four times slower. The ids are checked
equal on every text before timing.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests" / "realfiles")]

import subword_lab
from hard_inputs import hard_inputs

CACHE = Path(os.environ.get("SUBWORD_LAB_CACHE", Path.home() / ".cache" / "subword-lab"))
MODELS = ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model",
          "kyoto_ja_unigram_8000.model", "mistral.tokenizer.model.v1",
          "mistral.tokenizer.model.v2", "mistral.tokenizer.model.v3",
          "mistral.tokenizer.model.v7"]


def workloads():
    botchan = (CACHE / "botchan.txt").read_text(encoding="utf-8")
    multi = (ROOT / "tests" / "data" / "multilingual.txt").read_text(encoding="utf-8")
    return {"botchan": botchan.splitlines(),
            "hard": [text for _, text in hard_inputs(botchan)],
            "multi": multi.splitlines()}


def one_pass(encode, texts):
    start = time.process_time()
    for text in texts:
        encode(text)
    return time.process_time() - start


def bench_file(path, loads, repeat):
    import sentencepiece
    sp = sentencepiece.SentencePieceProcessor(model_file=str(path))
    tok = subword_lab.load(path, format="sentencepiece")
    tok.no_truncation()
    tok.no_padding()
    ours = lambda text: tok.encode(text).ids  # noqa: E731  (a one-line helper)
    row = {}
    for name, texts in loads.items():
        bad = sum(ours(t) != sp.encode(t) for t in texts)
        best_ours = best_ref = float("inf")
        for _ in range(repeat):
            best_ours = min(best_ours, one_pass(ours, texts))
            best_ref = min(best_ref, one_pass(sp.encode, texts))
        row[name] = (best_ours, best_ref, bad)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="only files whose name holds this")
    args = parser.parse_args()
    loads = workloads()
    print(f"load average {os.getloadavg()[0]:.2f}; best of {args.repeat}; "
          + ", ".join(f"{k}: {len(v)} texts" for k, v in loads.items()))
    print(f"{'file':32}" + "".join(f"{k:>10}" for k in loads) + f"{'all':>10}")
    totals = []
    for model in MODELS:
        if args.only not in model:
            continue
        path = CACHE / model
        if not path.exists():
            print(f"{model:32} missing (tools/assets.py fetches it)")
            continue
        row = bench_file(path, loads, args.repeat)
        ratio_all = sum(r[0] for r in row.values()) / sum(r[1] for r in row.values())
        totals.append(ratio_all)
        cells = "".join(f"{r[0] / r[1]:9.2f}{'!' if r[2] else ' '}" for r in row.values())
        print(f"{model:32}{cells}{ratio_all:9.2f}", flush=True)
    if totals:
        print(f"worst {max(totals):.2f}x, median {statistics.median(totals):.2f}x "
              f"(ours / sentencepiece; '!' marks a workload whose ids differ)")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

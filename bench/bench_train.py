"""BPE and WordPiece training time: subword_lab against tokenizers, in one run.

Each trainer learns a vocabulary of 1,000 and 5,000 tokens (WordPiece on the mix:
5,000 and 8,000, as it starts from about 2,300) from (1) botchan.txt,
(2) about 450 KB of English prose from the Python standard library's
docstrings and (3) a 450 KB multilingual mix (tools/corpora.py; the corpora
bench_train_unigram.py uses). BPE uses GPT-2's byte-level
pre-tokenizer, WordPiece BERT's; tokenizers' WordPieceTrainer is its BPE
trainer in disguise, so that ratio compares different algorithms (aim: 3x),
the BPE one the same algorithm (aim: 2x; the merges are identical).
We report the best of `--repeat` runs of `train_from_iterator` (pre-tokenization
included, as a user sees it), the part spent learning after the words were
counted, the ratio subword_lab / tokenizers, and our peak traced memory.
With node and node_modules/pyodide present, the same runs (once each) under
Pyodide in Node, as a ratio to CPython.

    python bench/bench_train.py [--repeat 3] [--threads N] [--no-pyodide] [--corpus mixed] [--cpu]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLOCK = time.perf_counter  # --cpu: time.process_time (all threads' CPU time)
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tools"), str(ROOT / "bench")]

SIZES = (1000, 5000)


def corpora():
    import assets
    from corpora import docstring_corpus, mixed_corpus
    botchan = assets.fetch(quiet=True)["botchan.txt"].read_text(encoding="utf-8").splitlines()
    return {"botchan.txt": botchan, "stdlib docstrings": docstring_corpus(),
            "mixed": mixed_corpus(450_000, botchan)}


def ours(algo, vocab_size):
    from subword_lab import Tokenizer, models, pre_tokenizers
    from subword_lab.trainers import BpeTrainer, WordPieceTrainer
    if algo == "bpe":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        return tok, BpeTrainer(vocab_size=vocab_size, show_progress=False)
    tok = Tokenizer(models.WordPiece())
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok, WordPieceTrainer(vocab_size=vocab_size, show_progress=False)


def theirs(algo, vocab_size):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    if algo == "bpe":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        return tok, trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False)
    tok = Tokenizer(models.WordPiece())
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok, trainers.WordPieceTrainer(vocab_size=vocab_size, show_progress=False)


def run_once(make, algo, vocab_size, lines):
    tok, trainer = make(algo, vocab_size)
    start = CLOCK()
    tok.train_from_iterator(lines, trainer)
    return CLOCK() - start


def learn_only(algo, vocab_size, lines, repeat):
    """Time of `train` alone, on words counted beforehand."""
    best = float("inf")
    for _ in range(repeat):
        tok, trainer = ours(algo, vocab_size)
        trainer.feed(lines, tok._training_words())
        start = CLOCK()
        trainer.train(tok.model)
        best = min(best, CLOCK() - start)
    return best


def peak_mb(algo, vocab_size, lines):
    tracemalloc.start()
    run_once(ours, algo, vocab_size, lines)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def pyodide_times(lines, specs):
    """Seconds per (algo, vocab_size) under Pyodide in Node, or None when unavailable."""
    if shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump(lines, f)
    try:
        cpu = ["cpu"] if CLOCK is time.process_time else []  # --cpu: CPU time there too
        out = subprocess.run(["node", str(ROOT / "bench" / "train_in_pyodide.mjs"), str(ROOT / "py"),
                              f.name, json.dumps(specs)] + cpu, capture_output=True, text=True,
                             timeout=900, check=True).stdout
    finally:
        os.unlink(f.name)
    return json.loads(out.strip().splitlines()[-1])["times"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, help="RAYON_NUM_THREADS for tokenizers")
    parser.add_argument("--no-pyodide", action="store_true", help="skip the Pyodide runs")
    parser.add_argument("--corpus", action="append", help="only this corpus (repeatable)")
    parser.add_argument("--cpu", action="store_true",
                        help="measure CPU time, not wall time (a loaded machine)")
    args = parser.parse_args(argv)
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    if args.threads:
        os.environ["RAYON_NUM_THREADS"] = str(args.threads)
    print("| corpus | algo | vocab | subword_lab s | of which learning s | tokenizers s "
          "| ratio | peak MB | Pyodide / CPython |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, lines in corpora().items():
        if args.corpus and name not in args.corpus:
            continue
        # the mix has some 2,300 WordPiece start tokens (characters and ##characters)
        wp_sizes = (5000, 8000) if name == "mixed" else SIZES
        specs = [("bpe", size) for size in SIZES] + [("wordpiece", size) for size in wp_sizes]
        kb = sum(len(line.encode("utf-8")) + 1 for line in lines) / 1000
        in_pyodide = None if args.no_pyodide else pyodide_times(lines, specs)
        for i, (algo, vocab_size) in enumerate(specs):
            # interleaved, so that a burst of load on a shared machine hits both sides
            mine = ref = float("inf")
            for _ in range(args.repeat):
                mine = min(mine, run_once(ours, algo, vocab_size, lines))
                ref = min(ref, run_once(theirs, algo, vocab_size, lines))
            learn = learn_only(algo, vocab_size, lines, args.repeat)
            peak = peak_mb(algo, vocab_size, lines)
            wasm = "n/a" if in_pyodide is None else f"{in_pyodide[i] / mine:.1f}x"
            print(f"| {name} ({kb:.0f} KB) | {algo} | {vocab_size} | {mine:.3f} | {learn:.3f} "
                  f"| {ref:.3f} | {mine / ref:.1f}x | {peak:.0f} | {wasm} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""BPE training of several commits against each other and tokenizers, interleaved.

Each round trains once with every commit's py/ (taken with `git archive`) and once
with tokenizers, so that a burst of load on a shared machine hits all of them; the
best CPU time of the rounds is reported, with its ratio to tokenizers. The merges
of all commits must agree (the script fails otherwise).

    python bench/bench_train_commits.py CORPUS VOCAB ROUNDS COMMIT[,COMMIT...]

CORPUS is one of bench_train.py's: "mixed", "botchan.txt", "stdlib docstrings".
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "bench")]
os.environ["RAYON_NUM_THREADS"] = "1"


def load(py_dir):
    """(Tokenizer, models, pre_tokenizers, BpeTrainer) of the package in py_dir."""
    for name in [m for m in sys.modules if m == "subword_lab" or m.startswith("subword_lab.")]:
        del sys.modules[name]
    sys.path.insert(0, py_dir)
    try:
        from subword_lab import Tokenizer, models, pre_tokenizers
        from subword_lab.trainers import BpeTrainer
    finally:
        sys.path.pop(0)
    return Tokenizer, models, pre_tokenizers, BpeTrainer


def train_once(lib, lines, vocab_size):
    Tokenizer, models, pre_tokenizers, BpeTrainer = lib
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = BpeTrainer(vocab_size=vocab_size, show_progress=False)
    start = time.process_time()
    tok.train_from_iterator(lines, trainer)
    seconds = time.process_time() - start
    return seconds, getattr(trainer, "result", None)  # ours: vocab and merges; tokenizers: None


def main(argv):
    corpus, vocab_size, rounds, commits = argv[0], int(argv[1]), int(argv[2]), argv[3].split(",")
    import tokenizers
    from bench_train import corpora
    sys.path.insert(0, str(ROOT / "py"))
    lines = corpora()[corpus]
    sys.path.pop(0)
    tmp = tempfile.mkdtemp()
    try:
        libs = {}
        for commit in commits:
            dest = os.path.join(tmp, commit)
            os.makedirs(dest)
            subprocess.run(f"git -C {ROOT} archive {commit} py | tar -x -C {dest}",
                           shell=True, check=True)
            libs[commit] = load(os.path.join(dest, "py"))
        hf = (tokenizers.Tokenizer, tokenizers.models, tokenizers.pre_tokenizers,
              tokenizers.trainers.BpeTrainer)
        best = {name: float("inf") for name in [*commits, "tokenizers"]}
        merges = {}
        for _ in range(rounds):
            for commit, lib in libs.items():
                seconds, result = train_once(lib, lines, vocab_size)
                merges[commit] = result["merges"]
                best[commit] = min(best[commit], seconds)
            best["tokenizers"] = min(best["tokenizers"], train_once(hf, lines, vocab_size)[0])
    finally:
        shutil.rmtree(tmp)
    ref = best["tokenizers"]
    print(f"{corpus} {vocab_size}: tokenizers {ref:.3f} s; " + "; ".join(
        f"{c} {best[c]:.3f} s {best[c] / ref:.2f}x" for c in commits))
    if len({str(m) for m in merges.values()}) > 1:
        raise SystemExit("the commits learned different merges")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

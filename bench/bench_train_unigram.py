"""Unigram training time: subword_lab's UnigramTrainer against tokenizers', in one run.

Both train with WhitespaceSplit + Metaspace pre-tokenization and "<unk>" as unk
token on (1) botchan.txt and (2) about 450 KB of English prose from the Python
standard library's module docstrings (available offline everywhere), at vocab
sizes 1,000 and 4,000. We report the best of `--repeat` runs and the ratio
subword_lab / tokenizers (aim: at most 10x), plus our peak traced memory for one
run (tracemalloc, measured in a separate pass so it does not slow the timing).

    python bench/bench_train_unigram.py [--repeat 2] [--threads 1]

`--threads` sets RAYON_NUM_THREADS for tokenizers (default: all cores, as users run it).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tools")]


def docstring_corpus(min_bytes=450_000):
    """Lines of prose from the standard library's docstrings, in a fixed order."""
    import ast
    import sysconfig
    lines, size = [], 0
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(stdlib.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    for line in doc.splitlines():
                        if line.strip():
                            lines.append(line)
                            size += len(line.encode("utf-8")) + 1
        if size >= min_bytes:
            break
    return lines


def time_ours(lines, vocab_size):
    from subword_lab import Tokenizer, models, pre_tokenizers
    from subword_lab.trainers import UnigramTrainer
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                 pre_tokenizers.Metaspace()])
    trainer = UnigramTrainer(vocab_size=vocab_size, show_progress=False, unk_token="<unk>",
                             special_tokens=["<unk>"])
    start = time.perf_counter()
    tok.train_from_iterator(lines, trainer)
    return time.perf_counter() - start


def time_hf(lines, vocab_size):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                 pre_tokenizers.Metaspace()])
    trainer = trainers.UnigramTrainer(vocab_size=vocab_size, show_progress=False,
                                      unk_token="<unk>", special_tokens=["<unk>"])
    start = time.perf_counter()
    tok.train_from_iterator(lines, trainer)
    return time.perf_counter() - start


def peak_memory_mb(lines, vocab_size):
    tracemalloc.start()
    time_ours(lines, vocab_size)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()
    if args.threads:
        os.environ["RAYON_NUM_THREADS"] = str(args.threads)
    import assets
    botchan = assets.fetch(quiet=True)["botchan.txt"].read_text(encoding="utf-8").splitlines()
    corpora = {"botchan.txt": botchan, "stdlib docstrings": docstring_corpus()}
    print(f"{'corpus':<20} {'KB':>5} {'vocab':>6} {'tokenizers s':>13} {'subword_lab s':>14} "
          f"{'ratio':>6} {'peak MB':>8}")
    for name, lines in corpora.items():
        kb = sum(len(l.encode("utf-8")) + 1 for l in lines) / 1000
        for vocab_size in (1000, 4000):
            hf = min(time_hf(lines, vocab_size) for _ in range(args.repeat))
            ours = min(time_ours(lines, vocab_size) for _ in range(args.repeat))
            peak = peak_memory_mb(lines, vocab_size)
            print(f"{name:<20} {kb:>5.0f} {vocab_size:>6} {hf:>13.3f} {ours:>14.3f} "
                  f"{ours / hf:>6.1f} {peak:>8.1f}", flush=True)


if __name__ == "__main__":
    main()

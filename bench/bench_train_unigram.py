"""Unigram training time: subword_lab's UnigramTrainer against tokenizers', in one run.

Both train with WhitespaceSplit + Metaspace pre-tokenization and "<unk>" as unk
token on (1) botchan.txt, (2) about 450 KB of English prose from the Python
standard library's module docstrings and (3) a 450 KB multilingual mix
(tools/corpora.py; ours without its script rule there, as tokenizers has none),
at vocab sizes 1,000 (2,000 for the mix) and 4,000. We report the best of
`--repeat` runs and the ratio subword_lab / tokenizers (aim: at most 3x), the
corpus negative log-likelihood of our model relative to tokenizers' (aim: at
most +1%), plus our peak traced memory for one run (tracemalloc, measured in a
separate pass so it does not slow the timing).

    python bench/bench_train_unigram.py [--repeat 2] [--threads 1] [--corpus NAME] [--no-memory] [--cpu]

`--threads` sets RAYON_NUM_THREADS for tokenizers (default: all cores, as users run it).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLOCK = time.perf_counter  # --cpu: time.process_time (all threads' CPU time)
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tools")]

from corpora import docstring_corpus, line_bytes, mixed_corpus


def pre_tokenizer(module):
    return module.Sequence([module.WhitespaceSplit(), module.Metaspace()])


def time_ours(lines, vocab_size, script_rule=True):
    """(seconds, [(piece, score)]) of one training run."""
    import json
    from subword_lab import Tokenizer, models, pre_tokenizers
    from subword_lab.trainers import UnigramTrainer
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizer(pre_tokenizers)
    trainer = UnigramTrainer(vocab_size=vocab_size, show_progress=False, unk_token="<unk>",
                             special_tokens=["<unk>"], split_by_unicode_script=script_rule)
    start = CLOCK()
    tok.train_from_iterator(lines, trainer)
    seconds = CLOCK() - start
    return seconds, json.loads(tok.to_str())["model"]["vocab"]


def time_hf(lines, vocab_size):
    import json
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizer(pre_tokenizers)
    trainer = trainers.UnigramTrainer(vocab_size=vocab_size, show_progress=False,
                                      unk_token="<unk>", special_tokens=["<unk>"])
    start = CLOCK()
    tok.train_from_iterator(lines, trainer)
    seconds = CLOCK() - start
    return seconds, json.loads(tok.to_str())["model"]["vocab"]


def word_counts(lines):
    from tokenizers import pre_tokenizers
    pre = pre_tokenizer(pre_tokenizers)
    counts = {}
    for line in lines:
        for word, _ in pre.pre_tokenize_str(line):
            counts[word] = counts.get(word, 0) + 1
    return counts


def corpus_nll(vocab, counts):
    """Σ count × -log P(best segmentation) of every word under [(piece, score)]."""
    scores = {}
    for piece, score in vocab:
        scores.setdefault(piece, score)
    longest = max(len(p) for p in scores)
    total = 0.0
    for word, count in counts.items():
        best = [0.0] + [-math.inf] * len(word)
        for i in range(len(word)):
            for j in range(i + 1, min(len(word), i + longest) + 1):
                s = scores.get(word[i:j])
                if s is not None and best[i] + s > best[j]:
                    best[j] = best[i] + s
        total -= count * best[-1]
    return total


def peak_memory_mb(lines, vocab_size, script_rule):
    tracemalloc.start()
    time_ours(lines, vocab_size, script_rule)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--corpus", action="append", help="only this corpus (repeatable)")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    parser.add_argument("--cpu", action="store_true",
                        help="measure CPU time, not wall time (a loaded machine)")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    if args.threads:
        os.environ["RAYON_NUM_THREADS"] = str(args.threads)
    import assets
    botchan = assets.fetch(quiet=True)["botchan.txt"].read_text(encoding="utf-8").splitlines()
    # (lines, script rule): tokenizers has none, so the mixed corpus runs ours without it
    corpora = {"botchan.txt": (botchan, True), "stdlib docstrings": (docstring_corpus(), True),
               "mixed": (mixed_corpus(450_000, botchan), False)}
    print(f"{'corpus':<22} {'KB':>5} {'vocab':>6} {'tokenizers s':>13} {'subword_lab s':>14} "
          f"{'ratio':>6} {'NLL vs tok.':>11} {'peak MB':>8}")
    for name, (lines, script_rule) in corpora.items():
        if args.corpus and name not in args.corpus:
            continue
        kb = line_bytes(lines) / 1000
        counts = word_counts(lines)
        for vocab_size in (1000, 4000):
            if vocab_size == 1000 and not script_rule:
                vocab_size = 2000  # the mixed corpus has about 1,800 characters
            runs = [time_hf(lines, vocab_size) for _ in range(args.repeat)]
            hf, hf_vocab = min(t for t, _ in runs), runs[0][1]
            runs = [time_ours(lines, vocab_size, script_rule) for _ in range(args.repeat)]
            ours, our_vocab = min(t for t, _ in runs), runs[0][1]
            theirs = corpus_nll(hf_vocab, counts)
            nll = (corpus_nll(our_vocab, counts) - theirs) / theirs
            peak = math.nan if args.no_memory else peak_memory_mb(lines, vocab_size, script_rule)
            print(f"{name:<22} {kb:>5.0f} {vocab_size:>6} {hf:>13.3f} {ours:>14.3f} "
                  f"{ours / hf:>6.1f} {nll:>+10.2%} {peak:>8.1f}", flush=True)


if __name__ == "__main__":
    main()

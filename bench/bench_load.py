"""sentencepiece .model files: load time and encode throughput against sentencepiece, in one run.

For every sentencepiece model in the asset cache (sentencepiece's own test
models, and the Mistral, Kyoto and other files the real-files table fetches),
we time opening the file (subword_lab.load against SentencePieceProcessor) and
encoding botchan.txt one line per call. Times are CPU time of this process, the
best of --repeat runs (shared machines stretch wall time; encoding is timed on a
freshly opened tokenizer each run, so no run only times cache hits); what we compare is
the ratio ours / sentencepiece, measured side by side.

    python bench/bench_load.py [--repeat 5] [--lines 400]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tools")]

import assets
import subword_lab
from subword_lab.io.sentencepiece_model import read_model


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def encode_cold(path, lines):
    """Encode time on a freshly opened tokenizer: caches start empty in every run
    (a repeat on a warm tokenizer would only time cache hits)."""
    ours = subword_lab.load(path, format="sentencepiece")
    ours.encode(lines[0])  # tables built on first use count as load, not encode
    start = time.process_time()
    for ln in lines:
        ours.encode(ln)
    return time.process_time() - start


def models(cache: Path) -> list:
    """Every file in the cache that is a sentencepiece proto (by content)."""
    found = []
    for path in sorted(cache.iterdir()):
        if not path.is_file() or path.suffix in (".json", ".txt", ".tiktoken", ".whl", ".gz"):
            continue
        try:
            read_model(path)
        except Exception:  # not a sentencepiece proto: skip it
            continue
        found.append(path)
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--lines", type=int, default=400)
    args = parser.parse_args(argv)
    import sentencepiece as spm

    botchan = assets.fetch(["botchan.txt"], quiet=True)["botchan.txt"]
    lines = [ln for ln in Path(botchan).read_text(encoding="utf-8").splitlines() if ln][:args.lines]
    size = sum(len(ln.encode("utf-8")) for ln in lines)
    subword_lab.load(Path(botchan).parent / "botchan_en_bpe_1000.model")  # imports, untimed
    rows = []
    for path in models(Path(botchan).parent):
        ours_load = best(lambda: subword_lab.load(path, format="sentencepiece"), args.repeat)
        spm_load = best(lambda: spm.SentencePieceProcessor(model_file=str(path)), args.repeat)
        theirs = spm.SentencePieceProcessor(model_file=str(path))
        ours_enc = min(encode_cold(path, lines) for _ in range(args.repeat))
        spm_enc = best(lambda: [theirs.encode(ln) for ln in lines], args.repeat)
        first = best(lambda: subword_lab.load(path, format="sentencepiece").encode(lines[0]),
                     args.repeat)
        rows.append((path.name, theirs.get_piece_size(), ours_load, spm_load, first,
                     size / ours_enc, size / spm_enc))
    print(f"{'model':34s} {'vocab':>6s} {'ours load':>10s} {'spm load':>9s} {'ratio':>6s} "
          f"{'load+1st':>9s} {'ratio':>6s} {'ours KB/s':>10s} {'spm KB/s':>9s} {'ratio':>6s}")
    for name, vocab, ol, sl, first, oe, se in rows:
        print(f"{name:34s} {vocab:6d} {ol * 1000:8.1f}ms {sl * 1000:7.1f}ms {ol / sl:6.1f} "
              f"{first * 1000:7.1f}ms {first / sl:6.1f} {oe / 1024:10.0f} {se / 1024:9.0f} "
              f"{se / oe:6.1f}")
    loads = [ol / sl for _, _, ol, sl, _, _, _ in rows]
    firsts = [first / sl for _, _, _, sl, first, _, _ in rows]
    encodes = [se / oe for *_, oe, se in rows]
    print(f"load ratio: median {statistics.median(loads):.1f}, worst {max(loads):.1f}; "
          f"load+1st / spm load: median {statistics.median(firsts):.1f}, "
          f"worst {max(firsts):.1f}; "
          f"encode ratio: median {statistics.median(encodes):.1f}, worst {max(encodes):.1f}")
    if hasattr(os, "getloadavg"):  # how busy the machine was (the ratios are noisy)
        print("load average (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()

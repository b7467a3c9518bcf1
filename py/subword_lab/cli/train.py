"""`python -m subword_lab train`: train a tokenizer on text files, save tokenizer.json.

    python -m subword_lab train --algo bpe --vocab-size 5000 botchan.txt -o tok.json

A progress bar, drawn from the trainer's events, goes to stderr. Bad options and
bad files print one line and exit with 2, never a traceback.
Outputs (-o, --events) are never one of the corpus files, and appear all at once:
they are written to a temporary file beside them and renamed into place.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from ..core.errors import SubwordLabError
from ..io.files import (AtomicTextWriter, atomic_write, check_regular, check_writable,
                        size_cap)
from .console import file_size, say

__all__ = ["main"]

ALGOS = ("bpe", "wordpiece", "unigram")
PRE_TOKENIZERS = ("byte-level", "whitespace", "bert", "metaspace")
DEFAULT_PRE = {"bpe": "byte-level", "wordpiece": "bert", "unigram": "metaspace"}
DEFAULT_UNK = {"bpe": None, "wordpiece": "[UNK]", "unigram": "<unk>"}
DEFAULT_SPECIALS = {"bpe": [], "wordpiece": ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
                    "unigram": ["<unk>"]}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: usage line, message, exit 2
        if sys.stderr is not None:
            self.print_usage(sys.stderr)
        raise SubwordLabError(message)


def _parser():
    p = _Parser(prog="subword-lab train",
                description="Train a BPE, WordPiece or Unigram tokenizer on text files.")
    p.add_argument("files", nargs="+", metavar="FILE", help="UTF-8 text files, read by line")
    p.add_argument("-o", "--output", required=True, help="where to write tokenizer.json")
    p.add_argument("--algo", required=True, choices=ALGOS)
    p.add_argument("--vocab-size", required=True, type=int)
    p.add_argument("--min-frequency", type=int, help="bpe/wordpiece: least count of a merged pair")
    p.add_argument("--special-tokens", help="comma-separated, e.g. '[UNK],[CLS]'")
    p.add_argument("--unk-token", help="the unknown token (wordpiece: [UNK], unigram: <unk>)")
    p.add_argument("--tie-break", choices=("hf", "first"),
                   help="bpe/wordpiece: smallest ids (hf, default) or first in the corpus")
    p.add_argument("--limit-alphabet", type=int, help="bpe/wordpiece: keep the N most frequent characters")
    p.add_argument("--max-token-length", type=int, help="bpe/wordpiece: longest token in characters")
    p.add_argument("--pre-tokenizer", choices=PRE_TOKENIZERS,
                   help="default: byte-level (bpe), bert (wordpiece), metaspace (unigram)")
    p.add_argument("--lowercase", action="store_true", help="lowercase the text first")
    p.add_argument("--method", choices=("em", "exact"), help="unigram: sentencepiece's EM or the course's")
    p.add_argument("--events", metavar="FILE", help="also write every training event as JSON lines")
    p.add_argument("--trace", choices=("summary", "full"), default="summary")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--max-file-size", type=file_size, metavar="BYTES",
                   help="largest corpus file read (default 512M)")
    return p


def _check_files(args):
    """Before training: every corpus file readable, every output writable and none of
    them a corpus file (same path, symlink or hard link) or each other."""
    with size_cap(args.max_file_size):
        for path in args.files:
            check_regular(path)
    check_writable(args.output, args.files, "--output")
    if args.events is not None:
        check_writable(args.events, [*args.files, args.output], "--events")


def _check(args):
    """Option combinations argparse cannot see."""
    if args.vocab_size < 1:
        raise SubwordLabError(f"must be at least 1, got {args.vocab_size}", field="--vocab-size")
    for name in ("min_frequency", "limit_alphabet", "max_token_length"):
        value = getattr(args, name)
        flag = "--" + name.replace("_", "-")
        if value is not None and args.algo == "unigram":
            raise SubwordLabError("applies to bpe and wordpiece only", field=flag)
        if value is not None and value < 0:
            raise SubwordLabError(f"must not be negative, got {value}", field=flag)
    if args.tie_break and args.algo == "unigram":
        raise SubwordLabError("applies to bpe and wordpiece only", field="--tie-break")
    if args.method and args.algo != "unigram":
        raise SubwordLabError("applies to unigram only", field="--method")


def _specials(args):
    specials = DEFAULT_SPECIALS[args.algo] if args.special_tokens is None else \
        [s.strip() for s in args.special_tokens.split(",") if s.strip()]
    unk = args.unk_token if args.unk_token is not None else DEFAULT_UNK[args.algo]
    if unk is not None and unk not in specials:
        specials = [unk] + specials  # the model needs its unknown token in the vocab
    return specials, unk


def _build(args, specials, unk):
    """The empty tokenizer and its trainer."""
    from .. import decoders, models, normalizers, pre_tokenizers, trainers
    from ..tokenizer import Tokenizer

    pre = args.pre_tokenizer or DEFAULT_PRE[args.algo]
    common = {"vocab_size": args.vocab_size, "special_tokens": specials,
              "show_progress": False, "trace": args.trace}
    merge_options = {k: v for k, v in (("min_frequency", args.min_frequency),
                                       ("limit_alphabet", args.limit_alphabet),
                                       ("max_token_length", args.max_token_length),
                                       ("tie_break", args.tie_break)) if v is not None}
    if pre == "byte-level" and args.algo != "unigram":
        merge_options["initial_alphabet"] = pre_tokenizers.ByteLevel.alphabet()
    if args.algo == "bpe":
        tok = Tokenizer(models.BPE(unk_token=unk))
        trainer = trainers.BpeTrainer(**common, **merge_options)
    elif args.algo == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token=unk))
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(**common, **merge_options)
    else:
        tok = Tokenizer(models.Unigram())
        extra = {"method": args.method} if args.method else {}
        trainer = trainers.UnigramTrainer(unk_token=unk, **common, **extra)
    if args.lowercase:
        tok.normalizer = normalizers.Lowercase()
    if pre == "byte-level":
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
    elif pre == "metaspace":
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        tok.decoder = decoders.Metaspace()
    elif pre == "bert":
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    else:
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return tok, trainer


class Progress:
    """A one-line bar on stderr, redrawn at most ten times a second."""

    WIDTH = 30
    # What the trainer is doing, in words (the events' names are for programs: docs/events.md).
    PHASES = {
        "train_start": "reading the corpus",
        "words": "counting words",
        "alphabet": "collecting the alphabet",
        "merge": "merging pairs",
        "unigram_seed": "choosing the seed pieces",
        "unigram_em": "re-estimating piece probabilities",
        "unigram_prune": "pruning the vocabulary",
        "unigram_exact_round": "pruning the vocabulary",
        "train_end": "done",
    }

    def __init__(self, stream, target, quiet=False):
        self.stream, self.target, self.quiet = stream, target, quiet
        self.start_vocab = None
        self.step = 0
        self.last = 0.0
        self.drawn = False

    def __call__(self, event):
        if self.quiet:
            return
        kind = event.get("type")
        if kind == "alphabet":
            self.start_vocab = event.get("vocab_size")
        if kind == "merge":
            self.step = event["step"]
        now = time.monotonic()
        if kind != "train_end" and self.drawn and now - self.last < 0.1:
            return
        self.last = now
        self.stream.write("\r" + self._line(event)[:78].ljust(78))
        self.stream.flush()
        self.drawn = True

    def _line(self, event):
        kind, size = event.get("type"), event.get("vocab_size")
        if kind in ("merge", "train_end") and self.start_vocab is not None:
            span = max(1, self.target - self.start_vocab)
            done = min(1.0, max(0.0, (size - self.start_vocab) / span))
            bar = "#" * round(done * self.WIDTH)
            return f"[{bar:<{self.WIDTH}}] {done:4.0%}  merge {self.step}  vocab {size}"
        words = self.PHASES.get(kind, "training")
        return words + (f"  vocab {size}" if isinstance(size, int) else "")

    def close(self):
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def _run(argv):
    args = _parser().parse_args(argv)
    _check(args)
    specials, unk = _specials(args)
    tok, trainer = _build(args, specials, unk)
    from ..trainers.base import read_files

    _check_files(args)  # fail before training, not half-way through
    progress = Progress(sys.stderr, args.vocab_size, args.quiet or sys.stderr is None)
    sink = AtomicTextWriter(args.events, args.files, "--events") if args.events else None
    started = time.perf_counter()
    try:
        def on_event(event):
            progress(event)
            if sink is not None:
                sink.write(json.dumps(event, ensure_ascii=False) + "\n")
        tok.train_from_iterator(read_files(args.files), trainer, on_event=on_event)
        atomic_write(args.output, tok.to_str(True), args.files, "--output")
    except BaseException:
        if sink is not None:
            sink.discard()
        raise
    finally:
        progress.close()
    if sink is not None:
        sink.commit()
    elapsed = time.perf_counter() - started
    say(f"{args.algo}: vocabulary of {tok.get_vocab_size()} tokens in {elapsed:.1f} s "
         f"-> {args.output}")
    return 0


def main(argv=None):
    """Entry point; returns the exit status (0, 2 for bad input, 130 when interrupted)."""
    from ..trainers.base import TrainingCancelled

    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _run(argv)
    except SubwordLabError as exc:
        say(f"error: {exc}")
        return 2
    except (KeyboardInterrupt, TrainingCancelled):
        say("training cancelled")
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""Command line: `python -m subword_lab encode --tokenizer PATH [--no-special-tokens]`.

`encode` reads text lines from stdin and writes one JSON object per line
(`ids`, `tokens`, `offsets`). `train` is handed to `subword_lab.cli.train`.
A bad file or option prints the SubwordLabError message and exits with 2,
never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..core.errors import SubwordLabError
from ..io.loaders import load
from . import train

__all__ = ["main"]


def _encode(args):
    tokenizer = load(args.tokenizer)
    add_special = not args.no_special_tokens
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", errors="replace")
        if line.endswith("\n"):
            line = line[:-1]
            if line.endswith("\r"):
                line = line[:-1]
        enc = tokenizer.encode(line, add_special_tokens=add_special)
        record = {"ids": enc.ids, "tokens": enc.tokens, "offsets": enc.offsets}
        out.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
    out.flush()
    return 0


def _parser():
    parser = argparse.ArgumentParser(prog="python -m subword_lab",
                                     description="Subword Lab tokenizers on the command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    enc = sub.add_parser("encode", help="encode stdin, one JSON object per line")
    enc.add_argument("--tokenizer", required=True,
                     help="tokenizer.json, vocab.txt, vocab.json (+merges.txt), "
                          ".tiktoken or sentencepiece .model")
    enc.add_argument("--no-special-tokens", action="store_true",
                     help="do not run the post-processor's special tokens")
    sub.add_parser("train", help="train a tokenizer (see `train --help`)", add_help=False)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv and argv[0] == "train":
            return train.main(argv[1:]) or 0
        args = _parser().parse_args(argv)
        return _encode(args)
    except SubwordLabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130

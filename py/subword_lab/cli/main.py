"""Command line: `python -m subword_lab encode --tokenizer PATH [options]`.

`encode` reads text lines from stdin and writes one JSON object per line
(`ids`, `tokens`, `offsets`). Options: `--merges` (the other file of a BPE pair),
`--format`, `--pattern` (the split rules of tiktoken ranks: a known encoding's name
or a regex), `--special-tokens recognise|as-text` (special-token text in the input),
`--no-special-tokens` (no post-processor tokens). When tiktoken ranks get GPT-2's
pattern only by default, a note on stderr says so. `train` is handed to `subword_lab.cli.train`,
`info FILE` (a GGUF model's summary, read from its header) to `subword_lab.cli.info`.
A bad file or option prints the SubwordLabError message and exits with 2,
never a traceback. A reader that stops early (`| head`) ends the output quietly.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from ..core.errors import SubwordLabError
from ..io.loaders import load
from . import info, train
from .console import file_size, say

__all__ = ["main"]


def _load(args):
    options = {}
    for name in ("format", "merges", "pattern"):
        value = getattr(args, name)
        if value is not None:
            options[name] = value
    tokenizer = load(args.tokenizer, max_bytes=args.max_file_size, **options)
    rules = getattr(tokenizer, "rules", None) or {}
    if rules.get("pattern_name") is None and rules.get("format") == "tiktoken" \
            and args.pattern is None:
        print(f"note: {args.tokenizer}: {rules['pattern_source']} "
              "(--pattern NAME_OR_REGEX; known: "
              f"{', '.join(rules.get('known_patterns', []))})", file=sys.stderr)
    return tokenizer


def _encode(args):
    out, source = _stream(sys.stdout, "standard output"), _stream(sys.stdin, "standard input")
    tokenizer = _load(args)
    add_special = not args.no_special_tokens
    mode = None if args.special_tokens is None else args.special_tokens.replace("-", "_")
    for raw in source:
        line = raw.decode("utf-8", errors="replace")
        if line.endswith("\n"):
            line = line[:-1]
            if line.endswith("\r"):
                line = line[:-1]
        enc = tokenizer.encode(line, add_special_tokens=add_special, special_tokens=mode)
        record = {"ids": enc.ids, "tokens": enc.tokens, "offsets": enc.offsets}
        out.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
    out.flush()
    return 0


def _stream(stream, name):
    """The binary side of stdin/stdout, or a clear error when it is closed (`>&-`)."""
    if stream is None or getattr(stream, "buffer", None) is None:
        raise SubwordLabError(f"{name} is closed")
    return stream.buffer


def _parser():
    parser = argparse.ArgumentParser(prog="subword-lab",
                                     description="Subword Lab tokenizers on the command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    enc = sub.add_parser("encode", help="encode stdin, one JSON object per line")
    enc.add_argument("--tokenizer", required=True,
                     help="tokenizer.json, vocab.txt, vocab.json (+merges.txt), "
                          ".tiktoken, sentencepiece .model or a GGUF model file")
    enc.add_argument("--merges", help="the merges file of a BPE pair (merges.txt or "
                                      "vocab.bpe) when it is not next to the vocabulary")
    enc.add_argument("--format", choices=["tokenizer.json", "vocab.txt", "bpe", "tiktoken",
                                          "sentencepiece", "gguf"],
                     help="skip detection (the file's content decides by default)")
    enc.add_argument("--pattern", help="split rules for tiktoken ranks: a known encoding "
                                       "(cl100k_base, o200k_base, llama3, qwen, ...) or a regex")
    enc.add_argument("--special-tokens", choices=["recognise", "as-text"],
                     help="special-token text in the input: match it as the special "
                          "token, or encode it as text (default: the file's own "
                          "library: recognise for tokenizer.json, as-text for tiktoken)")
    enc.add_argument("--no-special-tokens", action="store_true",
                     help="do not run the post-processor's special tokens")
    enc.add_argument("--max-file-size", type=file_size, metavar="BYTES",
                     help="largest tokenizer file read (default 512M)")
    sub.add_parser("train", help="train a tokenizer (see `train --help`)", add_help=False)
    sub.add_parser("info", help="what a tokenizer file holds (see `info --help`)",
                   add_help=False)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv and argv[0] == "train":
            return train.main(argv[1:]) or 0
        if argv and argv[0] == "info":
            return info.main(argv[1:])
        args = _parser().parse_args(argv)
        return _encode(args)
    except SubwordLabError as exc:
        say(f"error: {exc}")
        return 2
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        return 130


def _silence_stdout():
    """The reader went away: point stdout at /dev/null so that the final flush at
    exit does not print a second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass

"""`python -m subword_lab info FILE [--json]`: what a tokenizer file holds.

For a GGUF model file: the header's summary (model name, architecture, tokenizer
kind, pre-tokenizer, vocabulary size, token types, special tokens, BOS/EOS rules,
chat template present), read from the metadata only (no tensor is read, so a
40 GB model answers as fast as a small one). For any other file: its format as
detected, the vocabulary size and the rules the loader chose.
"""
from __future__ import annotations

import argparse
import json
import sys

from ..io.detect import detect_file
from ..io.gguf import read_gguf
from ..io.gguf_tokenizer import gguf_summary
from ..io.loaders import load
from .console import file_size

__all__ = ["main"]


def _parser():
    parser = argparse.ArgumentParser(prog="python -m subword_lab info",
                                     description="What a tokenizer file holds.")
    parser.add_argument("file", help="a GGUF model file or any tokenizer file")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--max-file-size", type=file_size, metavar="BYTES",
                        help="largest tokenizer file (or GGUF header) read (default 512M)")
    return parser


def summary(path, max_bytes=None) -> dict:
    from pathlib import Path
    from ..io.files import size_cap
    path = Path(path)
    with size_cap(max_bytes):
        if not path.is_dir() and detect_file(path) == "gguf":
            return gguf_summary(read_gguf(path))
        tok = load(path)
    rules = dict(getattr(tok, "rules", None) or {})
    return {"format": rules.pop("format", None),
            "vocab_size": tok.get_vocab_size(with_added_tokens=True), "rules": rules}


def _lines(info):
    out = []
    for key, value in info.items():
        if isinstance(value, dict):
            if not value:
                continue
            out.append(f"{key}:")
            for k, v in value.items():
                if isinstance(v, dict):
                    v = " ".join(f"{a}={b!r}" if isinstance(b, str) else f"{a}={b}"
                                 for a, b in v.items())
                out.append(f"  {k}: {v}")
        elif value is not None:
            out.append(f"{key}: {value}")
    return out


def main(argv):
    args = _parser().parse_args(argv)
    info = summary(args.file, args.max_file_size)
    if args.json:
        print(json.dumps(info, ensure_ascii=False))
    else:
        sys.stdout.write("\n".join(_lines(info)) + "\n")
    return 0

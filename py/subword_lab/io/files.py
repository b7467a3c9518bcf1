"""Reading the user's files for the loaders: bytes, UTF-8 text, JSON, option checks,
and errors that name the file."""
from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import SubwordLabError

__all__ = ["check_options", "read_bytes", "read_text", "read_json", "with_path"]


def check_options(path, options, allowed):
    for key in options:
        if key not in allowed:
            raise SubwordLabError(f"unknown option (this format takes: "
                                  f"{', '.join(sorted(allowed)) or 'none'})",
                                  path=path, field=key)



def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SubwordLabError(f"cannot read: {exc.strerror}", path=path) from None


def read_text(path: Path, what: str) -> str:
    data = read_bytes(path)
    if not data.strip():
        raise SubwordLabError(f"empty file (expected {what})", path=path)
    nul = data.find(b"\x00")
    if nul >= 0:
        raise SubwordLabError(f"binary data, not a text file (expected {what})", path=path,
                              field=f"byte {nul}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SubwordLabError(f"not UTF-8 text (expected {what})", path=path,
                              field=f"byte {exc.start}") from None


def read_json(path: Path):
    text = read_text(path, "JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SubwordLabError(f"not valid JSON ({exc.msg})", path=path,
                              field=f"line {exc.lineno} column {exc.colno}") from None


def with_path(path, build):
    """Run `build()`; component errors that lack a file get this file's name."""
    try:
        return build()
    except SubwordLabError as exc:
        if exc.path is None:
            raise SubwordLabError(exc.reason, path=path, field=exc.field) from None
        raise

"""Reading the user's files for the loaders: the safe reading and writing of
core.safe_files (regular files only, a size cap, atomic writes that never touch an
input), plus JSON as tokenizers reads it, option checks and errors that name the file.
"""
from __future__ import annotations

from pathlib import Path

from ..core.errors import SubwordLabError
from ..core.safe_files import (MAX_BYTES, AtomicTextWriter, atomic_write, check_not_input,
                               check_regular, check_writable, read_bytes, read_text,
                               same_file, size_cap)
from ..core.json_checks.schema import loads_strict

__all__ = ["MAX_BYTES", "check_options", "read_bytes", "read_text", "read_json", "with_path",
           "check_not_input", "atomic_write", "same_file", "size_cap", "check_writable",
           "check_regular", "AtomicTextWriter"]


def check_options(path, options, allowed):
    for key in options:
        if key not in allowed:
            raise SubwordLabError(f"unknown option (this format takes: "
                                  f"{', '.join(sorted(allowed)) or 'none'})",
                                  path=path, field=key)


def read_json(path, max_bytes=None):
    """JSON as tokenizers reads it (see core.json_checks.schema.loads_strict)."""
    return loads_strict(read_text(path, "JSON", max_bytes), Path(path))


def with_path(path, build):
    """Run `build()`; component errors that lack a file get this file's name, and so
    do errors the built tokenizer raises later, at encode time."""
    try:
        built = build()
    except SubwordLabError as exc:
        if exc.path is None:
            raise SubwordLabError(exc.reason, path=path, field=exc.field) from None
        raise
    if hasattr(built, "_source"):
        built._source = str(path)
    return built

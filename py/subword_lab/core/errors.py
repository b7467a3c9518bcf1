"""The one error type Subword Lab raises for bad files, bad fields and bad options."""
from __future__ import annotations

import os


class SubwordLabError(ValueError):
    """A malformed or unsupported input.

    The message names where the problem is (the file, then the field) and what
    was wrong, so a command line can print it as it is, without a traceback.
    """

    def __init__(self, message: str, path: str | os.PathLike[str] | None = None,
                 field: str | None = None) -> None:
        self.path = None if path is None else str(path)
        self.field = field
        self.reason = message
        where = [part for part in (self.path, field) if part]
        super().__init__(": ".join(where + [message]))

"""Real tokenizer files opened with subword_lab once per test session, as the page opens
them: without the file's own truncation and padding (the page shows every token)."""
from __future__ import annotations

import functools

import subword_lab
from tools import assets


@functools.cache
def opened(name: str):
    tok = subword_lab.load(str(assets.fetch([name], quiet=True)[name]))
    for method in ("no_truncation", "no_padding"):
        getattr(tok, method, lambda: None)()
    return tok

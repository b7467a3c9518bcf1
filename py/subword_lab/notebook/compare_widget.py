"""`notebook.compare([tok1, tok2, ...], text)`: one text, several tokenizers, side by side.

Synced traits: `text` (writable: every row follows), `names`, and `rows`, one per
tokenizer in the order given: `{"name", "info", "ids", "tokens", "offsets", "special"}`.
"""
from __future__ import annotations

import os

import anywidget
import traitlets

from ..core.errors import SubwordLabError
from . import front_end
from .convert import as_tokenizer, describe

__all__ = ["CompareWidget", "compare", "MAX_TOKENIZERS"]

MAX_TOKENIZERS = 8


def _name(obj, index: int) -> str:
    """A row's label: a path's file name, else the object's class and its position."""
    if isinstance(obj, (str, os.PathLike)):
        return os.path.basename(os.fspath(obj)) or os.fspath(obj)
    return f"{index + 1}. {type(obj).__name__}"


class CompareWidget(anywidget.AnyWidget):
    _esm = front_end.esm()
    widget = traitlets.Unicode("compare").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(self, tokenizers, text: str = "") -> None:
        named = list(tokenizers.items()) if isinstance(tokenizers, dict) else \
            [(_name(obj, i), obj) for i, obj in enumerate(tokenizers)]
        if not 1 <= len(named) <= MAX_TOKENIZERS:
            raise SubwordLabError(f"give 1 to {MAX_TOKENIZERS} tokenizers to compare, not {len(named)}",
                                  field="tokenizers")
        self.named = [(str(name), as_tokenizer(obj)) for name, obj in named]
        super().__init__()
        self.text = text
        if text == "":
            self._encode()

    @traitlets.observe("text")
    def _changed(self, _change) -> None:
        self._encode()

    def _encode(self) -> None:
        rows = []
        for name, tokenizer in self.named:
            encoding = tokenizer.encode(self.text)
            rows.append({"name": name, "info": describe(tokenizer), "ids": list(encoding.ids),
                         "tokens": list(encoding.tokens),
                         "offsets": [[start, end] for start, end in encoding.offsets],
                         "special": [bool(m) for m in encoding.special_tokens_mask]})
        self.rows = rows


def compare(tokenizers, text: str = "") -> CompareWidget:
    """A widget with `text` encoded by each tokenizer (a list, or a dict name -> tokenizer)."""
    return CompareWidget(tokenizers, text)

"""`notebook.tokens(tokenizer, text)`: one text's tokens as the page's chips, in a notebook.

Synced traits (read them in tests; `text` and `add_special_tokens` are writable and the
view follows): `text`, `ids`, `tokens`, `offsets` (character spans, as lists), `special`
(the special-tokens mask), `add_special_tokens`, `info` (how the chips mark tokens).
"""
from __future__ import annotations

import anywidget
import traitlets

from . import front_end
from .convert import as_tokenizer, describe

__all__ = ["TokensWidget", "tokens"]


class TokensWidget(anywidget.AnyWidget):
    _esm = front_end.esm()
    widget = traitlets.Unicode("tokens").tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)
    add_special_tokens = traitlets.Bool(True).tag(sync=True)
    ids = traitlets.List(traitlets.Int()).tag(sync=True)
    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    offsets = traitlets.List(traitlets.List(traitlets.Int())).tag(sync=True)
    special = traitlets.List(traitlets.Bool()).tag(sync=True)
    info = traitlets.Dict().tag(sync=True)

    def __init__(self, tokenizer, text: str = "", *, add_special_tokens: bool = True) -> None:
        self.tokenizer = as_tokenizer(tokenizer)
        super().__init__(info=describe(self.tokenizer), add_special_tokens=add_special_tokens)
        self.text = text  # encodes (the observer below)
        if not self.ids and text == "":
            self._encode()

    @traitlets.observe("text", "add_special_tokens")
    def _changed(self, _change) -> None:
        self._encode()

    def _encode(self) -> None:
        encoding = self.tokenizer.encode(self.text, add_special_tokens=self.add_special_tokens)
        with self.hold_sync():
            self.ids = list(encoding.ids)
            self.tokens = list(encoding.tokens)
            self.offsets = [[start, end] for start, end in encoding.offsets]
            self.special = [bool(m) for m in encoding.special_tokens_mask]


def tokens(tokenizer, text: str = "", *, add_special_tokens: bool = True) -> TokensWidget:
    """A widget showing `text` encoded by `tokenizer` (see the module's docstring)."""
    return TokensWidget(tokenizer, text, add_special_tokens=add_special_tokens)

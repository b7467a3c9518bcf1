"""`notebook.tokens(tokenizer, text)`: one text's tokens as the page's chips, in a notebook.

Synced traits (read them in tests; `text` and `add_special_tokens` are writable and the
view follows): `text`, `ids`, `tokens`, `offsets` (character spans, as lists), `special`
(the special-tokens mask), `add_special_tokens`, `info` (how the chips mark tokens).

"Why this token?": a click on a chip sets `why_index` (writable; -1: none) and the kernel
answers in `why`, as the page's worker does (pipeline/why.py's `explain_token`): the model's
`events` on the stretch of text around the token, which ends in the very tokens the encode
gave there, with `text`, `word`, `ids`, `tokens`, `token` (the clicked one's place among
them), `start`, `end` (the stretch, in characters), `added`, `nbest` (Unigram: the n best
segmentations, nbest.py), or `error` (a token the post-processor added has no steps). A new
text or special-tokens choice clears both.
"""
from __future__ import annotations

import anywidget
import traitlets

from ..core.errors import SubwordLabError
from ..pipeline.why import explain_token
from . import front_end
from .convert import as_tokenizer, describe
from .nbest import nbest_for

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
    why_index = traitlets.Int(-1).tag(sync=True)
    why = traitlets.Dict().tag(sync=True)

    def __init__(self, tokenizer, text: str = "", *, add_special_tokens: bool = True) -> None:
        self.tokenizer = as_tokenizer(tokenizer)
        super().__init__(info=describe(self.tokenizer), add_special_tokens=add_special_tokens)
        self.text = text  # encodes (the observer below)
        if not self.ids and text == "":
            self._encode()

    @traitlets.observe("text", "add_special_tokens")
    def _changed(self, _change) -> None:
        self._encode()

    @traitlets.observe("why_index")
    def _why(self, change) -> None:
        index = change["new"]
        if index < 0:
            self.why = {}
            return
        events: list[dict] = []
        try:
            answer = explain_token(self.tokenizer, self.text, index, events.append,
                                   add_special_tokens=self.add_special_tokens)
        except SubwordLabError as error:
            self.why = {"index": index, "error": str(error)}
            return
        answer.pop("full", None)
        self.why = {**answer, "index": index, "events": events, "nbest": nbest_for(self.tokenizer, events)}

    def _encode(self) -> None:
        encoding = self.tokenizer.encode(self.text, add_special_tokens=self.add_special_tokens)
        with self.hold_sync():
            self.why_index = -1
            self.ids = list(encoding.ids)
            self.tokens = list(encoding.tokens)
            self.offsets = [[start, end] for start, end in encoding.offsets]
            self.special = [bool(m) for m in encoding.special_tokens_mask]


def tokens(tokenizer, text: str = "", *, add_special_tokens: bool = True) -> TokensWidget:
    """A widget showing `text` encoded by `tokenizer` (see the module's docstring)."""
    return TokensWidget(tokenizer, text, add_special_tokens=add_special_tokens)

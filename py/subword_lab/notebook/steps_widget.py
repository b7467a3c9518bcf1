"""`notebook.steps(tokenizer, word)`: how the model cut one word, step by step, on the player:
BPE's merges by rank, WordPiece's greedy longest match, or Unigram's lattice, drawn by the
page's encode view renderers from the model's events (docs/events.md, "Encoding: models").

Synced traits: `word` (writable: the steps follow), `events` (the encode's events),
`ids`, `tokens`, `offsets` (of that encode, offsets in UTF-16 code units as the page's
renderers read them), `info`, for a Unigram model `nbest`: the n best segmentations
of each piece, listed beside the lattice's last step as the page lists them (nbest.py),
and `code`: the Code panel below the drawing, the plain reference's step for each model
event (`reference.panel.encode_steps`), as on the page.
"""
from __future__ import annotations

import anywidget
import traitlets

from ..core.errors import SubwordLabError
from ..reference.panel import encode_steps
from . import front_end
from .convert import as_tokenizer, describe
from .nbest import nbest_for

__all__ = ["StepsWidget", "steps", "MAX_WORD", "utf16"]

MAX_WORD = 200  # characters: a step view is for one word or a short phrase


def utf16(text: str, offsets) -> list[list[int]]:
    """Character offsets as UTF-16 offsets (what JavaScript strings count)."""
    units = [0]
    for ch in text:
        units.append(units[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return [[units[start], units[end]] for start, end in offsets]


class StepsWidget(anywidget.AnyWidget):
    _esm = front_end.esm()
    widget = traitlets.Unicode("steps").tag(sync=True)
    word = traitlets.Unicode("").tag(sync=True)
    events = traitlets.List().tag(sync=True)
    ids = traitlets.List(traitlets.Int()).tag(sync=True)
    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    offsets = traitlets.List(traitlets.List(traitlets.Int())).tag(sync=True)
    info = traitlets.Dict().tag(sync=True)
    nbest = traitlets.List(traitlets.Dict()).tag(sync=True)
    code = traitlets.Dict().tag(sync=True)

    def __init__(self, tokenizer, word: str) -> None:
        self.tokenizer = as_tokenizer(tokenizer)
        info = describe(self.tokenizer)
        if info["model"] not in ("BPE", "WordPiece", "Unigram"):
            raise SubwordLabError(f"steps are drawn for BPE, WordPiece and Unigram models, not {info['model']}",
                                  field="tokenizer")
        super().__init__(info=info)
        self.word = word
        if word == "":
            self._trace()

    @traitlets.validate("word")
    def _short(self, proposal) -> str:
        word = proposal["value"]
        if len(word) > MAX_WORD:
            raise SubwordLabError(f"{len(word):,} characters: the steps show at most {MAX_WORD}; "
                                  "use notebook.tokens for a longer text", field="word")
        return word

    @traitlets.observe("word")
    def _changed(self, _change) -> None:
        self._trace()

    def _trace(self) -> None:
        events: list[dict] = []
        encoding = self.tokenizer.encode(self.word, on_event=events.append, add_special_tokens=False)
        with self.hold_sync():
            self.events = events
            self.ids = list(encoding.ids)
            self.tokens = list(encoding.tokens)
            self.offsets = utf16(self.word, encoding.offsets)
            self.nbest = nbest_for(self.tokenizer, events)
            self.code = encode_steps(self.tokenizer.model, events)


def steps(tokenizer, word: str) -> StepsWidget:
    """A widget stepping through how `tokenizer`'s model cuts `word` (see the module's docstring)."""
    return StepsWidget(tokenizer, word)

"""The n best segmentations the Unigram step view lists after the lattice, computed in the
kernel for each piece of a trace (models/unigram_nbest.py, which the page's worker also
answers with): the notebook's views get them with the events, with no call back."""
from __future__ import annotations

from ..models import Unigram
from ..models.unigram_nbest import nbest_of

__all__ = ["NBEST", "nbest_for"]

NBEST = 5  # as the page lists (web/views/encode/nbest.js)


def nbest_for(tokenizer, events: list[dict]) -> list[dict]:
    """One `nbest_of` answer per distinct piece the model traced in `events`; [] unless the
    model is a Unigram (a sentencepiece model's is a subclass)."""
    model = getattr(tokenizer, "model", None)
    if not isinstance(model, Unigram):
        return []
    words = dict.fromkeys(e["text"] for e in events if e.get("type") == "model_piece")
    return [nbest_of(model, word, NBEST) for word in words]

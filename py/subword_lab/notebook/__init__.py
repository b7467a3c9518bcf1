"""Subword Lab's views in a notebook: widgets (anywidget) computed by the CPython library.

    from subword_lab import notebook
    notebook.tokens("tokenizer.json", "Hello world")   # the chips, ids and counts
    w = notebook.training(); display(w)
    tokenizer.train_from_iterator(texts, trainer, on_event=w)   # the run, live, on the player

Needs the `notebook` extra (`pip install "subword-lab[notebook]"`, which brings anywidget).
Without it, using a widget stops with one line saying so (IPython shows no traceback).
"""
from __future__ import annotations

import importlib

from ..core.errors import SubwordLabError

__all__ = ["tokens", "training", "steps", "compare", "MissingExtra"]

_WIDGETS = {"tokens": "tokens_widget", "training": "training_widget", "steps": "steps_widget",
            "compare": "compare_widget"}


class MissingExtra(SubwordLabError):
    """anywidget, or the widgets' front end, is not installed; in IPython the message is
    shown alone, without a traceback."""

    def _render_traceback_(self) -> list[str]:
        return [f"SubwordLabError: {self}"]


def __getattr__(name):
    if name not in _WIDGETS:
        raise AttributeError(f"module 'subword_lab.notebook' has no attribute {name!r}")
    try:
        import anywidget  # noqa: F401  (only: is the extra installed?)
    except ImportError:
        raise MissingExtra("the notebook widgets need anywidget: "
                           'pip install "subword-lab[notebook]"', field="subword_lab.notebook") from None
    value = getattr(importlib.import_module(f".{_WIDGETS[name]}", __name__), name)
    globals()[name] = value
    return value

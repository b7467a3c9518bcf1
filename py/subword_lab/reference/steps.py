"""Which line of the reference reported each event, and the variables it held then.

Every reference function calls `on_event(event)` like the fast code does. Pass a
`Steps` as `on_event` and it keeps, for each event, a *step*:

    {"function": "encode_word", "line": 42, "focus": 42,
     "vars": {"word": "hug", "pair": ["h", "ug"]}}

`line` is the line number in the module's file of the `on_event(...)` call that
reported the event (read from the running frame, so it stays true when the
source changes); `vars` holds the current values of the variables that module
names in its `SHOWN` tuple, those of them the function has set. `focus` is the
line a learner wants to see for that event: the first line of the function that
holds the text the module's `FOCUS` dict gives for the event's type (a training
step's pick of the best pair, say, rather than the line that reports it), else
`line`. The page's Code panel shows the function's source (`source()`),
highlights `focus` and lists `vars`.
"""
from __future__ import annotations

import importlib
import inspect

__all__ = ["Steps", "source"]

LIST_LIMIT = 40  # longer lists are cut (the panel shows a few values, not a corpus)


def _plain(value):
    """A JSON-ready copy of a variable: tuples and sets become lists, long lists are cut."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        items = list(value.items())[:LIST_LIMIT]
        return {str(k): _plain(v) for k, v in items}
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in list(value)[:LIST_LIMIT]]
    return repr(value)


class Steps:
    """An `on_event` callback that keeps the events and, beside each, its step."""

    def __init__(self, on_event=None):
        self.events = []
        self.steps = []
        self._forward = on_event

    def __call__(self, event):
        frame = inspect.currentframe().f_back
        shown = frame.f_globals.get("SHOWN", ())
        local = frame.f_locals
        self.events.append(event)
        focus = frame.f_globals.get("FOCUS", {}).get(event.get("type"))
        self.steps.append({
            "module": frame.f_globals["__name__"],
            "function": frame.f_code.co_name,
            "line": frame.f_lineno,
            "focus": _line_with(frame.f_code, focus) if focus else frame.f_lineno,
            "vars": {name: _plain(local[name]) for name in shown if name in local},
        })
        if self._forward is not None:
            return self._forward(event)
        return None


_SOURCES = {}  # code object -> (its lines, its first line number)


def _line_with(code, text):
    """The number of the first line of the function `code` that holds `text`."""
    if code not in _SOURCES:
        _SOURCES[code] = inspect.getsourcelines(code)
    lines, first = _SOURCES[code]
    for index, line in enumerate(lines):
        if text in line:
            return first + index
    raise ValueError(f"{code.co_name}() has no line holding {text!r}")


def source(module: str, function: str) -> dict:
    """The source of a reference function as the installed package holds it.

    Returns {"module", "function", "first_line" (its first line's number in the
    file), "lines" (the source, one string per line)}; a step's `line` is
    `first_line + index` of the line it points at.
    """
    if not module.startswith(__package__ + "."):
        raise ValueError(f"{module!r} is not a reference module")
    func = getattr(importlib.import_module(module), function)
    lines, first = inspect.getsourcelines(func)
    return {"module": module, "function": function, "first_line": first,
            "lines": [line.rstrip("\n") for line in lines]}

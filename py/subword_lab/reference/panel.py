"""What the Code panel shows beside an encode: the reference's step for each model event.

`encode_steps(model, events)` takes a model and the events a Tokenizer reported
while it encoded (docs/events.md), runs every piece the model saw through the
reference of that model with a `steps.Steps` recorder, and answers, for each
model event in order, the *step* of the reference that reported it: {function,
line, focus, vars}, plus the source of those functions as the installed package
holds it. The page (web/code.py) and the notebook's steps widget both show it.

When the reference's events are the fast path's (the tests prove they are, for
every option the reference covers), `follows` is "reference". Otherwise (BPE
dropout, a model the reference does not cover) each fast event is shown at the
reference line that reports events of its type, with the event's own fields as
the variables, and `follows` is "fast".
"""
from __future__ import annotations

from . import bpe, steps, unigram, wordpiece

__all__ = ["encode_steps", "follow_fast", "lines_of", "REFERENCES"]

# model type -> (the reference module, the prefix of its events)
REFERENCES = {"BPE": (bpe, "bpe."), "WordPiece": (wordpiece, "wordpiece."),
              "Unigram": (unigram, "unigram.")}


def model_type(model) -> str:
    """"BPE", "WordPiece", "Unigram" for a model of those kinds (or a subclass), else its
    class name."""
    for cls in type(model).__mro__:
        if cls.__name__ in REFERENCES:
            return cls.__name__
    return type(model).__name__


def lines_of(known_steps) -> dict:
    """event type -> the first step that reported one (without its variables)."""
    line_of: dict = {}
    for event, step in known_steps:
        line_of.setdefault(event["type"], {k: v for k, v in step.items() if k != "vars"})
    return line_of


def follow_fast(events, known_steps, names=None) -> list:
    """Steps for events the reference did not report itself: the line of the first
    reference step of the same event type, the event's fields (those in `names`,
    when given) as the variables."""
    line_of = lines_of(known_steps)
    out = []
    for event in events:
        step = line_of.get(event["type"])
        shown = {k: steps._plain(v) for k, v in event.items()
                 if k != "type" and (names is None or k in names)}
        if step is None:
            out.append({"module": None, "function": None, "line": None, "vars": shown})
        else:
            out.append({**step, "vars": shown})
    return out


def encode_steps(model, events) -> dict:
    """The Code panel's answer for an encode by `model` that reported `events`:
    {"model", "follows" ("reference", "fast", or None for a model with no reference),
    "steps" (one per model event), "sources"}."""
    kind = model_type(model)
    if kind not in REFERENCES:
        return {"model": kind, "follows": None, "steps": [], "sources": []}
    module, prefix = REFERENCES[kind]
    fast = [e for e in events if e["type"].startswith(prefix)]
    recorder = steps.Steps()
    supported = not getattr(model, "dropout", None)
    if supported:
        words = [e["text"] for e in events if e["type"] == "model_piece"]
        try:
            for word in words:
                module.encode(model, word, on_event=recorder)
        except Exception:  # any failure: the panel follows the fast path
            supported = False
    same = supported and recorder.events == fast
    if same:
        found = recorder.steps
    else:
        if not recorder.steps:  # where each event type is reported: from a one-letter run
            _sample_lines(module, recorder)
        found = follow_fast(fast, zip(recorder.events, recorder.steps))
    functions = sorted({s["function"] for s in recorder.steps if s["function"]})
    return {"model": kind, "follows": "reference" if same else "fast", "steps": found,
            "sources": [steps.source(module.__name__, name) for name in functions]}


def _sample_lines(module, recorder):
    """Nothing recorded (the reference failed at once): record a tiny run so that
    every common event type has a line to point at."""
    samples = {bpe: lambda: bpe.encode_word("ab", {"a": 0, "b": 1, "ab": 2}, {("a", "b"): 0},
                                            on_event=recorder),
               wordpiece: lambda: wordpiece.encode_word("ab", {"[UNK]": 0, "a": 1, "##b": 2},
                                                        on_event=recorder),
               unigram: lambda: unigram.encode_word("ab", [("a", -1.0), ("b", -1.0)],
                                                    on_event=recorder)}
    samples[module]()

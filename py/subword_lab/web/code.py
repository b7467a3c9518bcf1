"""The Code panel's data: the plain reference (subword_lab.reference) beside a trace.

`reference_encode({key, text, special_tokens?})` encodes the text as `trace_encode`
does, runs every piece the model saw through the reference of its model, and
answers, for each model event of the trace in order, the *step* of the reference
that reported it: {function, line, vars} (see reference/steps.py), plus the
source of those functions as the installed package holds it.

When the reference's events are the fast path's (the tests prove they are, for
every option the reference covers), `follows` is "reference". Otherwise (BPE
dropout, a model the reference does not cover) each fast event is shown at the
reference line that reports events of its type, with the event's own fields as
the variables, and `follows` is "fast".
"""
from __future__ import annotations

import json

from ..reference import bpe, steps, unigram, wordpiece
from .registry import REGISTRY

__all__ = ["reference_encode", "follow_fast"]

# model type -> (the reference module, the prefix of its events)
REFERENCES = {"BPE": (bpe, "bpe."), "WordPiece": (wordpiece, "wordpiece."),
              "Unigram": (unigram, "unigram.")}


def _model_type(model) -> str:
    for cls in type(model).__mro__:
        if cls.__name__ in REFERENCES:
            return cls.__name__
    return type(model).__name__


def follow_fast(events, known_steps):
    """Steps for events the reference did not report itself: the line of the first
    reference step of the same event type, the event's fields as the variables."""
    line_of = {}
    for event, step in known_steps:
        line_of.setdefault(event["type"], step)
    out = []
    for event in events:
        step = line_of.get(event["type"])
        shown = {k: steps._plain(v) for k, v in event.items() if k != "type"}
        if step is None:
            out.append({"module": None, "function": None, "line": None, "vars": shown})
        else:
            out.append({**step, "vars": shown})
    return out


def reference_encode(args_json: str, emit=None) -> str:
    args = json.loads(args_json)
    tokenizer = REGISTRY.get(args.get("key"))
    text = str(args.get("text", ""))
    events = []
    tokenizer.encode(text, on_event=events.append, special_tokens=args.get("special_tokens") or None)
    kind = _model_type(tokenizer.model)
    if kind not in REFERENCES:
        return json.dumps({"model": kind, "follows": None, "steps": [], "sources": []})
    module, prefix = REFERENCES[kind]
    fast = [e for e in events if e["type"].startswith(prefix)]
    recorder = steps.Steps()
    supported = not getattr(tokenizer.model, "dropout", None)
    if supported:
        words = [e["text"] for e in events if e["type"] == "model_piece"]
        try:
            for word in words:
                module.encode(tokenizer.model, word, on_event=recorder)
        except Exception:  # noqa: BLE001 - any failure: the panel follows the fast path
            supported = False
    same = supported and recorder.events == fast
    if same:
        found = recorder.steps
    else:
        if not recorder.steps:  # where each event type is reported: from a one-letter run
            _sample_lines(module, recorder)
        found = follow_fast(fast, zip(recorder.events, recorder.steps))
    functions = sorted({s["function"] for s in recorder.steps if s["function"]})
    return json.dumps({
        "model": kind, "follows": "reference" if same else "fast", "steps": found,
        "sources": [steps.source(module.__name__, name) for name in functions],
    }, ensure_ascii=False)


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

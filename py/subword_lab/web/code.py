"""The Code panel's data: the plain reference (subword_lab.reference) beside a trace.

`reference_encode({key, text, special_tokens?})` encodes the text as `trace_encode`
does and answers `reference.panel.encode_steps` for it: for each model event of the
trace in order, the *step* of the reference that reported it, and the source of those
functions. `reference_train({algorithm, events, train?})` answers
`reference.panel.train_steps` for a training run: the reference trains again when the
run is small, else each fast event is placed at the reference line that reports events
of its type (`follows` says which); for Unigram, `train` (webapi.train's arguments, sent
for a small run only) lets the reference read the same corpus.
"""
from __future__ import annotations

import json

from ..reference import unigram_train
from ..reference.panel import (UNIGRAM_EVENTS, encode_steps, follow_fast, train_arguments,
                               train_steps)
from .registry import REGISTRY

__all__ = ["reference_encode", "reference_train", "follow_fast", "train_arguments",
           "UNIGRAM_EVENTS"]


def reference_train(args_json: str, emit=None) -> str:
    args = json.loads(args_json)
    train_args = args.get("train")
    words = (lambda: unigram_words(train_args)) if train_args else None
    return json.dumps(train_steps(args.get("algorithm"), args.get("events"), words),
                      ensure_ascii=False)


def unigram_words(train_args):
    """(word counts, followers) of a Unigram run, read as webapi.train reads its corpus."""
    from ..trainers.base import tokenizer_process
    from . import train

    _algo, corpus, recipe = train._options({**train_args, "algo": "unigram"})
    if train.PRESETS[corpus]["kind"] == "words":
        return dict(train.TOY_WORDS), None
    tokenizer, _trainer = train._build("unigram", recipe)
    process = tokenizer_process(tokenizer)
    return unigram_train.count_words([list(process(line))
                                      for line in train._lines(corpus, train_args)])


def reference_encode(args_json: str, emit=None) -> str:
    args = json.loads(args_json)
    tokenizer = REGISTRY.get(args.get("key"))
    events = []
    tokenizer.encode(str(args.get("text", "")), on_event=events.append,
                     special_tokens=args.get("special_tokens") or None)
    return json.dumps(encode_steps(tokenizer.model, events), ensure_ascii=False)

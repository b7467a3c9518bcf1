"""The Code panel's data: the plain reference (subword_lab.reference) beside a trace.

`reference_encode({key, text, special_tokens?})` encodes the text as `trace_encode`
does and answers `reference.panel.encode_steps` for it: for each model event of the
trace in order, the *step* of the reference that reported it, and the source of those
functions. `reference_train({algorithm, events, ...})` does the same for a training
run: the reference trains again when the run is small, else each fast event is placed
at the reference line that reports events of its type (`follows` says which).
"""
from __future__ import annotations

import json

from ..reference import bpe_train, steps, unigram_train, wordpiece_train
from ..reference.panel import encode_steps, follow_fast, lines_of
from .registry import REGISTRY

__all__ = ["reference_encode", "reference_train", "follow_fast", "train_arguments"]

TRAINERS = {"bpe": bpe_train, "wordpiece": wordpiece_train}
TRAIN_EVENTS = {"train_start", "alphabet", "words", "merge", "train_end"}
UNIGRAM_EVENTS = {"train_start", "unigram_seed", "unigram_em", "unigram_prune",
                  "unigram_exact_round", "train_end"}
# A long Unigram run's events are placed at their line with these fields as the variables.
UNIGRAM_FIELDS = ("round", "sub_iteration", "objective", "vocab_size", "dropped", "kept",
                  "removed_count", "unused_count", "loss", "remove", "size")
# Trainer options the training references leave out: a run using one follows the fast path.
UNCOVERED = {"limit_alphabet": None, "initial_alphabet": [], "max_token_length": None,
             "end_of_word_suffix": None}

def reference_train(args_json: str, emit=None) -> str:
    """The Code panel of a training run (Unigram: see `_reference_unigram`).

    args: {"algorithm", "events"}: the run's whole event log when it is small enough
    to train again with the reference (the page sends none for a long run). The
    reference trains on the `words` event's counts with the `train_start` options;
    when it reports the same events, `follows` is "reference" and `steps` has one
    step per event. Otherwise `follows` is "fast", and `lines` (event type -> the
    reference line reporting that type) with `shown` (the variable names) let the
    page place each fast event at its line.
    """
    args = json.loads(args_json)
    if args.get("algorithm") == "unigram":
        return _reference_unigram(args)
    module = TRAINERS.get(args.get("algorithm"))
    if module is None:
        return json.dumps({"follows": None, "steps": [], "lines": {}, "sources": []})
    # the trainer's own events (a corpus read from text also reports its reading)
    events = [e for e in args.get("events") or [] if e.get("type") in TRAIN_EVENTS]
    recorder = steps.Steps()
    same = False
    if events and _covered(events):
        try:
            counts, kwargs = train_arguments(module, events)
            module.train(counts, **kwargs, on_event=recorder)
            same = recorder.events == events
        except Exception:  # any failure: the panel follows the fast path
            same = False
    if not recorder.steps:  # a tiny run, for the line of each event type
        sample = steps.Steps()
        module.train({"hug": 3, "pug": 2}, vocab_size=12, on_event=sample)
        recorder = sample
    found = recorder.steps if same else follow_fast(events, zip(recorder.events, recorder.steps),
                                                    bpe_train.SHOWN)
    functions = sorted({s["function"] for s in recorder.steps})
    return json.dumps({
        "algorithm": args.get("algorithm"), "follows": "reference" if same else "fast",
        "steps": found, "lines": lines_of(zip(recorder.events, recorder.steps)),
        "shown": list(bpe_train.SHOWN),
        "sources": [steps.source(s_module, name) for s_module, name in
                    sorted({(s["module"], s["function"]) for s in recorder.steps})],
        "functions": functions,
    }, ensure_ascii=False)


def _reference_unigram(args) -> str:
    """reference_train for a Unigram run: args {"events", "train"}, `train` being the
    arguments the run was trained with (webapi.train's), sent for a small run only:
    the reference reads the same corpus through the same pre-tokenizer."""
    events = [e for e in args.get("events") or [] if e.get("type") in UNIGRAM_EVENTS]
    recorder = steps.Steps()
    same = False
    if events and args.get("train"):
        try:
            counts, followers = unigram_words(args["train"])
            start = events[0]
            kwargs = unigram_train.options_arguments(
                start["options"], vocab_size=start["vocab_size"], method=start["method"])
            unigram_train.train(counts, followers=followers, **kwargs, on_event=recorder)
            same = recorder.events == events
        except Exception:  # any failure: the panel follows the fast path
            same = False
    if not same:  # a tiny run of each method, for the line of each event type
        recorder = steps.Steps()
        for method in ("em", "exact"):
            unigram_train.train({"\u2581ab": 3, "\u2581ba": 2, "\u2581abc": 2}, vocab_size=4,
                                method=method, on_event=recorder)
    pairs = list(zip(recorder.events, recorder.steps))
    found = recorder.steps if same else follow_fast(events, pairs, UNIGRAM_FIELDS)
    return json.dumps({
        "algorithm": "unigram", "follows": "reference" if same else "fast", "steps": found,
        "lines": lines_of(pairs), "shown": list(UNIGRAM_FIELDS),
        "sources": [steps.source(s_module, name) for s_module, name in
                    sorted({(s["module"], s["function"]) for s in recorder.steps})],
        "functions": sorted({s["function"] for s in recorder.steps}),
    }, ensure_ascii=False)


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


def _covered(events) -> bool:
    options = events[0].get("options", {}) if events[0].get("type") == "train_start" else None
    if options is None:
        return False
    if options.get("continuing_subword_prefix") not in (None, "##"):
        return False
    return all(options.get(k) == v for k, v in UNCOVERED.items())


def train_arguments(module, events):
    """(word counts, keyword arguments) of the reference from a run's events."""
    options = events[0]["options"]
    words = next(e for e in events if e["type"] == "words")
    counts = {w["word"]: w["count"] for w in words["words"]}
    kwargs = {"vocab_size": options["vocab_size"], "special_tokens": options["special_tokens"],
              "tie_break": options["tie_break"], "options": options}
    if module is bpe_train:
        if options.get("continuing_subword_prefix"):
            raise ValueError("the BPE training reference has no continuing prefix")
        kwargs["min_frequency"] = options["min_frequency"]
    elif options.get("min_frequency"):
        raise ValueError("the WordPiece training reference has no min_frequency")
    return counts, kwargs


def reference_encode(args_json: str, emit=None) -> str:
    args = json.loads(args_json)
    tokenizer = REGISTRY.get(args.get("key"))
    events = []
    tokenizer.encode(str(args.get("text", "")), on_event=events.append,
                     special_tokens=args.get("special_tokens") or None)
    return json.dumps(encode_steps(tokenizer.model, events), ensure_ascii=False)

"""What the Code panel shows beside an encode or a training run: the reference's steps.

`encode_steps(model, events)` takes a model and the events a Tokenizer reported
while it encoded (docs/events.md), runs every piece the model saw through the
reference of that model with a `steps.Steps` recorder, and answers, for each
model event in order, the *step* of the reference that reported it: {function,
line, focus, vars}, plus the source of those functions as the installed package
holds it. The page (web/code.py) and the notebook's steps widget both show it.
`train_steps(algorithm, events)` does the same for a training run's events: the
reference trains again on the run's word counts with its options.

When the reference's events are the fast path's (the tests prove they are, for
every option the reference covers), `follows` is "reference". Otherwise (BPE
dropout, a model the reference does not cover) each fast event is shown at the
reference line that reports events of its type, with the event's own fields as
the variables, and `follows` is "fast".
"""
from __future__ import annotations

from . import bpe, bpe_train, steps, unigram, unigram_train, wordpiece, wordpiece_train

__all__ = ["encode_steps", "train_steps", "train_arguments", "follow_fast", "lines_of",
           "REFERENCES", "TRAIN_EVENTS", "UNIGRAM_EVENTS"]

# model type -> (the reference module, the prefix of its events)
REFERENCES = {"BPE": (bpe, "bpe."), "WordPiece": (wordpiece, "wordpiece."),
              "Unigram": (unigram, "unigram.")}
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
            encode = module.word_encoder(model)  # its tables made once, not once per word
            for word in words:
                encode(word, on_event=recorder)
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
               unigram: lambda: unigram.encode_word(
                   "ab", *unigram.lookup_tables([("a", -1.0), ("b", -1.0)]), on_event=recorder)}
    samples[module]()


def train_steps(algorithm, events, unigram_words=None) -> dict:
    """The Code panel's answer for a training run (Unigram: see `_unigram_train_steps`).

    events: the run's whole event log when it is small enough to train again with the
    reference (none for a long run). The reference trains on the `words` event's counts
    with the `train_start` options; when it reports the same events, `follows` is
    "reference" and `steps` has one step per event. Otherwise `follows` is "fast", and `lines` (event type -> the
    reference line reporting that type) with `shown` (the variable names) let the
    page place each fast event at its line.
    """
    if algorithm == "unigram":
        return _unigram_train_steps(events, unigram_words)
    module = TRAINERS.get(algorithm)
    if module is None:
        return {"follows": None, "steps": [], "lines": {}, "sources": []}
    # the trainer's own events (a corpus read from text also reports its reading)
    events = [e for e in events or [] if e.get("type") in TRAIN_EVENTS]
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
    return {
        "algorithm": algorithm, "follows": "reference" if same else "fast",
        "steps": found, "lines": lines_of(zip(recorder.events, recorder.steps)),
        "shown": list(bpe_train.SHOWN),
        "sources": [steps.source(s_module, name) for s_module, name in
                    sorted({(s["module"], s["function"]) for s in recorder.steps})],
        "functions": functions,
    }


def _unigram_train_steps(events, unigram_words) -> dict:
    """train_steps for a Unigram run. unigram_words: a function giving the run's (word
    counts, followers) (`unigram_train.count_words` of the same corpus through the same
    pre-tokenizer), for a small run only; without it the panel follows the fast path."""
    events = [e for e in events or [] if e.get("type") in UNIGRAM_EVENTS]
    recorder = steps.Steps()
    same = False
    if events and unigram_words is not None:
        try:
            counts, followers = unigram_words()
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
    return {
        "algorithm": "unigram", "follows": "reference" if same else "fast", "steps": found,
        "lines": lines_of(pairs), "shown": list(UNIGRAM_FIELDS),
        "sources": [steps.source(s_module, name) for s_module, name in
                    sorted({(s["module"], s["function"]) for s in recorder.steps})],
        "functions": sorted({s["function"] for s in recorder.steps}),
    }


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

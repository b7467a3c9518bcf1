"""What the tests of the plain references (test_reference_*.py) share."""
from __future__ import annotations


class Named(tuple):
    """A fixture value that hypothesis prints by its name, not by its 50,000 entries,
    when it reports a failing example."""

    def __new__(cls, name, *values):
        self = super().__new__(cls, values)
        self.name = name
        return self

    def __repr__(self):
        return self.name


def rows(tokens):
    """Tokens as the references return them: [value, id, start, end]."""
    return [[t.value, t.id, t.offsets[0], t.offsets[1]] for t in tokens]


def model_events(events, prefix):
    """The events of one model ("bpe.", "wordpiece.", "unigram.") in a pipeline's stream."""
    return [e for e in events if e["type"].startswith(prefix)]


def model_words(events):
    """The pieces the model saw, in order, from a pipeline's event stream."""
    return [e["text"] for e in events if e["type"] == "model_piece"]

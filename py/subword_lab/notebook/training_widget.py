"""`notebook.training()`: a training run on the train view's player, fed live by the kernel.

The widget is the run's `on_event` callback (`tokenizer.train(files, trainer,
on_event=widget)`, or `train_from_iterator`): it keeps every event and sends them to the
views in batches, at most one message per `FLUSH_SECONDS` while the run goes on (and the
rest at `train_end`), each batch with the index of its first event, so a view that missed
some asks for them again (`{"kind": "replay", "from": i}`). A 5,000-merge run is some
tens of messages, not 5,000.

A merge of a `trace="summary"` run gets the `words` it changed (what `trace="full"`
gives), computed here (changed_words.py), so the view takes each merge in constant time.

Synced traits: `algorithm`, `events` (how many were received), `steps` (merges, or
Unigram's EM steps and rounds), `done`, and at `train_end` the result: `vocab` (the final
vocabulary in id order; Unigram: pieces) and `merges` (BPE and WordPiece: the merged pairs
in order), and `code`: the Code panel below the drawing (`reference.panel.train_steps`):
for a run as small as the page's limits (web/views/train/code.js) the reference trains
again on its word counts and shows its own steps; a longer run, or a Unigram run (whose
corpus the widget never sees), is followed by its fast events, each at its line.
"""
from __future__ import annotations

import time

import anywidget
import traitlets

from ..reference.panel import train_steps
from . import front_end
from .changed_words import ChangedWords

__all__ = ["TrainingWidget", "training", "FLUSH_SECONDS"]

FLUSH_SECONDS = 0.1
REPLAY_BATCH = 2000  # events per message when a view asks for the run again
_STEP_TYPES = {"merge", "unigram_em", "unigram_prune", "unigram_exact_round"}
# BPE and WordPiece runs the Code panel trains again with the reference: the page's limits.
REFERENCE_MERGES = 400
REFERENCE_WORDS = 3000


class TrainingWidget(anywidget.AnyWidget):
    _esm = front_end.esm()
    widget = traitlets.Unicode("training").tag(sync=True)
    algorithm = traitlets.Unicode("").tag(sync=True)
    events = traitlets.Int(0).tag(sync=True)
    steps = traitlets.Int(0).tag(sync=True)
    done = traitlets.Bool(False).tag(sync=True)
    vocab = traitlets.List().tag(sync=True)
    merges = traitlets.List().tag(sync=True)
    code = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.run_events: list[dict] = []
        self._received: list[dict] = []  # the events as the trainer reported them
        self._sent = 0
        self._last = 0.0
        self._steps = 0
        self._merges: list[list[str]] = []
        self._changed: ChangedWords | None = None
        self.messages_sent = 0  # custom messages sent, for tests and the curious
        self.on_msg(self._message)

    def __call__(self, event: dict) -> None:
        """The run's on_event: keep the event, send a batch when it is time."""
        kind = event.get("type")
        if kind == "train_start":
            self.run_events, self._sent, self._steps, self._merges = [], 0, 0, []
            self._received, self._changed = [], None
            with self.hold_sync():
                self.algorithm = str(event.get("algorithm", ""))
                self.done, self.vocab, self.merges, self.events, self.steps = False, [], [], 0, 0
                self.code = {}
        self._received.append(event)
        if kind == "words" and event.get("words") and "tokens" in event["words"][0]:
            self._changed = ChangedWords(event)
        elif kind == "merge" and "words" not in event and self._changed is not None:
            event = dict(event, words=self._changed.changed(event))  # a summary trace: see changed_words.py
        self.run_events.append(event)
        if kind in _STEP_TYPES:
            self._steps += 1
            if kind == "merge":
                self._merges.append(list(event["pair"]))
        if kind == "train_end":
            self._flush()
            vocab = event.get("vocab", [])
            with self.hold_sync():
                self.vocab = [entry[0] if isinstance(entry, (list, tuple)) else entry for entry in vocab]
                self.merges = self._merges
                self.code = self._code()
                self.done = True
        elif time.monotonic() - self._last >= FLUSH_SECONDS:
            self._flush()

    def _code(self) -> dict:
        """The Code panel's answer for the run that just ended."""
        events = self._received
        if self.algorithm != "unigram":
            words = next((e for e in events if e.get("type") == "words"), {}).get("words", [])
            if len(self._merges) > REFERENCE_MERGES or len(words) > REFERENCE_WORDS:
                events = []  # too long to train again: the fast events, each at its line
        return train_steps(self.algorithm, events)

    def _flush(self) -> None:
        self._last = time.monotonic()
        if self._sent < len(self.run_events):
            self._send_from(self._sent, len(self.run_events))
            self._sent = len(self.run_events)
        with self.hold_sync():
            self.events = len(self.run_events)
            self.steps = self._steps

    def _send_from(self, start: int, stop: int) -> None:
        self.send({"kind": "events", "start": start, "events": self.run_events[start:stop]})
        self.messages_sent += 1

    def _message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        if content.get("kind") == "hello":
            self.send({"kind": "total", "total": self._sent})
        elif content.get("kind") == "replay":
            start = max(0, int(content.get("from", 0)))
            for at in range(start, self._sent, REPLAY_BATCH):
                self._send_from(at, min(self._sent, at + REPLAY_BATCH))


def training() -> TrainingWidget:
    """An empty training widget: display it, then pass it as `on_event` to a training call."""
    return TrainingWidget()

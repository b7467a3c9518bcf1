"""What every trainer shares: options, word counting, events, cancelling, and
`train_tokenizer`, the function behind `Tokenizer.train_from_iterator`.

A trainer works on word counts, as in `tokenizers`: the tokenizer's normalizer and
pre-tokenizer turn each sequence into words, the trainer counts them (`feed`), then
learns a vocabulary from the counts (`train`) and fills the tokenizer's model.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any

from ..core.errors import SubwordLabError
from ..core.safe_files import check_file_kind

if TYPE_CHECKING:
    import os

    from ..added_vocabulary import AddedToken

__all__ = ["Trainer", "TrainingCancelled", "train_tokenizer", "tokenizer_process"]


class TrainingCancelled(Exception):
    """Raised when a run was cancelled: `on_event` returned "cancel" or `cancel()` was
    called. The model is left as it was before `train`."""


TRACE_LEVELS = ("summary", "full")


def special_token_contents(special_tokens: Iterable[str | AddedToken] | None) -> list[str]:
    """Special tokens come as str or AddedToken; the trainer needs their text."""
    contents = []
    for token in special_tokens or ():
        content = token if isinstance(token, str) else getattr(token, "content", None)
        if not isinstance(content, str):
            raise SubwordLabError(f"expected a string or AddedToken, got {token!r}",
                                  field="special_tokens")
        contents.append(content)
    return contents


def special_added_tokens(
        special_tokens: Iterable[str | AddedToken] | None) -> list[AddedToken]:
    """The trainer's special tokens as AddedToken(special=True), as HF reads them back."""
    special_token_contents(special_tokens)  # fail early on a bad entry
    from ..added_vocabulary import AddedToken
    out = []
    for token in special_tokens or ():
        if isinstance(token, str):
            token = AddedToken(token, special=True)
        elif not token.special:
            token = AddedToken(token.content, token.single_word, token.lstrip, token.rstrip,
                               token._normalized, special=True)
        out.append(token)
    return out


def as_added_tokens(special_tokens: Iterable[str | AddedToken]) -> list[Any]:
    """What `train` returns: AddedToken objects (special=True) when the tokenizer
    module provides them, else the plain strings."""
    try:
        from ..added_vocabulary import AddedToken
    except ImportError:  # the tokenizer module is not there: plain strings do
        return [t if isinstance(t, str) else t.content for t in special_tokens]
    out = []
    token: Any  # a str, then the AddedToken made of it
    for token in special_tokens:
        if isinstance(token, str):
            try:
                token = AddedToken(token, special=True)
            except TypeError:
                token = AddedToken(token)
        out.append(token)
    return out


class Trainer:
    """Common state: collected word counts, the cancel flag and event emission."""

    algorithm = ""

    def __init__(self, trace: str = "summary") -> None:
        if trace not in TRACE_LEVELS:
            raise SubwordLabError(f"trace must be one of {', '.join(TRACE_LEVELS)}, "
                                  f"got {trace!r}", field="trace")
        self.trace = trace
        self.words: dict[str, int] = {}
        self._cancelled = False

    # -- collecting words ------------------------------------------------------
    def feed(self, iterator: Iterable[str], process: Callable[[str], Iterable[str]]) -> None:
        """Count the words `process(sequence)` returns for every sequence.

        The dict keeps first-occurrence order: the course's tie-break ("first")
        needs corpus order, which a plain dict gives for free."""
        # Counter counts in C and keeps first-occurrence order, as a dict does
        split = getattr(process, "split", None)
        finish = getattr(process, "finish", None)
        if split is None or finish is None:
            self.words = dict(Counter(chain.from_iterable(map(process, iterator))))
            return
        # pieces are counted as they come and each distinct one finished once
        # (a pipeline.training_words.SplitThenFinish: finish is one to one)
        counts = Counter(chain.from_iterable(map(split, iterator)))
        self.words = dict(zip(map(finish, counts), counts.values()))

    def feed_word_counts(self, counts: dict[str, int] | Iterable[tuple[str, int]]) -> None:
        """Use ready-made word counts (a dict or (word, count) pairs), in that order."""
        items = counts.items() if isinstance(counts, dict) else counts
        words: dict[str, int] = {}
        for word, count in items:
            if not isinstance(word, str) or not isinstance(count, int) or count < 0:
                raise SubwordLabError(f"bad word count {word!r}: {count!r}", field="words")
            if count:
                words[word] = words.get(word, 0) + count
        self.words = words

    def get_word_count(self) -> int:
        """The number of distinct words fed so far (tokenizers' `get_word_count`)."""
        return len(self.words)

    # -- cancelling --------------------------------------------------------------
    def cancel(self) -> None:
        """Ask a running `train` to stop at the next step (safe from a callback)."""
        self._cancelled = True

    def _emitter(self, on_event):
        """A function that sends one event and raises TrainingCancelled on request."""
        def emit(event):
            if on_event is not None and on_event(event) == "cancel":
                self._cancelled = True
            if self._cancelled:
                self._cancelled = False
                raise TrainingCancelled(f"{self.algorithm} training was cancelled")
        return emit

    def _check_cancel(self):
        if self._cancelled:
            self._cancelled = False
            raise TrainingCancelled(f"{self.algorithm} training was cancelled")

    def _require_words(self):
        if not self.words:
            raise SubwordLabError("the corpus is empty: no words to train on "
                                  "(after normalization and pre-tokenization)")


def refill_model(model: Any, new_model: Any) -> Any:
    """Fill `model` in place with `new_model`'s state, as HF's trainers do, so that
    anyone holding the model object sees the trained vocabulary."""
    if model is None or type(model) is not type(new_model):
        return new_model
    state = getattr(new_model, "__dict__", None)
    if state is not None:
        model.__dict__.clear()
        model.__dict__.update(state)
    for cls in type(new_model).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(new_model, name) and name != "__dict__":
                setattr(model, name, getattr(new_model, name))
    return model


def tokenizer_process(tokenizer: Any) -> Callable[[str], Iterable[str]]:
    """text -> words with the tokenizer's own normalizer and pre-tokenizer.

    Only the words' text matters to a trainer, so the string-level entry points
    do, without tracking alignments (`normalize_str`, `words_function`)."""
    from ..pipeline.training_words import training_words
    normalizer = getattr(tokenizer, "normalizer", None)
    return training_words(getattr(tokenizer, "pre_tokenizer", None),
                          None if normalizer is None else normalizer.normalize_str)


def train_tokenizer(tokenizer: Any, iterator: Iterable[str] | str, trainer: Any,
                    on_event: Callable[[dict[str, Any]], Any] | None = None) -> Any:
    """Train `tokenizer.model` with `trainer` on the sequences of `iterator`.

    As `tokenizers` does: normalize and pre-tokenize every sequence with the
    tokenizer's own components, count the words, train the model, then add the
    trainer's special tokens to the tokenizer. Returns the tokenizer."""
    if not hasattr(trainer, "feed") or not hasattr(trainer, "train"):
        raise SubwordLabError(f"not a trainer: {trainer!r}", field="trainer")
    if isinstance(iterator, str):  # a single string is one sequence, not characters
        iterator = [iterator]
    trainer.feed(iterator, tokenizer_process(tokenizer))
    model = getattr(tokenizer, "model", None)
    special = trainer.train(model, on_event=on_event)
    trained = getattr(trainer, "trained_model", None)
    if trained is not None and trained is not model:
        tokenizer.model = trained
    if special:
        add = getattr(tokenizer, "add_special_tokens", None)
        if add is not None:
            add(special)
    return tokenizer


def read_files(files: Iterable[str | os.PathLike[str]]) -> Iterator[str]:
    """The lines of every file, line endings kept (as `tokenizers`' train does).
    Only regular files: a named pipe would wait forever, /dev/zero never end."""
    for path in files:
        check_file_kind(path)
        try:
            handle = open(path, encoding="utf-8", newline="")
        except OSError as err:
            raise SubwordLabError(f"cannot read: {err.strerror}", path=path) from None
        with handle:
            try:
                yield from handle
            except UnicodeDecodeError:
                raise SubwordLabError("not UTF-8 text", path=path) from None

"""BpeTrainer: learns BPE merges from word counts, as `tokenizers`' BpeTrainer does.

tie_break="hf" (default) reproduces `tokenizers` exactly: special tokens, then the
alphabet by code point, then merges by count with ties going to the pair of
smallest ids. tie_break="first" is the course's loop: among equal counts, the pair
that occurs first in corpus order.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import SubwordLabError
from .merge_trainer import MergeTrainer
from .exact_engine import ExactEngine
from .hf_engine import HfEngine

__all__ = ["BpeTrainer"]


class BpeTrainer(MergeTrainer):
    """Options as in `tokenizers.trainers.BpeTrainer`, plus `tie_break` and `trace`."""

    algorithm = "bpe"
    model_type = "BPE"

    def __init__(self, vocab_size: int = 30000, min_frequency: int = 0, show_progress: bool = True,
                 progress_format: str = "indicatif", special_tokens: Iterable = (),
                 limit_alphabet: int | None = None, initial_alphabet: Iterable[str] = (),
                 continuing_subword_prefix: str | None = None,
                 end_of_word_suffix: str | None = None, max_token_length: int | None = None,
                 tie_break: str = "hf", trace: str = "summary") -> None:
        # progress_format, like show_progress, is kept for tokenizers' API only:
        # progress goes through on_event here.
        if progress_format not in ("indicatif", "json", "silent"):
            raise SubwordLabError("must be 'indicatif', 'json' or 'silent', got "
                                  f"{progress_format!r}", field="progress_format")
        super().__init__(vocab_size, min_frequency, show_progress, special_tokens,
                         limit_alphabet, initial_alphabet, continuing_subword_prefix,
                         end_of_word_suffix, max_token_length, tie_break, trace)
        self.progress_format = progress_format

    def _initial_tokens(self, vocab, alphabet):
        """Every word as the ids of its characters; characters left out of the
        alphabet are dropped, and a continuing prefix / end-of-word suffix makes
        new initial tokens (added in corpus order)."""
        for ch in alphabet:
            vocab.add(ch)
        ids = vocab.ids
        prefix, suffix = self.continuing_subword_prefix, self.end_of_word_suffix
        if not prefix and not suffix:
            return self._plain_initial_tokens(ids)
        words, counts = [], []
        for word, count in self.words.items():
            counts.append(count)
            if not prefix and not suffix:
                words.append([ids[ch] for ch in word if ch in ids])
                continue
            split = []
            last = len(word) - 1
            for i, ch in enumerate(word):
                if ch not in ids:  # as tokenizers: positions still count the dropped chars
                    continue
                token = (prefix + ch) if (i and prefix) else ch
                if i == last and suffix:
                    token += suffix
                split.append(vocab.add(token)[0])
            words.append(split)
        return words, counts

    def _plain_initial_tokens(self, ids):
        """_initial_tokens without prefix or suffix: each character's id, looked up
        in C (a character the alphabet dropped is skipped, as tokenizers does)."""
        words = []
        lookup = ids.__getitem__
        for word in self.words:
            try:
                words.append(list(map(lookup, word)))
            except KeyError:
                words.append([ids[ch] for ch in word if ch in ids])
        return words, list(self.words.values())

    def _engine(self, vocab, words, counts):
        if self.tie_break == "hf":
            return HfEngine(vocab, words, counts, self.min_frequency, self.max_token_length)
        return ExactEngine(vocab, words, counts, first=True,
                           min_frequency=self.min_frequency,
                           max_token_length=self.max_token_length)

    def _model_dict(self, base, result):
        vocab = result["vocab"]
        # tokenizers keeps one rank per pair (a pair merged twice keeps its last rank)
        last: dict[tuple[str, str], int] = {}
        for rank, (a, b, _) in enumerate(result["merges"]):
            last[(a, b)] = rank
        ordered = sorted(last, key=last.__getitem__)
        d: dict[str, Any] = {"type": "BPE", "dropout": None, "unk_token": None, "fuse_unk": False,
             "byte_fallback": False, "ignore_merges": False}
        d.update(base)
        d.update(vocab={t: i for i, t in enumerate(vocab)},
                 merges=[[vocab[a], vocab[b]] for a, b in ordered],
                 continuing_subword_prefix=self.continuing_subword_prefix,
                 end_of_word_suffix=self.end_of_word_suffix)
        return d

    def merges(self) -> list[tuple[str, str]]:
        """The learned merges as (left, right) strings, in order (after `train`)."""
        if self.result is None:
            return []
        vocab = self.result["vocab"]
        return [(vocab[a], vocab[b]) for a, b, _ in self.result["merges"]]

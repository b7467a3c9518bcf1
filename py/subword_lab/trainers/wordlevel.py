"""WordLevelTrainer: the vocabulary is the most frequent whole words (HF's trainer)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .base import Trainer, as_added_tokens, refill_model, special_added_tokens, special_token_contents


class WordLevelTrainer(Trainer):
    algorithm = "wordlevel"

    def __init__(self, vocab_size: int = 30000, min_frequency: int = 0, show_progress: bool = True,
                 special_tokens: Iterable = (), trace: str = "summary") -> None:
        super().__init__(trace)
        self.vocab_size = vocab_size
        self.min_frequency = min_frequency
        self.show_progress = bool(show_progress)
        self.special_tokens = special_added_tokens(special_tokens)

    def train(self, model: Any = None, on_event: Callable | None = None) -> list:
        """Special tokens first, then words by count (ties by the word), up to vocab_size."""
        from ..models.wordlevel import WordLevel

        self._require_words()
        vocab: dict[str, int] = {}
        for token in special_token_contents(self.special_tokens):
            vocab.setdefault(token, len(vocab))
        ranked = sorted(self.words.items(), key=lambda wc: (-wc[1], wc[0]))
        for word, count in ranked:
            if len(vocab) >= self.vocab_size:
                break
            if count >= self.min_frequency and word not in vocab:
                vocab[word] = len(vocab)
        unk = getattr(model, "unk_token", "<unk>")
        refill_model(model, WordLevel(vocab, unk_token=unk))
        return as_added_tokens(self.special_tokens)

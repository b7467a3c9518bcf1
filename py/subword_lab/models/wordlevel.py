"""WordLevel: the whole word is one token, or the unknown token."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Model, Token, field, model_error, ordered_vocab, read_vocab_map, tokens_event

__all__ = ["WordLevel"]


class WordLevel(Model):
    type_name = "WordLevel"

    def __init__(self, vocab: dict[str, int] | str | None = None,
                 unk_token: str = "<unk>") -> None:
        if isinstance(vocab, str):  # a vocab.json path, as HF's WordLevel(vocab_path)
            vocab = self.read_file(vocab)
        self._set_vocab(vocab or {})
        self.unk_token = unk_token

    def tokenize(self, sequence: str, on_event: Callable[[dict], Any] | None = None) -> list[Token]:
        i = self.vocab.get(sequence)
        value = sequence
        if i is None:
            i = self.vocab.get(self.unk_token)
            if i is None:
                raise model_error(f"unk_token {self.unk_token!r} is not in the vocabulary",
                                  "unk_token")
            value = self.unk_token
        tokens = [Token(i, value, (0, len(sequence)))]
        if on_event is not None:
            on_event({"type": "wordlevel.done", "word": sequence, "found": value == sequence,
                      "tokens": tokens_event(tokens)})
        return tokens

    def to_dict(self) -> dict:
        return {"type": "WordLevel", "vocab": ordered_vocab(self.vocab), "unk_token": self.unk_token}

    @staticmethod
    def read_file(vocab: str) -> dict[str, int]:
        """A vocab.json ({token: id}) as a dict."""
        import json

        with open(vocab, encoding="utf-8") as f:
            vocab = json.load(f)
        if not isinstance(vocab, dict):
            raise model_error("vocab.json must hold an object of token -> id", "vocab")
        return vocab

    @classmethod
    def from_file(cls, vocab: str, unk_token: str = "<unk>") -> WordLevel:
        return cls(cls.read_file(vocab), unk_token=unk_token)

    @classmethod
    def from_dict(cls, d: dict) -> WordLevel:
        return cls(read_vocab_map(d), unk_token=field(d, "unk_token", str))

"""WordPiece: greedy longest-match-first, as BERT and HF `tokenizers` encode.

From the start of the word, take the longest vocabulary entry that matches; every
later piece is looked up with the continuing-subword prefix ("##"). If some
position has no match at all, or the word is longer than
`max_input_chars_per_word` characters, the whole word becomes the unknown token.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from itertools import compress, repeat
from operator import itemgetter

from ._prefixes import Prefixes
from .base import Model, Token, field, model_error, ordered_vocab, read_vocab_map, tokens_event

__all__ = ["WordPiece"]


class WordPiece(Model):
    type_name = "WordPiece"

    def __init__(self, vocab: dict[str, int] | str | None = None, unk_token: str = "[UNK]",
                 max_input_chars_per_word: int = 100,
                 continuing_subword_prefix: str = "##") -> None:
        if isinstance(vocab, str):  # a vocab.txt path, as HF's WordPiece(vocab_path)
            vocab = self.read_file(vocab)
        self._set_vocab(vocab or {})
        self.unk_token = unk_token
        self.max_input_chars_per_word = max_input_chars_per_word
        self.continuing_subword_prefix = continuing_subword_prefix
        # Continuation pieces are stored without their prefix so the hot loop
        # never builds "##" + substring (C-level passes: 30,000+ pieces per load).
        vocab = self.vocab
        continued = list(compress(vocab, map(str.startswith, vocab, repeat(continuing_subword_prefix))))
        rest = dict(zip(map(itemgetter(slice(len(continuing_subword_prefix), None)), continued),
                        map(vocab.__getitem__, continued)))
        # Walk tables (every prefix of a piece, filled on first use): read them with [].
        self._first = Prefixes(vocab)
        self._rest = Prefixes(rest)
        self._whole = vocab if "" not in vocab else {t: i for t, i in vocab.items() if t}
        self._max_first = max(map(len, vocab), default=0)
        self._max_rest = max(map(len, rest), default=0)

    # -- encoding -------------------------------------------------------------

    def _unk(self, n: int) -> list:
        unk_id = self.vocab.get(self.unk_token)
        if unk_id is None:
            raise model_error(f"unk_token {self.unk_token!r} is not in the vocabulary", "unk_token")
        return [Token(unk_id, self.unk_token, (0, n))]

    def tokenize(self, sequence: str, on_event: Callable[[dict], Any] | None = None) -> list[Token]:
        if on_event is not None:
            return self._tokenize_traced(sequence, on_event)
        n = len(sequence)
        if n > self.max_input_chars_per_word:
            return self._unk(n)
        # Most words are whole vocabulary entries, and then the longest match at
        # 0 is the word itself: one lookup instead of walking every prefix.
        i = self._whole.get(sequence)
        if i is not None:
            return [Token(i, sequence, (0, n))]
        tokens = []
        prefix = self.continuing_subword_prefix
        table = self._first
        start = 0
        while start < n:
            best_end = -1
            best_id = -1
            end = start + 1
            while end <= n:
                i = table[sequence[start:end]]
                if i is None:
                    break
                if i >= 0:
                    best_end, best_id = end, i
                end += 1
            if best_end < 0:
                return self._unk(n)
            piece = sequence[start:best_end]
            tokens.append(Token(best_id, piece if start == 0 else prefix + piece, (start, best_end)))
            start = best_end
            table = self._rest
        return tokens

    def _tokenize_traced(self, sequence: str, on_event: Callable[[dict], Any]) -> list[Token]:
        """Same result as `tokenize`, trying windows longest first as the course tells it.

        Windows longer than the longest vocabulary entry cannot match, so they are
        not reported.
        """
        n = len(sequence)
        on_event({"type": "wordpiece.word", "word": sequence})
        if n > self.max_input_chars_per_word:
            tokens = self._unk(n)
            on_event({"type": "wordpiece.unk", "reason": "too_long", "chars": n,
                      "max": self.max_input_chars_per_word, "position": None,
                      "token": tokens[0].value, "id": tokens[0].id, "start": 0, "end": n})
            on_event({"type": "wordpiece.done", "tokens": tokens_event(tokens)})
            return tokens
        tokens = []
        prefix = self.continuing_subword_prefix
        start = 0
        while start < n:
            longest = self._max_first if start == 0 else self._max_rest
            found = None
            for end in range(min(n, start + longest), start, -1):
                candidate = sequence[start:end] if start == 0 else prefix + sequence[start:end]
                i = self.vocab.get(candidate)
                on_event({"type": "wordpiece.try", "candidate": candidate, "start": start,
                          "end": end, "found": i is not None})
                if i is not None:
                    found = Token(i, candidate, (start, end))
                    break
            if found is None:
                tokens = self._unk(n)
                on_event({"type": "wordpiece.unk", "reason": "no_match", "chars": n,
                          "max": self.max_input_chars_per_word, "position": start,
                          "token": tokens[0].value, "id": tokens[0].id, "start": 0, "end": n})
                break
            on_event({"type": "wordpiece.match", "token": found.value, "id": found.id,
                      "start": start, "end": found.offsets[1]})
            tokens.append(found)
            start = found.offsets[1]
        on_event({"type": "wordpiece.done", "tokens": tokens_event(tokens)})
        return tokens

    # -- serialization --------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "type": "WordPiece",
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "vocab": ordered_vocab(self.vocab),
        }

    @classmethod
    def from_dict(cls, d: dict) -> WordPiece:
        return cls(
            read_vocab_map(d),
            unk_token=field(d, "unk_token", str),
            max_input_chars_per_word=field(d, "max_input_chars_per_word", int),
            continuing_subword_prefix=field(d, "continuing_subword_prefix", str),
        )

    @classmethod
    def read_file(cls, vocab: str) -> dict[str, int]:
        """A BERT vocab.txt: one token per line, the id is the line number."""
        with open(vocab, encoding="utf-8", newline="") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        # Trailing whitespace is dropped, as HF does; a repeated line keeps its last id.
        return {line.rstrip(): i for i, line in enumerate(lines)}

    @classmethod
    def from_file(cls, vocab: str, **kwargs: Any) -> WordPiece:
        return cls(cls.read_file(vocab), **kwargs)

"""Options, alphabet, events and the main loop shared by BpeTrainer and WordPieceTrainer.

A subclass says how words start out (`_initial_tokens`), which engine ranks the
pairs (`_engine`), how two tokens merge (`_merged`), and what model it fills.
"""
from __future__ import annotations

from ..core.errors import SubwordLabError
from ..core.gc_pause import gc_paused
from .base import (Trainer, as_added_tokens, refill_model,
                   special_added_tokens, special_token_contents)
from .merging import MASK, SHIFT, Vocab

TIE_BREAKS = ("hf", "first")
INFINITE = float("inf")


def _check_int(value, field, minimum=0, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SubwordLabError(f"must be an integer >= {minimum}, got {value!r}", field=field)
    return value


class MergeTrainer(Trainer):
    """The part of BPE and WordPiece training that does not depend on the algorithm.

    `show_progress` is accepted for compatibility with tokenizers and ignored: a
    page must print nothing, so progress goes through `on_event` (the command
    line draws its bar from those events)."""

    algorithm = ""

    def __init__(self, vocab_size=30000, min_frequency=0, show_progress=True,
                 special_tokens=(), limit_alphabet=None, initial_alphabet=(),
                 continuing_subword_prefix=None, end_of_word_suffix=None,
                 max_token_length=None, tie_break="hf", trace="summary"):
        super().__init__(trace)
        self.vocab_size = _check_int(vocab_size, "vocab_size")
        self.min_frequency = _check_int(min_frequency, "min_frequency")
        self.show_progress = bool(show_progress)
        self.special_tokens = special_added_tokens(special_tokens)
        self.limit_alphabet = _check_int(limit_alphabet, "limit_alphabet", allow_none=True)
        self.initial_alphabet = self._first_chars(initial_alphabet)
        for name, value in (("continuing_subword_prefix", continuing_subword_prefix),
                            ("end_of_word_suffix", end_of_word_suffix)):
            if value is not None and not isinstance(value, str):
                raise SubwordLabError(f"must be a string or None, got {value!r}", field=name)
        self.continuing_subword_prefix = continuing_subword_prefix
        self.end_of_word_suffix = end_of_word_suffix
        self.max_token_length = _check_int(max_token_length, "max_token_length", 1, True)
        if tie_break not in TIE_BREAKS:
            raise SubwordLabError(f"unknown tie_break {tie_break!r}: use "
                                  f"{' or '.join(map(repr, TIE_BREAKS))}", field="tie_break")
        self.tie_break = tie_break
        self.result = None
        self.trained_model = None

    @staticmethod
    def _first_chars(initial_alphabet):
        # as in tokenizers: only the first character of each string counts
        chars = []
        for s in initial_alphabet or ():
            if not isinstance(s, str):
                raise SubwordLabError(f"expected strings, got {s!r}", field="initial_alphabet")
            if s and s[0] not in chars:
                chars.append(s[0])
        return chars

    def options(self):
        return {
            "vocab_size": self.vocab_size, "min_frequency": self.min_frequency,
            "special_tokens": special_token_contents(self.special_tokens),
            "limit_alphabet": self.limit_alphabet, "initial_alphabet": self.initial_alphabet,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "end_of_word_suffix": self.end_of_word_suffix,
            "max_token_length": self.max_token_length, "tie_break": self.tie_break,
            "trace": self.trace,
        }

    # -- alphabet ------------------------------------------------------------------
    def _alphabet(self):
        """(kept characters sorted by code point, removed characters).

        Every character of the corpus, weighted by word counts, plus the initial
        alphabet (always kept first); limit_alphabet drops the rarest, ties
        dropping the higher code point (tokenizers leaves that order to a hash)."""
        if self.limit_alphabet is None:  # no character is dropped: their set will do
            return sorted(set().union(self.initial_alphabet, *self.words)), []
        freq = {}
        for word, count in self.words.items():
            for ch in word:
                freq[ch] = freq.get(ch, 0) + count
        for ch in self.initial_alphabet:
            freq[ch] = INFINITE
        removed = []
        if len(freq) > self.limit_alphabet:
            by_rarity = sorted(freq, key=lambda ch: (freq[ch], -ord(ch)))
            removed = sorted(by_rarity[:len(freq) - self.limit_alphabet])
            for ch in removed:
                del freq[ch]
        return sorted(freq), removed

    def _merged(self, left, right):
        """The token a merge makes: the right side loses its continuing prefix."""
        prefix = self.continuing_subword_prefix
        if prefix and right.startswith(prefix):
            right = right[len(prefix):]
        return left + right

    # -- the run -------------------------------------------------------------------
    def _learn(self, on_event=None):
        """Learn the vocabulary (and merges) from `self.words`; returns the result dict."""
        self._require_words()
        emit = self._emitter(on_event) if on_event is not None else None
        if emit:
            emit({"type": "train_start", "algorithm": self.algorithm,
                  "options": self.options(), "unique_words": len(self.words),
                  "total_words": sum(self.words.values())})
        vocab = Vocab()
        specials = special_token_contents(self.special_tokens)
        for token in specials:
            vocab.add(token, len(token))
        n_special = len(vocab)
        alphabet, removed = self._alphabet()
        words, counts = self._initial_tokens(vocab, alphabet)
        self._check_vocab_size(vocab, n_special)
        corpus_tokens = sum(len(w) * c for w, c in zip(words, counts))
        if emit:
            self._emit_start(emit, vocab, n_special, removed, words, counts, corpus_tokens)
        engine = self._engine(vocab, words, counts)
        merges, stop = self._loop(engine, vocab, emit, corpus_tokens)
        result = {"vocab": list(vocab.tokens), "merges": merges, "stop": stop,
                  "special_tokens": specials}
        self.result = result
        if emit:
            emit({"type": "train_end", "algorithm": self.algorithm, "vocab": result["vocab"],
                  "vocab_size": len(vocab), "merges": len(merges), "stop": stop})
        return result

    def _check_vocab_size(self, vocab, n_special):
        if self.vocab_size < len(vocab):
            raise SubwordLabError(
                f"{self.vocab_size} is too small: training starts from {len(vocab)} tokens "
                f"({n_special} special, {len(vocab) - n_special} from the alphabet)",
                field="vocab_size")

    def _emit_start(self, emit, vocab, n_special, removed, words, counts, corpus_tokens):
        tokens = vocab.tokens
        emit({"type": "alphabet", "special_tokens": tokens[:n_special],
              "alphabet": tokens[n_special:], "removed": removed,
              "vocab_size": len(vocab)})
        emit({"type": "words", "words": [
            {"word": word, "count": c, "tokens": [tokens[t] for t in ids]}
            for word, c, ids in zip(self.words, counts, words)],
            "corpus_tokens": corpus_tokens})

    def _loop(self, engine, vocab, emit, corpus_tokens):
        merges = []
        k = 5 if self.trace == "full" else 3
        full = self.trace == "full"
        tokens = vocab.tokens
        while len(vocab) < self.vocab_size:
            self._check_cancel()
            key = engine.pop()
            if key is None:
                return merges, engine.stop
            a, b = key >> SHIFT, key & MASK
            if emit:  # read the numbers before the merge changes them
                info = engine.info(key)
                candidates = [(c, engine.info(c)) for c, _ in engine.peek(k, key)]
            new, is_new = vocab.add(self._merged(tokens[a], tokens[b]),
                                    vocab.rawlen[a] + vocab.rawlen[b])
            changed, removed = engine.merge(a, b, new)
            merges.append((a, b, new))
            corpus_tokens -= removed
            if emit:
                emit(self._merge_event(tokens, len(merges), a, b, new, is_new, info,
                                       candidates, engine, changed if full else None,
                                       len(vocab), corpus_tokens))
        return merges, "vocab_size"

    def _merge_event(self, tokens, step, a, b, new, is_new, info, candidates, engine,
                     changed, vocab_size, corpus_tokens):
        event = {"type": "merge", "step": step, "pair": [tokens[a], tokens[b]],
                 "ids": [a, b], "token": tokens[new], "id": new, "new": is_new}
        event.update(info)
        primary = "score" if engine.scored else "count"
        best = info[primary]
        cands = []
        for key, cand in candidates:
            x, y = key >> SHIFT, key & MASK
            cands.append({"pair": [tokens[x], tokens[y]], **cand})
        event["candidates"] = cands
        tied = [c["pair"] for c in cands if c[primary] == best]
        event["tie"] = {"rule": engine.rule, "tied": tied,
                        "more": len(tied) == len(cands) and len(cands) > 0} if tied else None
        if changed is not None:
            event["words"] = sorted(changed)
        event["vocab_size"] = vocab_size
        event["corpus_tokens"] = corpus_tokens
        return event

    def train(self, model=None, on_event=None):
        """Train, fill `model` in place (a fresh one when None) and return the
        special tokens the tokenizer must add, as tokenizers' trainers do."""
        with gc_paused():  # no cycles in the merge loop: collections would walk it for nothing
            result = self._learn(on_event)
        self.trained_model = self._fill_model(model, result)
        return as_added_tokens(self.special_tokens)

    def _fill_model(self, model, result):
        from .. import models
        base = model.to_dict() if model is not None else None
        if base is not None and base.get("type") != self.model_type:
            raise SubwordLabError(f"{type(self).__name__} trains a {self.model_type} model, "
                                  f"not {base.get('type')}", field="model")
        new = models.from_dict(self._model_dict(base or {}, result))
        return refill_model(model, new)

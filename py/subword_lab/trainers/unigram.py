"""UnigramTrainer: learn a Unigram vocabulary, by SentencePiece's EM or the course's way.

method="em" (default) is SentencePiece's algorithm, as HF `tokenizers` runs it:
seed with every character and the most frequent substrings (`unigram_seed`), then
repeat [n_sub_iterations EM steps, prune to shrinking_factor of the pieces] until
the vocabulary is at most 1.1 x vocab_size, and finish the vocabulary as
SentencePiece does (`unigram_em`, `_finalize_em`).

method="exact" is the Hugging Face course's simplified trainer (`unigram_exact`):
substring counts as probabilities and the exact loss increase of every removal.

Events are described in docs/events.md, section "Training / Unigram".
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import sys

from ..core.errors import SubwordLabError
from .base import (Trainer, as_added_tokens, refill_model, special_added_tokens,
                   special_token_contents)
from . import unigram_em, unigram_exact, unigram_seed

__all__ = ["UnigramTrainer"]

METHODS = ("em", "exact")
SUMMARY_LIMIT = 20  # list entries per event with trace="summary"
MIN_SCORE_PENALTY = 0.0001  # added per missing required character, as sentencepiece


class UnigramTrainer(Trainer):
    algorithm = "unigram"

    def __init__(self, vocab_size: int = 8000, show_progress: bool = True,
                 special_tokens: Iterable | None = None, shrinking_factor: float = 0.75,
                 unk_token: str | None = None, max_piece_length: int = 16,
                 n_sub_iterations: int = 2, seed_size: int = 1_000_000,
                 initial_alphabet: Iterable[str] | None = None, method: str = "em",
                 shrink_fraction: float = 0.1, trace: str = "summary",
                 split_by_unicode_script: bool = True) -> None:
        super().__init__(trace=trace)
        if method not in METHODS:
            raise SubwordLabError(f"method must be 'em' or 'exact', got {method!r}",
                                  field="method")
        _check_int("vocab_size", vocab_size, 1)
        _check_int("max_piece_length", max_piece_length, 1)
        _check_int("n_sub_iterations", n_sub_iterations, 1)
        _check_int("seed_size", seed_size, 1)
        if not 0.0 < shrinking_factor < 1.0:
            raise SubwordLabError(f"must be between 0 and 1, got {shrinking_factor!r}",
                                  field="shrinking_factor")
        if not 0.0 < shrink_fraction < 1.0:
            raise SubwordLabError(f"must be between 0 and 1, got {shrink_fraction!r}",
                                  field="shrink_fraction")
        self.vocab_size = vocab_size
        self.show_progress = bool(show_progress)
        self.special_tokens = special_added_tokens(special_tokens)
        self._specials = special_token_contents(self.special_tokens)
        self.shrinking_factor = shrinking_factor
        self.unk_token = unk_token
        self.max_piece_length = max_piece_length
        self.n_sub_iterations = n_sub_iterations
        self.seed_size = seed_size
        self.initial_alphabet = _alphabet(initial_alphabet)
        self.method = method
        self.shrink_fraction = shrink_fraction
        self.split_by_unicode_script = bool(split_by_unicode_script)
        self.trained_model = None
        self._followers: dict[str, str | None] | None = None

    # -- collecting words ------------------------------------------------------------
    def feed(self, iterator: Iterable, process: Callable) -> None:
        """Count the words, and remember what followed each word in its sequence
        (the next word's first character, or "\\0" at the end): the seed's
        suffix-tree nodes depend on it, as sentencepiece reads the running text."""
        counts: dict[str, int] = {}
        followers: dict[str, str | None] = {}  # None: MANY
        get = counts.get
        fget = followers.get
        many = unigram_seed.MANY
        for sequence in iterator:
            prev = None
            for word in process(sequence):
                if not word:
                    continue
                counts[word] = get(word, 0) + 1
                if prev is not None:
                    _follow(followers, fget, prev, word[0], many)
                prev = word
            if prev is not None:
                _follow(followers, fget, prev, "\0", many)
        self.words = counts
        self._followers = followers

    def feed_word_counts(self, counts: dict[str, int] | Iterable[tuple[str, int]]) -> None:
        """Ready-made word counts: a word's end then counts as one boundary."""
        super().feed_word_counts(counts)
        self._followers = None

    # -- entry point ---------------------------------------------------------------
    def train(self, model: Any = None, on_event: Callable | None = None) -> list:
        """Learn the vocabulary from the fed words and fill `model` (a models.Unigram)
        with it. Returns the special tokens to add to the tokenizer."""
        if model is not None and getattr(model, "type_name", "Unigram") != "Unigram":
            raise SubwordLabError("UnigramTrainer can only train a Unigram model, "
                                  f"not {model.type_name}", field="trainer")
        self._require_words()
        emit = self._emitter(on_event)
        send = on_event is not None
        words = list(self.words.items())
        self._check_size(words)
        if send:
            emit({"type": "train_start", "algorithm": "unigram", "method": self.method,
                  "vocab_size": self.vocab_size, "unique_words": len(words),
                  "total_words": sum(c for _, c in words), "options": self._options()})
        train = self._train_em if self.method == "em" else self._train_exact
        pieces = train(words, emit if send else None)
        vocab, unk_id = self._with_specials(pieces)
        if send:
            emit({"type": "train_end", "algorithm": "unigram", "vocab_size": len(vocab),
                  "unk_id": unk_id, "vocab": [[p, s] for p, s in vocab]})
        self._check_cancel()
        from ..models.unigram import Unigram
        self.trained_model = refill_model(model, Unigram(vocab, unk_id, False))
        return as_added_tokens(self.special_tokens)

    # -- checks --------------------------------------------------------------------
    def _required_chars(self, words: dict[str, int]) -> dict:
        """Every character of the corpus (with its count) and of initial_alphabet (0)."""
        counts = unigram_seed.char_counts(words)
        for ch in self.initial_alphabet:
            counts.setdefault(ch, 0)
        return counts

    def _need_unk(self) -> bool:
        return self.unk_token is not None and self.unk_token not in self._specials

    def _room(self) -> int:
        """How many learned pieces the final vocabulary holds."""
        return self.vocab_size - len(self._specials) - (1 if self._need_unk() else 0)

    def _check_size(self, words):
        required = len(self._required_chars(words))
        if required > self._room():
            extra = len(self._specials) + (1 if self._need_unk() else 0)
            raise SubwordLabError(
                f"vocab_size {self.vocab_size} is too small: the corpus and initial_alphabet "
                f"have {required} distinct characters and there are {extra} special "
                f"tokens, so it must be at least {required + extra}", field="vocab_size")

    def _options(self) -> dict:
        return {"shrinking_factor": self.shrinking_factor, "unk_token": self.unk_token,
                "max_piece_length": self.max_piece_length,
                "n_sub_iterations": self.n_sub_iterations, "seed_size": self.seed_size,
                "special_tokens": list(self._specials),
                "initial_alphabet": sorted(self.initial_alphabet),
                "shrink_fraction": self.shrink_fraction, "trace": self.trace,
                "split_by_unicode_script": self.split_by_unicode_script}

    def _limit(self, items):
        return items if self.trace == "full" else items[:SUMMARY_LIMIT]

    def _progress(self, message):
        if self.show_progress:
            print(f"\r[unigram] {message:<60}", end="", file=sys.stderr, flush=True)

    def _progress_done(self):
        if self.show_progress:
            print(file=sys.stderr, flush=True)

    # -- method="em" ---------------------------------------------------------------
    def _train_em(self, words, emit):
        seed, chars = unigram_seed.seed_pieces(
            words, self.seed_size, self.max_piece_length,
            split_by_script=self.split_by_unicode_script, followers=self._followers)
        if emit:
            self._emit_seed(emit, seed, chars, words)
        state = unigram_em.EMState(seed, words, self.max_piece_length)
        desired = self.vocab_size * 11 // 10
        for round_no in range(1, 1_000_000):
            for sub in range(self.n_sub_iterations):
                self._check_cancel()
                expected, objective = state.e_step()
                dropped = state.m_step(expected)
                self._progress(f"EM round {round_no}.{sub + 1}: {state.size()} pieces, "
                               f"objective {objective:.4f}")
                if emit:
                    event = {"type": "unigram_em", "round": round_no, "sub_iteration": sub + 1,
                             "objective": objective, "vocab_size": state.size(),
                             "dropped": len(dropped)}
                    if self.trace == "full":
                        event["dropped_pieces"] = [state.pieces[i] for i in dropped]
                    emit(event)
            if state.size() <= desired:
                break
            before = state.size()
            removed, kept = state.prune(self.shrinking_factor, desired)
            if emit:
                self._emit_prune(emit, state, round_no, before, removed, kept)
        self._progress_done()
        return self._finalize_em(state, self._required_chars(words))

    def _emit_seed(self, emit, seed, chars, words):
        substrings = seed[len(chars):]
        top = [[p, s] for p, s in self._limit(substrings)]
        emit({"type": "unigram_seed", "method": "em", "size": len(seed) + 1,
              "characters": len(chars), "substrings": len(substrings),
              "top": top, "score": "log(count x length / total)"})

    def _emit_prune(self, emit, state, round_no, before, removed, kept):
        scored = sorted((loss, state.pieces[pid]) for pid, loss in removed if loss is not None)
        unused = [state.pieces[pid] for pid, loss in removed if loss is None]
        emit({"type": "unigram_prune", "round": round_no, "vocab_size_before": before,
              "kept": kept, "removed_count": len(removed),
              "removed": [[piece, loss] for loss, piece in self._limit(scored)],
              "unused_count": len(unused), "unused": self._limit(unused)})

    def _finalize_em(self, state, required):
        """The final vocabulary: every required character (with its learned score,
        or just below the lowest score if EM dropped it), then the pieces that one
        last pruning round keeps (by likelihood loss, where SentencePiece takes the
        best-scored and tokenizers the first in seed order); sorted by score."""
        alive = {state.pieces[i] for i in state.order}
        missing = sum(1 for ch in required if ch not in alive)
        state.prune_to(self._room() - missing, required)
        scores = state.scores
        live = {state.pieces[i]: scores[i] for i in state.order}
        min_score = min(live.values()) if live else 0.0
        final = {}
        penalty = 0.0
        # frequent characters first, so rarer ones get the larger penalties
        for ch, _ in sorted(required.items(), key=lambda kv: (-kv[1], kv[0])):
            if ch in live:
                final[ch] = live[ch]
            else:
                final[ch] = min_score + penalty
                penalty += MIN_SCORE_PENALTY
        room = self._room()
        for piece, score in sorted(live.items(), key=lambda kv: (-kv[1], kv[0])):
            if len(final) >= room:
                break
            final.setdefault(piece, score)
        return sorted(final.items(), key=lambda kv: (-kv[1], kv[0]))

    # -- method="exact" ------------------------------------------------------------
    def _train_exact(self, words, emit):
        counts = unigram_exact.initial_vocabulary(words, self.seed_size)
        state = unigram_exact.ExactState(words, counts)
        if emit:
            subs = [[t, c] for t, c in counts.items() if len(t) > 1]
            emit({"type": "unigram_seed", "method": "exact", "size": len(counts),
                  "characters": len(counts) - len(subs), "substrings": len(subs),
                  "top": self._limit(subs), "score": "count"})
        room = self._room()
        round_no = 0
        while len(state.model) > room:
            self._check_cancel()
            round_no += 1
            scores = state.removal_scores()
            if not scores:
                break  # only characters left: they are never removed
            ranked = sorted(scores.items(), key=lambda kv: kv[1])
            count = unigram_exact.removal_count(len(state.model), self.shrink_fraction)
            removed = ranked[:count]
            if emit:
                emit({"type": "unigram_exact_round", "round": round_no, "loss": state.loss,
                      "vocab_size": len(state.model), "remove": len(removed),
                      "removed": [[t, s] for t, s in removed],
                      "scores": [[t, s] for t, s in self._limit(ranked)]})
            self._progress(f"round {round_no}: {len(state.model)} tokens, loss {state.loss:.4f}")
            state.remove(t for t, _ in removed)
        self._progress_done()
        if emit:
            emit({"type": "unigram_exact_round", "round": round_no + 1, "loss": state.loss,
                  "vocab_size": len(state.model), "remove": 0, "removed": [], "scores": []})
        # a Unigram model scores with log probabilities: the negated course scores
        return [(token, -score) for token, score in state.model.items()]

    # -- the final vocabulary ------------------------------------------------------
    def _with_specials(self, pieces):
        """Special tokens first (score 0), the unknown token in front of them when it
        is not one of them, as tokenizers lays the vocabulary out."""
        specials = [(t, 0.0) for t in self._specials]
        unk_id = None
        if self.unk_token is not None:
            if self._need_unk():
                specials.insert(0, (self.unk_token, 0.0))
                unk_id = 0
            else:
                unk_id = self._specials.index(self.unk_token)
        taken = {t for t, _ in specials}
        return specials + [(p, s) for p, s in pieces if p not in taken], unk_id


def _follow(followers, fget, word, ch, many):
    seen = fget(word, ch)
    if seen is not many:
        followers[word] = ch if seen == ch else many


def _check_int(name, value, minimum):
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise SubwordLabError(f"must be an integer of at least {minimum}, got {value!r}",
                              field=name)


def _alphabet(initial_alphabet):
    """initial_alphabet as a set of characters (tokenizers keeps the first character
    of each string)."""
    chars = set()
    for item in initial_alphabet or ():
        if not isinstance(item, str) or not item:
            raise SubwordLabError(f"expected characters, got {item!r}", field="initial_alphabet")
        chars.add(item[0])
    return chars

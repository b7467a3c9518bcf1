"""WordPieceTrainer: the real score-based WordPiece training.

Words start as their first character followed by prefixed characters ("##"), and
each step merges the pair with the best score freq(pair) / (freq(first) x
freq(second)), where freq counts tokens over the whole corpus. Merging "##a" with
"##b" makes "##ab"; "a" with "##b" makes "ab". (`tokenizers` trains WordPiece with
its BPE trainer instead; this one is the algorithm the course describes.)
"""
from __future__ import annotations

from collections.abc import Iterable

from .merge_trainer import MergeTrainer
from .exact_engine import ExactEngine

__all__ = ["WordPieceTrainer"]


class WordPieceTrainer(MergeTrainer):
    """Options as in `tokenizers.trainers.WordPieceTrainer`, plus `tie_break` and `trace`.

    tie_break="hf": among equal scores, the pair of smallest ids; "first": the pair
    that occurs first in corpus order (the course's loop). min_frequency leaves out
    pairs seen fewer times; max_token_length, pairs that would make longer tokens."""

    algorithm = "wordpiece"
    model_type = "WordPiece"

    def __init__(self, vocab_size: int = 30000, min_frequency: int = 0, show_progress: bool = True,
                 special_tokens: Iterable = (), limit_alphabet: int | None = None,
                 initial_alphabet: Iterable[str] = (), continuing_subword_prefix: str = "##",
                 end_of_word_suffix: str | None = None, max_token_length: int | None = None,
                 tie_break: str = "hf", trace: str = "summary") -> None:
        super().__init__(vocab_size, min_frequency, show_progress, special_tokens,
                         limit_alphabet, initial_alphabet, continuing_subword_prefix,
                         end_of_word_suffix, max_token_length, tie_break, trace)

    def _initial_tokens(self, vocab, alphabet):
        """The alphabet is every token a word starts with: first characters as they
        are, the others prefixed (and the last suffixed), sorted as strings, as the
        course builds it. Characters dropped by limit_alphabet are left out."""
        kept = set(alphabet)
        prefix = self.continuing_subword_prefix or ""
        suffix = self.end_of_word_suffix or ""
        if not suffix and not self.initial_alphabet and "" not in self.words \
                and kept.issuperset(set().union(*self.words)):
            return self._initial_tokens_plain(vocab, prefix)
        splits, counts = [], []
        initial: set[str] = set()
        for ch in self.initial_alphabet:
            if ch in kept:
                initial.update((ch, prefix + ch))
        for word, count in self.words.items():
            chars = [ch for ch in word if ch in kept]
            split = [ch if i == 0 else prefix + ch for i, ch in enumerate(chars)]
            if split and suffix:
                split[-1] += suffix
            initial.update(split)
            splits.append(split)
            counts.append(count)
        for token in sorted(initial):
            vocab.add(token)
        ids = vocab.ids
        return [[ids[t] for t in split] for split in splits], counts

    def _initial_tokens_plain(self, vocab, prefix):
        """_initial_tokens when every character is kept and no suffix or initial
        alphabet is given: one id per first character and per continuing one."""
        words = self.words
        firsts = {word[0] for word in words}
        inner = set().union(*(word[1:] for word in words))
        initial = firsts | {prefix + ch for ch in inner}
        for token in sorted(initial):
            vocab.add(token)
        ids = vocab.ids
        first_id = {ch: ids[ch] for ch in firsts}
        inner_id = {ch: ids[prefix + ch] for ch in inner}
        get = inner_id.__getitem__
        splits = [[first_id[word[0]], *map(get, word[1:])] for word in words]
        return splits, list(words.values())

    def _engine(self, vocab, words, counts):
        return ExactEngine(vocab, words, counts, scored=True,
                           first=self.tie_break == "first",
                           min_frequency=self.min_frequency,
                           max_token_length=self.max_token_length,
                           min_frequency_stops=False)

    def _model_dict(self, base, result):
        d = {"type": "WordPiece", "unk_token": "[UNK]", "max_input_chars_per_word": 100}
        d.update(base)
        d["vocab"] = {t: i for i, t in enumerate(result["vocab"])}
        if self.continuing_subword_prefix is not None:
            d["continuing_subword_prefix"] = self.continuing_subword_prefix
        d.setdefault("continuing_subword_prefix", "##")
        return d

    def tokens(self) -> list[str]:
        """The tokens learned by merging, in order (after `train`)."""
        if self.result is None:
            return []
        vocab = self.result["vocab"]
        return [vocab[new] for _, _, new in self.result["merges"]]

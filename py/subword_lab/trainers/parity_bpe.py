"""ParityBpeTrainer: BPE that shares its merges fairly between languages.

Plain BPE merges the most frequent pair of the whole corpus, so the language with
the most text gets the best compression. Parity-aware BPE (tokenizers'
`ParityBpeTrainer`) takes one corpus per language and, at each merge, looks for
the language that is compressed worst so far (characters per token on its
development text, or on its training text without one, divided by its target
`ratio`) and merges that language's most frequent pair. The merge then applies
to every language.

This is the plain form: pair counts are recounted at every merge, which is clear
and fine for teaching-sized corpora, not fast on big ones. The "base" variant only
(tokenizers' "window" variant is accepted when built, refused when training).
"""
from __future__ import annotations

from collections import Counter

from ..core.errors import SubwordLabError
from .base import as_added_tokens, special_added_tokens, special_token_contents


class ParityBpeTrainer:
    def __init__(self, num_merges=32000, variant="base", min_frequency=0, ratio=None,
                 global_merges=0, window_size=100, alpha=2.0, total_symbols=False,
                 special_tokens=None, show_progress=True, limit_alphabet=None,
                 initial_alphabet=None, continuing_subword_prefix=None,
                 end_of_word_suffix=None, max_token_length=None):
        if variant not in ("base", "window"):
            raise SubwordLabError(f"variant must be 'base' or 'window', got {variant!r}",
                                  field="variant")
        self.num_merges, self.variant, self.min_frequency = num_merges, variant, min_frequency
        self.ratio, self.global_merges = ratio, global_merges
        self.window_size, self.alpha, self.total_symbols = window_size, alpha, total_symbols
        self.special_tokens = special_added_tokens(special_tokens or [])
        self.show_progress, self.limit_alphabet = bool(show_progress), limit_alphabet
        self.initial_alphabet = list(initial_alphabet or [])
        self.continuing_subword_prefix = continuing_subword_prefix
        self.end_of_word_suffix = end_of_word_suffix
        self.max_token_length = max_token_length

    def train_from_iterator(self, tokenizer, train_iterators, dev_iterators=None, ratio=None):
        """Learn merges from one iterator of texts per language; fill tokenizer.model."""
        from ..models.bpe import BPE

        if self.variant != "base":
            raise SubwordLabError("only the 'base' variant is implemented", field="variant")
        ratio = ratio if ratio is not None else self.ratio
        n = len(train_iterators)
        if dev_iterators is not None and len(dev_iterators) != n:
            raise SubwordLabError(f"{len(dev_iterators)} dev iterators for {n} training "
                                  "iterators: give one per language", field="dev_iterators")
        if ratio is not None and len(ratio) != n:
            raise SubwordLabError(f"{len(ratio)} ratios for {n} languages", field="ratio")
        count = tokenizer._training_words()
        train = [_word_counts(texts, count) for texts in train_iterators]
        dev = [_word_counts(texts, count) for texts in dev_iterators] if dev_iterators else None
        alphabet = self._alphabet(train)
        split = {w: self._split(w, alphabet) for lang in train + (dev or []) for w in lang}
        initial = sorted({s for parts in split.values() for s in parts} | alphabet)
        merges = self._merges(train, dev, ratio or [1.0] * n, split)
        vocab = {}
        for token in special_token_contents(self.special_tokens):
            vocab.setdefault(token, len(vocab))
        for symbol in initial:
            vocab.setdefault(symbol, len(vocab))
        for a, b in merges:
            vocab.setdefault(self._join(a, b), len(vocab))
        tokenizer.model = BPE(vocab, merges, continuing_subword_prefix=self.continuing_subword_prefix,
                              end_of_word_suffix=self.end_of_word_suffix)
        tokenizer.add_special_tokens(as_added_tokens(self.special_tokens))

    # -- the pieces ------------------------------------------------------------------

    def _alphabet(self, train):
        chars = Counter()
        for lang in train:
            for word, c in lang.items():
                for ch in word:
                    chars[ch] += c
        keep = sorted(chars, key=lambda ch: (-chars[ch], ch))
        if self.limit_alphabet is not None:
            keep = keep[:self.limit_alphabet]
        return set(keep) | set(self.initial_alphabet)

    def _split(self, word, alphabet):
        prefix, suffix = self.continuing_subword_prefix or "", self.end_of_word_suffix or ""
        parts = [(prefix if i else "") + ch for i, ch in enumerate(word) if ch in alphabet]
        if parts and suffix:
            parts[-1] += suffix
        return tuple(parts)

    def _join(self, a, b):
        prefix = self.continuing_subword_prefix or ""
        return a + (b[len(prefix):] if prefix and b.startswith(prefix) else b)

    def _merges(self, train, dev, ratio, split):
        merges = []
        while len(merges) < self.num_merges:
            if len(merges) < self.global_merges:
                order = [None]  # the first merges are plain BPE over all languages
            else:
                rates = [_chars_per_token(lang, split) / r
                         for lang, r in zip(dev or train, ratio)]
                order = sorted(range(len(train)), key=lambda i: rates[i])
            pair = None
            for lang in order:
                pair = self._best_pair(train if lang is None else [train[lang]], split)
                if pair is not None:
                    break
            if pair is None:
                return merges
            merges.append(pair)
            joined = self._join(*pair)
            for word, parts in split.items():
                if len(parts) > 1:
                    split[word] = _apply(parts, pair, joined)
        return merges

    def _best_pair(self, langs, split):
        pairs = Counter()
        for lang in langs:
            for word, c in lang.items():
                parts = split[word]
                for pair in zip(parts, parts[1:]):
                    pairs[pair] += c
        best = None
        for pair, c in pairs.items():
            if c < max(self.min_frequency, 1):
                continue
            if self.max_token_length and len(self._join(*pair)) > self.max_token_length:
                continue
            if best is None or (-c, pair) < (-best[1], best[0]):
                best = (pair, c)
        return None if best is None else best[0]


def _word_counts(texts, process):
    counts = Counter()
    for text in texts:
        counts.update(process(text))
    return counts


def _chars_per_token(lang, split):
    chars = sum(len(w) * c for w, c in lang.items())
    tokens = sum(len(split[w]) * c for w, c in lang.items())
    return chars / tokens if tokens else float("inf")


def _apply(parts, pair, joined):
    out, i = [], 0
    while i < len(parts):
        if i + 1 < len(parts) and (parts[i], parts[i + 1]) == pair:
            out.append(joined)
            i += 2
        else:
            out.append(parts[i])
            i += 1
    return tuple(out)

"""WordPiece training: BPE's loop, ranked by a score instead of a count.

1. Split every word into its first character and the others with the continuing
   prefix ("hugs" -> h ##u ##g ##s); the vocabulary is the special tokens, then
   those tokens, sorted.
2. Score every adjacent pair: score = count(ab) / (count(a) x count(b)), counts
   taken over the corpus with each word weighing its count. A pair scores high when
   its parts rarely appear apart, not merely when it is frequent.
3. Join the best pair ("hu" + "##g" -> "hug": the right part loses its prefix) in
   every word and repeat, as BPE does (`bpe_train.train_words` is the shared loop).
"""
from __future__ import annotations

from .bpe_train import train_words

__all__ = ["train", "trainer_options"]


def train(word_counts, *, vocab_size, special_tokens=(), tie_break="hf",
          continuing_subword_prefix="##", options=None, on_event=None):
    """WordPiece training on `word_counts` (word -> count, in corpus order).

    Returns (vocabulary as a list of tokens, merges as (left, right) pairs).
    """
    prefix = continuing_subword_prefix
    words = {}
    for word in word_counts:
        tokens = [char if i == 0 else prefix + char for i, char in enumerate(word)]
        words[word] = tokens
    alphabet = sorted({token for tokens in words.values() for token in tokens})
    return train_words(word_counts, words, alphabet, algorithm="wordpiece",
                       vocab_size=vocab_size, special_tokens=special_tokens,
                       tie_break=tie_break, min_frequency=0, options=options,
                       on_event=on_event, scored=True, prefix=prefix)


def trainer_options(trainer):
    """The keyword arguments of `train` from a `trainers.WordPieceTrainer`."""
    return {"vocab_size": trainer.vocab_size, "special_tokens": trainer.options()["special_tokens"],
            "tie_break": trainer.tie_break,
            "continuing_subword_prefix": trainer.continuing_subword_prefix,
            "options": trainer.options()}

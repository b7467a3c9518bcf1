"""Facade functions for the page's Unigram views (re-exported by web.api).

- `course_toy_unigram`: the Hugging Face course's toy Unigram model (every strict
  substring of the toy words, scored log(frequency / total)), registered in
  the facade's registry under "course-toy-unigram" so the encode view can
  trace it like any preset.
- `unigram_nbest`: the n best segmentations of one word with their scores and
  probabilities, for the lattice view's last steps.

Probabilities are normalised over *all* segmentations of the word (the lattice's
forward sum), not only over the n listed: P(seg | word) = exp(score - log Z).
"""
from __future__ import annotations

import json
import math

from ..core.errors import SubwordLabError
from ..models import Unigram
from ..models.unigram_nbest import nbest_of
from .course import TOY_WORDS as COURSE_TOY_WORDS
from .registry import REGISTRY

COURSE_TOY_KEY = "course-toy-unigram"


def course_toy_vocab(words=COURSE_TOY_WORDS) -> list:
    """[(piece, log(freq / total))]: every strict substring of a word, characters first.

    A piece's frequency counts all its occurrences in the corpus words, the whole
    word included ("hug" is a strict substring of "hugs" but is counted in "hug"
    too), as the course does; the pieces sum to 210 on the toy corpus.
    """
    strict = {}
    for word, _ in words:
        for i in range(len(word)):
            for j in range(i + 1, len(word) + 1):
                if j - i < len(word):
                    strict.setdefault(word[i:j], 0)
    for piece in strict:
        strict[piece] = sum(count * _occurrences(word, piece) for word, count in words)
    total = sum(strict.values())
    ordered = sorted(strict, key=lambda p: (len(p) > 1, list(strict).index(p)))
    return [(piece, math.log(strict[piece] / total)) for piece in ordered]


def _occurrences(word: str, piece: str) -> int:
    return sum(1 for i in range(len(word) - len(piece) + 1) if word.startswith(piece, i))


def build_course_toy_tokenizer():
    from .. import Tokenizer, models, pre_tokenizers

    vocab = [("<unk>", 0.0)] + course_toy_vocab()
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=0))
    # Words are split at whitespace so a multi-word text shows one lattice per word.
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return tokenizer


def course_toy_unigram(args_json: str = "{}", emit=None) -> str:
    """Build the toy model, keep it under "course-toy-unigram", return its description."""
    if COURSE_TOY_KEY not in REGISTRY:
        REGISTRY.add(COURSE_TOY_KEY, "course toy corpus (Unigram, all strict substrings)",
                     build_course_toy_tokenizer())
    return json.dumps(REGISTRY.info(COURSE_TOY_KEY))


def unigram_nbest(args_json: str, emit=None) -> str:
    """args {key, word, n=5}: the n best segmentations of `word` (one pre-tokenized
    piece, as the model sees it), best first, each with `score` (sum of log
    probabilities), `probability` (normalised over every segmentation of the word)
    and `share_of_listed` (normalised over the n listed). Emits nothing."""
    args = json.loads(args_json)
    tokenizer = REGISTRY.get(args.get("key"))
    model = tokenizer.model
    # a sentencepiece model's Unigram is a subclass (sentencepiece/bpe.py)
    if not isinstance(model, Unigram):
        raise SubwordLabError(f"the tokenizer {args.get('key')!r} is not a Unigram model")
    n = int(args.get("n", 5))
    if not 1 <= n <= 50:
        raise SubwordLabError(f"n must be between 1 and 50, got {n}", field="n")
    return json.dumps(nbest_of(model, str(args.get("word", "")), n), ensure_ascii=False)

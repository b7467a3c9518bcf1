"""The course's simplified Unigram trainer, reproduced to the last bit.

The Hugging Face course (chapter 6, "Unigram tokenization") trains like this:
- initial vocabulary: every character, then the most frequent substrings of two
  or more characters (by count over the words, ties in first-seen order) until
  the vocabulary has `initial_size` entries;
- a token's model score is -log(count / total count of the vocabulary);
- a word's score is the best (lowest) sum of its tokens' scores (Viterbi);
  the course's `encode_word` starts every path at 1, not 0, so its word scores
  and losses are one more per word than the true -log P. We keep that start as
  `start_score` so every number matches the course; it changes no decision;
- the loss is the sum over words of count x word score, added in word order;
- each round scores every token of two or more characters by the exact loss
  increase when it alone is removed, sorts the scores (stable, ascending), removes
  int(len(vocabulary) x shrink_fraction) of them (the count is taken on the whole
  vocabulary, characters included, as the course's loop does), recomputes the
  probabilities from the remaining counts, and stops once the vocabulary has at
  most the target size.

Speed without changing a bit: removing a token only changes the words whose best
segmentation uses it (any other word keeps its best path, with the same float
sums), and the loss is re-added in word order from the first changed word, on top
of the running sums the full loss computation left.
"""
from __future__ import annotations

import math

COURSE_START_SCORE = 1  # what the course's encode_word puts at position 0


def initial_vocabulary(words, initial_size: int) -> dict:
    """token -> count: characters first (first-seen order), then the most frequent
    substrings of two or more characters, up to `initial_size` tokens in all."""
    chars = {}
    subs = {}
    for word, count in words:
        n = len(word)
        for i in range(n):
            ch = word[i]
            chars[ch] = chars.get(ch, 0) + count
            for j in range(i + 2, n + 1):
                sub = word[i:j]
                subs[sub] = subs.get(sub, 0) + count
    ranked = sorted(subs.items(), key=lambda item: item[1], reverse=True)
    vocab = dict(chars)
    for sub, count in ranked[:max(initial_size - len(chars), 0)]:
        vocab[sub] = count
    return vocab


def model_scores(token_counts: dict) -> dict:
    """token -> -log(count / total), in the vocabulary's order."""
    total = sum(token_counts.values())
    return {token: -math.log(count / total) for token, count in token_counts.items()}


def best_segmentation(word: str, model: dict, start_score=COURSE_START_SCORE, skip=None):
    """The course's Viterbi: (tokens, score, best) where best[i] = (start, score)
    of the best segmentation of word[:i]. Lower is better; ties keep the earliest
    start. `skip` is a token treated as absent. Score None: no segmentation."""
    n = len(word)
    best = [(0, start_score)] + [(None, None)] * n
    get = model.get
    for i in range(n):
        at = best[i][1]
        if at is None:
            continue
        for j in range(i + 1, n + 1):
            token = word[i:j]
            value = get(token)
            if value is None or token == skip:
                continue
            score = value + at
            old = best[j][1]
            if old is None or old > score:
                best[j] = (i, score)
    score = best[n][1]
    if score is None:
        return None, None, best
    tokens = []
    end = n
    while end > 0:
        start = best[end][0]
        tokens.append(word[start:end])
        end = start
    tokens.reverse()
    return tokens, score, best


def corpus_loss(words, model: dict, start_score=COURSE_START_SCORE) -> float:
    """Sum over words of count x best score, added in word order (as the course)."""
    loss = 0
    for word, count in words:
        loss += count * best_segmentation(word, model, start_score)[1]
    return loss


class ExactState:
    """The vocabulary and the words' current best segmentations for one round."""

    def __init__(self, words, token_counts: dict, start_score=COURSE_START_SCORE):
        self.words = list(words)
        self.token_counts = dict(token_counts)
        self.start_score = start_score
        self.refresh()

    def refresh(self):
        """Probabilities from the current counts; every word's best path and term."""
        self.model = model_scores(self.token_counts)
        self.terms = []
        self.users = {}  # token -> indexes of the words whose best path uses it
        for index, (word, count) in enumerate(self.words):
            tokens, score, _ = best_segmentation(word, self.model, self.start_score)
            self.terms.append(count * score)
            for token in set(tokens):
                self.users.setdefault(token, []).append(index)
        # partial[k] = the loss after adding the first k words, as the course adds them
        self.partial = [0]
        acc = 0
        for term in self.terms:
            acc += term
            self.partial.append(acc)
        self.loss = acc

    def removal_increase(self, token: str) -> float:
        """Exact loss increase when `token` alone is removed."""
        users = self.users.get(token)
        if not users:
            return self.loss - self.loss
        changed = {}
        for index in users:
            word, count = self.words[index]
            score = best_segmentation(word, self.model, self.start_score, skip=token)[1]
            if score is None:
                return math.inf
            changed[index] = count * score
        first = users[0]
        acc = self.partial[first]
        terms = self.terms
        for index in range(first, len(terms)):
            acc += changed.get(index, terms[index])
        return acc - self.loss

    def removal_scores(self) -> dict:
        """Token (two or more characters) -> loss increase, in vocabulary order."""
        return {token: self.removal_increase(token)
                for token in self.model if len(token) != 1}

    def remove(self, tokens):
        for token in tokens:
            del self.token_counts[token]
        self.refresh()


def removal_count(vocab_len: int, shrink_fraction: float) -> int:
    """How many tokens a round removes: int(len x fraction) as the course, at least 1."""
    return max(int(vocab_len * shrink_fraction), 1)

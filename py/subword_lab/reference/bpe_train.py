"""BPE training: join the most frequent adjacent pair, again and again.

Start from word counts ({"hug": 10, "pug": 5, ...}):

1. Split every word into characters; the vocabulary is the special tokens, then
   every character of the corpus (sorted).
2. Count every adjacent pair of tokens over the corpus, each word weighing its count.
3. Take the pair with the highest count. On a tie, `tie_break="hf"` takes the pair
   of smallest ids (as `tokenizers` does), `"first"` the pair that occurs first in
   the corpus (as the Hugging Face course's loop does).
4. Add the joined token to the vocabulary and join that pair in every word
   (left to right, so "a a a" becomes "aa a").
5. Repeat from 2 until the vocabulary has `vocab_size` tokens, no pair is left, or
   the best count is below `min_frequency`.

WordPiece training (`wordpiece_train.py`) is the same loop with another ranking.
The fast code (`subword_lab.trainers`) keeps pair counts up to date between steps
instead of counting again; the tests prove both report the same events.
"""
from __future__ import annotations

__all__ = ["train", "train_words", "trainer_options"]

# The variables the Code panel shows (see steps.py).
SHOWN = ("step", "pair", "count", "score", "token")
SHOWN_CANDIDATES = {"summary": 3, "full": 5}
# The line the Code panel highlights for a merge: where the best pair and its count are picked.
FOCUS = {"merge": "pair, count, score = best["}


def train(word_counts, *, vocab_size, special_tokens=(), tie_break="hf", min_frequency=0,
          options=None, on_event=None):
    """BPE training on `word_counts` (word -> count, in corpus order).

    Returns (vocabulary as a list of tokens, merges as (left, right) pairs).
    on_event: called with the events of docs/events.md ("train_start" ... "train_end");
    `options` is what "train_start" reports as the trainer's options.
    """
    words = {word: list(word) for word in word_counts}
    alphabet = sorted({char for word in word_counts for char in word})
    return train_words(word_counts, words, alphabet, algorithm="bpe", vocab_size=vocab_size,
                       special_tokens=special_tokens, tie_break=tie_break,
                       min_frequency=min_frequency, options=options, on_event=on_event)


def train_words(word_counts, words, alphabet, *, algorithm, vocab_size, special_tokens,
                tie_break, min_frequency, options, on_event, scored=False, prefix=""):
    """The loop BPE and WordPiece share: `words` maps each word to its first tokens;
    `scored` ranks pairs by count / (count of left x count of right) (WordPiece);
    a right token loses `prefix` when joined ("hu" + "##g" -> "hug")."""
    report = on_event or (lambda event: None)
    report({"type": "train_start", "algorithm": algorithm, "options": options or {},
            "unique_words": len(word_counts), "total_words": sum(word_counts.values())})
    vocab = list(special_tokens) + alphabet  # Step 1
    report({"type": "alphabet", "special_tokens": list(special_tokens), "alphabet": alphabet,
            "removed": [], "vocab_size": len(vocab)})
    corpus_tokens = sum(len(words[w]) * c for w, c in word_counts.items())
    report({"type": "words", "words": [{"word": w, "count": c, "tokens": list(words[w])}
                                       for w, c in word_counts.items()],
            "corpus_tokens": corpus_tokens})
    merges, stop = [], "vocab_size"
    trace = (options or {}).get("trace", "summary")  # "full" also lists the words changed
    shown = SHOWN_CANDIDATES[trace]
    while len(vocab) < vocab_size:
        ranked = rank_pairs(word_counts, words, vocab, tie_break, scored)  # Steps 2 and 3
        if not ranked:
            stop = "no_pairs"
            break
        best, *others = ranked
        pair, count, score = best["pair"], best["count"], best.get("score")  # noqa: F841  (score: shown in the Code panel, read from this frame)
        if count < min_frequency:
            stop = "min_frequency"
            break
        right = pair[1][len(prefix):] if prefix and pair[1].startswith(prefix) else pair[1]
        token = pair[0] + right
        new = token not in vocab
        if new:  # Step 4
            vocab.append(token)
        changed = []  # indices of the words the merge changed
        for index, w in enumerate(words):
            words[w], joined = join_pair(words[w], pair, token)
            corpus_tokens -= joined * word_counts[w]
            if joined:
                changed.append(index)
        merges.append(tuple(pair))
        step = len(merges)
        value = "score" if scored else "count"
        candidates = [{k: v for k, v in c.items() if k != "order"} for c in others[:shown]]
        tied = [c["pair"] for c in candidates if c[value] == best[value]]
        tie = None
        if tied:
            tie = {"rule": "smallest_ids" if tie_break == "hf" else "first_occurrence",
                   "tied": tied, "more": len(tied) == len(candidates)}
        numbers = {k: v for k, v in best.items() if k not in ("pair", "order")}
        event = {"type": "merge", "step": step, "pair": list(pair),
                 "ids": [vocab.index(pair[0]), vocab.index(pair[1])], "token": token,
                 "id": vocab.index(token), "new": new, **numbers, "candidates": candidates,
                 "tie": tie, "vocab_size": len(vocab), "corpus_tokens": corpus_tokens}
        if trace == "full":
            event["words"] = changed
        report(event)
    report({"type": "train_end", "algorithm": algorithm, "vocab": vocab,
            "vocab_size": len(vocab), "merges": len(merges), "stop": stop})
    return vocab, merges


def rank_pairs(word_counts, words, vocab, tie_break, scored):
    """Every adjacent pair with its count (and WordPiece's score), best first."""
    counts, first_seen = {}, {}
    token_counts = {}
    for w, (word, count) in enumerate(word_counts.items()):
        tokens = words[word]
        offset = 0
        for i, token in enumerate(tokens):
            token_counts[token] = token_counts.get(token, 0) + count
            if i + 1 < len(tokens):
                pair = (token, tokens[i + 1])
                counts[pair] = counts.get(pair, 0) + count
                first_seen.setdefault(pair, (w, offset))  # word index, character offset
            offset += len(token)
    ranked = []
    for pair, count in counts.items():
        entry = {"pair": list(pair), "count": count}
        value = count
        if scored:
            left, right = token_counts[pair[0]], token_counts[pair[1]]
            value = count / (left * right)
            entry = {"pair": list(pair), "score": value, "count": count,
                     "left_count": left, "right_count": right}
        ids = (vocab.index(pair[0]), vocab.index(pair[1]))
        entry["order"] = (-value, *(ids if tie_break == "hf" else first_seen[pair]), ids)
        ranked.append(entry)
    return sorted(ranked, key=lambda entry: entry["order"])


def join_pair(tokens, pair, token):
    """The tokens with every occurrence of `pair` joined, left to right; and how many."""
    out, joined, i = [], 0, 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == tuple(pair):
            out.append(token)
            joined += 1
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out, joined


def trainer_options(trainer):
    """The keyword arguments of `train` from a `trainers.BpeTrainer`."""
    return {"vocab_size": trainer.vocab_size, "special_tokens": trainer.options()["special_tokens"],
            "tie_break": trainer.tie_break, "min_frequency": trainer.min_frequency,
            "options": trainer.options()}

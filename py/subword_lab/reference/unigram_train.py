"""Unigram training: start from many pieces, then drop the ones the corpus misses least.

`method="em"` is SentencePiece's algorithm (as `trainers.UnigramTrainer` runs it):

1. Seed: every character, then the substrings that occur at least twice and are
   followed by more than one character (the longer string is otherwise as good),
   scored log(count x length / total). `seed_vocabulary`.
2. E step: for each word, forward-backward over its lattice (every piece that
   fits somewhere in the word) gives each piece's expected count: how often it is
   used, averaged over all segmentations weighted by their probability. `e_step`.
3. M step: pieces expected fewer than 0.5 times go; the others score
   digamma(expected) - digamma(total), which pushes rare pieces down harder than
   log(expected / total) would. `m_step`.
4. Prune: for every piece, how much worse the corpus would be if each use of it
   became its best split without it; keep the costliest `shrinking_factor` of the
   pieces (single characters always stay). `prune`. Repeat 2-4 until the
   vocabulary is at most 1.1 x vocab_size, then cut to the exact size. `finish`.

`method="exact"` is the Hugging Face course's simpler trainer (`train_exact`):
substring counts as probabilities, and the exact loss increase of every removal.

The fast code (`subword_lab.trainers.unigram*`) finds each word's lattice once and
filters it, and recounts only the words a removal changes; the tests prove both
report the same events and vocabulary.
"""
from __future__ import annotations

import math
import unicodedata

__all__ = ["train", "count_words", "trainer_options"]

# The variables the Code panel shows (see steps.py).
SHOWN = ("round_no", "sub", "objective", "pieces", "dropped", "target", "removed", "unused",
         "loss", "ranked")
# The lines the Code panel highlights for each step: the M step, the pruning, the removal.
FOCUS = {"unigram_em": "pieces, dropped = m_step(", "unigram_prune": "= prune(words, pieces",
         "unigram_exact_round": "removed = ranked[:"}
SUMMARY_LIMIT = 20  # list entries per event with trace="summary"
UNK_PENALTY = 10.0  # a character with no piece of its own scores min(score) - 10
SPACE_MARK = "\u2581"  # "▁", what Metaspace puts in front of words


def train(word_counts, *, vocab_size, method="em", special_tokens=(), unk_token=None,
          shrinking_factor=0.75, max_piece_length=16, n_sub_iterations=2, seed_size=1_000_000,
          shrink_fraction=0.1, split_by_unicode_script=True, trace="summary", followers=None,
          options=None, on_event=None):
    """Unigram training on `word_counts` (word -> count, in corpus order).

    Returns (vocabulary as [(piece, score)] in id order, id of the unknown token).
    followers: word -> the character that followed it in the corpus, or None when
    it varied (see `count_words`); without it every word ends at a boundary.
    """
    report = on_event or (lambda event: None)
    words = list(word_counts.items())
    report({"type": "train_start", "algorithm": "unigram", "method": method,
            "vocab_size": vocab_size, "unique_words": len(words),
            "total_words": sum(word_counts.values()), "options": options or {}})
    specials = list(special_tokens)
    need_unk = unk_token is not None and unk_token not in specials
    room = vocab_size - len(specials) - (1 if need_unk else 0)  # learned pieces
    limit = None if trace == "full" else SUMMARY_LIMIT
    if method == "em":
        seed = seed_vocabulary(words, followers, seed_size, max_piece_length,
                               split_by_unicode_script)
        pieces = train_em(words, seed, vocab_size, room, shrinking_factor, n_sub_iterations,
                          max_piece_length, limit, report)
    else:
        pieces = train_exact(words, room, seed_size, shrink_fraction, limit, report)
    vocab = [(token, 0.0) for token in specials]  # special tokens first, scored 0
    unk_id = None
    if unk_token is not None:
        if need_unk:
            vocab.insert(0, (unk_token, 0.0))
        unk_id = [token for token, _ in vocab].index(unk_token)
    taken = {token for token, _ in vocab}
    vocab += [(piece, score) for piece, score in pieces if piece not in taken]
    report({"type": "train_end", "algorithm": "unigram", "vocab_size": len(vocab),
            "unk_id": unk_id, "vocab": [[p, s] for p, s in vocab]})
    return vocab, unk_id


def train_em(words, seed, vocab_size, room, shrinking_factor, n_sub_iterations, max_len,
             limit, report):
    """Steps 1-4: EM rounds and pruning rounds; the learned pieces, best first."""
    pieces = dict(seed)  # piece -> score (log probability), in model order
    substrings = [[p, s] for p, s in seed if len(p) > 1]
    report({"type": "unigram_seed", "method": "em", "size": len(pieces) + 1,
            "characters": len(pieces) - len(substrings), "substrings": len(substrings),
            "top": substrings[:limit], "score": "log(count x length / total)"})
    desired = vocab_size * 11 // 10
    round_no = 0
    while True:
        round_no += 1
        for sub in range(1, n_sub_iterations + 1):
            expected, objective = e_step(words, pieces, max_len)  # Step 2
            pieces, dropped = m_step(pieces, expected)  # Step 3
            event = {"type": "unigram_em", "round": round_no, "sub_iteration": sub,
                     "objective": objective, "vocab_size": len(pieces), "dropped": len(dropped)}
            if limit is None:
                event["dropped_pieces"] = dropped
            report(event)
        if len(pieces) <= desired:
            break
        before = len(pieces)
        target = max(desired, int(shrinking_factor * len(pieces)))
        pieces, removed, unused = prune(words, pieces, target, max_len)  # Step 4
        removed.sort(key=lambda r: (r[1], r[0]))  # smallest loss first
        report({"type": "unigram_prune", "round": round_no, "vocab_size_before": before,
                "kept": len(pieces), "removed_count": len(removed) + len(unused),
                "removed": removed[:limit], "unused_count": len(unused),
                "unused": unused[:limit]})
    return finish(words, pieces, room, max_len)


def seed_vocabulary(words, followers, seed_size, max_len, split_by_script):
    """Step 1: [(piece, log probability)], characters first, at most `seed_size`
    (and at least one substring)."""
    chars = {}
    for word, count in words:
        for ch in word:
            chars[ch] = chars.get(ch, 0) + count
    entries = [(ch, c) for c, ch in sorted(((c, ch) for ch, c in chars.items()), reverse=True)]
    counts, next_chars = {}, {}
    for word, count in words:
        end = "\0" if followers is None else followers.get(word, "\0")
        for i in range(len(word) - 1):
            for j in range(i + 2, min(len(word), i + max_len) + 1):
                sub = word[i:j]
                counts[sub] = counts.get(sub, 0) + count  # every occurrence counts
                next_chars.setdefault(sub, set()).add(word[j] if j < len(word) else end)
    branching = [sub for sub, nexts in next_chars.items() if len(nexts) > 1 or None in nexts]
    scored = sorted(((counts[sub] * len(sub), sub) for sub in branching
                     if counts[sub] >= 2 and valid_piece(sub, max_len, split_by_script)),
                    reverse=True)
    entries += [(sub, score) for score, sub in scored[:max(seed_size - len(entries), 1)]]
    total = sum(value for _, value in entries)
    return [(piece, math.log(value) - math.log(total)) for piece, value in entries]


def valid_piece(piece, max_len, split_by_script):
    """Not too long, "▁" only in front, and letters of one script (or none)."""
    if len(piece) > max_len or SPACE_MARK in piece[1:]:
        return False
    scripts = []
    for ch in piece:
        category = unicodedata.category(ch)
        if ch == SPACE_MARK or category[0] == "M":  # a mark takes the letter's script
            continue
        name = unicodedata.name(ch, "UNKNOWN").split(" ")[0] if category[0] == "L" else "COMMON"
        scripts.append("CJK" if name in CJK_NAMES else name)
    return not split_by_script or len(set(scripts)) <= 1


CJK_NAMES = {"HIRAGANA", "KATAKANA", "HALFWIDTH", "IDEOGRAPHIC", "KATAKANA-HIRAGANA"}


def lattice(word, pieces, max_len):
    """Every (start, end, piece) with word[start:end] a piece, by start then end; a
    position that begins no one-character piece gets (start, start + 1, None): unknown."""
    edges = []
    for start in range(len(word)):
        ends = [end for end in range(start + 1, min(len(word), start + max_len) + 1)
                if word[start:end] in pieces]
        edges += [(start, end, word[start:end]) for end in ends]
        if start + 1 not in ends:
            edges.append((start, start + 1, None))
    return edges


def with_unknown(pieces):
    """The scores, with the unknown piece (None) scored min(score) - 10."""
    return {**pieces, None: min(pieces.values()) - UNK_PENALTY}


def e_step(words, pieces, max_len):
    """Step 2: each piece's expected count, and the objective (the corpus negative
    log-likelihood, all segmentations summed, per word occurrence)."""
    prob = {piece: math.exp(score) for piece, score in with_unknown(pieces).items()}
    expected = {}
    objective = 0.0
    for word, count in words:
        edges = lattice(word, pieces, max_len)
        alpha = [1.0] + [0.0] * len(word)  # alpha[p]: probability of all paths 0 -> p
        for start, end, piece in edges:
            alpha[end] += alpha[start] * prob[piece]
        beta = [0.0] * len(word) + [1.0]  # beta[p]: probability of all paths p -> end
        for start, end, piece in reversed(edges):
            beta[start] += prob[piece] * beta[end]
        z = alpha[len(word)]
        for start, end, piece in edges:
            share = alpha[start] * prob[piece] * beta[end] * (count / z)
            expected[piece] = expected.get(piece, 0.0) + share
        objective -= count * math.log(z)
    return expected, objective / sum(count for _, count in words)


def m_step(pieces, expected):
    """Step 3: the pieces expected at least 0.5 times, rescored; and those dropped."""
    kept = [piece for piece in pieces if expected.get(piece, 0.0) >= 0.5]
    total = sum(expected[piece] for piece in kept)
    scores = {piece: digamma(expected[piece]) - digamma(total) for piece in kept}
    return scores, [piece for piece in pieces if piece not in scores]


def digamma(x):
    """digamma(x) = d/dx log Gamma(x): shift x above 7 with digamma(x) = digamma(x + 1)
    - 1 / x, then the asymptotic series (as sentencepiece computes it). Written here
    again, not imported from the fast trainer: the tests then check its digamma too."""
    shift = 0.0
    while x < 7.0:
        shift -= 1.0 / x
        x += 1.0
    x -= 0.5
    inv = 1.0 / x
    inv2 = inv * inv
    inv4 = inv2 * inv2
    return (shift + math.log(x) + inv2 / 24.0 - 7.0 / 960.0 * inv4
            + 31.0 / 8064.0 * inv4 * inv2 - 127.0 / 30720.0 * inv4 * inv4)


def best_path(word, pieces, scores, max_len, skip_whole=False):
    """Viterbi: (score, pieces) of the best segmentation; on a tie the earliest
    start wins. skip_whole leaves out the edge that is the whole word."""
    best = [0.0] + [-math.inf] * len(word)
    came_from = [None] * (len(word) + 1)
    for start, end, piece in lattice(word, pieces, max_len):
        if skip_whole and (start, end) == (0, len(word)):
            continue
        if best[start] + scores[piece] > best[end]:
            best[end] = best[start] + scores[piece]
            came_from[end] = (start, piece)
    path, end = [], len(word)
    while end > 0:
        start, piece = came_from[end]
        path.insert(0, piece)
        end = start
    return best[len(word)], path


def removal_losses(words, pieces, max_len):
    """(kept, candidates, unused): single characters stay; candidates are
    [piece, loss], the costliest first: the likelihood lost if each use of the
    piece became its best split without it; unused pieces no best path uses."""
    scores = with_unknown(pieces)
    freq = {}  # how often each piece is on a word's best path
    for word, count in words:
        for piece in best_path(word, pieces, scores, max_len)[1]:
            freq[piece] = freq.get(piece, 0.0) + count
    total = sum(freq.get(piece, 0.0) for piece in pieces) + freq.get(None, 0.0)
    kept, candidates, unused = [], [], []
    for piece in pieces:
        f = freq.get(piece, 0.0)
        alt_score, alts = (None, []) if len(piece) == 1 else best_path(
            piece, pieces, scores, max_len, skip_whole=True)
        if f == 0 or (alts and alt_score > scores[piece]):  # its own best split avoids it
            unused.append(piece)
        elif not alts:
            kept.append(piece)
        else:
            logprob = math.log(f) - math.log(total)
            log_total_alt = math.log(total + f * (len(alts) - 1))
            logprob_alt = sum(math.log(freq.get(a, 0.0) + f) - log_total_alt for a in alts)
            loss = (f / sum(c for _, c in words)) * (logprob - logprob_alt)
            candidates.append([piece, loss])
    order = list(pieces)
    candidates.sort(key=lambda c: (-c[1], order.index(c[0])))  # ties keep model order
    return kept, candidates, unused


def prune(words, pieces, target, max_len):
    """Step 4: keep `target` pieces: the single characters, then the costliest."""
    kept, candidates, unused = removal_losses(words, pieces, max_len)
    room = max(target - len(kept), 0)
    kept += [piece for piece, _ in candidates[:room]]  # the new model order
    return {piece: pieces[piece] for piece in kept}, candidates[room:], unused


def finish(words, pieces, room, max_len):
    """The last cut to `room` pieces (every character of the corpus stays: one EM
    dropped scores just below the lowest), sorted by score."""
    chars = {}
    for word, count in words:
        for ch in word:
            chars[ch] = chars.get(ch, 0) + count
    size = room - sum(1 for ch in chars if ch not in pieces)
    if len(pieces) > size:
        kept, candidates, unused = removal_losses(words, pieces, max_len)
        keep = set(kept) | {p for p, _ in candidates if p in chars} | {p for p in unused if p in chars}
        for piece in [p for p, _ in candidates] + unused:
            if len(keep) >= size:
                break
            keep.add(piece)
        pieces = {piece: score for piece, score in pieces.items() if piece in keep}
    final, penalty, lowest = {}, 0.0, min(pieces.values(), default=0.0)
    for ch in sorted(chars, key=lambda ch: (-chars[ch], ch)):  # rarer ones score lower
        if ch in pieces:
            final[ch] = pieces[ch]
        else:
            final[ch] = lowest + penalty
            penalty += 0.0001
    for piece, score in sorted(pieces.items(), key=lambda kv: (-kv[1], kv[0])):
        if len(final) >= room:
            break
        final.setdefault(piece, score)
    return sorted(final.items(), key=lambda kv: (-kv[1], kv[0]))


def count_words(sequences):
    """(word counts, followers) from pre-tokenized sequences (lists of words):
    followers[word] is the character after the word ("\\0" at a sequence's end), or
    None when it varied. The seed's right-branching test reads it at word ends."""
    counts, followers = {}, {}
    for words in sequences:
        words = [w for w in words if w]
        for k, word in enumerate(words):
            counts[word] = counts.get(word, 0) + 1
            after = words[k + 1][0] if k + 1 < len(words) else "\0"
            followers[word] = after if followers.get(word, after) == after else None
    return counts, followers


def train_exact(words, room, seed_size, shrink_fraction, limit, report):
    """The course's trainer: remove the tokens whose removal raises the loss least."""
    counts = course_seed(words, seed_size)
    substrings = [[t, c] for t, c in counts.items() if len(t) > 1]
    report({"type": "unigram_seed", "method": "exact", "size": len(counts),
            "characters": len(counts) - len(substrings), "substrings": len(substrings),
            "top": substrings[:limit], "score": "count"})
    round_no = 0
    while True:
        total = sum(counts.values())
        model = {token: -math.log(c / total) for token, c in counts.items()}
        loss = course_loss(words, model)
        if len(model) <= room:
            break
        round_no += 1
        ranked = sorted(((t, course_loss(words, model, skip=t) - loss) for t in model
                         if len(t) > 1), key=lambda r: r[1])  # characters always stay
        if not ranked:
            break
        removed = ranked[:max(int(len(model) * shrink_fraction), 1)]
        report({"type": "unigram_exact_round", "round": round_no, "loss": loss,
                "vocab_size": len(model), "remove": len(removed),
                "removed": [list(r) for r in removed], "scores": [list(r) for r in ranked[:limit]]})
        for token, _ in removed:
            del counts[token]
    report({"type": "unigram_exact_round", "round": round_no + 1, "loss": loss,
            "vocab_size": len(model), "remove": 0, "removed": [], "scores": []})
    return [(token, -score) for token, score in model.items()]


def course_seed(words, seed_size):
    """Characters (first seen first), then the most frequent longer substrings."""
    chars, subs = {}, {}
    for word, count in words:
        for i in range(len(word)):
            chars[word[i]] = chars.get(word[i], 0) + count
            for j in range(i + 2, len(word) + 1):
                subs[word[i:j]] = subs.get(word[i:j], 0) + count
    ranked = sorted(subs.items(), key=lambda item: item[1], reverse=True)
    return {**chars, **dict(ranked[:max(seed_size - len(chars), 0)])}


def course_loss(words, model, skip=None):
    """Sum over words of count x the best (lowest) score of a path, each path
    starting at 1 as the course's encode_word does; `skip` is a token left out."""
    loss = 0
    for word, count in words:
        best = [1] + [None] * len(word)  # best[i]: the lowest score of word[:i]
        for i in range(len(word)):
            for j in range(i + 1, len(word) + 1):
                token = word[i:j]
                if token in model and token != skip and best[i] is not None:
                    if best[j] is None or best[i] + model[token] < best[j]:
                        best[j] = best[i] + model[token]
        loss += count * best[len(word)]
    return loss


def trainer_options(trainer):
    """The keyword arguments of `train` from a `trainers.UnigramTrainer`."""
    specials = [getattr(token, "content", token) for token in trainer.special_tokens]
    options = {"shrinking_factor": trainer.shrinking_factor, "unk_token": trainer.unk_token,
               "max_piece_length": trainer.max_piece_length,
               "n_sub_iterations": trainer.n_sub_iterations, "seed_size": trainer.seed_size,
               "special_tokens": specials, "initial_alphabet": sorted(trainer.initial_alphabet),
               "shrink_fraction": trainer.shrink_fraction, "trace": trainer.trace,
               "split_by_unicode_script": trainer.split_by_unicode_script}
    return options_arguments(options, vocab_size=trainer.vocab_size, method=trainer.method)


def options_arguments(options, *, vocab_size, method):
    """The keyword arguments of `train` from the options "train_start" reports."""
    if options.get("initial_alphabet"):
        raise ValueError("the Unigram training reference has no initial_alphabet")
    names = ("special_tokens", "unk_token", "shrinking_factor", "max_piece_length",
             "n_sub_iterations", "seed_size", "shrink_fraction", "split_by_unicode_script",
             "trace")
    return {"vocab_size": vocab_size, "method": method, "options": options,
            **{name: options[name] for name in names}}

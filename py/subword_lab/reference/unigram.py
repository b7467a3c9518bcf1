"""Unigram encoding of one word: the most likely way to cut it into pieces (Viterbi).

A Unigram model gives every piece a score, the log of its probability; the score
of a segmentation is the sum of its pieces' scores. Encoding finds the best one:

1. Build the *lattice*: an edge start -> end for every piece word[start:end] in
   the vocabulary. A character that begins no one-character piece gets an
   *unknown* edge, scored (the lowest score) - 10, so every word can be cut.
2. Walk the positions left to right. When the walk reaches position p, every edge
   ending at p has been seen, so best[p], the best score of any path from 0 to p,
   is final. Each edge start -> end then offers best[start] + score to `end`;
   `end` keeps the best offer (the first one on a tie) and where it came from.
3. Read the best path back from the end, following where each best came from.
4. Join runs of unknown pieces into one token; with byte fallback an unknown
   becomes its UTF-8 bytes as "<0xNN>" tokens, when the vocabulary has them all.

The fast code (`subword_lab.models.Unigram`) walks a prefix table and caches
words; the tests prove both give the same tokens and events.
"""
from __future__ import annotations

__all__ = ["encode_word", "encode", "word_encoder", "lookup_tables"]

UNK_PENALTY = 10.0
# The variables the Code panel shows (see steps.py).
SHOWN = ("word", "position", "start", "end", "piece", "score", "best")


def lookup_tables(pieces):
    """What `encode_word` looks pieces up in, made once for all the words of a model from
    its [(piece, score)]: piece -> id (its index; a piece listed twice keeps its last id),
    the scores by id, and an unknown edge's score (the lowest score - UNK_PENALTY)."""
    scores = [score for _, score in pieces]
    return {piece: i for i, (piece, _) in enumerate(pieces)}, scores, min(scores) - UNK_PENALTY


def encode_word(word, vocab, scores, unk_score, *, unk_id=None, byte_fallback=False,
                on_event=None):
    """The tokens of `word` as [piece, id, start, end] rows (offsets in characters).

    vocab, scores, unk_score: a model's `lookup_tables`. on_event: called with the
    events of docs/events.md ("unigram.word" ... "unigram.done").
    """
    if not word:
        return []
    report = on_event or (lambda event: None)
    report({"type": "unigram.word", "word": word})
    n = len(word)
    best = [0.0] * (n + 1)   # best[p]: the best score of a path from 0 to p
    came_from = [None] * (n + 1)  # came_from[p]: (start, id) of the last edge of that path
    for start in range(n):
        if start:
            report_best(word, start, best, came_from, report)
        # Step 1: the edges that start here; an unknown edge if no piece is one character.
        edges = [(end, vocab[word[start:end]], scores[vocab[word[start:end]]], False)
                 for end in range(start + 1, n + 1) if word[start:end] in vocab]
        if not edges or edges[0][0] != start + 1:
            edges.insert(0, (start + 1, unk_id, unk_score, True))
        # Step 2: each edge offers best[start] + score to its end.
        for end, i, score, unk in edges:
            better = came_from[end] is None or best[start] + score > best[end]
            if i is None:  # an unknown edge but no unknown piece
                if better:
                    raise ValueError("Encountered an unknown token but `unk_id` is missing")
                continue
            piece = word[start:end]
            report({"type": "unigram.edge", "start": start, "end": end, "piece": piece,
                    "id": i, "score": score, "unk": unk})
            if better:
                best[end] = best[start] + score
                came_from[end] = (start, i)
    report_best(word, n, best, came_from, report)

    # Step 3: the best path, read back from the end.
    path = []
    end = n
    while end > 0:
        start, i = came_from[end]
        path.insert(0, [word[start:end], i, start, end])
        end = start
    report({"type": "unigram.path", "score": best[n], "tokens": path})

    # Step 4: fuse unknowns, then bytes or the unknown token for pieces not in the vocabulary.
    fused = []
    for piece in path:
        if fused and piece[1] == unk_id and fused[-1][1] == unk_id:
            fused[-1] = [fused[-1][0] + piece[0], unk_id, fused[-1][2], piece[3]]
        else:
            fused.append(piece)
    tokens = []
    for piece, i, start, end in fused:
        byte_tokens = [f"<0x{b:02X}>" for b in piece.encode("utf-8", "surrogatepass")]
        if piece in vocab:
            tokens.append([piece, vocab[piece], start, end])
        elif byte_fallback and all(t in vocab for t in byte_tokens):
            tokens.extend([t, vocab[t], start, end] for t in byte_tokens)
        else:
            tokens.append([piece, unk_id, start, end])
    report({"type": "unigram.done", "tokens": tokens})
    return tokens


def report_best(word, position, best, came_from, report):
    """Position `position` is final: report its best score and the edge it came from."""
    start, i = came_from[position]
    report({"type": "unigram.best", "position": position, "score": best[position],
            "start": start, "piece": word[start:position], "id": i})


def word_encoder(model):
    """`encode_word` with the pieces and options of a `models.Unigram`, as a function of
    (word, on_event=None); the lookup tables are made once, for all the words."""
    vocab, scores, unk_score = lookup_tables(list(zip(model.pieces, model.scores)))

    def encode(word, on_event=None):
        return encode_word(word, vocab, scores, unk_score, unk_id=model.unk_id,
                           byte_fallback=model.byte_fallback, on_event=on_event)
    return encode


def encode(model, word, on_event=None):
    """`encode_word` of one word with a `models.Unigram` (`word_encoder` for many)."""
    return word_encoder(model)(word, on_event)

"""The steps of a GGUF tokenizer's encode as events (docs/events.md), for the page's
pipeline and step-by-step views: the pieces llama.cpp's model sees (special tokens
found in the text, then the text between them as each kind cuts it, as
`pre_tokenize`), and for each piece the steps of llama.cpp's own loop: merges by rank
(`bpe.*`, "BPE"), merges by score (`bpe.*` with `score`, "SPM"), the longest match
(`wordpiece.*`, "WPM"), the lattice and its best path (`unigram.*`, "UGM").
"""
from __future__ import annotations

from . import unigram, wordpiece
from .attrs import SPACE as _SPACE
from .merges import bpe_merge, spm_merge

__all__ = ["emit"]


def emit(vocab, text, parse_special, type_id, on_event):
    pieces, words = [], []
    prev_special = True
    for sid, start, end in vocab.partition(text, parse_special):
        if sid is not None:
            pieces.append({"text": vocab.tokens[sid], "offsets": [start, end], "added": True})
            prev_special = True
            continue
        for w0, w1, units, step in _words(vocab, text[start:end], prev_special):
            pieces.append({"text": units, "offsets": [start + w0, start + w1],
                           "added": False})
            words.append((len(pieces) - 1, step))
        prev_special = False
    on_event({"type": "pre_tokenize", "sequence": type_id, "pieces": pieces})
    for index, step in words:
        piece = pieces[index]
        on_event({"type": "model_piece", "sequence": type_id, "index": index,
                  "text": piece["text"], "offsets": piece["offsets"]})
        step(on_event)


def _words(vocab, fragment, prev_special):
    """The pieces of a fragment as llama.cpp's kind cuts it: (start, end, text the
    model sees, its steps as a function of on_event)."""
    if vocab.kind == "BPE":
        for w0, w1, units, whole in vocab.bpe_words(fragment):
            yield w0, w1, units, _bind(_bpe_events, vocab, units, whole)
    elif vocab.kind == "SPM":
        shift = 1 if vocab.add_space_prefix and prev_special else 0
        escaped = (" " * shift + fragment).replace(" ", _SPACE)
        yield 0, len(fragment), escaped, _bind(_spm_events, vocab, escaped)
    elif vocab.kind == "WPM":
        for word, where in wordpiece.words(vocab, fragment, 0, len(fragment)):
            marked = _SPACE + word
            yield where[0], where[-1] + 1, marked, _bind(_wordpiece_events, vocab, marked)
    else:
        data, _ = unigram.normalize(vocab, fragment, 0, len(fragment))
        if data:
            normalized = data.decode("utf-8", "surrogatepass")
            yield 0, len(fragment), normalized, _bind(_unigram_events, vocab, data, normalized)


def _bind(function, *args):
    return lambda on_event: function(*args, on_event)


def _bpe_events(vocab, units, whole, on_event):
    get = vocab.token_to_id.get
    on_event({"type": "bpe.word", "word": units})
    if whole:
        on_event({"type": "bpe.ignore_merges", "token": units, "id": get(units)})
        symbols = [[0, units]]
    else:
        symbols = [[i, ch] for i, ch in enumerate(units)]
        on_event({"type": "bpe.symbols", "symbols": list(units),
                  "ids": [get(ch) for ch in units],
                  "spans": [[i, i + 1] for i in range(len(units))]})
        trace = []
        bpe_merge(units, vocab.ranks, trace)
        for rank, left in trace:
            _merge_event(vocab, symbols, left, {"rank": rank}, on_event)
    rows = []
    for start, token in symbols:
        i = get(token)
        for j in [i] if i is not None else vocab.fallback_ids(token):
            rows.append([token if i is not None else vocab.tokens[j], j, start,
                         start + len(token)])
    on_event({"type": "bpe.done", "tokens": rows})


def _merge_event(vocab, symbols, left, extra, on_event):
    position = next(k for k, (start, _) in enumerate(symbols) if start == left)
    first, second = symbols[position][1], symbols[position + 1][1]
    symbols[position][1] = first + second
    del symbols[position + 1]
    on_event({"type": "bpe.merge", **extra, "pair": [first, second],
              "new": first + second, "id": vocab.token_to_id.get(first + second),
              "position": position, "symbols": [t for _, t in symbols]})


def _spm_events(vocab, escaped, on_event):
    """llama.cpp's SentencePiece-style merges (best score first) over a fragment, its
    spaces as U+2581; a piece no token holds falls back to its bytes' tokens."""
    get = vocab.token_to_id.get
    on_event({"type": "bpe.word", "word": escaped})
    on_event({"type": "bpe.symbols", "symbols": list(escaped),
              "ids": [get(ch) for ch in escaped],
              "spans": [[i, i + 1] for i in range(len(escaped))]})
    trace: list = []
    spm_merge(escaped, vocab.token_to_id, vocab.scores, trace)
    places = _score_places(vocab)
    symbols = [[i, ch] for i, ch in enumerate(escaped)]
    for i, left in trace:
        score = vocab.scores[i]
        _merge_event(vocab, symbols, left, {"rank": places[score], "score": score},
                     on_event)
    rows = []
    for start, token in symbols:
        i = get(token)
        if i is not None:
            rows.append([token, i, start, start + len(token)])
            continue
        found = vocab.spm_byte_ids(token)
        on_event({"type": "bpe.byte_fallback", "symbol": token, "start": start,
                  "end": start + len(token), "tokens": [vocab.tokens[j] for j in found]})
        rows.extend([vocab.tokens[j], j, start, start + len(token)] for j in found)
    on_event({"type": "bpe.done", "tokens": rows})


def _score_places(vocab):
    """Each score's place among the vocabulary's distinct scores, best first."""
    places = getattr(vocab, "_score_places", None)
    if places is None:
        places = {s: k for k, s in enumerate(sorted(set(vocab.scores), reverse=True))}
        vocab._score_places = places
    return places


def _wordpiece_events(vocab, marked, on_event):
    """llama.cpp's longest match from the left over "▁" + word."""
    on_event({"type": "wordpiece.word", "word": marked})
    tried: list = []
    found = wordpiece.match(marked, vocab.token_to_id.get, vocab.max_chars, tried)
    for start, end, i in tried:
        on_event({"type": "wordpiece.try", "candidate": marked[start:end],
                  "start": start, "end": end, "found": i is not None})
        if i is not None:
            on_event({"type": "wordpiece.match", "token": vocab.tokens[i], "id": i,
                      "start": start, "end": end})
    if found:
        rows = [[vocab.tokens[i], i, start, end] for i, start, end in found]
    else:
        unk = vocab.specials["unk"]
        on_event({"type": "wordpiece.unk", "reason": "no_match",
                  "position": tried[-1][0] if tried else 0, "token": vocab.tokens[unk],
                  "id": unk, "start": 0, "end": len(marked)})
        rows = [[vocab.tokens[unk], unk, 0, len(marked)]]
    on_event({"type": "wordpiece.done", "tokens": rows})


def _unigram_events(vocab, data, normalized, on_event):
    """llama.cpp's Viterbi over the normalized bytes, reported in characters of the
    normalized text."""
    char = [0] * (len(data) + 1)
    at = 0
    for k, ch in enumerate(normalized):
        width = len(ch.encode("utf-8", "surrogatepass"))
        char[at:at + width] = [k] * width
        at += width
    char[len(data)] = len(normalized)
    tokens = vocab.tokens
    on_event({"type": "unigram.word", "word": normalized})
    trace: list = []
    best = unigram.viterbi(vocab, data, trace)

    def reached(k):
        i, start, score = best[k]
        on_event({"type": "unigram.best", "position": char[k], "score": score,
                  "start": char[start], "piece": tokens[i], "id": i})
    last = 0
    for start, end, i, score, unknown in trace:
        if start != last:
            reached(start)
            last = start
        on_event({"type": "unigram.edge", "start": char[start], "end": char[end],
                  "piece": tokens[i], "id": i, "score": score, "unk": unknown})
    reached(len(data))

    def rows(fuse):
        return [[tokens[i], i, char[lo], char[hi]]
                for i, lo, hi in unigram.tokens(vocab, best, fuse)]
    on_event({"type": "unigram.path", "score": best[-1][2], "tokens": rows(False)})
    on_event({"type": "unigram.done", "tokens": rows(True)})

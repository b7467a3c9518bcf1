"""The steps of a GGUF tokenizer's encode as events (docs/events.md), for the page's
pipeline and step-by-step views: the pieces llama.cpp's BPE sees (special tokens
found in the text, then each fragment's words, as `pre_tokenize`), and for each word
the merges of llama.cpp's own loop (`bpe.*`). Vocabularies that are not BPE report
their pieces only: their tokens come from llama.cpp's steps that have no events yet.
"""
from __future__ import annotations

from .merges import bpe_merge

__all__ = ["emit"]


def emit(vocab, text, parse_special, type_id, on_event):
    pieces, words = [], []
    for sid, start, end in vocab.partition(text, parse_special):
        if sid is not None:
            pieces.append({"text": vocab.tokens[sid], "offsets": [start, end], "added": True})
        elif vocab.kind != "BPE":
            pieces.append({"text": text[start:end], "offsets": [start, end], "added": False})
            words.append((len(pieces) - 1, None, False))
        else:
            for w0, w1, units, whole in vocab.bpe_words(text[start:end]):
                pieces.append({"text": units, "offsets": [start + w0, start + w1],
                               "added": False})
                words.append((len(pieces) - 1, units, whole))
    on_event({"type": "pre_tokenize", "sequence": type_id, "pieces": pieces})
    for index, units, whole in words:
        piece = pieces[index]
        on_event({"type": "model_piece", "sequence": type_id, "index": index,
                  "text": piece["text"], "offsets": piece["offsets"]})
        if units is not None:
            _bpe_events(vocab, units, whole, on_event)


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
            position = next(k for k, (start, _) in enumerate(symbols) if start == left)
            first, second = symbols[position][1], symbols[position + 1][1]
            symbols[position][1] = first + second
            del symbols[position + 1]
            on_event({"type": "bpe.merge", "rank": rank, "pair": [first, second],
                      "new": first + second, "id": get(first + second),
                      "position": position, "symbols": [t for _, t in symbols]})
    rows = []
    for start, token in symbols:
        i = get(token)
        for j in [i] if i is not None else vocab.fallback_ids(token):
            rows.append([token if i is not None else vocab.tokens[j], j, start,
                         start + len(token)])
    on_event({"type": "bpe.done", "tokens": rows})

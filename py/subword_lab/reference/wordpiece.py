"""WordPiece encoding of one word: the longest vocabulary entry first, left to right.

BERT's rule, greedy and simple:

1. At the start of the word, try the longest window of characters, then shorter
   and shorter ones, until one is in the vocabulary. That is the first token.
2. Go on from where it ended. From now on a window is looked up with the
   continuing-subword prefix ("##"), because it continues a word.
3. If at some position no window at all is in the vocabulary, or the word is
   longer than `max_input_chars_per_word`, the whole word is the unknown token.

A window longer than the longest vocabulary entry cannot match, so the search
starts at that length. The fast code (`subword_lab.models.WordPiece`) walks
prefix tables instead; the tests prove both give the same tokens and events.
"""
from __future__ import annotations

__all__ = ["encode_word", "encode", "word_encoder"]

# The variables the Code panel shows (see steps.py).
SHOWN = ("word", "start", "end", "candidate", "tokens")


def encode_word(word, vocab, *, unk_token="[UNK]", continuing_subword_prefix="##",
                max_input_chars_per_word=100, on_event=None):
    """The tokens of `word` as [token, id, start, end] rows (offsets in characters).

    vocab: token -> id. on_event: called with the events of docs/events.md
    ("wordpiece.word" ... "wordpiece.done").
    """
    report = on_event or (lambda event: None)
    prefix = continuing_subword_prefix
    report({"type": "wordpiece.word", "word": word})
    unknown = [[unk_token, vocab.get(unk_token), 0, len(word)]]
    if len(word) > max_input_chars_per_word:
        report({"type": "wordpiece.unk", "reason": "too_long", "chars": len(word),
                "max": max_input_chars_per_word, "position": None, "token": unk_token,
                "id": vocab.get(unk_token), "start": 0, "end": len(word)})
        report({"type": "wordpiece.done", "tokens": unknown})
        return unknown
    longest_first = max(len(token) for token in vocab)
    longest_rest = max([len(token) - len(prefix) for token in vocab if token.startswith(prefix)],
                       default=0)
    tokens = []
    start = 0
    while start < len(word):
        longest = longest_first if start == 0 else longest_rest
        match = None
        # Step 1 and 2: the longest window first, then shorter ones.
        for end in range(min(len(word), start + longest), start, -1):
            candidate = word[start:end] if start == 0 else prefix + word[start:end]
            report({"type": "wordpiece.try", "candidate": candidate, "start": start,
                    "end": end, "found": candidate in vocab})
            if candidate in vocab:
                match = [candidate, vocab[candidate], start, end]
                break
        if match is None:
            # Step 3: nothing matches here, so the whole word is unknown.
            report({"type": "wordpiece.unk", "reason": "no_match", "chars": len(word),
                    "max": max_input_chars_per_word, "position": start, "token": unk_token,
                    "id": vocab.get(unk_token), "start": 0, "end": len(word)})
            tokens = unknown
            break
        report({"type": "wordpiece.match", "token": match[0], "id": match[1],
                "start": start, "end": end})
        tokens.append(match)
        start = end
    report({"type": "wordpiece.done", "tokens": tokens})
    return tokens


def word_encoder(model):
    """`encode_word` with the vocabulary and options of a `models.WordPiece`, as a function
    of (word, on_event=None)."""
    def encode(word, on_event=None):
        return encode_word(word, model.vocab, unk_token=model.unk_token,
                           continuing_subword_prefix=model.continuing_subword_prefix,
                           max_input_chars_per_word=model.max_input_chars_per_word,
                           on_event=on_event)
    return encode


def encode(model, word, on_event=None):
    """`encode_word` of one word with a `models.WordPiece` (`word_encoder` for many)."""
    return word_encoder(model)(word, on_event)

""""Why this token?": the model's steps for the word around one token of a text,
exactly as the tokenizer made it there (the page asks through web/why.py, the notebook's
tokens widget directly).

Encoding the word on its own is not the same thing: a tokenizer that puts a "▁"
in front of the text (Llama 2, sentencepiece) would then see a second one before
" weather", and a model that reads the whole text as one piece (sentencepiece)
has no words at all. So the text is normalized and pre-tokenized as the encode
did, the piece that holds the token is found, and the model is traced on the
smallest stretch of that piece around the token (first widened to the word
around it, a "▁" or a space starting a word) whose tokens, encoded alone, are
the very tokens the whole encode gave there. Widening ends at the whole piece,
where they are equal by definition; so the steps shown always end in the
tokens the Tokenize view shows.

A GGUF file's tokens come from llama.cpp's own loops, not from a model's tokenize:
its encode's events are cut at the piece that holds the token, shown whole (for a
`llama` file that is the whole text between two special tokens).
"""
from __future__ import annotations

from ..core.errors import SubwordLabError

__all__ = ["explain_token", "WORD_LIMIT"]

WORD_LIMIT = 48      # characters a word may be widened to before its tokens alone are taken
_STARTS_WORD = "▁ \n\t"


class _Stop(Exception):
    """Raised from the event callback once the pieces are known: the model need not run."""


def _pieces(tokenizer, text, special_tokens):
    """The pre_tokenize event's pieces of `text`: what the model saw, in order."""
    found = []

    def on_event(event):
        if event.get("type") == "pre_tokenize":
            found.extend(event["pieces"])
            raise _Stop

    try:
        tokenizer.encode(text, on_event=on_event, special_tokens=special_tokens)
    except _Stop:
        pass
    return found


def _span(piece, toks, a, b):
    return piece[toks[a].offsets[0]:toks[b].offsets[1]]


def _stretch(model, piece, toks, k):
    """(a, b): token indices of the stretch around token k traced for the answer."""
    def starts_word(p):
        return p == 0 or piece[p] in _STARTS_WORD

    a = b = k
    while (a > 0 and not starts_word(toks[a].offsets[0])
           and toks[b].offsets[1] - toks[a - 1].offsets[0] <= WORD_LIMIT):
        a -= 1
    while (b + 1 < len(toks) and not starts_word(toks[b + 1].offsets[0])
           and toks[b + 1].offsets[1] - toks[a].offsets[0] <= WORD_LIMIT):
        b += 1
    want = [t.id for t in toks]
    left = True
    while [t.id for t in model.tokenize(_span(piece, toks, a, b))] != want[a:b + 1]:
        if (left and a > 0) or b + 1 == len(toks):
            a -= 1
        else:
            b += 1
        left = not left
    return a, b


def explain_token(tokenizer, text: str, index: int, emit, *, special=None,
                  add_special_tokens: bool = True) -> dict:
    """The steps behind token `index` of `tokenizer.encode(text, special_tokens=special,
    add_special_tokens=...)`. Streams the events of docs/events.md for one piece (input,
    pre_tokenize, model_piece, the model's events) to `emit`, and returns {"text": the
    original characters of the stretch, "word": the stretch as the model saw it, "ids",
    "tokens", "token": the token's place among them, "start", "end": the stretch in
    `text` (characters), "added": true when the token is an added token the model never
    saw, "full": `text`}. A token the post-processor added is one SubwordLabError."""
    encoding = tokenizer.encode(text, special_tokens=special, add_special_tokens=add_special_tokens)
    if not 0 <= index < len(encoding.ids):
        count = len(encoding.ids)
        raise SubwordLabError(f"there is no token {index} in this text "
                              f"({count} token{'' if count == 1 else 's'})", field="index")
    if getattr(tokenizer, "gguf", None) is not None:
        return _why_gguf(tokenizer, text, special, add_special_tokens, encoding, index, emit)
    word = encoding.word_ids[index]
    pieces = _pieces(tokenizer, text, special)
    if word is None or word >= len(pieces):
        raise SubwordLabError(f"token {index} ({encoding.tokens[index]!r}) was added by "
                              "the post-processor, not made from the text", field="index")
    members = [i for i, w in enumerate(encoding.word_ids)
               if w == word and encoding.type_ids[i] == 0]
    start, end = encoding.offsets[members[0]][0], encoding.offsets[members[-1]][1]
    piece = pieces[word]
    if piece["added"]:
        return {"added": True, "text": text[start:end], "word": piece["text"],
                "ids": [encoding.ids[index]], "tokens": [encoding.tokens[index]],
                "token": 0, "start": start, "end": end, "full": text}
    model = tokenizer.model
    toks = model.tokenize(piece["text"])
    if [t.id for t in toks] != [encoding.ids[i] for i in members]:
        raise SubwordLabError(f"the model gives other tokens for piece {word} "
                              "than the encode did", field="index")
    k = members.index(index)
    a, b = _stretch(model, piece["text"], toks, k)
    stretch = _span(piece["text"], toks, a, b)
    start, end = encoding.offsets[members[a]][0], encoding.offsets[members[b]][1]
    original = text[start:end]

    send = emit
    send({"type": "input", "sequence": 0, "text": original})
    send({"type": "pre_tokenize", "sequence": 0,
          "pieces": [{"text": stretch, "offsets": [0, len(original)], "added": False}]})
    send({"type": "model_piece", "sequence": 0, "index": 0, "text": stretch,
          "offsets": [0, len(original)]})
    traced = model.tokenize(stretch, on_event=send)
    return {"added": False, "text": original, "word": stretch,
            "ids": [t.id for t in traced], "tokens": [t.value for t in traced],
            "token": k - a, "start": start, "end": end, "full": text}


_DONE = ("bpe.done", "wordpiece.done", "unigram.done")


def _why_gguf(tokenizer, text, special, add_special_tokens, encoding, index, emit):
    """A GGUF file's tokens come from llama.cpp's steps, not a model's tokenize: the
    encode's own events are cut at the piece that made token `index`, whole."""
    events: list = []
    tokenizer.encode(text, special_tokens=special, add_special_tokens=add_special_tokens,
                     on_event=events.append)
    pieces = next(e for e in events if e["type"] == "pre_tokenize")["pieces"]
    steps: dict = {}
    current = None
    for event in events:
        if event["type"] == "model_piece":
            current = steps[event["index"]] = [event]
        elif current is not None and event["type"].split(".")[0] in (
                "bpe", "wordpiece", "unigram"):
            current.append(event)
    first = 0  # tokens a post-processor put in front (BOS) made no piece
    while (first < len(encoding.ids) and encoding.special_tokens_mask[first]
           and tuple(encoding.offsets[first]) == (0, 0)):
        first += 1
    for k, piece in enumerate(pieces):
        rows = [[piece["text"], None]] if piece["added"] else next(
            e for e in steps[k] if e["type"] in _DONE)["tokens"]
        if first + len(rows) > index:
            break
        first += len(rows)
    else:
        raise SubwordLabError(f"token {index} ({encoding.tokens[index]!r}) was added by "
                              "the post-processor, not made from the text", field="index")
    start, end = piece["offsets"]
    original = text[start:end]
    members = list(range(first, first + len(rows)))
    result = {"text": original, "word": piece["text"],
              "ids": [encoding.ids[i] for i in members],
              "tokens": [encoding.tokens[i] for i in members],
              "token": index - first, "start": encoding.offsets[members[0]][0],
              "end": encoding.offsets[members[-1]][1], "full": text}
    if piece["added"]:
        return {"added": True, **result}
    emit({"type": "input", "sequence": 0, "text": original})
    emit({"type": "pre_tokenize", "sequence": 0, "pieces": [
        {"text": piece["text"], "offsets": [0, len(original)], "added": False}]})
    for event in steps[k]:
        emit({**event, "index": 0, "offsets": [0, len(original)]}
             if event["type"] == "model_piece" else event)
    return {"added": False, **result}

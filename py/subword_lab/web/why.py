""""Why this token?" for the page: the token of the page's encode (a tokenizer of the
registry, the text cut at the page's encode limit) handed to pipeline/why.py, which
traces the model on the stretch of text around it.
"""
from __future__ import annotations

from ..pipeline.why import WORD_LIMIT, explain_token  # noqa: F401  (WORD_LIMIT: for tests)
from .live import _cut
from .registry import REGISTRY


def why_trace(args: dict, emit) -> dict:
    """The steps behind token `index` of the page's encode of `text`.

    args: {"key", "text", "index", "limit" (the page's encode limit, or null),
    "special" (as in encode)}. Streams the events of docs/events.md for one piece
    (input, pre_tokenize, model_piece, the model's events) to `emit`, and returns
    {"text": the original characters of the stretch, "word": the stretch as the
    model saw it, "ids", "tokens", "token": the clicked token's place among them,
    "start", "end": the stretch in `text` (characters), "added": true when
    the token is an added token the model never saw}."""
    tokenizer = REGISTRY.get(args.get("key"))
    limit = args.get("limit")
    text = _cut(str(args.get("text", "")), None if limit is None else int(limit))
    return explain_token(tokenizer, text, int(args.get("index", -1)), emit,
                         special=args.get("special") or None)

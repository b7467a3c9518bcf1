"""The small facade the web worker calls (and the browser tests call in CPython too).

Every function takes and returns plain values; results are JSON strings so they
cross from Pyodide to JavaScript in one conversion. Tokenizers are kept by a key
the page chooses (a preset id, or an id it gave an opened file).

Offsets returned here are UTF-16 code-unit indices, the unit JavaScript strings
use, so the page can slice its text with them. For text without characters
outside the Basic Multilingual Plane they equal Python's character offsets.
"""
from __future__ import annotations

import importlib
import json

from .. import __version__
from ..core.errors import SubwordLabError
from ..core.regex import guard as regex_guard
from ..pipeline.events import is_stage
from .registry import REGISTRY
from .utf16 import ASTRAL as _ASTRAL, utf16_offsets as _utf16_offsets
from .count import count_start, count_step  # noqa: F401  (whole-text counts)
from .live import encode_live  # noqa: F401  (the encode while typing)


# The functions of the other views, imported when first asked for (`webapi.train`, the
# worker's `webapi[name]`), not when the page starts: the first view (tokenize) needs
# none of them, and their modules (the reference trainers and encoders behind the Code
# panel, the training views, the Unigram course toy) would add a third to the start-up
# imports under Pyodide. Name -> module of this package.
_ON_DEMAND = {
    "reference_encode": "code", "reference_train": "code",  # the Code panel
    "corpus_info": "train", "train": "train",  # the training views
    "course_toy_unigram": "unigram", "unigram_nbest": "unigram",  # the Unigram views
    "open_toy": "views",  # views: pipeline, encode, compare
}


def __getattr__(name: str):
    module = _ON_DEMAND.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __package__), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_ON_DEMAND})


def version() -> str:
    return __version__


def open_path(key: str, path: str, name: str | None = None, options=None) -> str:
    """Load a tokenizer file (or folder) and keep it under `key` (see opening.py)."""
    from .opening import open_path as _open  # lazy: keeps `import subword_lab.web.api` cheap
    return _open(key, path, name, options)


def open_bytes(key: str, name, data, options=None) -> str:
    """Load uploaded files: one, or a vocabulary with its merges (see opening.py)."""
    from .opening import open_bytes as _open
    return _open(key, name, data, options)


def open_pack(key: str, name: str, data, options=None, config=None) -> str:
    """Open a big preset from its pre-parsed form, with the bytes of its
    tokenizer_config.json when it ships one (see opening.py)."""
    from .opening import open_pack as _open
    return _open(key, name, data, options, config)


def reopen(key: str, options=None) -> str:
    """Load the files last uploaded under `key` again, with other options."""
    from .opening import reopen as _reopen
    return _reopen(key, options)


def chat_render(args_json: str, emit=None) -> str:
    """The Chat view: a conversation rendered, tokenized and costed (see chat.py); the
    worker loads Jinja2 before the first call."""
    from .chat import chat_render as _render  # lazy: Jinja2 is loaded on the Chat view's first use
    return _render(args_json, emit)


def refuse_regex(args_json: str, emit=None) -> str:
    """The page ended a Python that ran `pattern` on the text named `digest` for too
    long; this fresh Python refuses that pair at once rather than hang again.

    args: {"pattern", "digest" (as the worker heard it), "seconds"}."""
    args = json.loads(args_json)
    regex_guard.refuse_input(str(args["pattern"]), str(args["digest"]), float(args["seconds"]))
    return "true"


def describe(key: str) -> str:
    return json.dumps(REGISTRY.info(key))


def encode_text(key: str, text: str, special_tokens=None) -> dict:
    """Encode `text` with the tokenizer under `key`: ids, tokens, offsets, special mask.

    special_tokens: "recognise" | "as_text" | None (the tokenizer's default, which
    describe() reports as rules.special_tokens_default)."""
    encoding = REGISTRY.get(key).encode(text, special_tokens=special_tokens or None)
    special = list(getattr(encoding, "special_tokens_mask", None) or [0] * len(encoding.ids))
    return {
        "ids": list(encoding.ids),
        "tokens": list(encoding.tokens),
        "offsets": _utf16_offsets(text, encoding.offsets),
        "special": special,
    }


def _cut(text: str, limit: int) -> str:
    """The first `limit` characters or a little fewer, ending at a whitespace if one is near."""
    if limit is None or len(text) <= limit:
        return text
    head = text[:limit]
    space = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
    if space > limit - 200:
        head = head[:space + 1]
    # Never split a surrogate pair's worth of character: Python has none, JS would.
    return head


def encode(key: str, text: str, limit=None, special_tokens=None) -> str:
    """Encode the text, or only its first `limit` characters of a huge one.

    The page shows what a long paste starts with and says how much is left;
    encoding five megabytes in a browser would take far too long to be live.
    special_tokens: as in encode_text; the result says which was in force.
    """
    limit = None if limit is None else int(limit)
    head = _cut(text, limit)
    result = encode_text(key, head, special_tokens)
    result["encoded_chars"] = len(head) + len(_ASTRAL.findall(head))
    result["total_chars"] = len(text) + len(_ASTRAL.findall(text))
    result["special_tokens"] = special_tokens or REGISTRY.info(key).get(
        "rules", {}).get("special_tokens_default")
    return json.dumps(result, ensure_ascii=False)


def trace_encode(args_json: str, emit) -> str:
    """Encode with the step events of docs/events.md streamed to `emit` (one JSON string each).

    args: {"key": tokenizer key, "text": str, "special_tokens": optional, as in encode,
    "steps": "all" (default) or "stages": only the pipeline's steps and each piece's
    `<model>.done`, not the model's own steps, for a view that draws the stages}.
    Returns the encoding, as `encode` does.
    The worker batches what `emit` receives (the `call` command in worker.js).
    """
    args = json.loads(args_json)
    tokenizer = REGISTRY.get(args.get("key"))
    text = str(args.get("text", ""))
    steps = args.get("steps", "all")
    if steps not in ("all", "stages"):
        raise SubwordLabError(f'must be "all" or "stages", not {json.dumps(steps)}', field="steps")
    stages_only = steps == "stages"
    count = 0

    def on_event(event):
        nonlocal count
        if stages_only and not is_stage(event):
            return
        count += 1
        emit(json.dumps(event, ensure_ascii=False, default=list))

    encoding = tokenizer.encode(text, on_event=on_event,
                                special_tokens=args.get("special_tokens") or None)
    return json.dumps({"ids": list(encoding.ids), "tokens": list(encoding.tokens),
                       "offsets": _utf16_offsets(text, encoding.offsets), "events": count},
                      ensure_ascii=False)


def why_trace(args_json: str, emit) -> str:
    """"Why this token?": the model's steps for the word around one token of the
    page's encode (web/why.py). args: {"key", "text", "index", "limit", "special"};
    the events go to `emit`, as in trace_encode; "start" and "end" of the answer
    are UTF-16 offsets into the page's text."""
    def send(event):
        emit(json.dumps(event, ensure_ascii=False, default=list))

    from . import why  # lazy, as the functions in _ON_DEMAND
    result = why.why_trace(json.loads(args_json), send)
    (result["start"], result["end"]), = _utf16_offsets(result.pop("full"),
                                                       [(result["start"], result["end"])])
    return json.dumps(result, ensure_ascii=False)

"""The small facade the web worker calls (and the browser tests call in CPython too).

Every function takes and returns plain values; results are JSON strings so they
cross from Pyodide to JavaScript in one conversion. Tokenizers are kept by a key
the page chooses (a preset id, or an id it gave an opened file).

Offsets returned here are UTF-16 code-unit indices, the unit JavaScript strings
use, so the page can slice its text with them. For text without characters
outside the Basic Multilingual Plane they equal Python's character offsets.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from bisect import bisect_right

from .. import __version__
from ..core.errors import SubwordLabError

_TOKENIZERS: dict = {}
_INFO: dict = {}
_SOURCES: dict = {}  # key -> (temporary folder, file names) of uploaded files
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def version() -> str:
    return __version__


def _bytes_of(data) -> bytes:
    """Bytes from a Python bytes-like or a Pyodide JsProxy of a typed array."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    to_bytes = getattr(data, "to_bytes", None)
    if to_bytes is not None:
        return to_bytes()
    raise TypeError(f"expected bytes, got {type(data).__name__}")


def _plain(tokenizer):
    """Turn off truncation and padding a file may carry: the page shows whole texts."""
    for name in ("no_truncation", "no_padding"):
        method = getattr(tokenizer, name, None)
        if callable(method):
            method()
    return tokenizer


def _model_kind(tokenizer) -> str:
    model = getattr(tokenizer, "model", None)
    return type(model).__name__ if model is not None else "unknown"


def _vocab_size(tokenizer):
    try:
        return tokenizer.get_vocab_size(with_added_tokens=True)
    except TypeError:
        return tokenizer.get_vocab_size()


def _unk_id(tokenizer):
    """The id of the model's unknown token, if it has one (the page marks it)."""
    model = getattr(tokenizer, "model", None)
    unk = getattr(model, "unk_id", None)
    if isinstance(unk, int):
        return unk
    token = getattr(model, "unk_token", None)
    if isinstance(token, str):
        return tokenizer.token_to_id(token)
    return None


def _byte_level(tokenizer) -> bool:
    """True when tokens are spelled in GPT-2's byte alphabet (one character per byte)."""
    parts = [getattr(tokenizer, "pre_tokenizer", None), getattr(tokenizer, "decoder", None)]
    text = json.dumps([p.to_dict() for p in parts if p is not None and hasattr(p, "to_dict")])
    return '"ByteLevel"' in text


def _options(options) -> dict:
    """Options from the page: a dict, a JSON string or a Pyodide proxy of an object."""
    if options is None:
        return {}
    to_py = getattr(options, "to_py", None)
    if to_py is not None:
        options = to_py()
    if isinstance(options, str):
        options = json.loads(options) if options.strip() else {}
    if not isinstance(options, dict):
        raise SubwordLabError("expected an object of options", field="options")
    unknown = set(options) - _OPEN_OPTIONS
    if unknown:
        raise SubwordLabError(f"unknown option (the page may pass: "
                              f"{', '.join(sorted(_OPEN_OPTIONS))})", field=sorted(unknown)[0])
    return {k: v for k, v in options.items() if v not in (None, "")}


_OPEN_OPTIONS = {"pattern", "format", "special_tokens"}


def _rules_info(tokenizer) -> dict:
    """What the page shows about the rules in force: the file's format, for tiktoken
    ranks the split pattern and where it comes from, and the special tokens."""
    rules = dict(getattr(tokenizer, "rules", None) or {})
    specials = rules.pop("special_tokens", None)
    if specials is not None:
        rules["special_tokens_count"] = len(specials)
        rules["special_tokens_first"] = sorted(specials, key=specials.get)[:20]
    if "known_patterns" in rules:
        from ..io import known_encodings  # lazy, as load
        rules["known_patterns"] = [{"name": e.name, "title": e.title}
                                   for e in known_encodings.ENCODINGS]
    as_text = bool(getattr(tokenizer, "encode_special_tokens", False))
    rules["special_tokens_default"] = "as_text" if as_text else "recognise"
    return rules


def open_path(key: str, path: str, name: str | None = None, options=None) -> str:
    """Load a tokenizer file (or a folder) with subword_lab.load and keep it under `key`.

    options: {"pattern": a known encoding's name or a regex (tiktoken ranks),
    "format": to skip detection, "special_tokens": "recognise" | "as_text", the
    default of `encode` for this tokenizer}.
    """
    return _load_and_keep(key, path, name or os.path.basename(path), _options(options))


def _load_and_keep(key, path, name, options):
    # lazy: keeps `import subword_lab.web.api` cheap
    from ..io.loaders import load
    from ..tokenizer import special_tokens_as_text

    options = dict(options)
    mode = options.pop("special_tokens", None)
    as_text = special_tokens_as_text(mode)  # checked before the (slow) load
    tokenizer = _plain(load(path, **options))
    if as_text is not None:
        tokenizer.encode_special_tokens = as_text
    _TOKENIZERS[key] = tokenizer
    _INFO[key] = {"key": key, "name": name, "model": _model_kind(tokenizer),
                  "vocab_size": _vocab_size(tokenizer), "unk_id": _unk_id(tokenizer),
                  "byte_level": _byte_level(tokenizer), "rules": _rules_info(tokenizer)}
    return json.dumps(_INFO[key])


def _listed(value):
    """A list from one value, a Python list or a Pyodide proxy of a JS array."""
    to_py = getattr(value, "to_py", None)
    if to_py is not None and not hasattr(value, "to_bytes"):
        value = to_py()
    return list(value) if isinstance(value, (list, tuple)) else [value]


def open_bytes(key: str, name, data, options=None) -> str:
    """Load uploaded files: one (`name`, `data`), or several dropped together (lists
    of names and of bytes), such as vocab.json + merges.txt or GPT-2's encoder.json +
    vocab.bpe. Each is saved under its own name in a fresh folder; the loader decides
    by content. `options` as for open_path. Keeps the files so `reopen` can load them
    again with other options (another pattern)."""
    names, blobs = _listed(name), _listed(data)
    if len(names) != len(blobs) or not names:
        raise SubwordLabError("expected as many file contents as file names")
    folder = tempfile.mkdtemp(prefix="subword-lab-")
    bases = []
    for one_name, blob in zip(names, blobs):
        base = os.path.basename(str(one_name)) or "tokenizer"
        if base in bases:
            raise SubwordLabError("two files have the same name", path=base)
        with open(os.path.join(folder, base), "wb") as handle:
            handle.write(_bytes_of(blob))
        bases.append(base)
    _SOURCES[key] = (folder, bases)
    return _open_saved(key, folder, bases, options)


def reopen(key: str, options=None) -> str:
    """Load the files last opened under `key` again with other options (a pattern)."""
    if key not in _SOURCES:
        raise SubwordLabError(f"no uploaded files are kept under {key!r}")
    folder, bases = _SOURCES[key]
    return _open_saved(key, folder, bases, options)


def _open_saved(key, folder, bases, options):
    shown = " + ".join(bases)
    try:
        if len(bases) == 1:
            return open_path(key, os.path.join(folder, bases[0]), bases[0], options)
        return _open_pair(key, folder, bases, options)
    except SubwordLabError as error:
        # Name the files as the user knows them, not our temporary folder.
        raise SubwordLabError(str(error).replace(folder + os.sep, "").replace(folder, shown)
                              ) from None
    except (ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError, EOFError) as error:
        raise SubwordLabError(f"could not read this file ({type(error).__name__}: {error})",
                              path=shown) from None


def _open_pair(key, folder, bases, options):
    """Several files: a byte-level BPE vocabulary and its merges, whatever their names."""
    from ..io.detect import detect_file  # lazy, as load
    from pathlib import Path

    kinds = {base: detect_file(Path(folder) / base) for base in bases}
    if len(bases) == 2 and set(kinds.values()) == {"bpe"}:
        vocab = [b for b in bases if b.lower().endswith(".json")]
        merges = [b for b in bases if not b.lower().endswith(".json")]
        if len(vocab) == 1 and len(merges) == 1:
            options = dict(_options(options), merges=os.path.join(folder, merges[0]))
            return _load_and_keep(key, os.path.join(folder, vocab[0]),
                                  f"{vocab[0]} + {merges[0]}", options)
    raise SubwordLabError("open one tokenizer file, or a vocabulary (vocab.json or "
                          "encoder.json) with its merges (merges.txt or vocab.bpe)",
                          path=" + ".join(bases))


def describe(key: str) -> str:
    if key not in _INFO:
        raise SubwordLabError(f"no tokenizer named {key!r} is open")
    return json.dumps(_INFO[key])


def _utf16_offsets(text: str, offsets):
    """Character offsets to UTF-16 offsets (characters above U+FFFF count twice)."""
    astral = [m.start() for m in _ASTRAL.finditer(text)]
    if not astral:
        return [[start, end] for start, end in offsets]

    def shift(i):
        return i + bisect_right(astral, i - 1)

    return [[shift(start), shift(end)] for start, end in offsets]


def encode_text(key: str, text: str, special_tokens=None) -> dict:
    """Encode `text` with the tokenizer under `key`: ids, tokens, offsets, special mask.

    special_tokens: "recognise" | "as_text" | None (the tokenizer's default, which
    describe() reports as rules.special_tokens_default)."""
    tokenizer = _TOKENIZERS.get(key)
    if tokenizer is None:
        raise SubwordLabError(f"no tokenizer named {key!r} is open")
    encoding = tokenizer.encode(text, special_tokens=special_tokens or None)
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
    result["special_tokens"] = special_tokens or _INFO.get(key, {}).get(
        "rules", {}).get("special_tokens_default")
    return json.dumps(result, ensure_ascii=False)


def trace_encode(args_json: str, emit) -> str:
    """Encode with the step events of docs/events.md streamed to `emit` (one JSON string each).

    args: {"key": tokenizer key, "text": str, "special_tokens": optional, as in encode}. Returns the encoding, as `encode` does.
    The worker batches what `emit` receives (the `call` command in worker.js).
    """
    args = json.loads(args_json)
    tokenizer = _TOKENIZERS.get(args.get("key"))
    if tokenizer is None:
        raise SubwordLabError(f"no tokenizer named {args.get('key')!r} is open")
    text = str(args.get("text", ""))
    count = 0

    def on_event(event):
        nonlocal count
        count += 1
        emit(json.dumps(event, ensure_ascii=False, default=list))

    encoding = tokenizer.encode(text, on_event=on_event,
                                special_tokens=args.get("special_tokens") or None)
    return json.dumps({"ids": list(encoding.ids), "tokens": list(encoding.tokens),
                       "offsets": _utf16_offsets(text, encoding.offsets), "events": count},
                      ensure_ascii=False)
from .unigram import course_toy_unigram, unigram_nbest  # noqa: E402,F401  (the Unigram views)
from .train import train, corpus_info  # noqa: E402,F401  (the training views)
from .views import open_toy  # noqa: E402,F401  (views: pipeline, encode, compare)

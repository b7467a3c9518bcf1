"""Opening the user's files for the page: one file, or a vocabulary with its merges
dropped together, with the page's options (a split pattern, the special-tokens
default). The loader decides the format by content, so any name works.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..core.errors import SubwordLabError
from ..io.chat_config import read_chat_config
from ..io.detect import detect_file
from ..io.loaders import load
from ..io.preset_pack import load_pack
from ..tokenizer import special_tokens_as_text
from .registry import REGISTRY

__all__ = ["open_bytes", "open_pack", "open_path", "reopen", "source_of"]

_SOURCES: dict = {}  # key -> (temporary folder, file names) of uploaded files
_LOADED: dict = {}  # key -> (path, loader options) of the file opened under it


def source_of(key: str):
    """(path, loader options) of the one file last opened under `key`, or None (a
    preset's pre-parsed form, a vocabulary with its merges, a toy)."""
    return _LOADED.get(key)


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


def open_path(key: str, path: str, name: str | None = None, options=None) -> str:
    """Load a tokenizer file (or a folder) with subword_lab.load and keep it under `key`.

    options: {"pattern": a known encoding's name or a regex (tiktoken ranks),
    "format": to skip detection, "special_tokens": "recognise" | "as_text", the
    default of `encode` for this tokenizer}.
    """
    return _load_and_keep(key, path, name or os.path.basename(path), _options(options))


def _load_and_keep(key, path, name, options):
    options = dict(options)
    mode = options.pop("special_tokens", None)
    as_text = special_tokens_as_text(mode)  # checked before the (slow) load
    tokenizer = _plain(load(path, **options))
    if as_text is not None:
        tokenizer.encode_special_tokens = as_text
    _LOADED[key] = (path, options) if "merges" not in options else None
    return json.dumps(REGISTRY.add(key, name, tokenizer))


def open_pack(key: str, name: str, data, options=None, config=None) -> str:
    """A big preset in its pre-parsed form (io/preset_pack.py), which build.py wrote
    from the pinned file named `name`; only the worker's openPreset calls this, for a
    preset's .pack file. options: only "special_tokens", as for open_path. config: the
    bytes of the tokenizer_config.json shipped beside it (its chat template), or None."""
    options = _options(options)
    mode = options.pop("special_tokens", None)
    if options:
        raise SubwordLabError("a preset's pre-parsed form takes no loader options",
                              path=name, field=sorted(options)[0])
    as_text = special_tokens_as_text(mode)
    tokenizer = _plain(load_pack(_bytes_of(data), name))
    if as_text is not None:
        tokenizer.encode_special_tokens = as_text
    if config is not None:
        folder = tempfile.mkdtemp(prefix="subword-lab-")
        with open(os.path.join(folder, "tokenizer_config.json"), "wb") as handle:
            handle.write(_bytes_of(config))
        tokenizer.chat_template, tokenizer.special_tokens_map = read_chat_config(folder)
    return json.dumps(REGISTRY.add(key, name, tokenizer))


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


# Files that lie beside a tokenizer file and only add to it (io/chat_config.py): the chat
# template and the named special tokens, read by load() from the same folder.
_BESIDE = {"tokenizer_config.json", "special_tokens_map.json", "chat_template.jinja"}


def _open_saved(key, folder, bases, options):
    shown = " + ".join(bases)
    main = [b for b in bases if b not in _BESIDE]
    try:
        if len(main) == 1:
            return open_path(key, os.path.join(folder, main[0]), shown, options)
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

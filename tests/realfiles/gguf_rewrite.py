"""A copy of a GGUF file with some string or bool metadata values changed (the tests of
pre-tokenizer kinds that llama.cpp's test vocabularies lack): the header is walked
entry by entry and only the named values' bytes are replaced; the rest is copied
byte for byte. Vocabulary-only files (no tensors) only, so no alignment moves."""
from __future__ import annotations

import struct

_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_BOOL, _STRING, _ARRAY = 7, 8, 9


def _value(value):
    """(type, bytes) of a string or bool value."""
    if isinstance(value, bool):
        return _BOOL, struct.pack("<?", value)
    raw = value.encode("utf-8")
    return _STRING, struct.pack("<Q", len(raw)) + raw


def _skip(data, at, kind):
    """The offset just past a value of type `kind` starting at `at`."""
    if kind in _FIXED:
        return at + _FIXED[kind]
    if kind == _STRING:
        (size,) = struct.unpack_from("<Q", data, at)
        return at + 8 + size
    if kind == _ARRAY:
        item, count = struct.unpack_from("<IQ", data, at)
        at += 12
        if item in _FIXED:
            return at + count * _FIXED[item]
        for _ in range(count):
            at = _skip(data, at, item)
        return at
    raise ValueError(f"unknown GGUF value type {kind}")


def rewrite(src, dst, changes):
    """Write to `dst` the GGUF file `src` with each key of `changes` (string or bool
    values) set to its new value; a key the file lacks is added after the others."""
    data = src.read_bytes()
    assert data[:4] == b"GGUF"
    _version, tensors, entries = struct.unpack_from("<IQQ", data, 4)
    assert tensors == 0, "only vocabulary-only files"
    at, out, copied, seen = 24, [], 0, set()
    for _ in range(entries):
        (size,) = struct.unpack_from("<Q", data, at)
        key = data[at + 8:at + 8 + size].decode("utf-8")
        (kind,) = struct.unpack_from("<I", data, at + 8 + size)
        start = at + 12 + size
        end = _skip(data, start, kind)
        if key in changes:
            new_kind, raw = _value(changes[key])
            assert kind == new_kind, key
            out += [data[copied:start], raw]
            copied = end
            seen.add(key)
        at = end
    added = [key for key in changes if key not in seen]
    for key in added:
        name, (new_kind, raw) = key.encode("utf-8"), _value(changes[key])
        out += [data[copied:at], struct.pack("<Q", len(name)) + name,
                struct.pack("<I", new_kind) + raw]
        copied = at
    head = struct.pack("<IQQ", _version, tensors, entries + len(added))
    dst.write_bytes(data[:4] + head + b"".join(out)[24:] + data[copied:])
    return dst

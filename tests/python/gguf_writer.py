"""A small GGUF writer for the tests: valid files, then broken ones field by field."""
from __future__ import annotations

import struct

TYPES = {"uint8": (0, "B"), "int8": (1, "b"), "uint16": (2, "H"), "int16": (3, "h"),
         "uint32": (4, "I"), "int32": (5, "i"), "float32": (6, "f"), "bool": (7, "?"),
         "string": (8, None), "array": (9, None), "uint64": (10, "Q"), "int64": (11, "q"),
         "float64": (12, "d")}


def string(text) -> bytes:
    raw = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    return struct.pack("<Q", len(raw)) + raw


def value(kind, v) -> bytes:
    """kind: a type name, or ("array", item kind) with v a list."""
    if isinstance(kind, tuple):
        item = kind[1]
        item_id = TYPES[item[0] if isinstance(item, tuple) else item][0]
        return (struct.pack("<IQ", item_id, len(v))
                + b"".join(value(item, x) for x in v))
    if kind == "string":
        return string(v)
    return struct.pack("<" + TYPES[kind][1], v)


def kv(key, kind, v) -> bytes:
    type_id = 9 if isinstance(kind, tuple) else TYPES[kind][0]
    return string(key) + struct.pack("<I", type_id) + value(kind, v)


def gguf(entries, version=3, tensors=0, magic=b"GGUF", count=None) -> bytes:
    """entries: [(key, kind, value)] or raw bytes per entry."""
    body = b"".join(e if isinstance(e, bytes) else kv(*e) for e in entries)
    n = len(entries) if count is None else count
    return magic + struct.pack("<IQQ", version, tensors, n) + body


def tokenizer_entries(model="gpt2", tokens=(), merges=None, types=None, scores=None,
                      extra=()):
    out = [("general.architecture", "string", "test"),
           ("general.name", "string", "tiny test vocabulary"),
           ("tokenizer.ggml.model", "string", model),
           ("tokenizer.ggml.tokens", ("array", "string"), list(tokens))]
    if types is not None:
        out.append(("tokenizer.ggml.token_type", ("array", "int32"), list(types)))
    if scores is not None:
        out.append(("tokenizer.ggml.scores", ("array", "float32"), list(scores)))
    if merges is not None:
        out.append(("tokenizer.ggml.merges", ("array", "string"), list(merges)))
    out.extend(extra)
    return out

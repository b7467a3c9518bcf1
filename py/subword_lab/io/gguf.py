"""GGUF model files (llama.cpp's format): the header and metadata, never the tensors.

A GGUF file starts with the magic "GGUF", a version (2 or 3 here; version 1 used
32-bit counts and is long gone), the tensor count, the metadata count, then the
metadata as key/value pairs, then the tensor descriptions and the tensor data.
Everything a tokenizer needs is in the metadata, so reading stops where the
metadata ends: a 40 GB model costs what its header costs (a few MB).

All numbers are little-endian. Big-endian GGUF files exist (for s390x) and are
refused by name. Every length is checked against what remains of the file before
anything is allocated, so a hostile count (2^63 strings) fails at once, naming the
file and the metadata key.

    read_gguf(path)                       # a path: reads only as far as the metadata
    read_gguf(data, file_size=n)          # the first bytes of a file of n bytes
                                          # (GGUFNeedsMore says how many it needs)
"""
from __future__ import annotations

import os
import struct
from array import array
from pathlib import Path
from typing import NamedTuple

from ..core.errors import SubwordLabError
from ..core.safe_files import MAX_BYTES, check_file_kind

__all__ = ["read_gguf", "GGUFHeader", "GGUFNeedsMore", "MAGIC", "TYPE_NAMES"]

MAGIC = b"GGUF"
MAX_DEPTH = 2  # an array may hold arrays (of non-arrays); deeper nesting is refused

# type id -> (name, struct code, size); STRING (8) and ARRAY (9) have no fixed size
TYPE_NAMES = {0: "uint8", 1: "int8", 2: "uint16", 3: "int16", 4: "uint32", 5: "int32",
              6: "float32", 7: "bool", 8: "string", 9: "array", 10: "uint64",
              11: "int64", 12: "float64"}
_SCALAR = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "B",
           10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9
_U32, _U64 = struct.Struct("<I"), struct.Struct("<Q")
_LITTLE = struct.pack("<I", 1) == struct.pack("=I", 1)


class GGUFHeader(NamedTuple):
    version: int
    tensor_count: int
    metadata: dict      # key -> value (int, float, bool, str, or list of them)
    types: dict         # key -> type name ("string", "array[int32]", ...)
    header_bytes: int   # where the metadata ends (the tensor descriptions start)
    file_size: int


class GGUFNeedsMore(SubwordLabError):
    """Raised by read_gguf(data, file_size=...) when the metadata goes on past `data`:
    `needed` is how many bytes from the start of the file the next try should hand."""

    def __init__(self, needed, path=None):
        self.needed = needed
        super().__init__(f"the metadata goes on past the bytes given (read the first "
                         f"{needed} bytes of the file)", path=path)


class _Source:
    """The file's bytes from the start, read on demand in growing chunks."""

    def __init__(self, data, size, handle, path):
        self.data, self.size, self.handle, self.path = data, size, handle, path

    def need(self, end, key, what):
        if end > self.size:
            raise SubwordLabError(f"the file ends ({self.size} bytes) before {what} "
                                  f"(which would end at byte {end})",
                                  path=self.path, field=key)
        if end <= len(self.data):
            return
        if end > MAX_BYTES:  # a real header is a few MB (16 MB for 262k tokens)
            raise SubwordLabError(f"the metadata runs past {MAX_BYTES:,} bytes, more than "
                                  "any tokenizer needs", path=self.path, field=key)
        if self.handle is None:
            raise GGUFNeedsMore(max(end, 2 * len(self.data)), self.path)
        want = min(self.size, max(end, 2 * len(self.data), 1 << 20))
        self.handle.seek(len(self.data))
        more = self.handle.read(want - len(self.data))
        self.data += more
        if len(self.data) < end:  # the file shrank while being read
            raise SubwordLabError(f"the file ends before {what}", path=self.path, field=key)


class _Reader:
    def __init__(self, source):
        self.src, self.pos = source, 0

    def u32(self, key, what):
        self.src.need(self.pos + 4, key, what)
        (value,) = _U32.unpack_from(self.src.data, self.pos)
        self.pos += 4
        return value

    def u64(self, key, what):
        self.src.need(self.pos + 8, key, what)
        (value,) = _U64.unpack_from(self.src.data, self.pos)
        self.pos += 8
        return value

    def raw_string(self, key, what):
        n = self.u64(key, what + " length")
        self.src.need(self.pos + n, key, f"{what} of {n} bytes")
        start = self.pos
        self.pos += n
        return bytes(self.src.data[start:self.pos])

    def string(self, key, what):
        raw = self.raw_string(key, what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            # Token texts may hold any bytes (llama.cpp keeps them as std::string).
            return raw.decode("utf-8", "surrogateescape")

    def value(self, type_id, key, depth):
        if type_id == _STRING:
            return self.string(key, "a string")
        if type_id == _ARRAY:
            return self.array(key, depth + 1)
        code = _SCALAR.get(type_id)
        if code is None:
            raise SubwordLabError(f"unknown metadata type {type_id} (known: 0-12)",
                                  path=self.src.path, field=key)
        size = struct.calcsize(code)
        self.src.need(self.pos + size, key, f"a {TYPE_NAMES[type_id]} value")
        (value,) = struct.unpack_from("<" + code, self.src.data, self.pos)
        self.pos += size
        return bool(value) if type_id == 7 else value

    def array(self, key, depth):
        if depth > MAX_DEPTH:
            raise SubwordLabError(f"arrays nested more than {MAX_DEPTH} deep",
                                  path=self.src.path, field=key)
        item = self.u32(key, "the array's item type")
        count = self.u64(key, "the array's length")
        if item not in TYPE_NAMES:
            raise SubwordLabError(f"unknown array item type {item} (known: 0-12)",
                                  path=self.src.path, field=key)
        # Each item takes at least this many bytes: check the count before any list.
        least = struct.calcsize(_SCALAR[item]) if item in _SCALAR else (
            8 if item == _STRING else 12)
        if count * least > self.src.size - self.pos:
            raise SubwordLabError(f"an array of {count} {TYPE_NAMES[item]} items cannot "
                                  f"fit in the {self.src.size - self.pos} bytes left",
                                  path=self.src.path, field=key)
        if item in _SCALAR:
            end = self.pos + count * least
            self.src.need(end, key, f"{count} {TYPE_NAMES[item]} items")
            values = array(_SCALAR[item])
            values.frombytes(self.src.data[self.pos:end])
            if not _LITTLE:
                values.byteswap()
            self.pos = end
            return [bool(v) for v in values] if item == 7 else values.tolist()
        if item == _STRING:
            return self.strings(key, count)
        return [self.value(item, key, depth) for _ in range(count)]

    def strings(self, key, count):
        out, src = [], self.src
        data, pos, size = src.data, self.pos, src.size
        unpack = _U64.unpack_from
        for _ in range(count):
            if pos + 8 > len(data):
                self.pos = pos
                src.need(pos + 8, key, "a string length")
                data = src.data
            (n,) = unpack(data, pos)
            end = pos + 8 + n
            if end > len(data):
                if end > size:
                    raise SubwordLabError(f"the file ends ({size} bytes) before a string "
                                          f"of {n} bytes", path=src.path, field=key)
                self.pos = pos
                src.need(end, key, f"a string of {n} bytes")
                data = src.data
            raw = data[pos + 8:end]
            try:
                out.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                out.append(bytes(raw).decode("utf-8", "surrogateescape"))
            pos = end
        self.pos = pos
        return out


def read_gguf(source, *, file_size=None, path=None) -> GGUFHeader:
    """The version, tensor count and metadata of a GGUF file (a path, or its first
    bytes), reading nothing past the end of the metadata."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        size = len(data) if file_size is None else file_size
        return _parse(_Source(data, size, None, path))
    file_path = Path(source)
    check_file_kind(file_path)  # the size cap is for the metadata, not the tensors
    try:
        with open(file_path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            return _parse(_Source(b"", size, handle, file_path))
    except OSError as exc:
        raise SubwordLabError(f"cannot read: {exc.strerror}", path=file_path) from None


def _parse(src) -> GGUFHeader:
    r = _Reader(src)
    src.need(4, None, "the magic bytes")
    if src.data[:4] != MAGIC:
        raise SubwordLabError(f"not a GGUF file (it starts with {bytes(src.data[:4])!r}, "
                              "not b'GGUF')", path=src.path)
    r.pos = 4
    version = r.u32("version", "the version")
    if version in (2 << 24, 3 << 24):
        raise SubwordLabError("a big-endian GGUF file: only little-endian ones are read",
                              path=src.path, field="version")
    if version not in (2, 3):
        raise SubwordLabError(f"GGUF version {version} is not supported (only 2 and 3)",
                              path=src.path, field="version")
    tensors = r.u64("tensor_count", "the tensor count")
    count = r.u64("metadata_kv_count", "the metadata count")
    # A key/value takes at least 8 (key length) + 4 (type) + 1 bytes.
    if count * 13 > src.size - r.pos:
        raise SubwordLabError(f"{count} metadata entries cannot fit in the "
                              f"{src.size - r.pos} bytes left",
                              path=src.path, field="metadata_kv_count")
    metadata, types = {}, {}
    key = None
    for index in range(count):
        where = f"metadata entry {index}" if key is None else f"the key after {key!r}"
        raw = r.raw_string(where, "a key")
        try:
            key = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SubwordLabError("a metadata key that is not UTF-8", path=src.path,
                                  field=repr(raw[:60])) from None
        if key in metadata:
            raise SubwordLabError("the key is given twice", path=src.path, field=key)
        type_id = r.u32(key, "the value's type")
        if type_id not in TYPE_NAMES:
            raise SubwordLabError(f"unknown metadata type {type_id} (known: 0-12)",
                                  path=src.path, field=key)
        item_pos = r.pos
        metadata[key] = r.value(type_id, key, 0)
        if type_id == _ARRAY:
            (item,) = _U32.unpack_from(src.data, item_pos)
            types[key] = f"array[{TYPE_NAMES[item]}]"
        else:
            types[key] = TYPE_NAMES[type_id]
    return GGUFHeader(version, tensors, metadata, types, r.pos, src.size)

"""The GGUF header reader (io/gguf.py): every metadata type read back as written, and
every malformed header refused with one SubwordLabError naming the file and the key,
before any allocation the file's size could not hold."""
from __future__ import annotations

import struct

import pytest

from subword_lab.core.errors import SubwordLabError
from subword_lab.io.gguf import GGUFNeedsMore, read_gguf

import gguf_writer as W

ALL_TYPES = [("u8", "uint8", 200), ("i8", "int8", -5), ("u16", "uint16", 60000),
             ("i16", "int16", -300), ("u32", "uint32", 4_000_000_000),
             ("i32", "int32", -70000), ("f32", "float32", 1.5), ("yes", "bool", True),
             ("s", "string", "héllo ▁"), ("u64", "uint64", 2 ** 63),
             ("i64", "int64", -(2 ** 40)), ("f64", "float64", 0.1),
             ("ints", ("array", "int32"), [1, -2, 3]),
             ("names", ("array", "string"), ["a", "", "ü"]),
             ("nested", ("array", ("array", "uint8")), [[1, 2], [], [3]])]


def _write(tmp_path, data, name="m.gguf"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _refused(tmp_path, data, *words, key=None):
    path = _write(tmp_path, data)
    with pytest.raises(SubwordLabError) as info:
        read_gguf(path)
    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message, message
    if key is not None:
        assert info.value.field == key, message
    return info.value


@pytest.mark.parametrize("version", [2, 3])
def test_every_type_reads_back(tmp_path, version):
    data = W.gguf(ALL_TYPES, version=version, tensors=7)
    head = read_gguf(_write(tmp_path, data + b"\0" * 100))
    assert head.version == version and head.tensor_count == 7
    assert head.header_bytes == len(data)
    for key, kind, value in ALL_TYPES:
        assert head.metadata[key] == value, key
    assert head.types["names"] == "array[string]" and head.types["u8"] == "uint8"


def test_bytes_need_no_more_than_the_metadata(tmp_path):
    data = W.gguf(ALL_TYPES)
    # The header alone, from a file said to be 8 GiB: nothing past it is asked for.
    head = read_gguf(data, file_size=8 << 30)
    assert head.header_bytes == len(data) and head.file_size == 8 << 30
    with pytest.raises(GGUFNeedsMore) as info:
        read_gguf(data[:40], file_size=8 << 30)
    assert info.value.needed > 40
    assert read_gguf(data[:info.value.needed] if info.value.needed >= len(data) else data,
                     file_size=8 << 30).metadata["s"] == "héllo ▁"


def test_sparse_multi_gib_file_reads_only_the_header(tmp_path):
    data = W.gguf(ALL_TYPES, tensors=1)
    path = _write(tmp_path, data)
    with open(path, "r+b") as handle:
        handle.truncate(6 << 30)  # sparse: takes no disk
    head = read_gguf(path)
    assert head.file_size == 6 << 30 and head.header_bytes == len(data)


def test_truncated_at_every_byte(tmp_path):
    data = W.gguf(ALL_TYPES)
    for cut in range(len(data)):
        error = _refused(tmp_path, data[:cut])
        assert any(w in str(error) for w in ("ends", "cannot fit", "magic")), (cut, error)


def test_wrong_magic_and_versions(tmp_path):
    _refused(tmp_path, W.gguf([], magic=b"GGML"), "not a GGUF file")
    _refused(tmp_path, b"GG", "magic")
    big = b"GGUF" + struct.pack(">IQQ", 3, 0, 0)
    _refused(tmp_path, big, "big-endian", key="version")
    for version in (1, 4, 0xFFFFFFFF):
        _refused(tmp_path, W.gguf([], version=version), f"version {version}",
                 key="version")


def test_absurd_counts(tmp_path):
    _refused(tmp_path, W.gguf([], count=2 ** 63), "cannot fit",
             key="metadata_kv_count")
    array_head = W.string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 2 ** 63)
    _refused(tmp_path, W.gguf([array_head]), "cannot fit", key="tokenizer.ggml.tokens")
    ints = W.string("ids") + struct.pack("<IIQ", 9, 5, 2 ** 62) + b"\0" * 16
    _refused(tmp_path, W.gguf([ints]), "cannot fit", key="ids")
    long_string = W.string("name") + struct.pack("<IQ", 8, 2 ** 63) + b"abc"
    _refused(tmp_path, W.gguf([long_string]), "ends", key="name")
    long_key = struct.pack("<Q", 2 ** 63) + b"k" * 20
    _refused(tmp_path, W.gguf([long_key]), "ends")
    in_array = (W.string("toks") + struct.pack("<IIQ", 9, 8, 2)
                + W.string("a") + struct.pack("<Q", 2 ** 63))
    _refused(tmp_path, W.gguf([in_array]), "ends", key="toks")


def test_unknown_types_and_deep_arrays(tmp_path):
    _refused(tmp_path, W.gguf([W.string("odd") + struct.pack("<I", 13) + b"\0" * 8]),
             "unknown metadata type 13", key="odd")
    _refused(tmp_path, W.gguf([W.string("odd") + struct.pack("<IIQ", 9, 77, 1)]),
             "unknown array item type 77", key="odd")
    deep = ("deep", ("array", ("array", ("array", "uint8"))), [[[1]]])
    _refused(tmp_path, W.gguf([deep]), "nested", key="deep")
    # 10,000 levels of arrays: refused at the third, no recursion error.
    tower = W.string("tower") + struct.pack("<I", 9) + struct.pack("<IQ", 9, 1) * 10_000
    _refused(tmp_path, W.gguf([tower]), "nested", key="tower")


def test_duplicate_and_bad_keys(tmp_path):
    _refused(tmp_path, W.gguf([("a", "uint8", 1), ("a", "uint8", 2)]), "twice", key="a")
    bad = struct.pack("<Q", 2) + b"\xff\xfe" + struct.pack("<IB", 0, 1)
    _refused(tmp_path, W.gguf([bad]), "not UTF-8")


def test_not_a_regular_file(tmp_path):
    with pytest.raises(SubwordLabError):
        read_gguf(tmp_path)

"""Read sentencepiece's `.model` files: a ModelProto in protobuf's wire format.

We read the wire format directly (no protobuf package: the library is stdlib-only).
Field numbers and defaults are those of sentencepiece's `sentencepiece_model.proto`
(proto2); fields we do not model are skipped, as protobuf readers do.

Wire format in brief: a message is a run of (key, value) records; key is a varint
`field_number << 3 | wire_type`; wire type 0 = varint, 1 = 8 fixed bytes,
2 = varint length + bytes (strings, bytes, sub-messages), 5 = 4 fixed bytes (floats).
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field, fields
from functools import lru_cache
from itertools import compress

from ..core.errors import SubwordLabError
from ..core.safe_files import read_bytes  # regular files under the size cap only
from ._sentencepiece_pieces import first_run, piece_run, string_run

__all__ = ["SentencePiece", "Pieces", "TrainerSpec", "NormalizerSpec", "ModelProto",
           "parse_model", "read_model", "summary", "PIECE_TYPES", "MODEL_TYPES"]

PIECE_TYPES = {1: "NORMAL", 2: "UNKNOWN", 3: "CONTROL", 4: "USER_DEFINED",
               5: "UNUSED", 6: "BYTE"}
MODEL_TYPES = {1: "UNIGRAM", 2: "BPE", 3: "WORD", 4: "CHAR"}

_VARINT, _FIXED64, _LEN, _FIXED32 = 0, 1, 2, 5
_unpack_float = struct.Struct("<f").unpack_from
# The wire type each scalar kind is written with.
_WIRE_OF = {"string": _LEN, "bytes": _LEN, "float": _FIXED32, "int32": _VARINT,
            "uint64": _VARINT, "bool": _VARINT, "enum": _VARINT}


@dataclass(slots=True)
class SentencePiece:
    piece: str = ""
    score: float = 0.0
    type: int = 1  # NORMAL

    @property
    def type_name(self) -> str:
        return PIECE_TYPES.get(self.type, str(self.type))


class Pieces:
    """The pieces of a model as three columns (text, score, type): reading a
    32,000-piece file makes three lists, not 32,000 objects. Indexing and
    iterating give SentencePiece objects, made on demand."""

    __slots__ = ("texts", "scores", "types", "_index", "_kinds")

    def __init__(self, texts=(), scores=(), types=()):
        self.texts, self.scores, self.types = list(texts), list(scores), list(types)
        self._index = self._kinds = None

    def append(self, p):
        self.texts.append(p.piece)
        self.scores.append(p.score)
        self.types.append(p.type)
        self._index = self._kinds = None

    def extend(self, texts, scores, types):
        self.texts += texts
        self.scores += scores
        self.types += types
        self._index = self._kinds = None

    def index(self) -> dict:
        """piece -> id, built once and shared by its readers (never changed)."""
        if self._index is None:
            self._index = dict(zip(self.texts, range(len(self.texts))))
        return self._index

    def mask(self, *kinds) -> bytes:
        """One byte per piece, non-zero where its type is one of `kinds`: with
        itertools.compress it selects texts, scores or ids without a Python loop
        over the pieces (types are checked to be 1 to 6 before this is used)."""
        if self._kinds is None:
            self._kinds = bytes(self.types)
        return self._kinds.translate(_selector(kinds))

    def texts_of(self, *kinds) -> list:
        """The texts of the pieces of these types (quick when there are none)."""
        mask = self.mask(*kinds)
        return list(compress(self.texts, mask)) if 1 in mask else []

    def has(self, kind) -> bool:
        """Whether a piece has this type (a search of the type bytes)."""
        return 1 in self.mask(kind)

    def __len__(self):
        return len(self.texts)

    def __bool__(self):
        return bool(self.texts)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return SentencePiece(self.texts[i], self.scores[i], self.types[i])

    def __iter__(self):
        return map(SentencePiece, self.texts, self.scores, self.types)

    def __eq__(self, other):
        return list(self) == list(other)


@lru_cache(maxsize=None)
def _selector(kinds) -> bytes:
    """A bytes.translate table: 1 for the given piece types, 0 for the others."""
    return bytes(1 if k in kinds else 0 for k in range(256))


@dataclass
class TrainerSpec:
    model_type: int = 1  # UNIGRAM
    vocab_size: int = 8000
    model_prefix: str = ""
    character_coverage: float = 0.9995
    max_sentencepiece_length: int = 16
    split_by_unicode_script: bool = True
    split_by_whitespace: bool = True
    split_by_number: bool = True
    treat_whitespace_as_suffix: bool = False
    allow_whitespace_only_pieces: bool = False
    split_digits: bool = False
    control_symbols: list = field(default_factory=list)
    user_defined_symbols: list = field(default_factory=list)
    byte_fallback: bool = False
    unk_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    pad_id: int = -1
    unk_piece: str = "<unk>"
    bos_piece: str = "<s>"
    eos_piece: str = "</s>"
    pad_piece: str = "<pad>"
    unk_surface: str = " \u2047 "

    @property
    def model_type_name(self) -> str:
        return MODEL_TYPES.get(self.model_type, str(self.model_type))


@dataclass
class NormalizerSpec:
    name: str = ""
    precompiled_charsmap: bytes = b""
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True
    normalization_rule_tsv: str = ""


@dataclass
class ModelProto:
    pieces: Pieces = field(default_factory=Pieces)
    trainer_spec: TrainerSpec = field(default_factory=TrainerSpec)
    normalizer_spec: NormalizerSpec = field(default_factory=NormalizerSpec)
    denormalizer_spec: NormalizerSpec | None = None


# field number -> (attribute, kind, repeated); kind is a scalar name or a class.
_SCHEMAS = {
    SentencePiece: {1: ("piece", "string", False), 2: ("score", "float", False),
                    3: ("type", "enum", False)},
    TrainerSpec: {
        2: ("model_prefix", "string", False), 3: ("model_type", "enum", False),
        4: ("vocab_size", "int32", False), 10: ("character_coverage", "float", False),
        20: ("max_sentencepiece_length", "int32", False),
        21: ("split_by_unicode_script", "bool", False),
        22: ("split_by_whitespace", "bool", False), 23: ("split_by_number", "bool", False),
        24: ("treat_whitespace_as_suffix", "bool", False),
        25: ("split_digits", "bool", False),
        26: ("allow_whitespace_only_pieces", "bool", False),
        30: ("control_symbols", "string", True), 31: ("user_defined_symbols", "string", True),
        35: ("byte_fallback", "bool", False),
        40: ("unk_id", "int32", False), 41: ("bos_id", "int32", False),
        42: ("eos_id", "int32", False), 43: ("pad_id", "int32", False),
        44: ("unk_surface", "string", False), 45: ("unk_piece", "string", False),
        46: ("bos_piece", "string", False), 47: ("eos_piece", "string", False),
        48: ("pad_piece", "string", False),
    },
    NormalizerSpec: {
        1: ("name", "string", False), 2: ("precompiled_charsmap", "bytes", False),
        3: ("add_dummy_prefix", "bool", False), 4: ("remove_extra_whitespaces", "bool", False),
        5: ("escape_whitespaces", "bool", False), 6: ("normalization_rule_tsv", "string", False),
    },
    ModelProto: {1: ("pieces", SentencePiece, True), 2: ("trainer_spec", TrainerSpec, False),
                 3: ("normalizer_spec", NormalizerSpec, False),
                 5: ("denormalizer_spec", NormalizerSpec, False)},
}


class _Reader:
    """Walks one buffer; every error names the file and the field being read."""

    def __init__(self, data: bytes, path):
        self.data = data
        self.path = path

    def fail(self, where, message):
        raise SubwordLabError(message, path=self.path, field=where or "(top level)")

    def varint(self, pos, end, where):
        data, result, shift = self.data, 0, 0
        while True:
            if pos >= end:
                self.fail(where, f"truncated varint at byte {pos}")
            byte = data[pos]
            pos += 1
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                return result, pos
            shift += 7
            if shift >= 70:
                self.fail(where, f"varint longer than 10 bytes at byte {pos}")

    def message(self, cls, pos, end, where):
        """Parse bytes [pos, end) as a `cls` message."""
        obj, schema = cls(), _SCHEMAS[cls]
        runs_read = 0
        while pos < end:
            key_at = pos
            key, pos = self.varint(pos, end, where)
            number, wire = key >> 3, key & 7
            if number == 0:
                self.fail(where, f"invalid field number 0 at byte {key_at}")
            entry = schema.get(number)
            if entry is None:
                pos = self.skip(wire, pos, end, _join(where, f"(field {number})"))
                continue
            attr, kind, repeated = entry
            if kind is SentencePiece:
                # The first run mostly by one split (a pass over the rest of the
                # message), later ones record by record (a pass over the run only).
                run = piece_run if runs_read else first_run
                runs_read += 1
                texts, scores, types, pos = run(self.data, key_at, end)
                if texts:
                    obj.pieces.extend(texts, scores, types)
                    continue
                pos = key_at
                key, pos = self.varint(pos, end, where)
            elif repeated and kind == "string" and wire == _LEN:
                strings, stop = string_run(self.data, key_at, pos, end)
                if strings:  # a run of short strings (control symbols: hundreds)
                    getattr(obj, attr).extend(strings)
                    pos = stop
                    continue
            name = _join(where, attr)
            if repeated:
                name += f"[{len(getattr(obj, attr))}]"
            value, pos = self.value(kind, wire, pos, end, name)
            if repeated:
                getattr(obj, attr).append(value)
            else:
                setattr(obj, attr, value)
        return obj

    def value(self, kind, wire, pos, end, where):
        expected = _LEN if isinstance(kind, type) else _WIRE_OF[kind]
        if wire != expected:
            self.fail(where, f"wire type {wire}, expected {expected}")
        if wire == _FIXED32:
            if pos + 4 > end:
                self.fail(where, f"truncated float at byte {pos}")
            return struct.unpack_from("<f", self.data, pos)[0], pos + 4
        raw, pos = self.varint(pos, end, where)
        if wire == _VARINT:
            return self.scalar(kind, raw, where), pos
        if pos + raw > end:
            self.fail(where, f"length {raw} at byte {pos} runs past the end ({end})")
        if isinstance(kind, type):
            return self.message(kind, pos, pos + raw, where), pos + raw
        chunk = bytes(self.data[pos:pos + raw])
        if kind == "bytes":
            return chunk, pos + raw
        try:
            return chunk.decode("utf-8"), pos + raw
        except UnicodeDecodeError as exc:
            self.fail(where, f"string is not valid UTF-8 ({exc.reason} at byte {pos + exc.start})")

    @staticmethod
    def scalar(kind, raw, where):
        if kind == "bool":
            return raw != 0
        if kind == "int32":
            raw &= 0xFFFFFFFF  # negative int32s are sign-extended to 64 bits on the wire
            return raw - (1 << 32) if raw >= 1 << 31 else raw
        return raw

    def skip(self, wire, pos, end, where):
        if wire == _VARINT:
            return self.varint(pos, end, where)[1]
        if wire in (_FIXED64, _FIXED32):
            size = 8 if wire == _FIXED64 else 4
            if pos + size > end:
                self.fail(where, f"truncated fixed-size value at byte {pos}")
            return pos + size
        if wire == _LEN:
            length, pos = self.varint(pos, end, where)
            if pos + length > end:
                self.fail(where, f"length {length} at byte {pos} runs past the end ({end})")
            return pos + length
        self.fail(where, f"unsupported wire type {wire} (not a sentencepiece model?)")


def _join(where, name):
    return f"{where}.{name}" if where else name


def parse_model(data: bytes, path=None) -> ModelProto:
    """Parse and check a serialized ModelProto; errors name `path` and the field."""
    data = bytes(data)
    if not data:
        raise SubwordLabError("empty file", path=path, field="(top level)")
    model = _Reader(data, path).message(ModelProto, 0, len(data), "")
    _check(model, path)
    return model


def read_model(path) -> ModelProto:
    return parse_model(read_bytes(path), path)


def _check(model: ModelProto, path):
    """The invariants sentencepiece itself checks when it loads a model."""
    def fail(where, message):
        raise SubwordLabError(message, path=path, field=where)

    if not model.pieces:
        fail("pieces", "no pieces (not a sentencepiece model?)")
    texts = model.pieces.texts
    try:
        types_known = not model.pieces.mask(*PIECE_TYPES).count(0)
    except ValueError:  # a type over 255
        types_known = False
    # The scores are float32 values: their sum cannot overflow a double, so it is
    # finite exactly when every score is (an inf or a NaN makes it inf or NaN).
    if types_known and "" not in texts and len(set(texts)) == len(texts) and \
            math.isfinite(sum(model.pieces.scores)):
        return _check_spec(model, fail)
    seen = {}
    for i, p in enumerate(model.pieces):
        if not p.piece:
            fail(f"pieces[{i}].piece", "empty piece")
        if not math.isfinite(p.score):
            fail(f"pieces[{i}].score", f"score {p.score} is not a finite number")
        if p.type not in PIECE_TYPES:
            fail(f"pieces[{i}].type", f"unknown piece type {p.type}")
        if p.piece in seen:
            fail(f"pieces[{i}].piece", f"{p.piece!r} repeats piece {seen[p.piece]}")
        seen[p.piece] = i
    _check_spec(model, fail)


def _check_spec(model, fail):
    spec = model.trainer_spec
    if spec.model_type not in MODEL_TYPES:
        fail("trainer_spec.model_type", f"unknown model type {spec.model_type}")
    unk = spec.unk_id
    if not 0 <= unk < len(model.pieces) or model.pieces.types[unk] != 2:
        fail("trainer_spec.unk_id", f"{unk} is not an UNKNOWN piece")
    for name in ("bos_id", "eos_id", "pad_id"):
        value = getattr(spec, name)
        if value >= len(model.pieces) or value < -1:
            fail(f"trainer_spec.{name}", f"{value} is out of range")


def summary(model: ModelProto) -> dict:
    """A plain-dict view (for the UI and debugging), without the pieces themselves."""
    out = {"pieces": len(model.pieces)}
    for part in ("trainer_spec", "normalizer_spec"):
        spec = getattr(model, part)
        out[part] = {f.name: getattr(spec, f.name) for f in fields(spec)
                     if f.name != "precompiled_charsmap"}
    out["trainer_spec"]["model_type"] = model.trainer_spec.model_type_name
    out["normalizer_spec"]["precompiled_charsmap_bytes"] = len(
        model.normalizer_spec.precompiled_charsmap)
    return out

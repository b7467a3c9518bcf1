"""The shapes of a tokenizer.json, checked as strictly as `tokenizers` reads them.

`tokenizers` reads the file with serde: a flag must be JSON true/false, an id an integer
from 0 to 2^32 - 1, a score a finite number, and a field without a default must be there.
The component classes accept looser Python values (they are also built by hand), so the
file is checked here first, in one place, and every problem names the field and says what
was expected in plain words. Only the component types we know are described; an unknown
"type" is left to the component's own from_dict, which refuses it.
"""
from __future__ import annotations

import json
import math
import re

from . import _scan as json_scan
from .bulk import all_merges, all_scored_pieces, all_strings, all_u32, passes
from .serde_numbers import serde_float
from ..errors import SubwordLabError

__all__ = ["MAX_JSON_DEPTH", "loads_strict", "check_tokenizer"]

# serde_json refuses 128 nested arrays/objects; tokenizers inherits that limit.
MAX_JSON_DEPTH = 127
_U32, _U64 = 2 ** 32, 2 ** 64


# -- parsing --------------------------------------------------------------------------------

def _refuse_constant(name):
    raise SubwordLabError(f"{name} is not a number JSON allows")


def _float(text):
    value = serde_float(text)  # the float tokenizers holds, not Python's nearest
    if not math.isfinite(value):
        raise SubwordLabError(f"the number {_short(text)} is out of range")
    return value


def _int(text):
    # Integers beyond 64 bits are floats for serde_json (and Python refuses to
    # turn more than 4,300 digits into an int); past 1e308 they are out of range.
    if len(text) > 20 and (len(text) > 4000 or abs(int(text)) >= _U64):
        return _float(text)
    return int(text)


def _short(text):
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


_TOO_DEEP = (f"nested too deeply (tokenizers reads at most {MAX_JSON_DEPTH} levels "
             "of lists and objects)")
# Strings (skipped whole), brackets and bare words/numbers: enough to find where
# a problem is once we know there is one.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|[-+0-9A-Za-z.]+')


def _where(text, offset):
    line = text.count("\n", 0, offset) + 1
    return f"line {line} column {offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def _locate_deep(text):
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return _where(text, match.start())
        elif token in "]}":
            depth -= 1
    return None


def _locate_number(text):
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token[0] in '"[]{}' or token in ("true", "false", "null"):
            continue
        try:
            _float(token) if token.lstrip("-") in ("NaN", "Infinity") else (
                _float(token) if any(c in token for c in ".eE") else _int(token))
        except (SubwordLabError, ValueError):
            return _where(text, match.start())
    return None


def loads_strict(text, path=None):
    """json.loads as serde_json reads it: no NaN/Infinity, no out-of-range numbers,
    at most MAX_JSON_DEPTH levels of nesting; errors are SubwordLabError."""
    try:  # the usual file, checked in C-level passes (core/json_checks/_scan.py)
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=serde_float)
        if json_scan.plain(data, MAX_JSON_DEPTH):
            return data
    except (ValueError, RecursionError, SubwordLabError):
        pass  # the hooked parse below says what is wrong, or reads big integers as floats
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_float,
                          parse_int=_int)
    except json.JSONDecodeError as exc:
        raise SubwordLabError(f"not valid JSON ({exc.msg})", path,
                              f"line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise SubwordLabError(_TOO_DEEP, path, _locate_deep(text)) from None
    except SubwordLabError as exc:
        raise SubwordLabError(f"not valid JSON ({exc.reason})", path,
                              _locate_number(text)) from None
    if not json_scan.plain(data, MAX_JSON_DEPTH, numbers=False):
        raise SubwordLabError(_TOO_DEEP, path, _locate_deep(text))
    return data


# -- field kinds ----------------------------------------------------------------------------
# Each kind is a function (value, where) that raises SubwordLabError or returns.

def _say(value):
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _fail(where, expected, value):
    raise SubwordLabError(f"expected {expected}, got {_say(value)}", field=where)


def boolean(value, where):
    if not isinstance(value, bool):
        _fail(where, "true or false", value)


def string(value, where):
    if not isinstance(value, str):
        _fail(where, "a string", value)


def char(value, where):
    if not isinstance(value, str) or len(value) != 1:
        _fail(where, "a single character", value)


def _integer(limit, label):
    def check(value, where):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
            _fail(where, label, value)
    return check


u32 = _integer(_U32, "a whole number from 0 to 4294967295")
usize = _integer(_U64, "a whole number from 0 to 2^64 - 1")


def number(value, where):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        _fail(where, "a finite number", value)


def one_of(*names):
    def check(value, where):
        if value not in names:
            _fail(where, "one of " + ", ".join(names), value)
    return check


def optional(kind):
    def check(value, where):
        if value is not None:
            kind(value, where)
    check.optional = True
    return check


def list_of(kind):
    def check(value, where):
        if not isinstance(value, list):
            _fail(where, "a list", value)
        if not passes(kind, value):  # else each item, naming the bad one
            for i, item in enumerate(value):
                kind(item, f"{where}[{i}]")
    return check


def map_of(kind):
    def check(value, where):
        if not isinstance(value, dict):
            _fail(where, "an object", value)
        if not passes(kind, list(value.values())):
            for key, item in value.items():
                kind(item, f"{where}[{json.dumps(key, ensure_ascii=False)}]")
    return check


def pair(first, second):
    def check(value, where):
        if not isinstance(value, list) or len(value) != 2:
            _fail(where, "a pair [a, b]", value)
        first(value[0], f"{where}[0]")
        second(value[1], f"{where}[1]")
    return check


def pattern(value, where):
    if not isinstance(value, dict) or len(value) != 1 or not (
            set(value) <= {"String", "Regex"}):
        _fail(where, '{"String": ...} or {"Regex": ...}', value)
    string(next(iter(value.values())), f"{where}.{next(iter(value))}")


def merge(value, where):
    if isinstance(value, str):
        return
    pair(string, string)(value, where)


u32.bulk, string.bulk, merge.bulk = all_u32, all_strings, all_merges  # core/json_checks/bulk.py


class Fields:
    """An object's fields: name -> (kind, required)."""

    def __init__(self, **fields):
        self.fields = fields

    def __call__(self, value, where):
        if not isinstance(value, dict):
            _fail(where, "an object", value)
        for name, (kind, required) in self.fields.items():
            if name in value:
                kind(value[name], f"{where}.{name}")
            elif required:
                raise SubwordLabError(f"missing field {name!r}", field=f"{where}.{name}")


def need(kind):
    return kind, True


def may(kind):
    return kind, False


# -- components -----------------------------------------------------------------------------

def _component(table, slot):
    def check(value, where):
        if value is None:
            return
        if not isinstance(value, dict):
            _fail(where, "an object", value)
        kind = value.get("type")
        if kind is not None and not isinstance(kind, str):
            _fail(f"{where}.type", "the name of a type", kind)
        fields = table.get(kind)
        if fields is not None:
            fields(value, where)
    _CHECKS[slot] = check
    return check


_CHECKS = {}


def _nested(slot):
    """A Sequence's items, checked with the slot's table (built after it)."""
    return lambda value, where: _CHECKS[slot](value, where)


def _sequence(slot):
    return list_of(lambda value, where: _nested_required(slot, value, where))


def _nested_required(slot, value, where):
    if value is None:
        _fail(where, "an object", value)
    _nested(slot)(value, where)


_byte_level = Fields(add_prefix_space=need(boolean), trim_offsets=need(boolean),
                     use_regex=may(boolean))
_metaspace = Fields(replacement=need(char), prepend_scheme=may(one_of("first", "never", "always")),
                    split=may(optional(boolean)), add_prefix_space=may(boolean))
_behavior = one_of("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")

NORMALIZERS = {
    "BertNormalizer": Fields(clean_text=need(boolean), handle_chinese_chars=need(boolean),
                             strip_accents=may(optional(boolean)), lowercase=need(boolean)),
    "Strip": Fields(strip_left=need(boolean), strip_right=need(boolean)),
    "Prepend": Fields(prepend=need(string)),
    "Replace": Fields(pattern=need(pattern), content=need(string)),
    "Precompiled": Fields(precompiled_charsmap=need(optional(string))),
    "Sequence": Fields(normalizers=need(_sequence("normalizer"))),
}
PRE_TOKENIZERS = {
    "ByteLevel": _byte_level,
    "Metaspace": _metaspace,
    "Split": Fields(pattern=need(pattern), behavior=need(_behavior), invert=need(boolean)),
    "Digits": Fields(individual_digits=need(boolean)),
    "CharDelimiterSplit": Fields(delimiter=need(char)),
    "Punctuation": Fields(behavior=may(_behavior)),
    "FixedLength": Fields(length=may(usize)),
    "Sequence": Fields(pretokenizers=need(_sequence("pre_tokenizer"))),
}
_special = pair(string, u32)
_piece = Fields(id=need(string), type_id=need(u32))


def _template_piece(value, where):
    if not isinstance(value, dict) or len(value) != 1 or not (
            set(value) <= {"SpecialToken", "Sequence"}):
        _fail(where, '{"SpecialToken": ...} or {"Sequence": ...}', value)
    key = next(iter(value))
    _piece(value[key], f"{where}.{key}")
    if key == "Sequence":
        one_of("A", "B")(value[key]["id"], f"{where}.Sequence.id")


PROCESSORS = {
    "BertProcessing": Fields(sep=need(_special), cls=need(_special)),
    "RobertaProcessing": Fields(sep=need(_special), cls=need(_special),
                                trim_offsets=may(boolean), add_prefix_space=may(boolean)),
    "ByteLevel": _byte_level,
    "TemplateProcessing": Fields(
        single=need(list_of(_template_piece)), pair=need(list_of(_template_piece)),
        special_tokens=need(map_of(Fields(id=need(string), ids=need(list_of(u32)),
                                          tokens=need(list_of(string)))))),
    "Sequence": Fields(processors=need(_sequence("post_processor"))),
}
DECODERS = {
    "ByteLevel": _byte_level,
    "Metaspace": _metaspace,
    "WordPiece": Fields(prefix=need(string), cleanup=need(boolean)),
    "BPEDecoder": Fields(suffix=need(string)),
    "CTC": Fields(pad_token=need(string), word_delimiter_token=need(string),
                  cleanup=need(boolean)),
    "Replace": Fields(pattern=need(pattern), content=need(string)),
    "Strip": Fields(content=need(char), start=need(usize), stop=need(usize)),
    "Sequence": Fields(decoders=need(_sequence("decoder"))),
}
_vocab = map_of(u32)
_scored_piece = pair(string, number)
_scored_piece.bulk = all_scored_pieces
MODELS = {
    "BPE": Fields(dropout=may(optional(number)), unk_token=may(optional(string)),
                  continuing_subword_prefix=may(optional(string)),
                  end_of_word_suffix=may(optional(string)), fuse_unk=may(optional(boolean)),
                  byte_fallback=may(optional(boolean)), ignore_merges=may(optional(boolean)),
                  vocab=need(_vocab), merges=need(list_of(merge))),
    "WordPiece": Fields(unk_token=need(string), continuing_subword_prefix=need(string),
                        max_input_chars_per_word=need(usize), vocab=need(_vocab)),
    "WordLevel": Fields(vocab=need(_vocab), unk_token=need(string)),
    "Unigram": Fields(unk_id=may(optional(usize)), vocab=need(list_of(_scored_piece)),
                      byte_fallback=may(boolean)),
}

_COMPONENTS = {
    "normalizer": _component(NORMALIZERS, "normalizer"),
    "pre_tokenizer": _component(PRE_TOKENIZERS, "pre_tokenizer"),
    "post_processor": _component(PROCESSORS, "post_processor"),
    "decoder": _component(DECODERS, "decoder"),
    "model": _component(MODELS, "model"),
}

_ADDED_TOKEN = Fields(id=need(u32), content=need(string), single_word=need(boolean),
                      lstrip=need(boolean), rstrip=need(boolean), normalized=need(boolean),
                      special=need(boolean))
_TRUNCATION = Fields(direction=may(one_of("Left", "Right")), max_length=need(usize),
                     strategy=need(one_of("LongestFirst", "OnlyFirst", "OnlySecond")),
                     stride=need(usize))


def _strategy(value, where):
    if value == "BatchLongest":
        return
    if not isinstance(value, dict) or set(value) != {"Fixed"}:
        _fail(where, '"BatchLongest" or {"Fixed": n}', value)
    usize(value["Fixed"], f"{where}.Fixed")


_PADDING = Fields(strategy=need(_strategy), direction=need(one_of("Left", "Right")),
                  pad_to_multiple_of=need(optional(usize)), pad_id=need(u32),
                  pad_type_id=need(u32), pad_token=need(string))


def check_tokenizer(data, path=None):
    """Check a parsed tokenizer.json as tokenizers would; errors name file and field."""
    try:
        if not isinstance(data, dict):
            _fail("(document)", "a JSON object", data)
        for slot, check in _COMPONENTS.items():
            check(data.get(slot), slot)
        optional(_TRUNCATION)(data.get("truncation"), "truncation")
        optional(_PADDING)(data.get("padding"), "padding")
        if "added_tokens" in data:
            list_of(_ADDED_TOKEN)(data["added_tokens"], "added_tokens")
    except SubwordLabError as exc:
        raise SubwordLabError(exc.reason, path, exc.field) from None

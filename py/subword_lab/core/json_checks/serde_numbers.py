"""JSON numbers with a fraction or an exponent, read to the same float as serde_json.

`tokenizers` reads tokenizer.json with serde_json, built without its exact
("float_roundtrip") float parser. That parser keeps up to 19 significant digits
as a 64-bit integer, turns it into a float, then multiplies or divides by a power
of ten: two roundings where Python's float() makes one. Most numbers come out the
same, but about one in sixty of the 17-digit scores that tokenizers' own Unigram
trainer writes lands one unit in the last place away, e.g. "-5.1301781766742796"
reads as -5.13017817667428 there. Two segmentations whose scores add to the same
total then stop being tied, and the model picks a different one. So the scores a
file gives are read here exactly as tokenizers holds them.
"""
from __future__ import annotations

import re

from ..errors import SubwordLabError

__all__ = ["serde_float"]

_U64_MAX = 2 ** 64 - 1
_I32_MAX = 2 ** 31 - 1
# serde_json's table: the doubles nearest to 1e0 ... 1e308.
_POW10 = tuple(float(f"1e{k}") for k in range(309))
_DIGITS = frozenset("0123456789")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def serde_float(text: str) -> float:
    """The float serde_json (without float_roundtrip) reads for the JSON number `text`."""
    dot = text.find(".")
    if dot > 0 and len(text) - (text[0] == "-") <= 20 and "e" not in text and "E" not in text:
        # At most 19 digits: serde's 64-bit significand holds them all. int / float
        # rounds the integer to a float first, then divides: serde's two steps.
        value = int(text.replace(".", "", 1)) / _POW10[len(text) - dot - 1]
        return value if value else float(text)  # float() keeps the sign of a zero
    return _read(text)


def _overflows(significand: int, digit: int) -> bool:
    return significand * 10 + digit > _U64_MAX


def _read(text: str) -> float:
    """serde_json's number parser, step for step (long or exponent forms)."""
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"not a JSON number: {_short(text)}")
    negative = text[0] == "-"
    at, end = (1 if negative else 0), len(text)
    significand = exponent = 0
    while at < end and text[at] in _DIGITS:  # the integer part
        digit = ord(text[at]) - 48
        if _overflows(significand, digit):  # later integer digits only scale it
            while at < end and text[at] in _DIGITS:
                exponent, at = exponent + 1, at + 1
            break
        significand, at = significand * 10 + digit, at + 1
    if at < end and text[at] == ".":
        at += 1
        while at < end and text[at] in _DIGITS:
            digit = ord(text[at]) - 48
            if _overflows(significand, digit):  # later decimals are dropped
                while at < end and text[at] in _DIGITS:
                    at += 1
                break
            significand, exponent, at = significand * 10 + digit, exponent - 1, at + 1
    if at < end and text[at] in "eE":
        at += 1
        sign = -1 if text[at] == "-" else 1
        at += text[at] in "+-"
        power = 0
        for char in text[at:]:
            power = power * 10 + ord(char) - 48
            if power > _I32_MAX:  # serde gives up: zero, or out of range upwards
                if significand and sign > 0:
                    raise SubwordLabError(f"the number {_short(text)} is out of range")
                return -0.0 if negative else 0.0
        exponent = max(-2 ** 31, min(_I32_MAX, exponent + sign * power))
    value = _from_parts(significand, exponent, text)
    return -value if negative else value


def _from_parts(significand: int, exponent: int, text: str) -> float:
    value = float(significand)
    while True:
        if -309 < exponent < 309:
            if exponent >= 0:
                value *= _POW10[exponent]
                if value == float("inf"):
                    raise SubwordLabError(f"the number {_short(text)} is out of range")
            else:
                value /= _POW10[-exponent]
            return value
        if value == 0.0:
            return value
        if exponent >= 0:
            raise SubwordLabError(f"the number {_short(text)} is out of range")
        value /= 1e308
        exponent += 308


def _short(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} characters)"

"""Truncation and padding: their options as tokenizers names them, their tokenizer.json
form, and how a pair shares `max_length`.
"""
from __future__ import annotations

from ..core.errors import SubwordLabError
from .json_fields import expect

__all__ = ["DIRECTIONS", "STRATEGIES", "longest_first", "padding_from_json",
           "padding_to_json", "truncation_from_json", "truncation_to_json"]

STRATEGIES = {"longest_first": "LongestFirst", "only_first": "OnlyFirst",
              "only_second": "OnlySecond"}
_STRATEGIES_BY_NAME = {v: k for k, v in STRATEGIES.items()}
DIRECTIONS = {"left": "Left", "right": "Right"}
_DIRECTIONS_BY_NAME = {v: k for k, v in DIRECTIONS.items()}


def truncation_from_json(d, path):
    if d is None:
        return None
    if not isinstance(d, dict):
        raise SubwordLabError("expected an object or null", path, "truncation")
    strategy = expect(d, "strategy", str, path, "truncation", "LongestFirst")
    direction = expect(d, "direction", str, path, "truncation", "Right")
    if strategy not in _STRATEGIES_BY_NAME:
        raise SubwordLabError(f"unknown strategy {strategy!r}", path, "truncation.strategy")
    if direction not in _DIRECTIONS_BY_NAME:
        raise SubwordLabError(f"unknown direction {direction!r}", path, "truncation.direction")
    return {"max_length": expect(d, "max_length", int, path, "truncation"),
            "stride": expect(d, "stride", int, path, "truncation", 0),
            "strategy": _STRATEGIES_BY_NAME[strategy], "direction": _DIRECTIONS_BY_NAME[direction]}


def truncation_to_json(params):
    if params is None:
        return None
    return {"direction": DIRECTIONS[params["direction"]], "max_length": params["max_length"],
            "strategy": STRATEGIES[params["strategy"]], "stride": params["stride"]}


def padding_from_json(d, path):
    if d is None:
        return None
    if not isinstance(d, dict):
        raise SubwordLabError("expected an object or null", path, "padding")
    strategy = d.get("strategy", "BatchLongest")
    if strategy == "BatchLongest":
        length = None
    elif isinstance(strategy, dict) and isinstance(strategy.get("Fixed"), int):
        length = strategy["Fixed"]
    else:
        raise SubwordLabError(f"expected \"BatchLongest\" or {{\"Fixed\": n}}, got {strategy!r}",
                              path, "padding.strategy")
    direction = expect(d, "direction", str, path, "padding", "Right")
    if direction not in _DIRECTIONS_BY_NAME:
        raise SubwordLabError(f"unknown direction {direction!r}", path, "padding.direction")
    return {"length": length,
            "pad_to_multiple_of": expect(d, "pad_to_multiple_of", int, path, "padding", None),
            "pad_id": expect(d, "pad_id", int, path, "padding", 0),
            "pad_token": expect(d, "pad_token", str, path, "padding", "[PAD]"),
            "pad_type_id": expect(d, "pad_type_id", int, path, "padding", 0),
            "direction": _DIRECTIONS_BY_NAME[direction]}


def padding_to_json(params):
    if params is None:
        return None
    length = params["length"]
    return {"strategy": "BatchLongest" if length is None else {"Fixed": length},
            "direction": DIRECTIONS[params["direction"]],
            "pad_to_multiple_of": params["pad_to_multiple_of"], "pad_id": params["pad_id"],
            "pad_type_id": params["pad_type_id"], "pad_token": params["pad_token"]}


def longest_first(n1, n2, max_length):
    """How HF shares `max_length` between a pair: trim the longer one first."""
    swap = n1 > n2
    if swap:
        n1, n2 = n2, n1
    if n1 > max_length:
        n2 = n1
    else:
        n2 = max(n1, max_length - n1)
    if n1 + n2 > max_length:
        n1 = max_length // 2
        n2 = n1 + max_length % 2
    return (n2, n1) if swap else (n1, n2)

"""`repr` and `str` of a Tokenizer and its model in tokenizers' style.

tokenizers prints a component as its tokenizer.json fields in Rust's debug
notation: `BPE(dropout=None, ..., vocab={}, merges=[])`. `str` shortens every
list or map longer than five entries to its first five and "...".
Rendered from `to_dict()`, so the text follows the saved form.
"""
from __future__ import annotations

import json

_SHORT = 5
_BARE = {"prepend_scheme"}  # enum values tokenizers prints without quotes


def hf_repr(name: str, fields: dict, short: bool = False) -> str:
    """`Name(key=value, ...)` from a dict of tokenizer.json fields."""
    parts = (f"{k}={_value(v, short, bare=k in _BARE)}" for k, v in fields.items() if k != "type")
    return f"{name}({', '.join(parts)})"


def _value(v, short, bare=False, in_list=False):
    if v is None or isinstance(v, bool):
        return repr(v)
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return v if bare else json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        if "type" in v:
            return hf_repr(v["type"], v, short)
        if len(v) == 1 and next(iter(v)) in ("String", "Regex"):
            kind, source = next(iter(v.items()))
            return f"{kind}({_value(source, short)})"
        if len(v) == 1 and next(iter(v)) in ("SpecialToken", "Sequence"):  # template pieces
            kind, piece = next(iter(v.items()))
            parts = (f"{k}={_value(x, short, bare=kind == 'Sequence')}" for k, x in piece.items())
            return f"{kind}({', '.join(parts)})"
        if set(v) == {"id", "ids", "tokens"}:  # a template's special token
            return hf_repr("SpecialToken", v, short)
        items = [f"{json.dumps(k, ensure_ascii=False)}:{_value(x, short)}" for k, x in v.items()]
        return "{" + _join(items, short) + "}"
    if isinstance(v, (list, tuple)):
        items = [_value(x, short, in_list=True) for x in v]
        if in_list:  # a pair inside a list (a merge, a vocab entry) prints as a tuple
            return "(" + ", ".join(items) + ")"
        return "[" + _join(items, short) + "]"
    return repr(v)


def _join(items, short):
    if short and len(items) > _SHORT:
        items = items[:_SHORT] + ["..."]
    return ", ".join(items)

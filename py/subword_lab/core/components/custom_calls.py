"""Calling components written in Python by the user (HF's `Normalizer.custom(obj)`,
`PreTokenizer.custom(obj)`, `Decoder.custom(obj)`); the wrapper classes live
beside their base classes in normalizers.py, pre_tokenizers.py and decoders.py.
"""
from __future__ import annotations

from typing import NoReturn

from ..errors import SubwordLabError


def call_user(obj, method, *args):
    """obj.method(*args); a wrong signature reads as tokenizers reports it."""
    try:
        return getattr(obj, method)(*args)
    except TypeError as exc:
        raise SubwordLabError(f"TypeError: {exc}") from exc


def not_saveable(component: str) -> NoReturn:
    raise SubwordLabError(f"a custom {component} cannot be saved to tokenizer.json")


class Borrowed:
    """The NormalizedString lent to a custom normalize(): usable only during the call."""

    def __init__(self, ns):
        object.__setattr__(self, "_ns", ns)

    def _target(self):
        ns = object.__getattribute__(self, "_ns")
        if ns is None:
            raise SubwordLabError("Cannot use a NormalizedStringRefMut outside `normalize`")
        return ns

    def __getattr__(self, name):
        return getattr(self._target(), name)

    def __setattr__(self, name, value):
        setattr(self._target(), name, value)

    def __getitem__(self, index):
        return self._target()[index]

    def __str__(self):
        return str(self._target())

    def release(self):
        object.__setattr__(self, "_ns", None)

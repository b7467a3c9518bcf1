"""Components written in Python by the user, as HF's `Normalizer.custom(obj)`,
`PreTokenizer.custom(obj)` and `Decoder.custom(obj)`.

The wrapped object only needs the one method the pipeline calls: normalize(ns),
pre_tokenize(pts) or decode_chain(tokens). Custom components cannot be saved
to tokenizer.json (their code is not data).
"""
from __future__ import annotations

from .core.errors import SubwordLabError
from .decoders import Decoder
from .normalizers import Normalizer
from .pre_tokenizers import PreTokenizer


def _call(obj, method, *args):
    """Call obj.method(*args); a wrong signature reads as HF reports it."""
    try:
        return getattr(obj, method)(*args)
    except TypeError as exc:
        raise SubwordLabError(f"TypeError: {exc}") from exc


def _not_saveable(component):
    raise SubwordLabError(f"a custom {component} cannot be saved to tokenizer.json")


class _Borrowed:
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

    def _release(self):
        object.__setattr__(self, "_ns", None)


class CustomNormalizer(Normalizer):
    def __init__(self, obj):
        self.obj = obj

    def normalize(self, ns):
        borrowed = _Borrowed(ns)
        try:
            _call(self.obj, "normalize", borrowed)
        finally:
            borrowed._release()

    def to_dict(self):
        _not_saveable("normalizer")

    def __repr__(self):
        return f"CustomNormalizer({self.obj!r})"


class CustomPreTokenizer(PreTokenizer):
    def __init__(self, obj):
        self.obj = obj

    def pre_tokenize(self, pts):
        _call(self.obj, "pre_tokenize", pts)

    def to_dict(self):
        _not_saveable("pre-tokenizer")

    def __repr__(self):
        return f"CustomPreTokenizer({self.obj!r})"


class CustomDecoder(Decoder):
    def __init__(self, obj):
        self.obj = obj

    def decode_chain(self, tokens):
        return list(_call(self.obj, "decode_chain", list(tokens)))

    def to_dict(self):
        _not_saveable("decoder")

    def __repr__(self):
        return f"CustomDecoder({self.obj!r})"

"""The `tokenizers` top-level module, as Subword Lab provides it.

`subword_lab.install_as_tokenizers()` registers this module as `tokenizers`.
It gathers the library's public names where tokenizers has them.
"""
from __future__ import annotations

from enum import Enum

from .. import __version__, decoders, models, normalizers, pre_tokenizers, processors
from . import trainers_module as trainers
from ..added_vocabulary import AddedToken
from ..core.normalized import NormalizedString, PreTokenizedString
from ..encoding import Encoding
from ..models.base import Token
from ..pre_tokenizers import Regex
from ..tokenizer import Tokenizer


class OffsetReferential(Enum):
    ORIGINAL = "original"
    NORMALIZED = "normalized"


class OffsetType(Enum):
    BYTE = "byte"
    CHAR = "char"


class SplitDelimiterBehavior(Enum):
    REMOVED = "removed"
    ISOLATED = "isolated"
    MERGED_WITH_PREVIOUS = "merged_with_previous"
    MERGED_WITH_NEXT = "merged_with_next"
    CONTIGUOUS = "contiguous"


def __getattr__(name):
    # The ready-made pipelines load on first use, like the rest of the package.
    from . import implementations
    if name in implementations.__all__:
        return getattr(implementations, name)
    if name == "implementations":
        return implementations
    raise AttributeError(f"module 'tokenizers' has no attribute {name!r}")

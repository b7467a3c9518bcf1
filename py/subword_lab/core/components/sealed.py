"""Attributes tokenizers keeps out of reach once a component is built."""
from __future__ import annotations

__all__ = ["sealed_pattern"]


def sealed_pattern(owner: str):
    """The `pattern` attribute of Split and Replace as tokenizers has it: neither read
    nor set once built (its tests check both). The pattern is in to_dict() / to_str()."""
    def refuse(self, value=None):
        raise AttributeError(f"{owner}.pattern cannot be read or changed once built (as in "
                             "tokenizers); build a new one, or read it from to_str()")
    return property(refuse, refuse)

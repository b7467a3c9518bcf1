"""Reading a tokenizer.json's top-level fields into a Tokenizer: a component built
with errors that name the file and field, a field of an expected kind, a count in range.
"""
from __future__ import annotations

from ..core.errors import SubwordLabError

__all__ = ["check_count", "component", "component_dict", "expect"]


def check_count(value, field, limit=2 ** 64):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise SubwordLabError(f"expected a whole number from 0 to {limit - 1}, got {value!r}",
                              field=field)


def component_dict(component):
    return None if component is None else component.to_dict()


def component(from_dict, value, name, path):
    """Build one component; any error names the file and the field."""
    if value is None:
        return None
    try:
        return from_dict(value)
    except SubwordLabError as exc:
        field = exc.field or ""
        if not field.startswith(name):
            field = f"{name}.{field}" if field else name
        raise SubwordLabError(exc.reason, path, field) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SubwordLabError(f"invalid value ({type(exc).__name__}: {exc})", path,
                              name) from None


def expect(d, key, kinds, path, where, default=...):
    if key not in d or d[key] is None and default is not ...:
        if default is ...:
            raise SubwordLabError("missing field", path, f"{where}.{key}")
        return default
    value = d[key]
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in (
            kinds if isinstance(kinds, tuple) else (kinds,)):
        raise SubwordLabError(f"unexpected value {value!r}", path, f"{where}.{key}")
    return value

"""tokenizer.json: Hugging Face's own format, read as it is."""
from __future__ import annotations

from pathlib import Path

from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .files import check_options, read_json, with_path

__all__ = ["load_tokenizer_json"]


def load_tokenizer_json(path, **options) -> Tokenizer:
    path = Path(path)
    if path.is_dir():
        path = path / "tokenizer.json"
    check_options(path, options, ())
    data = read_json(path)
    if not isinstance(data, dict):
        raise SubwordLabError(f"expected a JSON object, got {type(data).__name__}",
                              path=path)
    if "model" not in data:
        raise SubwordLabError('missing field "model" (is this a tokenizer.json?)',
                              path=path, field="model")
    return with_path(path, lambda: Tokenizer.from_dict(data, path))

"""The chat template and named special tokens kept beside a tokenizer file.

Hugging Face keeps them in `tokenizer_config.json` ("chat_template": a Jinja text,
or a list of {"name", "template"}; "bos_token", "eos_token"... as text or as
{"content": ...}), newer repositories in `chat_template.jinja` (and named ones in
`chat_templates/NAME.jinja`), older ones the special tokens in
`special_tokens_map.json`. `read_chat_config(path)` reads whichever of those lie in
the folder of `path` (a tokenizer file) and returns (chat_template, special_tokens_map);
the map also holds the named "extra_special_tokens" (transformers 5 shows them to
templates too; defaults that a transformers tokenizer class adds on its own, such as
GemmaTokenizer's mask_token, are not in the files and not here);
both None when there is none. transformers reads them the same way, the .jinja
files winning over the config's "chat_template".
"""
from __future__ import annotations

import json
from pathlib import Path

from ..core.errors import SubwordLabError
from .files import read_text

__all__ = ["read_chat_config", "SPECIAL_TOKEN_NAMES"]

# transformers' named special tokens, the ones a template sees as variables
SPECIAL_TOKEN_NAMES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                       "cls_token", "mask_token")


def _json(path):
    try:
        data = json.loads(read_text(path, "JSON"))
    except json.JSONDecodeError as exc:
        raise SubwordLabError(f"not valid JSON (line {exc.lineno}: {exc.msg})", path=path) from None
    if not isinstance(data, dict):
        raise SubwordLabError("expected a JSON object", path=path)
    return data


def _token_text(value, path, name):
    if isinstance(value, dict):
        value = value.get("content")
    if value is None or isinstance(value, str):
        return value
    raise SubwordLabError(f"a special token is text or {{\"content\": text}}, not "
                          f"{type(value).__name__}", path=path, field=name)


def _templates(value, path):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list):
        named = {}
        for i, item in enumerate(value):
            if not (isinstance(item, dict) and isinstance(item.get("name"), str)
                    and isinstance(item.get("template"), str)):
                raise SubwordLabError("each named chat template is {\"name\": text, "
                                      "\"template\": text}", path=path,
                                      field=f"chat_template[{i}]")
            named[item["name"]] = item["template"]
        return named
    raise SubwordLabError(f"chat_template is a Jinja text or a list of named templates, not "
                          f"{type(value).__name__}", path=path, field="chat_template")


def read_chat_config(path):
    folder = Path(path) if Path(path).is_dir() else Path(path).parent
    tokens, templates = {}, None
    legacy = folder / "special_tokens_map.json"
    config = folder / "tokenizer_config.json"
    for source in (legacy, config):  # the config's tokens win
        if source.is_file():
            data = _json(source)
            for name in SPECIAL_TOKEN_NAMES:
                if name in data:
                    tokens[name] = _token_text(data[name], source, name)
            extra = data.get("extra_special_tokens")
            if isinstance(extra, dict):  # named extras (Gemma 3's boi_token...) are variables too
                for name, value in extra.items():
                    tokens[name] = _token_text(value, source, f"extra_special_tokens.{name}")
            if source is config:
                templates = _templates(data.get("chat_template"), source)
    named = {}
    if (folder / "chat_template.jinja").is_file():
        named["default"] = read_text(folder / "chat_template.jinja", "chat template")
    extra = folder / "chat_templates"
    if extra.is_dir():
        for file in sorted(extra.glob("*.jinja")):
            named[file.stem] = read_text(file, "chat template")
    if named:
        templates = named["default"] if list(named) == ["default"] else named
    tokens = {k: v for k, v in tokens.items() if v is not None}
    return templates, tokens or None

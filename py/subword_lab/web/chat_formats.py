"""The chat format OpenAI publishes for an encoding whose files carry no template.

ChatML, for the chat models of cl100k_base (GPT-3.5, GPT-4): each message is written
as <|im_start|>, its role, a newline, its content, <|im_end|> and a newline; the
reply opens with <|im_start|>assistant and a newline. <|im_start|> and <|im_end|> are
special tokens 100264 and 100265, as tiktoken's README extends cl100k_base (its
"cl100k_im" example). The Jinja text below is ours. The tokenizer that renders it is
the same file opened again with those two special tokens added, so the tokenize view's
cl100k_base keeps tiktoken's own five.

The harmony format of o200k_harmony (gpt-oss) is chat_harmony.py's template; its
special tokens are already the encoding's own, so the tokenizer renders it as it is.
"""
from __future__ import annotations

from ..chat_harmony import HARMONY_TEMPLATE
from ..io.loaders import load
from .opening import source_of

__all__ = ["CHATML_TEMPLATE", "CHATML_TOKENS", "openai_format"]

CHATML_TEMPLATE = ("{% for message in messages %}<|im_start|>{{ message.role }}\n"
                   "{{ message.content }}<|im_end|>\n{% endfor %}"
                   "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
CHATML_TOKENS = {"<|im_start|>": 100264, "<|im_end|>": 100265}
FORMATS = {"cl100k_base": ("ChatML", CHATML_TEMPLATE, CHATML_TOKENS),
           "o200k_harmony": ("harmony", HARMONY_TEMPLATE, {})}

_OPENED: dict = {}  # key -> (the registry's tokenizer, the one with the format's tokens)


def openai_format(key, tokenizer):
    """(name, template, tokenizer to render and encode with) when `tokenizer` is an
    OpenAI encoding with a published chat format and the page knows its file; else None."""
    rules = getattr(tokenizer, "rules", None) or {}
    found = FORMATS.get(rules.get("encoding"))
    source = source_of(key)
    if found is None or source is None or not isinstance(rules.get("special_tokens"), dict):
        return None
    name, template, tokens = found
    if not tokens:  # the encoding has the format's tokens already
        return name, template, tokenizer
    kept = _OPENED.get(key)
    if kept is None or kept[0] is not tokenizer:
        path, options = source
        specials = {**rules["special_tokens"], **tokens}
        kept = (tokenizer, load(path, **options, special_tokens=specials))
        _OPENED[key] = kept
    return name, template, kept[1]

"""The Chat view's data: a conversation rendered by the tokenizer's chat template, its
tokens, and what each message costs.

`chat_render` renders with the library's `apply_chat_template` (chat_template.py, tied
to transformers by tests/realfiles/test_chat_oracle.py) and encodes the text as
`tokenize=True` does. What a message costs is what it adds: the tokens of the
conversation up to it minus those of the conversation before it, so the template's own
tokens around the message (its role header, its end-of-turn mark) count with it; the
generation prompt's cost is the same difference for the prompt. Where a template
rewrites earlier text when a message follows (so the shorter rendering is no prefix of
the longer), the message says so ("prefix": false) and its cost is still that difference.
"""
from __future__ import annotations

import json

from ..chat_template import apply_chat_template, pick_chat_template
from ..core.errors import SubwordLabError
from .utf16 import utf16_offsets
from .chat_formats import openai_format
from .registry import REGISTRY

__all__ = ["chat_render", "chat_costs", "ROLES"]

ROLES = ("system", "user", "assistant", "tool")
MAX_MESSAGES = 64


def _messages(value):
    if not isinstance(value, list) or len(value) > MAX_MESSAGES:
        raise SubwordLabError(f"messages: a list of at most {MAX_MESSAGES} messages",
                              field="messages")
    out = []
    for i, message in enumerate(value):
        if not (isinstance(message, dict) and message.get("role") in ROLES
                and isinstance(message.get("content"), str)):
            raise SubwordLabError(f"each message is {{\"role\": one of {', '.join(ROLES)}, "
                                  "\"content\": text}", field=f"messages[{i}]")
        out.append({"role": message["role"], "content": message["content"]})
    return out


def _template_of(tokenizer, given):
    """The template source the view renders with, or None when there is none."""
    if isinstance(given, str) and given.strip():
        return given
    templates = getattr(tokenizer, "chat_template", None)
    if templates is None:
        return None
    return pick_chat_template(templates)[0]


def _apply(tokenizer, messages, template, edited=False, **options):
    """apply_chat_template with `template` (None: the tokenizer's own); an error in the
    user's edited template names it as the reader knows it."""
    try:
        return apply_chat_template(tokenizer, messages, chat_template=template, **options)
    except SubwordLabError as error:
        if not edited:
            raise
        raise SubwordLabError(str(error).replace("the chat_template argument",
                                                 "your edited template", 1)) from None


def chat_costs(tokenizer, messages, add_generation_prompt, template=None, edited=False):
    """[tokens each message adds, ...], whether each rendering extends the one before,
    and the generation prompt's tokens (0 when off). The same numbers a reader gets from
    `apply_chat_template(..., tokenize=True)` on each prefix of the conversation."""
    costs, prefix, before_ids, before_text = [], [], [], ""
    for k in range(1, len(messages) + 1):
        text = _apply(tokenizer, messages[:k], template, edited)
        ids = _apply(tokenizer, messages[:k], template, edited, tokenize=True)
        costs.append(len(ids) - len(before_ids))
        prefix.append(text.startswith(before_text))
        before_ids, before_text = ids, text
    generation = 0
    if add_generation_prompt:
        ids = _apply(tokenizer, messages, template, edited, add_generation_prompt=True,
                     tokenize=True)
        generation = len(ids) - len(before_ids)
    return costs, prefix, generation


def _content_spans(text, messages):
    """Where each message's text shows in the rendering, searched in order (None where
    the template changed or dropped it)."""
    spans, at = [], 0
    for message in messages:
        content = message["content"]
        found = text.find(content, at) if content else -1
        if found < 0:
            spans.append(None)
            continue
        spans.append([found, found + len(content)])
        at = found + len(content)
    return spans


def _special_ids(tokenizer):
    """The ids of the tokenizer's special tokens (the marks a template writes): the page
    marks them in the rendering and among the tokens."""
    decoder = getattr(tokenizer, "get_added_tokens_decoder", None)
    added = decoder() if callable(decoder) else {}
    return {i for i, token in added.items() if getattr(token, "special", False)}


def chat_render(args_json: str, emit=None) -> str:
    """args: {"key", "messages": [{"role", "content"}], "add_generation_prompt": bool,
    "template": optional Jinja text used instead of the tokenizer's own}.

    Returns {"has_template", "template" (the source in use), "custom" (the args' one),
    "format" (the published format written for an OpenAI encoding: "ChatML" or
    "harmony", else null),
    "text", "ids", "tokens", "offsets" (UTF-16), "special", "messages": [{"tokens",
    "content_tokens", "prefix", "span" (UTF-16, or null)}], "generation", "total"}.
    Without a template: {"has_template": false}. A template that fails or goes past the
    sandbox's bounds raises one SubwordLabError naming it and its line."""
    args = json.loads(args_json or "{}")
    tokenizer = REGISTRY.get(args.get("key"))
    messages = _messages(args.get("messages"))
    generation_prompt = bool(args.get("add_generation_prompt"))
    template = _template_of(tokenizer, args.get("template"))
    edited = template is not None and template is args.get("template")
    gguf = (getattr(tokenizer, "rules", None) or {}).get("format") == "gguf"
    source = "GGUF: tokenizer.chat_template" if gguf else "tokenizer_config.json"
    given = template if edited else None  # passed as chat_template= (None: the tokenizer's)
    published = openai_format(args.get("key"), tokenizer) if template is None else None
    if published is not None:  # an OpenAI encoding: its published format, our template
        source, template, tokenizer = published
        given = template
    if template is None:
        return json.dumps({"has_template": False})
    result = {"has_template": True, "template": template, "custom": edited,
              "format": source if published else None, "source": source}
    if not messages:
        result.update(text="", ids=[], tokens=[], offsets=[], special=[], messages=[],
                      generation=0, total=0)
        return json.dumps(result, ensure_ascii=False)
    text = _apply(tokenizer, messages, given, edited, add_generation_prompt=generation_prompt)
    # As tokenize=True encodes: no special tokens added, the template's recognised.
    encoding = tokenizer.encode(text, add_special_tokens=False, special_tokens="recognise")
    special = _special_ids(tokenizer)
    special = [int(i in special) for i in encoding.ids]
    encoded = {"ids": list(encoding.ids), "tokens": list(encoding.tokens),
               "offsets": utf16_offsets(text, encoding.offsets), "special": special}
    costs, prefix, generation = chat_costs(tokenizer, messages, generation_prompt, given, edited)
    rows = []
    for cost, extends, span in zip(costs, prefix, _content_spans(text, messages)):
        inside = 0
        if span is not None:
            span = utf16_offsets(text, [span])[0]
            inside = sum(1 for start, end in encoded["offsets"]
                         if span[0] <= start and end <= span[1] and end > start)
        rows.append({"tokens": cost, "content_tokens": inside, "prefix": extends, "span": span})
    result.update(text=text, messages=rows, generation=generation, total=len(encoded["ids"]),
                  **encoded)
    return json.dumps(result, ensure_ascii=False)

"""Chat templates: a conversation rendered into the one string a chat model reads.

`apply_chat_template(tokenizer, messages, ...)` renders a model's Jinja chat
template as transformers' `PreTrainedTokenizerBase.apply_chat_template` does,
with the same names and meanings: the template sees `messages` (None fields
dropped, reasoning under the names templates read it), `tools`, `documents`,
`add_generation_prompt`, the tokenizer's named special tokens (`bos_token`,
`eos_token`, ...) and any extra keyword argument; `tokenize=True` encodes the text
without adding special tokens (the template wrote them). The rendering, sandboxed
and bounded, is chat_sandbox.py's. A tokenizer of o200k_harmony (gpt-oss), whose files
carry no template, renders the harmony format (chat_harmony.py) by default.
"""
from __future__ import annotations

from .chat_harmony import HARMONY_TEMPLATE
from .chat_sandbox import render_chat_template
from .core.errors import SubwordLabError

__all__ = ["apply_chat_template", "pick_chat_template"]

_REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")


# -- the conversation -----------------------------------------------------------------

def _plain(value, where, depth=0):
    """The messages, tools and options as plain JSON-like data, all the template may see
    (subclasses lose their methods; other objects become "<TypeName>", as in transformers)."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if depth > 64:
        raise SubwordLabError("data nested deeper than 64 levels", field=where)
    for kind in (bool, str, int, float):
        if isinstance(value, kind):
            return kind(value) if kind is bool else getattr(kind, f"__{kind.__name__}__")(value)
    if isinstance(value, dict):
        return {_plain(k, where, depth + 1): _plain(v, where, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_plain(v, where, depth + 1) for v in value]
        return tuple(items) if isinstance(value, tuple) else items
    return f"<{type(value).__name__}>"


def _conversation(messages):
    if not isinstance(messages, (list, tuple)):
        raise SubwordLabError(f"messages must be a list of message dicts, not "
                              f"{type(messages).__name__}", field="messages")
    if not messages:
        raise SubwordLabError("the conversation is empty: give at least one message",
                              field="messages")
    chat = []
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise SubwordLabError(f"each message is a dict with 'role' and 'content', not "
                                  f"{type(message).__name__}", field=f"messages[{i}]")
        # Keys set to None are dropped, as transformers does (APIs send content=None).
        message = _plain({k: v for k, v in message.items() if v is not None}, "messages")
        reasoning = next((message[k] for k in _REASONING_FIELDS if message.get(k) is not None), None)
        if reasoning is not None:  # the names templates read a message's reasoning under
            message = {"thinking": reasoning, **message, "reasoning_content": reasoning}
        chat.append(message)
    return chat


# Appended to the last message, then the text is cut where it shows: what follows the
# message (the template's end-of-turn tokens) goes, so the model continues the message.
_MARK = "CONTINUE_FINAL_MESSAGE_TAG "


def _mark_final(chat, template, field):
    """Put the mark at the end of the last message's `field` (or its last text block)."""
    field = field if isinstance(field, str) else "content"
    last = chat[-1]
    final = last.get(field)
    if final is None:
        raise SubwordLabError(f"continue_final_message: the last message has no {field!r}",
                              field="continue_final_message")
    fields = [field]
    if field in _REASONING_FIELDS:  # copied under several names; mark each copy
        fields = [f for f in _REASONING_FIELDS if last.get(f) == final]
    if not any(f in template for f in fields):
        raise SubwordLabError(f"continue_final_message: the chat template never reads {field!r}",
                              field="continue_final_message")
    if isinstance(final, list):
        blocks = [b for b in final if isinstance(b, dict) and "text" in b]
        if not blocks:
            raise SubwordLabError("continue_final_message: the last message has no text block",
                                  field="continue_final_message")
        final = blocks[-1]["text"]
        blocks[-1]["text"] = final + _MARK
    else:
        for f in fields:
            last[f] = last[f] + _MARK
    return final


def _cut_at_mark(text, final):
    mark = _MARK.strip()
    if final.strip() not in text or mark not in text:
        raise SubwordLabError("continue_final_message: the chat template dropped part of the "
                              "last message, so it cannot be continued",
                              field="continue_final_message")
    at = text.rindex(mark)
    return text[:at] if text[at:at + len(_MARK)] == _MARK else text[:at].rstrip()


def pick_chat_template(templates, chat_template=None, tools=None, where="tokenizer"):
    """The template source to use: the argument, a named one, or the tokenizer's own."""
    if isinstance(templates, dict):
        if chat_template is not None and chat_template in templates:
            return templates[chat_template], f"chat template {chat_template!r}"
        if chat_template is None:
            name = "tool_use" if tools is not None and "tool_use" in templates else "default"
            if name not in templates:
                raise SubwordLabError(
                    f"the tokenizer has several chat templates and none is the default; pass "
                    f"chat_template= one of {sorted(templates)}", field="chat_template")
            return templates[name], f"chat template {name!r}"
    if chat_template is not None:
        return chat_template, "the chat_template argument"
    if templates is None:
        raise SubwordLabError(
            f"{where} has no chat template (none in its tokenizer_config.json, chat_template.jinja "
            "or GGUF metadata); pass chat_template= a Jinja template", field="chat_template")
    return templates, "chat template"


def apply_chat_template(tokenizer, messages, add_generation_prompt=False, tools=None,
                        documents=None, tokenize=False, chat_template=None, return_dict=False,
                        continue_final_message=False, **kwargs):
    """See Tokenizer.apply_chat_template."""
    templates = getattr(tokenizer, "chat_template", None)
    rules = getattr(tokenizer, "rules", None)
    if templates is None and isinstance(rules, dict) and rules.get("encoding") == "o200k_harmony":
        templates = HARMONY_TEMPLATE  # gpt-oss's files carry none: its published format
    source = getattr(tokenizer, "_source", None) or "tokenizer"
    template, name = pick_chat_template(templates, chat_template, tools, where=source)
    if tools is not None:
        if not isinstance(tools, (list, tuple)) or not all(isinstance(t, dict) for t in tools):
            raise SubwordLabError("tools must be a list of JSON schemas (dicts)", field="tools")
    if documents is not None:
        if not isinstance(documents, (list, tuple)) or not all(isinstance(d, dict) for d in documents):
            raise SubwordLabError("documents must be a list of dicts", field="documents")
    variables = dict(getattr(tokenizer, "special_tokens_map", None) or {})
    variables.update(_plain(kwargs, "options"))
    chat = _conversation(messages)
    if continue_final_message:
        if add_generation_prompt:
            raise SubwordLabError("continue_final_message and add_generation_prompt exclude each "
                                  "other: continue the last message, or open a new one",
                                  field="continue_final_message")
        final = _mark_final(chat, template, continue_final_message)
    text = render_chat_template(
        template, name, messages=chat, tools=_plain(tools, "tools"),
        documents=_plain(documents, "documents"), add_generation_prompt=add_generation_prompt,
        **variables)
    if continue_final_message:
        text = _cut_at_mark(text, final)
    if not tokenize:
        return text
    # The template wrote the special tokens: they are tokens even where the file's own
    # library reads them as text by default (tiktoken files), as transformers does.
    ids = tokenizer.encode(text, add_special_tokens=False, special_tokens="recognise").ids
    if return_dict:
        return {"input_ids": ids, "attention_mask": [1] * len(ids)}
    return ids

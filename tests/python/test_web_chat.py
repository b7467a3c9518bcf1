"""The Chat view's facade (web/chat.py): what it answers equals the library's
apply_chat_template, each message's cost adds up to the whole, spans point at the
messages' text in UTF-16, and a bad template or message is one named error."""
from __future__ import annotations

import json

import pytest

import subword_lab
from subword_lab.core.errors import SubwordLabError
from subword_lab.web import api

TEMPLATE = ("{% for m in messages %}<|endoftext|>{{ m.role }}: {{ m.content }}\n{% endfor %}"
            "{% if add_generation_prompt %}<|endoftext|>assistant:{% endif %}")
CHAT = [{"role": "system", "content": "Be brief."},
        {"role": "user", "content": "naïve café 👋 here"},
        {"role": "assistant", "content": ""},
        {"role": "tool", "content": '{"ok": true}'}]


def render(key, messages=CHAT, generation=True, template=TEMPLATE):
    return json.loads(api.chat_render(json.dumps({
        "key": key, "messages": messages, "add_generation_prompt": generation,
        "template": template})))


def test_answer_equals_the_library(gpt2_tiktoken):
    api.open_path("chat-g", str(gpt2_tiktoken))
    tokenizer = subword_lab.load(str(gpt2_tiktoken))
    got = render("chat-g")
    ids = tokenizer.apply_chat_template(CHAT, add_generation_prompt=True, tokenize=True,
                                        chat_template=TEMPLATE)
    assert got["text"] == tokenizer.apply_chat_template(CHAT, add_generation_prompt=True,
                                                        chat_template=TEMPLATE)
    assert got["ids"] == ids and got["total"] == len(ids) and got["custom"] is True
    before = []
    for k, row in enumerate(got["messages"], 1):
        upto = tokenizer.apply_chat_template(CHAT[:k], tokenize=True, chat_template=TEMPLATE)
        assert row["tokens"] == len(upto) - len(before) and row["prefix"] is True
        before = upto
    assert got["generation"] == len(ids) - len(before) > 0
    # Every <|endoftext|> the template wrote is a special token; nothing else is.
    assert sum(got["special"]) == got["text"].count("<|endoftext|>") == 5
    # Spans are UTF-16 offsets of each message's text (the emoji counts twice).
    utf16 = got["text"].encode("utf-16-le")
    for message, row in zip(CHAT, got["messages"]):
        if message["content"]:
            start, end = row["span"]
            assert utf16[2 * start:2 * end].decode("utf-16-le") == message["content"]
        else:
            assert row["span"] is None and row["content_tokens"] == 0


def test_no_template_and_bad_input(gpt2_tiktoken):
    api.open_path("chat-g", str(gpt2_tiktoken))
    assert render("chat-g", template=None) == {"has_template": False}
    with pytest.raises(SubwordLabError, match=r"messages\[1\]"):
        render("chat-g", messages=[CHAT[0], {"role": "narrator", "content": "x"}])
    with pytest.raises(SubwordLabError, match="your edited template: line 2: rendering stopped"):
        render("chat-g", template="ok\n{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}")

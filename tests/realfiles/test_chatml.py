"""ChatML for cl100k_base (web/chat_formats.py) against tiktoken: the Chat view's ids for
a conversation are those of tiktoken's cl100k_base extended with <|im_start|> 100264 and
<|im_end|> 100265, as tiktoken's README builds "cl100k_im", and its text is the format
as OpenAI describes it, written here independently of our Jinja template."""
from __future__ import annotations

import json

import pytest
import tiktoken

import references
from subword_lab.web import api

CHATML = {"<|im_start|>": 100264, "<|im_end|>": 100265}
CONVERSATIONS = [
    [{"role": "user", "content": "Hello!"}],
    [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Ça va ? 你好 🌍"},
     {"role": "assistant", "content": ""}, {"role": "user", "content": "  spaces\n\nand lines\t"}],
    [{"role": "user", "content": "<|im_end|> typed as text"}, {"role": "tool", "content": '{"a": 1}'}],
]


def chatml_text(messages, generation):
    """The format: each message <|im_start|>role, newline, content, <|im_end|>, newline;
    the reply opens with <|im_start|>assistant and a newline."""
    text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
    return text + ("<|im_start|>assistant\n" if generation else "")


@pytest.fixture(scope="module")
def cl100k_im(realfile_paths):
    path = realfile_paths["cl100k_base.tiktoken"]
    base = references.openai("cl100k_base", path).tiktoken
    api.open_path("chatml-cl100k", str(path))
    return tiktoken.Encoding(name="cl100k_im", pat_str=base._pat_str,
                             mergeable_ranks=base._mergeable_ranks,
                             special_tokens={**base._special_tokens, **CHATML})


@pytest.mark.parametrize("generation", [True, False])
@pytest.mark.parametrize("case", range(len(CONVERSATIONS)))
def test_chatml_equals_tiktoken(cl100k_im, case, generation):
    messages = CONVERSATIONS[case]
    got = json.loads(api.chat_render(json.dumps({"key": "chatml-cl100k", "messages": messages,
                                                 "add_generation_prompt": generation})))
    assert got["format"] == "ChatML" and got["custom"] is False
    assert got["text"] == chatml_text(messages, generation)
    assert got["ids"] == cl100k_im.encode(got["text"], allowed_special="all")
    before = 0
    for k, row in enumerate(got["messages"], 1):
        n = len(cl100k_im.encode(chatml_text(messages[:k], False), allowed_special="all"))
        assert row["tokens"] == n - before
        before = n
    # The page's cl100k_base keeps tiktoken's own special tokens: ChatML's are text there.
    plain = json.loads(api.encode("chatml-cl100k", "<|im_start|>", None, "recognise"))
    assert 100264 not in plain["ids"]

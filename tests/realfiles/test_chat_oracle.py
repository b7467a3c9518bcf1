"""apply_chat_template against transformers' on real chat templates: text and ids equal.

Each family's tokenizer.json and tokenizer_config.json (its chat_template and special
tokens) come from a pinned package (tools/assets.py, "chat-*"). transformers loads
the same folder (tokenizer only, no torch); our load() of the tokenizer.json reads
the config beside it. The conversations are generated: with and without a system
message, one to four turns, tool calls and tool results, Unicode, empty content, a
None field, tools given or not, the generation prompt on and off.
"""
from __future__ import annotations

import itertools
import random

import pytest
import transformers  # the test extra: tokenizer only, no torch

import subword_lab

FAMILIES = ["llama3", "llama3_1", "qwen3", "gemma3", "deepseek_v3"]

TEXTS = ["Hello!", "", "Ça va ? 你好，世界 🌍", "  spaces  and\nnew\nlines\t", "x" * 300,
         "<b>not html</b> & \"quotes\" {{ not jinja }}", "Café — naïve — Ελληνικά — العربية"]
WEATHER_TOOL = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}
TOOL_CALL = {"type": "function", "function": {"name": "get_weather",
                                              "arguments": {"city": "Hà Nội"}}}


def _conversations(seed=29):
    """(messages, tools) cases: every shape, texts drawn by a fixed seed."""
    pick = random.Random(seed).choice
    cases = []
    for system, turns, ending in itertools.product((False, True), (1, 2, 4), ("user", "assistant")):
        messages = [{"role": "system", "content": pick(TEXTS)}] if system else []
        for _ in range(turns):
            messages.append({"role": "user", "content": pick(TEXTS)})
            messages.append({"role": "assistant", "content": pick(TEXTS)})
        if ending == "user":
            messages.append({"role": "user", "content": pick(TEXTS)})
        cases.append((messages, None))
    calls = [{"role": "user", "content": "Weather in Hà Nội?"},
             {"role": "assistant", "content": "", "tool_calls": [TOOL_CALL]},
             {"role": "tool", "name": "get_weather", "content": "31 °C, humid"},
             {"role": "assistant", "content": "It is 31 °C.", "reasoning_content": None}]
    cases.append((calls, [WEATHER_TOOL]))
    cases.append(([{"role": "system", "content": "Use tools."}] + calls[:1], [WEATHER_TOOL]))
    cases.append(([{"role": "user", "content": "Hi", "tool_calls": None}], None))
    return cases


def _oracle_outcome(call):
    try:
        return "ok", call()
    except Exception as exc:  # a template may refuse a shape (raise_exception); then both must
        return "error", type(exc).__name__


@pytest.fixture(scope="module", params=FAMILIES)
def family(request):
    import assets  # tests/conftest.py put tools/ on the path
    paths = assets.fetch([f"chat-{request.param}/tokenizer.json",
                          f"chat-{request.param}/tokenizer_config.json"], quiet=True)
    folder = paths[f"chat-{request.param}/tokenizer.json"].parent
    ours = subword_lab.load(folder / "tokenizer.json")
    oracle = transformers.AutoTokenizer.from_pretrained(str(folder))
    return request.param, ours, oracle


def test_rendered_text_and_ids_equal_transformers(family):
    name, ours, oracle = family
    assert ours.chat_template == oracle.chat_template
    compared = refused = 0
    for (messages, tools), prompt in itertools.product(_conversations(), (False, True)):
        kind, expected = _oracle_outcome(lambda: oracle.apply_chat_template(
            messages, tools=tools, add_generation_prompt=prompt, tokenize=False))
        if kind == "error":
            with pytest.raises(subword_lab.SubwordLabError):
                ours.apply_chat_template(messages, tools=tools, add_generation_prompt=prompt)
            refused += 1
            continue
        text = ours.apply_chat_template(messages, tools=tools, add_generation_prompt=prompt)
        assert text == expected, (name, messages, tools, prompt)
        ids = ours.apply_chat_template(messages, tools=tools, add_generation_prompt=prompt,
                                       tokenize=True)
        assert ids == oracle.apply_chat_template(messages, tools=tools, tokenize=True,
                                                 add_generation_prompt=prompt,
                                                 return_dict=False), (name, text)
        compared += 1
    assert compared >= len(_conversations()), (name, compared, refused)

"""apply_chat_template against transformers' on real chat templates: text and ids equal.

Each family's tokenizer.json and tokenizer_config.json (its chat_template and special
tokens) come from a pinned package (tools/assets.py, "chat-*"). transformers loads
the same folder (tokenizer only, no torch); our load() of the tokenizer.json reads
the config beside it. The conversations are generated: with and without a system
message, one to four turns, tool calls and tool results, Unicode, empty content, a
None field, tools given or not, the generation prompt on and off.
"""
from __future__ import annotations

import functools
import itertools
import random
import struct

import pytest

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


@functools.lru_cache(maxsize=None)
def _pair(name):
    """Our tokenizer and transformers' for the chat-NAME folder."""
    import assets  # tests/conftest.py put tools/ on the path
    # Imported here, not at the top: 2.7 s, in every xdist worker that collects this file.
    import transformers  # the test extra: tokenizer only, no torch
    paths = assets.fetch([f"chat-{name}/tokenizer.json", f"chat-{name}/tokenizer_config.json"],
                         quiet=True)
    folder = paths[f"chat-{name}/tokenizer.json"].parent
    return subword_lab.load(folder / "tokenizer.json"), \
        transformers.AutoTokenizer.from_pretrained(str(folder))


def _compare(name, ours, oracle, **options):
    """Every generated case, prompt on and off: the same text and ids, or both refuse."""
    compared = refused = 0
    for (messages, tools), prompt in itertools.product(_conversations(), (False, True)):
        args = dict(tools=tools, add_generation_prompt=prompt)
        args.update(options)  # a template's own tool format replaces the generated tools
        kind, expected = _oracle_outcome(
            lambda: oracle.apply_chat_template(messages, tokenize=False, **args))
        if kind == "error":
            with pytest.raises(subword_lab.SubwordLabError):
                ours.apply_chat_template(messages, **args)
            refused += 1
            continue
        text = ours.apply_chat_template(messages, **args)
        assert text == expected, (name, messages, tools, prompt)
        ids = ours.apply_chat_template(messages, tokenize=True, **args)
        assert ids == oracle.apply_chat_template(messages, tokenize=True, return_dict=False,
                                                 **args), (name, text)
        compared += 1
    for messages, tools in _conversations():  # continue the last message instead
        if messages[-1]["role"] != "assistant" or not messages[-1].get("content", "").strip():
            continue
        args = dict(tools=tools, continue_final_message=True)
        args.update(options)
        kind, expected = _oracle_outcome(
            lambda: oracle.apply_chat_template(messages, tokenize=False, **args))
        if kind == "error":
            with pytest.raises(subword_lab.SubwordLabError):
                ours.apply_chat_template(messages, **args)
            refused += 1
            continue
        assert ours.apply_chat_template(messages, **args) == expected, (name, messages)
        compared += 1
    assert compared >= len(_conversations()), (name, compared, refused)
    return compared, refused


@pytest.mark.parametrize("name", FAMILIES)
def test_rendered_text_and_ids_equal_transformers(name):
    ours, oracle = _pair(name)
    assert ours.chat_template == oracle.chat_template
    mapped = oracle.special_tokens_map  # plus defaults of transformers' class (Gemma's mask)
    assert ours.special_tokens_map == {k: mapped[k] for k in ours.special_tokens_map}
    _compare(name, ours, oracle)


# GGUF files keep only a vocabulary and the template: the template (and the bos/eos
# tokens it reads, given to both sides) is rendered on a stand-in tokenizer of ours,
# the same family's where we have one (Qwen2 shares Qwen3's vocabulary).
GGUF_TEMPLATES = [("phi-3", "tokenizer.chat_template", "llama3"),
                  ("qwen2", "tokenizer.chat_template", "qwen3"),
                  ("command-r", "tokenizer.chat_template", "llama3"),
                  ("command-r", "tokenizer.chat_template.tool_use", "llama3"),
                  ("command-r", "tokenizer.chat_template.rag", "llama3"),
                  ("gemma-4", "tokenizer.chat_template", "gemma3")]
# Command-R's tool template reads Cohere's own tool schema, and needs one
COHERE_TOOLS = [{"name": "get_weather", "description": "The weather in a city",
                 "parameter_definitions": {"city": {"description": "the city", "type": "str",
                                                    "required": True}}}]
DOCUMENTS = [{"title": "Hà Nội", "text": "Hot and humid in summer."},
             {"title": "", "text": "Empty title, 你好."}]


def _gguf_strings(path, keep):
    """String values of a GGUF header, and the string arrays named in `keep` (a few lines
    of our own: the tests read a template and two token texts, nothing else)."""
    data = path.read_bytes()
    assert data[:4] == b"GGUF", path
    pos, out = 24, {}
    scalar = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q",
              11: "q", 12: "d"}

    def read(fmt):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values[0] if len(values) == 1 else values

    def text():
        nonlocal pos
        size = read("Q")
        pos += size
        return data[pos - size:pos].decode("utf-8")

    for _ in range(struct.unpack_from("<Q", data, 16)[0]):
        key, kind = text(), read("I")
        if kind == 8:
            out[key] = text()
        elif kind == 9:
            item, count = read("IQ")
            items = [text() if item == 8 else read(scalar[item]) for _ in range(count)]
            if key in keep:
                out[key] = items
        else:
            out[key] = read(scalar[kind])
    return out


@pytest.mark.parametrize("gguf,key,stand_in", GGUF_TEMPLATES,
                         ids=[f"{g}:{k.rsplit('.', 1)[-1]}" for g, k, _ in GGUF_TEMPLATES])
def test_gguf_chat_templates_render_as_transformers(gguf, key, stand_in):
    import assets
    path = assets.fetch([f"ggml-vocab-{gguf}.gguf"], quiet=True)[f"ggml-vocab-{gguf}.gguf"]
    meta = _gguf_strings(path, {"tokenizer.ggml.tokens"})
    tokens = meta["tokenizer.ggml.tokens"]
    ours, oracle = _pair(stand_in)
    extra = {"tools": COHERE_TOOLS} if key.endswith("tool_use") else {}
    _compare(f"{gguf} {key}", ours, oracle, chat_template=meta[key], documents=DOCUMENTS, **extra,
             bos_token=tokens[meta["tokenizer.ggml.bos_token_id"]],
             eos_token=tokens[meta["tokenizer.ggml.eos_token_id"]])

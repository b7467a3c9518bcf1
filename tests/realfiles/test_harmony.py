"""The harmony format (chat_harmony.py) against OpenAI's own renderer, `openai-harmony`:
for generated conversations our text and our ids (o200k_harmony through our tokenizer)
equal what its `render_conversation_for_completion` (generation prompt on) and
`render_conversation` (off) give, in the library and in the page's Chat view."""
from __future__ import annotations

import json
import os
import random
import shutil

import pytest

import subword_lab
from subword_lab.chat_harmony import HARMONY_TEMPLATE
from subword_lab.web import api

harmony = pytest.importorskip("openai_harmony")  # a pinned test dependency (pyproject)

TEXTS = ["Hello!", "", "Ça va ? 你好 🌍", "  spaces\n\nand lines\t", "2+2=4.", "x" * 40,
         '{"city": "Hà Nội"}', "Line one\nLine two", "emoji 👩‍💻 and ß"]
TOOLS = ["functions.get_weather", "functions.lookup", "browser.search"]


# Function tools as transformers takes them (a bare function, or wrapped in "function").
TOOL_SETS = [
    [{"type": "function", "function": {
        "name": "get_weather", "description": "Gets the weather in a city.",
        "parameters": {"type": "object", "properties": {
            "location": {"type": "string", "description": "The city, e.g. Hà Nội"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
            "days": {"type": "integer"}}, "required": ["location"]}}},
     {"name": "now", "description": "The time now."}],
    [{"name": "search", "description": "",
      "parameters": {"type": "object", "properties": {
          "terms": {"type": "array", "items": {"type": "string"}, "description": "Words"},
          "exact": {"type": "boolean", "default": True},
          "limit": {"type": "number", "enum": [5, 10], "default": 5}},
          "required": ["terms", "limit"]}},
     {"name": "noop", "parameters": {"type": "object", "properties": {}}}],
]


def conversation(seed):
    """A conversation of 1-7 messages: developer instructions (system or developer role),
    user turns, assistant answers on each channel, with reasoning, tool calls and the
    tools' replies."""
    rng = random.Random(seed)
    messages = []
    if rng.random() < 0.5:
        messages.append({"role": rng.choice(["system", "developer"]), "content": rng.choice(TEXTS)})
    for _ in range(rng.randint(1, 6)):
        role = rng.choice(["user", "user", "assistant", "assistant", "tool", "system"])
        message = {"role": role, "content": rng.choice(TEXTS)}
        if role == "assistant":
            kind = rng.choice(["final", "analysis", "commentary", "call", "think", "plain"])
            if kind == "call":
                message.update(channel="commentary", recipient=rng.choice(TOOLS),
                               content_type=rng.choice(["<|constrain|>json", "json", None]))
            elif kind == "think":
                message["thinking"] = rng.choice(TEXTS)
            elif kind != "plain":
                message["channel"] = kind
        elif role == "tool" and rng.random() < 0.8:
            message["name"] = rng.choice(TOOLS)
        messages.append(message)
    options = rng.choice([{}, {"reasoning_effort": "high"}, {"current_date": "2025-06-28"},
                          {"model_identity": "You are a helpful tutor.",
                           "knowledge_cutoff": "2030-01", "reasoning_effort": "low"}])
    if rng.random() < 0.4:
        options = {**options, "tools": rng.choice(TOOL_SETS)}
    return messages, options


def oracle_tools(tools):
    out = []
    for tool in tools:
        f = tool.get("function", tool)
        out.append(harmony.ToolDescription.new(f["name"], f.get("description", ""),
                                               parameters=f.get("parameters")))
    return out


def oracle_message(m, tools=None):
    """Our message as openai-harmony's Message(s); `tools` go with a developer message."""
    h = harmony
    if m["role"] in ("system", "developer"):
        content = h.DeveloperContent.new().with_instructions(m["content"])
        if tools:
            content = content.with_function_tools(oracle_tools(tools))
        return [h.Message.from_role_and_content(h.Role.DEVELOPER, content)]
    if m["role"] == "user":
        return [h.Message.from_role_and_content(h.Role.USER, m["content"])]
    if m["role"] == "tool":
        author = h.Author.new(h.Role.TOOL, m.get("name") or "tool")
        return [h.Message.from_author_and_content(author, m["content"])
                .with_recipient("assistant").with_channel("commentary")]
    out = []
    if m.get("thinking") is not None:
        out.append(h.Message.from_role_and_content(h.Role.ASSISTANT, m["thinking"])
                   .with_channel("analysis"))
    reply = h.Message.from_role_and_content(h.Role.ASSISTANT, m["content"]).with_channel(
        m.get("channel") or "final")
    if m.get("recipient"):
        reply = reply.with_recipient(m["recipient"])
    if m.get("content_type"):
        reply = reply.with_content_type(m["content_type"])
    return out + [reply]


def oracle_ids(encoding, messages, options, generation):
    h = harmony
    system = h.SystemContent.new()
    if "model_identity" in options:
        system = system.with_model_identity(options["model_identity"])
    if "knowledge_cutoff" in options:
        system = system.with_knowledge_cutoff(options["knowledge_cutoff"])
    if "current_date" in options:
        system = system.with_conversation_start_date(options["current_date"])
    if "reasoning_effort" in options:
        system = system.with_reasoning_effort(h.ReasoningEffort(options["reasoning_effort"].title()))
    parts = [h.Message.from_role_and_content(h.Role.SYSTEM, system)]
    tools = options.get("tools")
    instructed = [i for i, m in enumerate(messages) if m["role"] in ("system", "developer")]
    if tools and not instructed:
        parts.append(h.Message.from_role_and_content(
            h.Role.DEVELOPER, h.DeveloperContent.new().with_function_tools(oracle_tools(tools))))
    for i, m in enumerate(messages):
        parts += oracle_message(m, tools if instructed and i == instructed[0] else None)
    convo = h.Conversation.from_messages(parts)
    if generation:
        return encoding.render_conversation_for_completion(convo, h.Role.ASSISTANT)
    return encoding.render_conversation(convo)


@pytest.fixture(scope="module")
def harmony_files(realfile_paths, tmp_path_factory):
    """Our tokenizer of o200k_harmony (the cached o200k_base file under the name that
    means it) and openai-harmony's encoding, reading the same cached file."""
    path = realfile_paths["o200k_base.tiktoken"]
    saved = os.environ.get("TIKTOKEN_ENCODINGS_BASE")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(path.parent)  # read there, no download
    try:
        encoding = harmony.load_harmony_encoding(harmony.HarmonyEncodingName.HARMONY_GPT_OSS)
    finally:
        if saved is None:
            del os.environ["TIKTOKEN_ENCODINGS_BASE"]
        else:
            os.environ["TIKTOKEN_ENCODINGS_BASE"] = saved
    named = tmp_path_factory.mktemp("harmony") / "o200k_harmony.tiktoken"
    shutil.copyfile(path, named)
    tok = subword_lab.load(named)
    assert tok.rules["encoding"] == "o200k_harmony"
    api.open_path("harmony-o200k", str(named))
    return tok, encoding


@pytest.mark.parametrize("generation", [True, False])
@pytest.mark.parametrize("seed", range(40))
def test_library_equals_openai_harmony(harmony_files, seed, generation):
    tok, encoding = harmony_files
    messages, options = conversation(seed)
    expected = oracle_ids(encoding, messages, options, generation)
    text = tok.apply_chat_template(messages, chat_template=HARMONY_TEMPLATE,
                                   add_generation_prompt=generation, **options)
    assert text == encoding.decode_utf8(expected)
    # o200k_harmony's files carry no template: harmony is the tokenizer's default.
    assert tok.apply_chat_template(messages, add_generation_prompt=generation, **options) == text
    assert tok.apply_chat_template(messages, chat_template=HARMONY_TEMPLATE, tokenize=True,
                                   add_generation_prompt=generation, **options) == expected


@pytest.mark.parametrize("seed", range(12))
def test_chat_view_equals_openai_harmony(harmony_files, seed):
    """The Chat view renders o200k_harmony in harmony: its ids are openai-harmony's, and
    each message costs what it adds to openai-harmony's rendering."""
    _, encoding = harmony_files
    rng = random.Random(seed)
    messages = [{"role": rng.choice(["system", "user", "assistant", "tool"]),
                 "content": rng.choice(TEXTS)} for _ in range(rng.randint(1, 5))]
    generation = seed % 2 == 0
    got = json.loads(api.chat_render(json.dumps({"key": "harmony-o200k", "messages": messages,
                                                 "add_generation_prompt": generation})))
    assert got["format"] == "harmony" and got["custom"] is False
    assert got["ids"] == oracle_ids(encoding, messages, {}, generation)
    before = 0  # the first message's cost holds the system message's tokens
    for k, row in enumerate(got["messages"], 1):
        n = len(oracle_ids(encoding, messages[:k], {}, False))
        assert row["tokens"] == n - before
        before = n

"""The harmony chat format of gpt-oss (encoding o200k_harmony), as a chat template.

OpenAI publishes harmony as a specification (the `openai-harmony` package and its
guide), not as a Jinja text; the template below is ours, written from it and tied to
that package's renderer by tests/realfiles/test_harmony.py. What it writes:

- every message is <|start|>, its header, <|message|>, its text and an end mark:
  <|end|>, or <|call|> for an assistant message addressed to a tool;
- first the system message, which the conversation does not give: the model's
  identity, "Knowledge cutoff: ...", "Current date: ..." when known, "Reasoning: ..."
  (low, medium, high) and the line naming the valid channels;
- a "system" or "developer" message of the conversation is a developer message
  whose text is "# Instructions", a blank line, and the message's content;
- an assistant message has a channel (analysis: reasoning; commentary: tool calls;
  final: the answer; "final" when not given), written "<|channel|>final" in its
  header; one addressed to a tool has " to=" and the recipient (functions.NAME)
  after "assistant", and the content type (as "<|constrain|>json") after its channel;
  its `thinking` (reasoning_content) is an analysis message before it;
- a tool's reply is written from its `name` (functions.NAME, else "tool") to the
  assistant on the commentary channel;
- when the conversation's last assistant message is on the final channel, the
  analysis messages before its first final message are left out (a finished turn's
  reasoning is not shown to the model again);
- the generation prompt is <|start|>assistant.

Options (keyword arguments of apply_chat_template): model_identity, knowledge_cutoff
("2024-06"), current_date (none), reasoning_effort ("medium"). `tools` (JSON schemas,
as transformers takes them) are the developer message's "# Tools" section: a TypeScript
namespace `functions` with one type per function, its description and each parameter's
as "// " comments, "?" after an optional parameter, " // default: ..." after one with
a default; parameters of type string (an enum: its values joined by " | "), number,
integer, boolean or an array of those; any other raises. With tools, the system
message adds that calls go to the commentary channel; the first system or developer
message carries them (else a developer message of its own, right after the system one).
Use it as `tokenizer.apply_chat_template(messages, chat_template=HARMONY_TEMPLATE)`
with a tokenizer of o200k_harmony (its file named o200k_harmony.tiktoken).
"""
from __future__ import annotations

__all__ = ["HARMONY_TEMPLATE", "HARMONY_IDENTITY"]

HARMONY_IDENTITY = "You are ChatGPT, a large language model trained by OpenAI."

# Function tools as the developer message's "# Tools" section: a TypeScript namespace,
# one type per function; parameters of the types below only (others raise).
_TOOLS = (
    "{%- macro harmony_type(p) -%}"
    "{%- if p.type == 'string' and p.enum is defined %}{{ p.enum | map('tojson') | join(' | ') }}"
    "{%- elif p.type == 'string' %}string"
    "{%- elif p.type in ('number', 'integer') %}number"
    "{%- elif p.type == 'boolean' %}boolean"
    "{%- elif p.type == 'array' and p['items'] is defined %}{{ harmony_type(p['items']) }}[]"
    "{%- else %}{{ raise_exception('harmony: a tool parameter of type ' ~ p.type ~ "
    "' is not written by this template') }}{% endif -%}"
    "{%- endmacro -%}"
    "{%- macro harmony_tools(tools) -%}"
    "{{ '# Tools\\n\\n## functions\\n\\nnamespace functions {\\n\\n' }}"
    "{%- for t in tools -%}"
    "{%- set f = t.function if t.function is defined else t -%}"
    "{%- if f.description %}{{ '// ' ~ f.description ~ '\\n' }}{% endif -%}"
    "{{ 'type ' ~ f.name ~ ' = ' }}"
    "{%- if f.parameters is defined and f.parameters -%}"
    "{{ '(_: {\\n' }}"
    "{%- for name, p in (f.parameters.properties or {}).items() -%}"
    "{%- if p.description %}{{ '// ' ~ p.description ~ '\\n' }}{% endif -%}"
    "{{ name ~ ('' if name in (f.parameters.required or []) else '?') ~ ': ' ~ harmony_type(p) ~ ',' }}"
    "{%- if p.default is defined %}{{ ' // default: ' ~ (p.default if p.default is string "
    "else p.default | tojson) }}{% endif -%}"
    "{{ '\\n' }}"
    "{%- endfor -%}"
    "{{ '}) => any;\\n\\n' }}"
    "{%- else %}{{ '() => any;\\n\\n' }}{% endif -%}"
    "{%- endfor -%}"
    "{{ '} // namespace functions' }}"
    "{%- endmacro -%}"
)

HARMONY_TEMPLATE = _TOOLS + (
    # Where the conversation's finals are: analysis before the first final is dropped
    # when the last assistant message is final.
    "{%- set seen = namespace(last_final=false, first=-1) -%}"
    "{%- for m in messages if m.role == 'assistant' -%}"
    "{%- set seen.last_final = (m.channel | default('final', true)) == 'final' -%}"
    "{%- if seen.last_final and seen.first < 0 %}{% set seen.first = loop.index0 %}{% endif -%}"
    "{%- endfor -%}"
    "{%- set drop = namespace(before=-1, k=0) -%}"
    "{%- if seen.last_final %}{% set drop.before = seen.first %}{% endif -%}"
    "<|start|>system<|message|>{{ model_identity | default('" + HARMONY_IDENTITY + "', true) }}\n"
    "Knowledge cutoff: {{ knowledge_cutoff | default('2024-06', true) }}"
    "{{ '\\nCurrent date: ' ~ current_date if current_date }}\n\n"
    "Reasoning: {{ reasoning_effort | default('medium', true) }}\n\n"
    "# Valid channels: analysis, commentary, final. Channel must be included for every "
    "message."
    "{{ '\\nCalls to these tools must go to the commentary channel: \\'functions\\'.' if tools }}"
    "<|end|>"
    "{%- set dev = namespace(tools=not tools) -%}"
    "{%- if tools and not (messages | selectattr('role', 'in', ['system', 'developer']) | list) -%}"
    "<|start|>developer<|message|>{{ harmony_tools(tools) }}<|end|>"
    "{%- endif -%}"
    "{%- for m in messages -%}"
    "{%- if m.role in ('system', 'developer') -%}"
    "<|start|>developer<|message|># Instructions\n\n{{ m.content }}"
    "{%- if not dev.tools %}{{ '\\n\\n' ~ harmony_tools(tools) }}{% set dev.tools = true %}{% endif -%}"
    "<|end|>"
    "{%- elif m.role == 'user' -%}"
    "<|start|>user<|message|>{{ m.content }}<|end|>"
    "{%- elif m.role == 'tool' -%}"
    "<|start|>{{ m.name | default('tool', true) }} to=assistant<|channel|>commentary"
    "<|message|>{{ m.content }}<|end|>"
    "{%- elif m.role == 'assistant' -%}"
    "{%- set channel = m.channel | default('final', true) -%}"
    "{%- if m.thinking is defined and not (drop.k <= drop.before) -%}"
    "<|start|>assistant<|channel|>analysis<|message|>{{ m.thinking }}<|end|>"
    "{%- endif -%}"
    "{%- if not (channel == 'analysis' and drop.k < drop.before) -%}"
    "<|start|>assistant{% if m.recipient %} to={{ m.recipient }}{% endif %}"
    "<|channel|>{{ channel }}{% if m.content_type %} {{ m.content_type }}{% endif %}"
    "<|message|>{{ m.content }}{{ '<|call|>' if m.recipient else '<|end|>' }}"
    "{%- endif -%}"
    "{%- set drop.k = drop.k + 1 -%}"
    "{%- else -%}"
    "{{ raise_exception('harmony: a message role is system, developer, user, assistant "
    "or tool, not ' ~ m.role) }}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt %}<|start|>assistant{% endif -%}"
)

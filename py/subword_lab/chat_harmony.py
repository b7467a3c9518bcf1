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
("2024-06"), current_date (none), reasoning_effort ("medium"). Function tool
definitions (the developer message's "# Tools" TypeScript namespace) are not written.
Use it as `tokenizer.apply_chat_template(messages, chat_template=HARMONY_TEMPLATE)`
with a tokenizer of o200k_harmony (its file named o200k_harmony.tiktoken).
"""
from __future__ import annotations

__all__ = ["HARMONY_TEMPLATE", "HARMONY_IDENTITY"]

HARMONY_IDENTITY = "You are ChatGPT, a large language model trained by OpenAI."

HARMONY_TEMPLATE = (
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
    "message.<|end|>"
    "{%- for m in messages -%}"
    "{%- if m.role in ('system', 'developer') -%}"
    "<|start|>developer<|message|># Instructions\n\n{{ m.content }}<|end|>"
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

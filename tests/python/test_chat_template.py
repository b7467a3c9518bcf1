"""Chat templates: reading them beside a tokenizer, rendering them, and stopping hostile ones.

Exactness against transformers on real templates is tests/realfiles/test_chat_oracle.py;
here a small word-level tokenizer of our own carries hand-written templates.
"""
from __future__ import annotations

import json
import sys

import pytest

import subword_lab
from subword_lab import chat_sandbox as chat
from subword_lab.core.errors import SubwordLabError

WORDS = ["[UNK]", "<s>", "</s>", "hello", "there", "user", "assistant", ":"]


def _folder(tmp_path, config=None, jinja=None):
    data = {"version": "1.0", "truncation": None, "padding": None,
            "added_tokens": [{"id": i, "content": w, "single_word": False, "lstrip": False,
                              "rstrip": False, "normalized": False, "special": True}
                             for i, w in ((1, "<s>"), (2, "</s>"))],
            "normalizer": None, "pre_tokenizer": {"type": "Whitespace"},
            "post_processor": None, "decoder": None,
            "model": {"type": "WordLevel", "vocab": {w: i for i, w in enumerate(WORDS)},
                      "unk_token": "[UNK]"}}
    (tmp_path / "tokenizer.json").write_text(json.dumps(data), encoding="utf-8")
    if config is not None:
        (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    if jinja is not None:
        (tmp_path / "chat_template.jinja").write_text(jinja, encoding="utf-8")
    return tmp_path / "tokenizer.json"


SIMPLE = ("{{ bos_token }}{% for m in messages %}{{ m['role'] }} : {{ m['content'] }} "
          "{{ eos_token }} {% endfor %}{% if add_generation_prompt %}assistant :{% endif %}")
HELLO = [{"role": "user", "content": "hello there"}]


def test_template_and_special_tokens_come_from_tokenizer_config(tmp_path):
    tok = subword_lab.load(_folder(tmp_path, {"chat_template": SIMPLE,
                                              "bos_token": {"content": "<s>"},
                                              "eos_token": "</s>"}))
    assert tok.special_tokens_map == {"bos_token": "<s>", "eos_token": "</s>"}
    text = tok.apply_chat_template(HELLO, add_generation_prompt=True)
    assert text == "<s>user : hello there </s> assistant :"
    assert tok.apply_chat_template(HELLO, tokenize=True) == [1, 5, 7, 3, 4, 2]
    assert tok.apply_chat_template(HELLO, tokenize=True, return_dict=True) == {
        "input_ids": [1, 5, 7, 3, 4, 2], "attention_mask": [1] * 6}


def test_named_templates_jinja_file_and_arguments(tmp_path):
    named = [{"name": "default", "template": "D{{ messages|length }}"},
             {"name": "tool_use", "template": "T{{ tools|length if tools else 0 }}"}]
    tok = subword_lab.load(_folder(tmp_path, {"chat_template": named}))
    assert tok.apply_chat_template(HELLO) == "D1"
    assert tok.apply_chat_template(HELLO, tools=[{"name": "f"}, {"name": "g"}]) == "T2"
    assert tok.apply_chat_template(HELLO, chat_template="tool_use") == "T0"
    assert tok.apply_chat_template(HELLO, chat_template="{{ greeting }}!", greeting="hi") == "hi!"
    jinja = subword_lab.load(_folder(tmp_path, {"chat_template": "config"}, jinja="file"))
    assert jinja.apply_chat_template(HELLO) == "file"   # chat_template.jinja wins


def test_transformers_helpers_and_plain_data(tmp_path):
    template = ("{{ messages[0]|tojson }}|{{ {'a': '<&>'}|tojson(indent=1) }}|"
                "{% for m in messages %}{% if loop.first %}{% continue %}{% endif %}{{ m.content }}"
                "{% endfor %}|{{ strftime_now('%Y') | length }}|{{ dict(x=1)['x'] }}")
    tok = subword_lab.load(_folder(tmp_path, {"chat_template": template}))
    messages = [{"role": "user", "content": "é", "tool_calls": None},
                {"role": "assistant", "content": "b"}]
    assert tok.apply_chat_template(messages) == (
        '{"role": "user", "content": "é"}|{\n "a": "<&>"\n}|b|4|1')


def test_special_tokens_the_template_writes_are_tokens_in_a_tiktoken_file(tmp_path,
                                                                          gpt2_tiktoken):
    import tiktoken
    folder = tmp_path / "gpt2"
    folder.mkdir()
    (folder / "gpt2.tiktoken").write_bytes(gpt2_tiktoken.read_bytes())
    (folder / "tokenizer_config.json").write_text(json.dumps(
        {"chat_template": "{% for m in messages %}{{ m.content }}{{ eos_token }}{% endfor %}",
         "eos_token": "<|endoftext|>"}), encoding="utf-8")
    tok = subword_lab.load(folder / "gpt2.tiktoken")
    ids = tok.apply_chat_template([{"role": "user", "content": "Hi <|endoftext|> there"}],
                                  tokenize=True)
    text = "Hi <|endoftext|> there<|endoftext|>"
    from tiktoken.load import load_tiktoken_bpe
    oracle = tiktoken.Encoding(  # tiktoken's r50k_base, from the file (no download)
        name="r50k", pat_str=r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+"""
        r"""|\s+(?!\S)|\s+""", mergeable_ranks=load_tiktoken_bpe(str(gpt2_tiktoken)),
        special_tokens={"<|endoftext|>": 50256})
    assert ids == oracle.encode(text, allowed_special="all")
    assert ids[-1] == 50256


def test_missing_template_and_bad_messages_are_one_error(tmp_path):
    tok = subword_lab.load(_folder(tmp_path))
    with pytest.raises(SubwordLabError, match="has no chat template"):
        tok.apply_chat_template(HELLO)
    with pytest.raises(SubwordLabError, match="conversation is empty"):
        tok.apply_chat_template([], chat_template="x")
    deep = "x"
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(SubwordLabError, match="nested deeper than 64"):
        tok.apply_chat_template([{"role": "user", "content": deep}], chat_template="x")
    with pytest.raises(SubwordLabError, match=r"messages\[1\]"):
        tok.apply_chat_template([HELLO[0], "hi"], chat_template="x")
    bad = tmp_path / "bad"
    bad.mkdir()
    with pytest.raises(SubwordLabError, match="tokenizer_config.json.*chat_template"):
        subword_lab.load(_folder(bad, {"chat_template": 3}))


def test_without_jinja2_one_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    chat._environment.cache_clear()
    try:
        with pytest.raises(SubwordLabError, match=r'pip install "subword-lab\[chat\]"'):
            chat.render_chat_template("hi")
    finally:
        monkeypatch.undo()
        chat._environment.cache_clear()
        chat._compile.cache_clear()


# Each hostile template does its harm on line 3, so the error must name line 3.
HOSTILE = {
    "recursion": ("{% macro f(n) %}\n{{ n }}\n{{ f(n + 1) }}\n{% endmacro %}{{ f(0) }}",
                  "nest deeper than"),
    "billion range": ("a\nb\n{% for i in range(10**9) %}x{% endfor %}", "range"),
    "nested loops": ("a\nb\n{% for i in range(3000) %}{% for j in range(3000) %}"
                     "{% endfor %}{% endfor %}", "more than 2,000,000 steps"),
    "repeated string": ("a\nb\n{{ 'a' * 10**8 }}", "repeated string"),
    "doubling concat": ("{% set ns = namespace(s='ab') %}\n{% for i in range(25) %}\n"
                        "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}", "joined string"),
    "doubling plus": ("{% set ns = namespace(s=['a']) %}\n{% for i in range(25) %}\n"
                      "{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s|length }}", "joined"),
    "wide center": ("a\nb\n{{ 'x'|center(10**8) }}", "center filter"),
    "wide ljust": ("a\nb\n{{ 'x'.ljust(10**8) }}", "str.ljust"),
    "wide format": ("a\nb\n{{ '{:>100000000}'.format(1) }}", "formatted string"),
    "wide percent": ("a\nb\n{{ '%100000000d' % 1 }}", "%-formatted"),
    "star width": ("a\nb\n{{ '%*d' % (10**8, 1) }}", "%-formatted"),
    "nested width": ("a\nb\n{{ '{:>{}}'.format(1, 10**8) }}", "formatted string"),
    "format filter": ("a\nb\n{{ '%*s'|format(10**8, 'x') }}", "format filter"),
    "lipsum": ("a\nb\n{{ lipsum(10**4) }}", "lipsum"),
    "long output": ("a\nb\n{% for i in range(99999) %}{{ 'a' * 99999 }}{% endfor %}",
                    "rendered text is longer"),
    "raise": ("a\nb\n{{ raise_exception('System role not supported') }}",
              "raised an error: System role not supported"),
    "syntax": ("a\nb\n{% for %}", "does not parse"),
    "underscore": ("a\nb\n{{ ''.__class__.__mro__ }}", "sandbox refused"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_template_stops_with_one_error_naming_the_line(name):
    source, words = HOSTILE[name]
    if words is None:  # the sandbox makes these undefined: rendered, harmlessly, as nothing
        assert chat.render_chat_template(source, "hostile", messages=[]) == "a\nb\n"
        return
    with pytest.raises(SubwordLabError) as caught:
        chat.render_chat_template(source, "hostile", messages=[])
    text = str(caught.value)
    assert text.startswith("hostile: line 3: "), text
    assert words in text, text


def test_page_keeps_working_after_a_hostile_template(tmp_path):
    tok = subword_lab.load(_folder(tmp_path, {"chat_template": SIMPLE, "bos_token": "<s>",
                                              "eos_token": "</s>"}))
    with pytest.raises(SubwordLabError):
        tok.apply_chat_template(HELLO, chat_template=HOSTILE["recursion"][0])
    assert sys.gettrace() is None or sys.gettrace() is not chat._Budget.global_trace
    assert tok.apply_chat_template(HELLO, tokenize=True) == [1, 5, 7, 3, 4, 2]

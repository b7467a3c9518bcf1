"""The Chat view: a conversation edited in the page gives the ids and per-message costs
that subword_lab's `apply_chat_template` gives in CPython (tests/realfiles/test_chat_oracle.py
ties that to transformers); a hostile template shows one error and the page goes on."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import subword_lab
from shots import shot_path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import assets  # tools/assets.py: the pinned files

SHOW = "async () => { const v = await window.subwordLab.showView('chat'); await v.settled(); }"
SETTLED = "async () => { await (await window.subwordLab.showView('chat')).settled(); }"


def cached(name):
    path = assets.path_of(name)
    if not path.exists():
        assets.fetch([name])
    return path


def expected(tokenizer, messages, generation):
    """ids of the whole conversation, and what each message adds, by the library."""
    costs, before = [], 0
    for k in range(1, len(messages) + 1):
        n = len(tokenizer.apply_chat_template(messages[:k], tokenize=True))
        costs.append(n - before)
        before = n
    ids = tokenizer.apply_chat_template(messages, add_generation_prompt=generation, tokenize=True)
    return ids, costs, len(ids) - before


def shown(app):
    return app.page.evaluate("""() => {
      const root = document.getElementById('view-chat');
      const q = (id) => [...root.querySelectorAll(`[data-testid=${id}]`)];
      return {
        messages: q('chat-message').map((m) => ({role: m.querySelector('[data-testid=chat-role]').value,
          content: m.querySelector('[data-testid=chat-content]').value})),
        costs: q('chat-message-tokens').map((n) => Number(n.dataset.count)),
        ids: q('chat-token').map((n) => Number(n.dataset.tokenId)),
        special: q('chat-token').filter((n) => n.classList.contains('special')).length,
        marked: q('chat-special').map((n) => n.textContent),
        total: Number(root.querySelector('[data-testid=chat-total]').dataset.count),
        generation: Number(root.querySelector('[data-testid=chat-total]').dataset.generation),
        error: root.querySelector('[data-testid=chat-error]').hidden ? null
          : root.querySelector('[data-testid=chat-error]').textContent,
      };
    }""")


def settle(app):
    app.page.evaluate(SETTLED)


def edit_conversation(app):
    """Change a message, add two (one a tool's), remove the system message, all by hand."""
    page = app.page
    contents = page.get_by_test_id("chat-content")
    contents.nth(1).fill("Wie viele Tokens hat «naïve café» 👋?")
    page.get_by_test_id("chat-add").click()
    contents.nth(3).fill("Count them for me.")
    page.get_by_test_id("chat-add").click()
    page.get_by_test_id("chat-role").nth(4).select_option("tool")
    contents.nth(4).fill('{"tokens": 7}')
    page.get_by_test_id("chat-remove").nth(0).click()
    settle(app)


def test_edited_conversation_matches_cpython(app):
    app.open("?view=chat&tokenizer=phi-3-gguf")
    app.page.evaluate(SHOW)
    edit_conversation(app)
    tokenizer = subword_lab.load(str(cached("ggml-vocab-phi-3.gguf")))
    state = shown(app)
    assert state["error"] is None
    assert [m["role"] for m in state["messages"]] == ["user", "assistant", "user", "tool"]
    ids, costs, generation = expected(tokenizer, state["messages"], True)
    assert state["ids"] == ids
    assert state["costs"] == costs
    assert state["total"] == len(ids) and state["generation"] == generation
    assert sum(costs) + generation == len(ids)
    assert state["special"] > 0 and "<|assistant|>" in state["marked"]
    # The generation prompt off: the same conversation, without the assistant's opening.
    app.page.get_by_test_id("chat-generation").uncheck()
    settle(app)
    state = shown(app)
    assert state["ids"] == expected(tokenizer, state["messages"], False)[0]
    assert state["generation"] == 0


def test_files_opened_together_give_their_template(app):
    """A tokenizer.json picked with its tokenizer_config.json: the config's template."""
    json_path, config = cached("chat-qwen3/tokenizer.json"), cached("chat-qwen3/tokenizer_config.json")
    app.open()  # no service worker filling its offline cache (it keeps every wheel): the
    # shared context blocks them (conftest.py), so every wheel the page asks for is seen
    app.page.get_by_test_id("file-input").set_input_files([str(json_path), str(config)])
    app.page.wait_for_function("() => document.querySelector('[data-testid=tokenizer-select]').value.startsWith('file')")
    app.settled()
    jinja = lambda: [u for u in app.watch.requests if "/wheels/" in u and "subword_lab" not in u]  # noqa: E731  (asked twice)
    assert jinja() == []  # the tokenize view never loads Jinja2
    app.page.evaluate(SHOW)
    assert sorted(u.rsplit("/", 1)[1] for u in jinja()) == [
        "jinja2-3.1.6-py3-none-any.whl", "markupsafe-3.0.3-py3-none-any.whl"]
    state = shown(app)
    tokenizer = subword_lab.load(str(json_path))  # reads the config beside it
    ids, costs, generation = expected(tokenizer, state["messages"], True)
    assert state["ids"] == ids and state["costs"] == costs
    assert state["generation"] == generation > 0  # Qwen3 opens the assistant's turn
    assert "<|im_start|>" in state["marked"]


def test_preset_ships_its_template(app):
    """The default: the qwen3 preset, whose tokenizer_config.json ships beside its file
    (opened from its pre-parsed form); ids and costs as the library gives them."""
    app.open("?view=chat")
    app.page.evaluate(SHOW)
    assert app.page.get_by_test_id("chat-tokenizer").input_value() == "qwen3"
    state = shown(app)
    tokenizer = subword_lab.load(str(cached("chat-qwen3/tokenizer.json")))
    ids, costs, generation = expected(tokenizer, state["messages"], True)
    assert state["error"] is None and [m["role"] for m in state["messages"]][0] == "system"
    assert state["ids"] == ids and state["costs"] == costs and state["generation"] == generation
    source = app.page.get_by_test_id("chat-template-source").text_content()
    assert "tokenizer_config.json" in source


def test_chatml_for_cl100k(app):
    """cl100k_base carries no template: the page renders ChatML, as CPython's facade does
    (tests/realfiles/test_chatml.py ties that to tiktoken)."""
    import json

    from subword_lab.web import api
    app.open("?view=chat&tokenizer=cl100k-base")
    app.page.evaluate(SHOW)
    state = shown(app)
    api.open_path("cl100k-cpython", str(cached("cl100k_base.tiktoken")))
    want = json.loads(api.chat_render(json.dumps({
        "key": "cl100k-cpython", "messages": state["messages"], "add_generation_prompt": True})))
    assert state["ids"] == want["ids"] and state["costs"] == [m["tokens"] for m in want["messages"]]
    assert state["marked"].count("<|im_start|>") == len(state["messages"]) + 1
    assert "ChatML" in app.page.get_by_test_id("chat-template-source").text_content()


def test_harmony_for_o200k_harmony(app, tmp_path):
    """o200k_harmony (gpt-oss) carries no template: the page renders harmony, as CPython's
    facade does (tests/realfiles/test_harmony.py ties that to openai-harmony), for a
    conversation edited by hand, with the generation prompt on and off."""
    import json
    import shutil

    from subword_lab.web import api
    app.open("?view=chat&tokenizer=o200k-harmony")
    app.page.evaluate(SHOW)
    edit_conversation(app)
    named = tmp_path / "o200k_harmony.tiktoken"
    shutil.copyfile(cached("o200k_base.tiktoken"), named)
    api.open_path("harmony-cpython", str(named))
    for generation in (True, False):
        if not generation:
            app.page.get_by_test_id("chat-generation").uncheck()
            settle(app)
        state = shown(app)
        assert state["error"] is None
        # The system message, each message, and the reply's opening: one <|start|> each.
        assert state["marked"].count("<|start|>") == len(state["messages"]) + 1 + generation
        want = json.loads(api.chat_render(json.dumps({
            "key": "harmony-cpython", "messages": state["messages"],
            "add_generation_prompt": generation})))
        assert want["format"] == "harmony"
        assert state["ids"] == want["ids"] and state["costs"] == [m["tokens"] for m in want["messages"]]
        assert state["generation"] == want["generation"]
    assert "harmony" in app.page.get_by_test_id("chat-template-source").text_content()
    app.page.set_viewport_size({"width": 1280, "height": 900})
    app.page.screenshot(path=shot_path("chat-harmony.png"), full_page=True)


# Each template and the line its fault is on (the recursive call; the range; the product).
HOSTILE = {
    "recursion": ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}\n\n{{ f(0) }}", 1),
    "range": ("{% for m in messages %}{{ m.content }}{% endfor %}\n"
              "{% for i in range(10**9) %}x{% endfor %}", 2),
    "huge": ("{{ messages[0].content }}\n{% set s = 'x' * 100000 %}\n{{ s * 100000 }}", 3),
    "loop": ("{{ messages[0].content }}\n{% for i in range(100000) %}{% for j in range(100000) %}"
             "{% endfor %}{% endfor %}", 2),
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_template_errors_and_page_goes_on(app, kind):
    app.open("?view=chat&tokenizer=phi-3-gguf")
    app.page.evaluate(SHOW)
    page = app.page
    page.get_by_test_id("chat-template-box").locator("summary").click()
    template, line = HOSTILE[kind]
    page.get_by_test_id("chat-template").fill(template)
    page.get_by_test_id("chat-template-apply").click()
    settle(app)
    error = shown(app)["error"]
    assert error is not None and f"your edited template: line {line}" in error, error
    assert page.get_by_test_id("chat-error").is_visible()
    # The tokenizer's own template renders again, and the tokenize view still tokenizes.
    page.get_by_test_id("chat-template-reset").click()
    settle(app)
    assert shown(app)["error"] is None and shown(app)["ids"]
    page.get_by_test_id("view-tab-tokenize").click()
    app.type_text("still tokenizing")
    assert app.ids() == list(subword_lab.load(str(cached("ggml-vocab-phi-3.gguf"))).encode(
        "still tokenizing").ids)


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_screenshot(app, width, height):
    app.page.set_viewport_size({"width": width, "height": height})
    app.open("?view=chat")
    app.page.evaluate(SHOW)
    app.page.screenshot(path=shot_path(f"screenshot-chat-{width}.png"), full_page=True)


def test_its_buttons_look_like_the_page_s_buttons(app):
    """Remove, Add a message, Apply and Reset were drawn as the browser's bare grey buttons,
    unlike every other button of the page: they share Copy link's look."""
    app.open("?view=chat")
    app.page.evaluate(SHOW)
    look = """(b) => { const s = getComputedStyle(b);
        return [s.fontWeight, s.borderRadius, s.backgroundColor, s.borderTopColor, s.minHeight]; }"""
    page_button = app.page.get_by_test_id("copy-link").evaluate(look)
    buttons = app.page.locator("#view-chat button")
    assert buttons.count() >= 5  # three Remove, Add a message, Apply, Reset
    looks = {buttons.nth(i).text_content(): buttons.nth(i).evaluate(look) for i in range(buttons.count())}
    assert all(seen == page_button for seen in looks.values()), (page_button, looks)

"""Typing in a long text (issue 14): whatever the page re-encodes after a key press (only
the part around the edit, py/subword_lab/web/live.py) and whatever it draws (only the
chips in view, web/views/tokenize/chip-rows.js), the ids it reports for the whole text
are the text's own, equal to CPython's subword_lab and to the file's own library.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import sentencepiece
import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str
from tokenizers import Tokenizer

from shots import shot_path
from test_tokenize_page import PRESET_FILES, reference

KEYS = [("start", "Hello, "), ("middle", " xyz (typed)"), ("end", " The end.")]


def library(preset, path):
    """The file's own library: tiktoken, tokenizers, sentencepiece."""
    if preset == "gpt2":
        enc = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                                mergeable_ranks=load_tiktoken_bpe(str(path)),
                                special_tokens={ENDOFTEXT: 50256})
        return enc.encode_ordinary
    if preset == "bert-base-uncased":
        tok = Tokenizer.from_file(str(path))
        tok.no_truncation()
        tok.no_padding()
        return lambda text: tok.encode(text).ids
    spm = sentencepiece.SentencePieceProcessor(model_file=str(path))
    return spm.encode


def long_text(botchan_txt) -> str:
    # LF line ends, as a text box holds them; 12,000 characters, no character above U+FFFF
    return Path(botchan_txt).read_bytes().decode("utf-8").replace("\r\n", "\n")[:12_000]


def chips(app):
    """[(index, id, start, end)] of the chips in the DOM, in the order they are drawn."""
    return app.page.evaluate("""() => [...document.querySelectorAll('[data-testid=token]')].map(
        (el) => [Number(el.dataset.index), Number(el.dataset.tokenId), Number(el.dataset.start),
                 Number(el.dataset.end)])""")


def assert_chips_are_the_tokens_in_view(app, state):
    drawn = chips(app)
    first, end = state["drawn"]
    assert [c[0] for c in drawn] == list(range(first, end))  # one run of the tokens, in order
    assert 0 < len(drawn) < len(state["ids"])  # only part of them: the list is virtual
    for index, id_, start, stop in drawn:
        assert (id_, [start, stop]) == (state["ids"][index], state["offsets"][index])
    # The drawn chips reach past the visible part of the list, above and below.
    box, top, bottom = app.page.evaluate("""() => {
        const list = document.querySelector('[data-testid=tokens]').getBoundingClientRect();
        const all = [...document.querySelectorAll('[data-testid=token]')].map((c) => c.getBoundingClientRect());
        return [[list.top, list.bottom], Math.min(...all.map((r) => r.top)), Math.max(...all.map((r) => r.bottom))];
    }""")
    assert top <= box[0] + 12 or first == 0
    assert bottom >= box[1] - 12 or end == len(state["ids"])


def assert_layer_matches(app, text):
    """The coloured layer holds the text; its spans, where drawn, are their tokens' characters."""
    layer = app.page.evaluate("""() => {
        const b = document.getElementById('backdrop');
        return [b.textContent, [...b.querySelectorAll('.seg')].map((s) => [Number(s.dataset.index), s.textContent])];
    }""")
    return layer


@pytest.mark.parametrize("preset", sorted(PRESET_FILES))
def test_typing_anywhere_in_a_long_text_stays_exact(app, request, botchan_txt, preset):
    path = request.getfixturevalue(PRESET_FILES[preset])
    ours, theirs = reference(path), library(preset, path)
    app.open(f"?tokenizer={preset}")
    app.page.evaluate("(t) => window.subwordLab.setText(t)", long_text(botchan_txt))
    box = app.page.get_by_test_id("text-input")
    for where, keys in KEYS:
        length = len(box.input_value())
        at = {"start": 0, "middle": length // 2, "end": length}[where]
        box.evaluate("(el, p) => { el.focus(); el.setSelectionRange(p, p); }", at)
        app.page.keyboard.type(keys)
        state = app.settled()
        text = box.input_value()
        assert state["text"] == text and len(text) > 10_000
        assert app.page.get_by_test_id("tokens").get_attribute("data-text-length") == str(len(text))
        encoding = ours.encode(text)
        assert state["ids"] == list(encoding.ids) == list(theirs(text)), where
        assert state["offsets"] == [list(o) for o in encoding.offsets], where
        assert state["encodedChars"] == len(text)
        assert_chips_are_the_tokens_in_view(app, state)
        whole, segs = assert_layer_matches(app, text)
        assert whole.rstrip("\u200b") == text
        assert 0 < len(segs) < len(state["ids"])
        for index, seg_text in segs:
            start, end = state["offsets"][index]
            assert seg_text == text[start:end]


def test_scrolling_draws_the_tokens_in_view(app, gpt2_tiktoken, botchan_txt):
    text = long_text(botchan_txt)
    ids = list(reference(gpt2_tiktoken).encode(text).ids)
    for width in (1280, 390):
        app.page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
        app.open("?tokenizer=gpt2")
        app.page.evaluate("(t) => window.subwordLab.setText(t)", text)
        tokens = app.page.get_by_test_id("tokens")
        tokens.scroll_into_view_if_needed()
        for name, where in (("top", "0"), ("middle", "el.scrollHeight / 2"), ("bottom", "el.scrollHeight")):
            tokens.evaluate(f"(el) => {{ el.scrollTop = {where}; }}")
            app.page.wait_for_timeout(100)  # a scroll is drawn in the next frame
            app.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            state = app.settled()
            assert state["ids"] == ids
            assert_chips_are_the_tokens_in_view(app, state)
            if name == "bottom":
                assert state["drawn"][1] == len(ids)
            app.page.screenshot(path=shot_path(f"long-text-{width}-{name}.png"))
        # The text box scrolled to its end: its layer draws the tokens there.
        box = app.page.get_by_test_id("text-input")
        box.evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
        app.page.wait_for_timeout(100)
        app.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        whole, segs = assert_layer_matches(app, text)
        assert max(i for i, _ in segs) == len(ids) - 1
        box.scroll_into_view_if_needed()
        app.page.screenshot(path=shot_path(f"long-text-{width}-textbox-end.png"))


def test_keyboard_walks_past_the_chips_drawn(app, botchan_txt):
    app.open("?tokenizer=gpt2")
    state = app.page.evaluate("(t) => window.subwordLab.setText(t)", long_text(botchan_txt))
    app.page.locator("[data-testid=token]").first.focus()
    app.page.keyboard.press("End")  # the last token: its chip was not in the DOM
    last = len(state["ids"]) - 1
    assert app.page.evaluate("() => document.activeElement.dataset.index") == str(last)
    assert f"Token {last + 1:,} of" in app.page.locator("#inspector").text_content() \
        or f"Token {last + 1} of" in app.page.locator("#inspector").text_content()
    app.page.keyboard.press("ArrowLeft")
    assert app.page.evaluate("() => document.activeElement.dataset.index") == str(last - 1)
    app.page.keyboard.press("Home")
    assert app.page.evaluate("() => document.activeElement.dataset.index") == "0"

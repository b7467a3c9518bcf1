"""Typing in a long text (issue 14): whatever the page re-encodes after a key press (only
the part around the edit, py/subword_lab/web/live.py) and whatever it draws (only the
chips in view, web/views/tokenize/chip-rows.js), the ids it reports for the whole text
are the text's own, equal to CPython's subword_lab and to the file's own library.
"""
from __future__ import annotations

import random
from pathlib import Path
from urllib.parse import quote

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


def assert_chips_are_the_tokens_in_view(app, state):
    # The chips and state().drawn read in one task: the rows just off screen are drawn a
    # frame after the rows in view, so two separate reads can straddle that frame.
    (first, end), drawn = app.page.evaluate("""() => [window.subwordLab.state().drawn,
        [...document.querySelectorAll('[data-testid=token]')].map((el) => [Number(el.dataset.index),
         Number(el.dataset.tokenId), Number(el.dataset.start), Number(el.dataset.end)])]""")
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
            app.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")  # a scroll is drawn in the next frame
            state = app.settled()
            assert state["ids"] == ids
            assert_chips_are_the_tokens_in_view(app, state)
            if name == "bottom":
                assert state["drawn"][1] == len(ids)
            app.page.screenshot(path=shot_path(f"long-text-{width}-{name}.png"))
        # The text box scrolled to its end: its layer draws the tokens there.
        box = app.page.get_by_test_id("text-input")
        box.evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
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


def drawn_page(app):
    """What the page draws, read from the DOM: the chips (id, start, end, index, look), the
    layer's text and spans, and the legend."""
    return app.page.evaluate("""() => ({
        chips: [...document.querySelectorAll('[data-testid=token]')].map((el) => [Number(el.dataset.index),
            Number(el.dataset.tokenId), Number(el.dataset.start), Number(el.dataset.end), el.textContent,
            el.dataset.joins || '', el.getAttribute('aria-setsize'), el.getAttribute('aria-posinset')]),
        layer: document.getElementById('backdrop').textContent,
        segs: [...document.querySelectorAll('#backdrop .seg')].map((s) => [Number(s.dataset.index), s.textContent,
            s.style.getPropertyValue('--h')]),
        legend: document.getElementById('legend-list').textContent,
    })""")


def utf16_positions(text):
    """Each character position of text (and its end) as a UTF-16 position."""
    out, at = [0], 0
    for ch in text:
        at += 2 if ord(ch) > 0xFFFF else 1
        out.append(at)
    return out


MARK_DRAWN = """() => {
    for (const row of document.querySelectorAll('.tok-row')) row.__before = true;
    for (const el of document.querySelectorAll('[data-testid=token]')) el.__before = el.dataset.tokenId + '|' + el.textContent;
}"""

# [index, row number, the row was drawn before the edit, the chip element was drawn before
# the edit showing the same token] for every chip drawn now
REDRAWN = """() => {
    const rows = [...document.querySelectorAll('.tok-row')];
    return [...document.querySelectorAll('[data-testid=token]')].map((el) => [Number(el.dataset.index),
        rows.indexOf(el.parentElement), Boolean(el.parentElement.__before),
        el.__before === el.dataset.tokenId + '|' + el.textContent]);
}"""


def assert_redrew_only_what_changed(app, before_ids, ids):
    """Of the rows drawn before the edit and still drawn: a row wholly before the first
    changed token keeps every chip (the same element, untouched); the others redraw at
    most the changed tokens and two chips a row (a token moved to or from the next row).
    Returns how many kept chips were checked."""
    same = 0
    while same < min(len(ids), len(before_ids)) and ids[same] == before_ids[same]:
        same += 1
    tail = 0
    while tail < min(len(ids), len(before_ids)) - same and ids[-1 - tail] == before_ids[-1 - tail]:
        tail += 1
    changed = len(ids) - tail - same
    chips_now = app.page.evaluate(REDRAWN)
    rows = {}
    for index, row, row_before, kept in chips_now:
        if row_before:
            rows.setdefault(row, []).append((index, kept))
    checked, redrawn, later_rows = 0, 0, 0
    for row in rows.values():
        if max(i for i, _ in row) < same:
            assert all(kept for _, kept in row), f"a row before the edit was redrawn: {row}"
            checked += len(row)
        else:
            later_rows += 1
            redrawn += sum(not kept for _, kept in row)
    assert redrawn <= changed + 2 * later_rows, \
        f"{redrawn} chips redrawn in {later_rows} rows for {changed} changed tokens"
    return checked


def test_random_edits_redraw_only_what_changed_and_stay_exact(app, gpt2_tiktoken, botchan_txt):
    """After each of many edits (keys, deletions, a replaced selection) at random places, the
    chips and the layer (kept in part from the last drawing, web/views/tokenize/) show the
    tokens of the text as it is, and only what changed was redrawn: the chips of the rows
    before the edit are the same elements, untouched, and the rows from the edit on redraw
    no more than the changed tokens and a chip or two each; and the same text drawn afresh
    (the page reloaded) draws the same chips, spans and legend."""
    rng = random.Random(14)
    ours = reference(gpt2_tiktoken)
    theirs = library("gpt2", gpt2_tiktoken)
    text = long_text(botchan_txt)[:10_000] + " naïve café 東京 😀 end"
    app.open("?tokenizer=gpt2")
    before_ids = app.page.evaluate("(t) => window.subwordLab.setText(t)", text)["ids"]
    box = app.page.get_by_test_id("text-input")
    checked = 0
    for step in range(14):
        length = len(box.input_value())
        at = rng.choice([0, length // 2, length, rng.randrange(length + 1), rng.randrange(length + 1)])
        box.evaluate("(el, [a, b]) => { el.focus(); el.setSelectionRange(a, b); }",
                     [at, min(length, at + rng.choice([0, 0, 0, 5]))])
        app.page.evaluate(MARK_DRAWN)
        kind = rng.random()
        if kind < 0.6:
            app.page.keyboard.type(rng.choice(["x", " ", "é", "the ", "\n", "😀", "ab,"]))
        else:
            for _ in range(rng.randint(1, 3)):
                app.page.keyboard.press("Backspace")
        state = app.settled()
        text = box.input_value()
        encoding = ours.encode(text)
        assert state["ids"] == list(encoding.ids) == list(theirs(text)), step
        checked += assert_redrew_only_what_changed(app, before_ids, state["ids"])
        before_ids = state["ids"]
        at16 = utf16_positions(text)
        assert state["offsets"] == [[at16[s], at16[e]] for s, e in encoding.offsets], step
        drawn = drawn_page(app)
        text16 = text.encode("utf-16-le")
        assert_chips_are_the_tokens_in_view(app, state)
        n = str(len(state["ids"]))
        for index, id_, start, end, _, _, size, pos in drawn["chips"]:
            assert (id_, [start, end], size, pos) == (state["ids"][index], state["offsets"][index], n, str(index + 1))
        assert drawn["layer"].rstrip("\u200b") == text
        for index, seg_text, _ in drawn["segs"]:
            start, end = state["offsets"][index]  # UTF-16 positions, as the page's
            assert seg_text == text16[2 * start:2 * end].decode("utf-16-le"), step
    assert checked > 100  # the kept rows were there to check
    # The same text, drawn afresh: every chip, span and mark as the edits left them.
    scroll = app.page.evaluate("() => [document.querySelector('[data-testid=tokens]').scrollTop, "
                               "document.querySelector('[data-testid=text-input]').scrollTop]")
    app.open(f"?tokenizer=gpt2&text={quote(text)}")
    assert box.input_value() == text
    app.page.evaluate("""([a, b]) => { document.querySelector('[data-testid=tokens]').scrollTop = a;
        const box = document.querySelector('[data-testid=text-input]'); box.scrollTop = b; }""", scroll)
    app.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    again = drawn_page(app)
    assert again["legend"] == drawn["legend"]
    chips = {c[0]: c for c in drawn["chips"]}
    assert all(chips[c[0]] == c for c in again["chips"] if c[0] in chips)
    assert len(set(chips) & {c[0] for c in again["chips"]}) > 50
    segs = {s[0]: s for s in drawn["segs"]}
    assert all(segs[s[0]] == s for s in again["segs"] if s[0] in segs)

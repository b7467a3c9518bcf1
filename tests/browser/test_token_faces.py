"""One notation for tokens of bytes, in three languages and at both widths: a chip shows
what its token decodes to (whole characters, ␣ for a space, the bytes of part of a
character as <E5 88>), never the vocabulary's byte alphabet (Ġ, å¤©) nor <0xE5>; that
spelling is the chip's data-spelling and title, the legend says which is which, and the
compare columns, the exports and "why this token?" (item 8: GPT-4o's Chinese tokens,
which ran off the card and the screen and mixed hex with byte spelling) use the same face.
Expected faces come from the tokens' bytes as tiktoken (GPT-2) or the spelling's byte
alphabet give them, cut into UTF-8 characters here in Python.
"""
from __future__ import annotations

import json
import unicodedata

import pytest
import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

from subword_lab.core.tables.byte_level import decode_to_bytes
import assets  # tools/assets.py (on the path through tests/conftest.py): the pinned files
from shots import shot_path

TEXT = "Hello weather, naïve café — Thời tiết đẹp. 今天天气很好，分词器。 🙂\n\tend"
WIDTHS = [(1280, 900), (390, 844)]
WHITE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}
# Drawn as nothing or a blank: these categories and Unicode's default-ignorable code points
# outside them. Named by code point on a chip (<U+FEFF>), except a joiner, variation selector
# or tag that shows in the character it joins.
HIDDEN_CATEGORIES = {"Cc", "Cf", "Zs", "Zl", "Zp"}
IGNORABLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810),
             *range(0xFE00, 0xFE10), *range(0x2060, 0x2070), *range(0xFFF0, 0xFFF9), *range(0xE0000, 0xE1000)}
JOINING = {0x200D, *range(0xFE00, 0xFE10), *range(0xE0020, 0xE0080), *range(0xE0100, 0xE01F0)}


def hidden(ch: str) -> bool:
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or ord(ch) in IGNORABLE


def joins(text: str, k: int) -> bool:
    if ord(text[k]) not in JOINING or k == 0:
        return False
    before = not hidden(text[k - 1]) or joins(text, k - 1)
    after = text[k] != "\u200d" or (k + 1 < len(text) and not hidden(text[k + 1]))
    return before and after


def text_face(text: str) -> str:
    return "".join(WHITE[ch] if ch in WHITE else f"<U+{ord(ch):04X}>" if hidden(ch) and not joins(text, k) else ch
                   for k, ch in enumerate(text))


def face_of(data: bytes) -> str:
    """Whole UTF-8 characters as text (whitespace and hidden characters made visible), other
    bytes as <XX YY>."""
    runs: list[str | list[int]] = []
    i = 0
    while i < len(data):
        b = data[i]
        n = 1 if b < 0x80 else 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        try:
            ch = data[i:i + n].decode("utf-8") if n and i + n <= len(data) else None
        except UnicodeDecodeError:
            ch = None
        kind = list if ch is None else str
        if not runs or not isinstance(runs[-1], kind):
            runs.append(kind())
        if ch is None:
            runs[-1].append(b)  # type: ignore[union-attr]
            i += 1
        else:
            runs[-1] += ch  # type: ignore[operator]
            i += n
    return "".join(text_face(r) if isinstance(r, str) else "<" + " ".join(f"{x:02X}" for x in r) + ">" for r in runs)


def bytes_of(token: str, byte_level: bool) -> bytes | None:
    if token.startswith("<0x") and token.endswith(">") and len(token) == 6:
        return bytes([int(token[3:5], 16)])
    return bytes(decode_to_bytes(token)) if byte_level else None


def chips(page):
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=token]')].map((c) =>
        [c.querySelector('.t').textContent, c.dataset.spelling || null, c.title || ''])""")


def pick(page, key, text=TEXT):
    page.evaluate("async () => { await window.subwordLab.showView('tokenize'); }")
    if page.evaluate("window.subwordLab.state().tokenizer") != key:
        page.get_by_test_id("tokenizer-select").select_option(key)
        page.wait_for_function("(k) => window.subwordLab.state().tokenizer === k", arg=key, timeout=300_000)
    if page.get_by_test_id("text-input").input_value() != text:
        page.get_by_test_id("text-input").fill(text)
    page.evaluate("async () => await window.subwordLab.settled()")
    return page.evaluate("window.subwordLab.state()")


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
def test_chips_show_what_tokens_decode_to(app, gpt2_tiktoken, lang):
    enc = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                            mergeable_ranks=load_tiktoken_bpe(str(gpt2_tiktoken)),
                            special_tokens={ENDOFTEXT: 50256})
    app.open(f"?tokenizer=gpt2&lang={lang}")
    for key, byte_level in [("gpt2", True), ("o200k-base", True), ("llama2", False)]:
        for width, height in WIDTHS:
            app.page.set_viewport_size({"width": width, "height": height})
            state = pick(app.page, key)
            drawn = chips(app.page)
            assert len(drawn) == len(state["tokens"])
            spelled = 0
            for i, (token, (face, spelling, title)) in enumerate(zip(state["tokens"], drawn)):
                data = bytes_of(token, byte_level)
                if key == "gpt2":
                    assert data == enc.decode_single_token_bytes(state["ids"][i])
                if data is None:
                    continue
                assert face == face_of(data), (key, i, token, face)
                assert "Ġ" not in face and "<0x" not in face
                if face != token:
                    spelled += 1
                    assert spelling == token and token in title, (key, i, spelling, title)
            assert spelled, key
            legend = app.page.locator("#legend-list li").all_text_contents()
            assert any("Ġ" in item and "<0xE5>" in item for item in legend), legend
            assert app.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
            app.page.screenshot(path=shot_path(f"faces-{key}-{lang}-{width}.png"), full_page=True)
        # exports carry both: the spelling and the face
        with app.page.expect_download() as info:
            app.page.get_by_test_id("download-json").click()
        rows = json.loads(open(info.value.path(), encoding="utf-8").read())
        assert [r["token"] for r in rows] == state["tokens"]
        assert [r["text"] for r in rows] == [c[0] for c in chips(app.page)]


HIDDEN_TEXT = "\ufeffzero\u200bwidth a\u00a0b x\u200dy 👨\u200d👩\u200d👧 ❤️ end\u2060"


def test_characters_that_draw_as_nothing_are_named(app, gpt2_tiktoken):
    """A byte-order mark, a zero-width space, a no-break space, a joiner between letters: each
    is named by code point (<U+FEFF>), so no chip is blank (o200k's token for the byte-order
    mark was), while a joiner inside an emoji family and an emoji's variation selector stay as
    they are. Faces are checked against the tokens' bytes, as tiktoken gives them."""
    app.open("?tokenizer=o200k-base")
    files = {"o200k-base": assets.fetch(["o200k_base.tiktoken"])["o200k_base.tiktoken"], "gpt2": gpt2_tiktoken}
    for key in ["o200k-base", "gpt2"]:
        bytes_of_id = {rank: data for data, rank in load_tiktoken_bpe(str(files[key])).items()}
        state = pick(app.page, key, HIDDEN_TEXT)
        drawn = chips(app.page)
        assert len(drawn) == len(state["tokens"])
        faces = [face for face, _, _ in drawn]
        for i, token in enumerate(state["tokens"]):
            data = bytes_of(token, True)
            assert data == bytes_of_id[state["ids"][i]]
            assert faces[i] == face_of(data), (key, i, token, faces[i])
        assert "" not in faces
        legend = app.page.locator("#legend-list li").all_text_contents()
        assert any("<U+200B>" in item for item in legend), (key, legend)
        if key == "o200k-base":
            assert "<U+FEFF>" in faces, faces
            assert not any("<U+200D>" in f and "👨" in f for f in faces), faces
            chip = app.page.locator("[data-testid=token][data-index='0']")
            chip.hover()
            # the inspector line names it and quotes the text it covers with the mark escaped
            app.page.wait_for_function("() => document.querySelector('#inspector').textContent.includes('U+FEFF')")
            assert '"\\uFEFF"' in app.page.locator("#inspector").text_content()


def test_a_long_run_of_joining_characters_is_drawn_in_one_pass(app):
    # a hostile text: a letter and 100,000 variation selectors (each one shows, as it follows
    # a character drawn as itself), then 100,000 joiners with nothing to join (each named);
    # deciding this character by character from the one before overflowed the stack
    app.open()
    lengths = app.page.evaluate("""async () => {
      const tokens = await import(new URL('lib/tokens.js', document.baseURI).href);
      const selectors = tokens.visible('a' + '\\uFE0F'.repeat(100000));
      const joiners = tokens.visible('\\u200D'.repeat(100000));
      return [selectors.length, joiners.length, joiners.slice(0, 16)]; }""")
    assert lengths == [100_001, 800_000, "<U+200D><U+200D>"]


def test_compare_columns_use_the_same_faces(app):
    app.open("?view=compare&tokenizers=gpt2,o200k-base&text=" + "今天天气很好 weather")
    app.page.wait_for_function("() => [...document.querySelectorAll('[data-testid=compare-column]')]"
                               ".every((c) => c.dataset.status === 'done')", timeout=300_000)
    faces = app.page.eval_on_selector_all("[data-testid=compare-column] .tok .t", "ts => ts.map((t) => t.textContent)")
    assert faces and not any("Ġ" in f or "å" in f for f in faces), faces
    assert "␣weather" in faces


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
def test_why_on_a_chinese_token_stays_on_screen_in_one_notation(app, lang):
    app.open(f"?tokenizer=o200k-base&lang={lang}")
    for width, height in WIDTHS:
        app.page.set_viewport_size({"width": width, "height": height})
        state = pick(app.page, "o200k-base")
        index = next(i for i, (s, e) in enumerate(state["offsets"]) if TEXT[s:e].strip().startswith("今"))
        chip = app.page.locator(f"[data-testid=token][data-index='{index}']")
        chip.focus()
        chip.press("Enter")
        app.page.wait_for_function("() => window.subwordLab.view() === 'encode'")
        app.page.evaluate("async () => { await (await window.subwordLab.showView('encode')).settled(); }")
        codes = app.page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid=encode-stage] code, [data-testid=encode-stage] .tok .t, [data-testid=encode-stage] .enc-after')]
            .filter((c) => !c.closest('[data-testid=encode-spelling]')).map((c) => c.textContent)""")
        # one notation: faces only (no byte alphabet), the spelling said once under the heading
        assert codes and not any(ch in "ĠäåæçèéÃÂ" for code in codes for ch in code), codes
        assert app.page.get_by_test_id("encode-spelling").count() == 1
        wide = app.page.evaluate("""() => { const w = document.documentElement.clientWidth;
            return [...document.querySelectorAll('[data-testid=encode-stage] *')]
              .filter((e) => e.getBoundingClientRect().right > w + 1).map((e) => e.className || e.tagName); }""")
        assert wide == [], (width, wide[:5])
        # the merges table's step and rank numbers read on one line ("1484 / 83" was a rank cut in two)
        broken = app.page.evaluate("""() => [...document.querySelectorAll('[data-testid=bpe-merge] td.num')].filter((td) => {
            const range = document.createRange(); range.selectNodeContents(td);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1; }).map((td) => td.textContent)""")
        assert app.page.get_by_test_id("bpe-merge").count() > 10 and broken == [], (width, broken)
        assert app.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        app.page.screenshot(path=shot_path(f"why-chinese-o200k-{lang}-{width}.png"), full_page=True)
        app.page.get_by_test_id("why-back").click()
        app.page.wait_for_function("() => window.subwordLab.view() === 'tokenize'")

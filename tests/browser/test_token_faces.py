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

import pytest
import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

from subword_lab.core.tables.byte_level import decode_to_bytes
from shots import shot_path

TEXT = "Hello weather, naïve café — Thời tiết đẹp. 今天天气很好，分词器。 🙂\n\tend"
WIDTHS = [(1280, 900), (390, 844)]
WHITE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}


def face_of(data: bytes) -> str:
    """Whole UTF-8 characters as text (whitespace made visible), other bytes as <XX YY>."""
    out, loose, i = [], [], 0
    while i < len(data):
        b = data[i]
        n = 1 if b < 0x80 else 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF4 else 0
        try:
            ch = data[i:i + n].decode("utf-8") if n and i + n <= len(data) else None
        except UnicodeDecodeError:
            ch = None
        if ch is None:
            loose.append(b)
            i += 1
            continue
        if loose:
            out.append("<" + " ".join(f"{x:02X}" for x in loose) + ">")
            loose = []
        out.append(WHITE.get(ch, ch))
        i += n
    if loose:
        out.append("<" + " ".join(f"{x:02X}" for x in loose) + ">")
    return "".join(out)


def bytes_of(token: str, byte_level: bool) -> bytes | None:
    if token.startswith("<0x") and token.endswith(">") and len(token) == 6:
        return bytes([int(token[3:5], 16)])
    return bytes(decode_to_bytes(token)) if byte_level else None


def chips(page):
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=token]')].map((c) =>
        [c.querySelector('.t').textContent, c.dataset.spelling || null, c.title || ''])""")


def pick(page, key):
    page.evaluate("async () => { await window.subwordLab.showView('tokenize'); }")
    if page.evaluate("window.subwordLab.state().tokenizer") != key:
        page.get_by_test_id("tokenizer-select").select_option(key)
        page.wait_for_function("(k) => window.subwordLab.state().tokenizer === k", arg=key, timeout=300_000)
    if page.get_by_test_id("text-input").input_value() != TEXT:
        page.get_by_test_id("text-input").fill(TEXT)
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

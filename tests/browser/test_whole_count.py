"""Counts describe the whole text, however long: a 278 KB book's token count on the page
equals CPython's `len(tokenizer.encode(text).ids)`, though the chips show only its start.

The page counts long texts in slices in the worker (py/subword_lab/web/count.py); while
it counts, `token-count` says so (data-complete="false").
"""
from __future__ import annotations

from pathlib import Path

import pytest

from test_tokenize_page import PRESET_FILES, reference

COMPLETE = "[data-testid=token-count][data-complete=true]"


def book(botchan_txt) -> str:
    return Path(botchan_txt).read_bytes().decode("utf-8").replace("\r\n", "\n")


def whole_count(app) -> int:
    app.page.wait_for_selector(COMPLETE, state="attached", timeout=180_000)
    return int(app.page.get_by_test_id("token-count").get_attribute("data-count"))


@pytest.mark.parametrize("preset", sorted(PRESET_FILES))
def test_a_book_is_counted_whole(app, request, botchan_txt, preset):
    tokenizer = reference(request.getfixturevalue(PRESET_FILES[preset]))
    text = book(botchan_txt)
    app.open()
    app.select(preset)
    state = app.page.evaluate("(t) => window.subwordLab.setText(t)", text)
    assert state["encodedChars"] < len(text)  # the chips show a window only
    expected = len(tokenizer.encode(text).ids)
    assert whole_count(app) == expected
    count = app.page.get_by_test_id("token-count")
    assert count.text_content() == f"{expected:,}"
    points = len(text)  # botchan.txt has no characters outside the BMP
    assert app.page.get_by_test_id("char-count").get_attribute("data-count") == str(points)
    assert app.page.get_by_test_id("chars-per-token").text_content() == f"{points / expected:.2f}"
    assert app.page.get_by_test_id("bytes-per-token").text_content() \
        == f"{len(text.encode('utf-8')) / expected:.2f}"


def test_typing_during_a_count_counts_the_new_text(app, gpt2_tiktoken, botchan_txt):
    tokenizer = reference(gpt2_tiktoken)
    text = book(botchan_txt)
    app.open()
    box = app.page.get_by_test_id("text-input")
    app.page.evaluate("(t) => window.subwordLab.setText(t)", text)
    # Typing at the start while the count runs: the chips follow, and the count is the new text's.
    box.press("Control+Home")
    box.press_sequentially("Hello ")
    state = app.settled()
    assert state["text"].startswith("Hello ") and state["ids"][:1] == tokenizer.encode("Hello ").ids[:1]
    assert whole_count(app) == len(tokenizer.encode("Hello " + text).ids)


def test_a_short_text_is_complete_at_once(app, bert_json):
    tokenizer = reference(bert_json)
    app.open("?tokenizer=bert-base-uncased")
    app.type_text("short text")
    count = app.page.get_by_test_id("token-count")
    assert count.get_attribute("data-complete") == "true"
    assert count.get_attribute("data-count") == str(len(tokenizer.encode("short text").ids))


def test_switching_tokenizer_counts_the_same_text_anew(app, gpt2_tiktoken, bert_json,
                                                       botchan_unigram_model, botchan_txt):
    """The same book under another tokenizer and back: each count is that tokenizer's,
    never the one before kept for the same text, nor a cache of the other's words (BERT
    and the Unigram model share the special-tokens choice, none, so only the tokenizer
    tells their counts apart)."""
    text = book(botchan_txt)
    files = {"gpt2": gpt2_tiktoken, "bert-base-uncased": bert_json,
             "botchan-unigram": botchan_unigram_model}
    expected = {preset: len(reference(path).encode(text).ids) for preset, path in files.items()}
    assert len(set(expected.values())) == 3
    app.open("?tokenizer=gpt2")
    app.page.evaluate("(t) => window.subwordLab.setText(t)", text)
    assert whole_count(app) == expected["gpt2"]
    for preset in ("bert-base-uncased", "botchan-unigram", "gpt2"):
        app.select(preset)
        assert whole_count(app) == expected[preset], preset

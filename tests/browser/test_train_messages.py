"""What the train view and the share buttons say, seen by a reader: a failed load is a
failure (not "coming soon"), times use the language's decimal separator, and Copy embed
code writes only the attributes of the view on screen."""
from __future__ import annotations

import re

import pytest

DONE = "[data-testid=train-status]:has-text('Done'), [data-testid=train-status]:has-text('Xong')"


@pytest.mark.noisy  # the refused module is a console error, on purpose
def test_a_view_that_cannot_load_says_so(app):
    app.page.route("**/views/train/unigram.js", lambda route: route.abort())
    page = app.open("?view=train&algo=unigram&corpus=course-toy").page
    message = page.get_by_test_id("train-view-error")
    message.wait_for(timeout=120_000)
    text = message.text_content()
    assert "could not be loaded" in text and "Reload" in text
    assert "soon" not in page.locator("main").inner_text()


def test_training_time_uses_the_language_s_decimal_separator(app):
    page = app.open("?lang=vi&view=train&algo=wordpiece&corpus=course-toy").page
    page.wait_for_selector(DONE, timeout=120_000)
    status = page.get_by_test_id("train-status").text_content()
    assert re.search(r"\(\d+,\d\d giây\)", status), status


@pytest.mark.parametrize("view, query, wanted, unwanted", [
    ("train", "view=train&algo=wordpiece&corpus=course-toy&vocab_size=12",
     ['view="train"', 'algo="wordpiece"', 'corpus="course-toy"', 'vocab-size="12"'], ["tokenizer=", "text="]),
    ("tokenize", "view=tokenize", ['tokenizer="gpt2"'], ["algo=", "corpus=", "vocab-size="]),
])
def test_copy_embed_code_writes_the_view_s_own_attributes(app, view, query, wanted, unwanted):
    # the address bar holds both views' state: the tokenizer and text, and a training run
    page = app.open(f"?tokenizer=gpt2&text=Hello&algo=wordpiece&corpus=course-toy&vocab_size=12&{query}").page
    page.evaluate("async (v) => { const x = await window.subwordLab.showView(v); await x?.settled?.(); }", view)
    page.get_by_test_id("copy-embed").click()
    page.wait_for_function("() => document.querySelector('[data-testid=share-text]').value.includes('<subword-lab')")
    code = page.get_by_test_id("share-text").input_value()
    for part in wanted:
        assert part in code, code
    for part in unwanted:
        assert part not in code, code

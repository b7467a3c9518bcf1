"""Tiktoken ranks carry no split rules: a file the lab does not recognise gets GPT-2's
pattern, and the pattern control next to the picker opens it again with a known
encoding's pattern. The ids shown must equal CPython's load(path, pattern=...)."""
from __future__ import annotations

import subword_lab

from shots import shot_path

TEXT = "In 2024 we'll count 1234567 tokens, don't we?\n\n  Indented   text"


def reference_ids(path, pattern=None):
    options = {"pattern": pattern} if pattern else {}
    return subword_lab.load(str(path), **options).encode(TEXT).ids


def test_pattern_choice_reopens_an_unknown_tiktoken_file(app, gpt2_tiktoken, tmp_path):
    # The first 20,000 ranks of GPT-2's file: no known encoding has these ranks.
    path = tmp_path / "mine.tiktoken"
    lines = gpt2_tiktoken.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:20_000]))
    assert subword_lab.load(str(path)).rules["pattern_name"] is None
    default_ids = reference_ids(path)
    chosen_ids = reference_ids(path, "cl100k_base")
    assert default_ids != chosen_ids  # the text tells the two patterns apart

    app.open()
    app.page.get_by_test_id("file-input").set_input_files(str(path))
    app.page.locator("#opened-group option").filter(has_text="mine.tiktoken").wait_for(state="attached")
    app.settled()
    app.type_text(TEXT)
    app.page.get_by_test_id("settings").locator("summary").click()  # the rules fold away at first
    select = app.page.get_by_test_id("pattern-select")
    select.wait_for(state="visible")
    assert select.input_value() == ""
    assert app.ids() == default_ids

    select.select_option("cl100k_base")
    app.page.get_by_test_id("rules-text").filter(has_text="cl100k_base").wait_for()
    app.settled()
    assert select.input_value() == "cl100k_base"
    assert app.ids() == chosen_ids
    assert app.page.get_by_test_id("error").inner_text() == ""
    app.page.screenshot(path=shot_path("pattern-choice.png"))

    # Back to the file's default entry is not offered once a pattern is chosen, but
    # any other known pattern is: gpt2 gives the default ids again.
    select.select_option("gpt2")
    app.page.get_by_test_id("rules-text").filter(has_text="gpt2").wait_for()
    app.settled()
    assert app.ids() == reference_ids(path, "gpt2") == default_ids

"""A book in one tokens widget: the 278 KB botchan.txt (about 104,000 tokens), encoded by the
kernel with the botchan Unigram model, drawn in a real marimo editor. The widget's chips are
the tokenize view's virtual list (web/views/tokenize/chip-rows.js): only the rows in and near
view are in the DOM, each chip with the id sentencepiece gives there; scrolling the list
draws the others, to the book's last token; the text's layer and "why this token?" still
answer there."""
from __future__ import annotations

import json
import re

import sentencepiece
from playwright.sync_api import expect

from jupyter_host import watched_page
from marimo_host import open_editor, serve
from shots import shot_path

from installed import require

require("marimo", "anywidget")

NOTEBOOK = """import marimo

app = marimo.App(width="medium")


@app.cell
def _():
    from pathlib import Path

    import marimo as mo

    from subword_lab import notebook

    book = mo.ui.anywidget(notebook.tokens({model}, Path("book.txt").read_text(encoding="utf-8")))
    book
    return
"""


def drawn(widget):
    """[index, id] of every chip in the DOM, in DOM order."""
    return widget.locator("[data-testid=token]").evaluate_all(
        "chips => chips.map((c) => [Number(c.dataset.index), Number(c.dataset.tokenId)])")


def assert_a_window_of_the_tokens(widget, ids):
    chips = drawn(widget)
    indexes = [i for i, _ in chips]
    assert indexes == list(range(indexes[0], indexes[0] + len(chips)))  # one run, in order
    assert 0 < len(chips) < len(ids) // 50  # a screen or two of rows, not the book
    assert [id_ for _, id_ in chips] == ids[indexes[0]:indexes[0] + len(chips)]
    return indexes


def test_a_book_in_one_tokens_widget(browser, tmp_path, botchan_txt, botchan_unigram_model):
    text = botchan_txt.read_bytes().decode("utf-8").replace("\r\n", "\n")  # as a text box holds it
    ids = sentencepiece.SentencePieceProcessor(model_file=str(botchan_unigram_model)).encode(text)
    source = NOTEBOOK.replace("{model}", json.dumps(str(botchan_unigram_model)))
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "book.txt").write_text(text, encoding="utf-8")
    with serve(tmp_path, source=source) as url, watched_page(browser, url) as page:
        open_editor(page, url).click()
        widget = page.locator("[data-testid=notebook-tokens]")
        tokens = widget.locator("[data-testid=tokens]")
        expect(tokens).to_have_attribute("data-status", "done", timeout=120_000)
        expect(widget.locator("[data-testid=token-count]")).to_have_text(f"{len(ids):,}")
        first = assert_a_window_of_the_tokens(widget, ids)
        assert first[0] == 0
        widget.evaluate("(node) => node.scrollIntoView({block: 'start'})")
        page.screenshot(path=shot_path("notebook-book-top.png"))

        # scrolled to the middle, then to the end: those rows are drawn, the first are gone
        for at, name in ((0.5, "middle"), (1.0, "end")):
            tokens.evaluate("(list, at) => { list.scrollTop = (list.scrollHeight - list.clientHeight) * at; }", at)
            if at < 1:
                expect(widget.locator("[data-testid=token][data-index='0']")).to_have_count(0)
            else:
                expect(widget.locator(f"[data-testid=token][data-index='{len(ids) - 1}']")).to_be_attached()
            shown = assert_a_window_of_the_tokens(widget, ids)
            assert shown[0] > first[-1]
            page.screenshot(path=shot_path(f"notebook-book-{name}.png"))

        # the book's last chip is a chip like the first: pointing at it names it, a click
        # asks the kernel "why this token?"
        last = widget.locator(f"[data-testid=token][data-index='{len(ids) - 1}']")
        last.hover()
        expect(widget.locator("[data-testid=inspector]")).to_contain_text(f"Token {len(ids):,} of {len(ids):,}")
        last.click()
        why = widget.locator("[data-testid=why]")
        # the kernel encodes the book again to answer (pipeline/why.py): seconds, not a frame
        expect(why).to_have_attribute("data-state", re.compile("^(steps|none)$"), timeout=60_000)
        expect(why).to_have_attribute("data-index", str(len(ids) - 1))

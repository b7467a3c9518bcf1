"""The interface in English, Vietnamese and Chinese: every view, every string.

The layout sweep (test_layout_sweep.py) opens every view in every language at two widths,
with a long text and two tokenizers, and checks there that the page is wholly in its
language (english_check.untranslated: no bare key, no missing string, the known labels gone,
the narration said) and that no English word is left (english_left). Here the same checks
run on the states the sweep does not reach: a WordPiece run at its third step, the encode
view's WordPiece steps, BERT's pipeline at its second step and a GGUF model's chat template;
then the plural forms, the narration in each language, and the choice of language.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from english_check import VISIBLE_STRINGS, described, english_left, untranslated

LANGS = ["en", "vi", "zh"]
# The states the sweep does not open (it has the tokenize and compare views, with more).
VIEWS = {
    "pipeline": "&tokenizer=bert-base-uncased&text=Hello%20world&step=2",
    "train": "&algo=wordpiece&corpus=course-toy&step=3",
    "encode": "&corpus=course-toy&algo=wordpiece&text=hugs&step=2",
    "chat": "&tokenizer=phi-3-gguf",
}


def open_view(app, lang: str, view: str):
    """`view` in `lang`, in its state of VIEWS (a view not there: as it opens by default)."""
    app.open(f"?lang={lang}&view={view}{VIEWS.get(view, '')}")
    page = app.page
    page.evaluate("async (name) => { const v = await window.subwordLab.showView(name); "
                  "if (v && v.settled) await v.settled(); }", view)
    return page


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("lang", LANGS)
def test_every_string_is_translated(app, lang, view):
    page = open_view(app, lang, view)
    problems = untranslated(page, lang, player=view in ("pipeline", "train", "encode"))
    assert problems == [], "\n".join(problems)
    left = english_left(page)
    assert left == [], "\n".join(described(left))
    if lang == "en" and view != "chat":  # the player's button label, looked for above
        assert "Play" in page.evaluate(VISIBLE_STRINGS)["strings"]


WEB = Path(__file__).resolve().parents[2] / "web"
# Strings whose number is never 1: a character split between tokens takes two at least, a
# tie two pairs, merges by rank stop short of a whole word at two symbols at least, a text
# too long to show has far more than one character, and a word with one segmentation has
# strings of its own (uenc.nbestOnly, uenc.nbestOnlyTitle).
NEVER_ONE = {"tok.joins", "train.narrate.tie", "bpe.wholeTaken", "train.text.kept", "uenc.nbest",
             "uenc.nbestTitle"}


def test_english_says_one_thing_not_1_things(app):
    """Every English string counted by {n} (or {count}, {words}, {size}, ...), said with 1: "1 piece",
    never "1 pieces" (a one-word text gave "Pre-tokenization cuts the text into 1 pieces").
    The modules that register strings are imported first, so strings of views not yet opened
    are seen too."""
    modules = sorted(p.relative_to(WEB).as_posix() for p in WEB.rglob("*.js")
                     if "register({" in p.read_text(encoding="utf-8") and not p.name.startswith("notebook"))
    app.open()
    said = app.page.evaluate("""async (modules) => {
      for (const m of modules) await import(new URL(m, document.baseURI).href);
      const i18n = await import(new URL('i18n/index.js', document.baseURI).href);
      return Object.entries(i18n.strings('en'))
        .filter(([, entry]) => /\\{(n|count|words|total|steps|changed|removed|added|tokens|size|chars|subs|dropped)\\}/.test(
          typeof entry === 'string' ? entry : entry.other))
        .map(([key]) => [key, i18n.t(key, { n: 1, count: 1, words: 1, total: 1, steps: 1, changed: 1,
                                              removed: 1, added: 1, tokens: 1, size: 1,
                                              chars: 1, subs: 1, dropped: 1 }, 'en')]); }""", modules)
    assert len(said) > 30, said
    wrong = [(key, text) for key, text in said if re.search(r"\b1 [a-z]+s\b(?! per\b)", text) and key not in NEVER_ONE]
    assert wrong == [], "\n".join(f"{key}: {text}" for key, text in wrong)


def test_narration_follows_the_language(app):
    """The same training step, narrated in each language: three different sentences."""
    said = {}
    for lang in LANGS:
        page = open_view(app, lang, "train")
        said[lang] = page.get_by_test_id("narration").first.text_content()
    assert len(set(said.values())) == 3, said
    assert re.search(r"[\u4e00-\u9fff]", said["zh"]), said["zh"]
    assert re.search(r"[ăâđêôơưạảấầẩậắằẳặẹẻẽếềểệỉịọỏốồổộớờởợụủứừửựỳỷỹ]", said["vi"], re.I), said["vi"]


def test_language_select_keeps_the_state(app):
    app.open("?view=train&algo=wordpiece&corpus=course-toy&step=3")
    page = app.page
    page.evaluate("async () => { const v = await window.subwordLab.showView('train'); await v.settled?.(); }")
    # The URL is updated after a short pause: wait until it holds the step.
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '3'")
    with page.expect_navigation():
        page.get_by_test_id("lang-select").select_option("zh")
    page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    query = page.evaluate("location.search")
    for part in ("lang=zh", "view=train", "algo=wordpiece", "corpus=course-toy", "step=3"):
        assert part in query, query
    assert page.get_by_test_id("view-tab-train").text_content() == "训练"
    assert page.get_by_test_id("lang-select").input_value() == "zh"


def test_browser_language_is_the_default(browser, site):
    """No ?lang=: the browser's language (here Vietnamese) picks the interface."""
    context = browser.new_context(locale="vi-VN")
    try:
        page = context.new_page()
        page.goto(f"{site}/")
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
        assert page.evaluate("window.subwordLab.lang()") == "vi"
        assert page.get_by_test_id("view-tab-tokenize").text_content() == "Tách token"
    finally:
        context.close()

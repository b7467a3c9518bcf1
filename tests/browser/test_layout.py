"""Layout faults a newcomer met on the surface (issue 24), one test each.

The sweep over every view, width and language is test_layout_sweep.py; these pin the
causes it found, each in the smallest page that shows it.
"""
from __future__ import annotations

from pathlib import Path

import pytest

MULTILINGUAL = (Path(__file__).resolve().parents[1] / "data" / "multilingual.txt").read_text(encoding="utf-8")

# Chips of the drawn rows that overlap another chip (each chip's box against the next ones').
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('#tokens [data-testid=token]')].map((c) => c.getBoundingClientRect());
  const bad = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) bad.push([i, j]);
  }
  return {chips: boxes.length, bad: bad.slice(0, 5), height: document.getElementById('tokens').clientHeight};
}"""


def click_view(page, name):
    """A tab click, then the view's settled() through showView, as docs/automation.md says."""
    page.get_by_test_id(f"view-tab-{name}").click()
    page.evaluate("async (n) => { const v = await window.subwordLab.showView(n); await v.settled(); }", name)


@pytest.mark.parametrize("first", ["train", "pipeline"])
def test_token_list_opened_on_another_view_measures_when_shown(app, first):
    """Item 1: a list first measured while hidden (display: none) used to keep rows 6.4 px tall."""
    app.open(f"?view={first}&lang=vi")
    click_view(app.page, "tokenize")
    found = app.page.evaluate(OVERLAPS)
    assert found["chips"] > 10 and found["bad"] == [], found
    row = app.page.evaluate("() => document.querySelector('#tokens [data-testid=token]').offsetHeight")
    assert found["height"] > 2 * row, found


def test_show_view_right_after_a_tab_click_gives_the_view(app):
    """showView(name) while the tab click's module still loads resolves to that view, not undefined."""
    app.open()
    kinds = app.page.evaluate("""async () => {
        const seen = [];
        for (const name of ['pipeline', 'compare', 'tokenize']) {
          document.querySelector(`[data-testid=view-tab-${name}]`).click();
          const view = await window.subwordLab.showView(name);
          await view.settled();
          seen.push(typeof view.settled);
        }
        return seen;
    }""")
    assert kinds == ["function"] * 3


def test_pipeline_wraps_and_tokenizes_the_same_text_as_tokenize(sized_page, site):
    """Item 5: the normalized text wraps (no sideways page) and newlines reach Pipeline."""
    for width, height in [(1280, 900), (390, 844)]:
        page = sized_page(width, height)
        try:
            page.goto(f"{site}/?tokenizer=gpt2")
            page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
            state = page.evaluate("async (t) => { await window.subwordLab.setText(t); return window.subwordLab.settled(); }",
                                  MULTILINGUAL)
            assert state["encodedChars"] == len(MULTILINGUAL.encode("utf-16-le")) // 2, "the whole text is tokenized"
            click_view(page, "pipeline")
            assert page.get_by_test_id("pipeline-text").input_value() == MULTILINGUAL
            finals = page.eval_on_selector_all("[data-testid=final-token]", "els => els.map(e => Number(e.dataset.tokenId))")
            assert finals == state["ids"]
            # A tokenizer with a normalizer: its whole normalized text is shown, and must wrap.
            page.get_by_test_id("pipeline-tokenizer").select_option("bert-base-uncased")
            page.evaluate("async () => { await (await window.subwordLab.showView('pipeline')).settled();"
                          " window.subwordLab.player().seek(4); }")
            assert len(page.get_by_test_id("normalized-text").get_attribute("data-text")) > 2000
            over = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert over <= 0, f"the page scrolls sideways by {over} px at {width}"
        finally:
            page.close()


FIRST_SCREEN = """() => {
  const box = document.querySelector('[data-testid=text-input]').getBoundingClientRect();
  const chip = document.querySelector('#tokens [data-testid=token]').getBoundingClientRect();
  return {box: box.top, chip: chip.top + chip.height / 2, fold: window.innerHeight};
}"""


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
def test_first_screen_is_the_text_and_its_tokens(sized_page, site, lang):
    """Item 11: at 1280x900 and 360x740 (the narrowest common phone, its browser's bars
    taking some of the screen) the text box and its first tokens are above the fold; on the
    phone, a touch screen, the hint under the counts speaks of tapping, not pointing."""
    for width, height in [(1280, 900), (360, 740)]:
        page = sized_page(width, height, phone=width < 600)
        try:
            page.goto(f"{site}/?lang={lang}")
            page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
            page.evaluate("async () => await window.subwordLab.settled()")
            seen = page.evaluate(FIRST_SCREEN)
            assert seen["box"] < seen["fold"] / 2 and seen["chip"] < seen["fold"], (lang, width, seen)
            assert not page.get_by_test_id("preset-note").is_visible(), "a note about presets nobody asked for"
            hint = page.evaluate("document.getElementById('inspector').dataset.i18n")
            assert hint == ("tok.inspectorTouch" if width < 600 else "tok.inspector"), (width, hint)
        finally:
            page.close()


COURSE_WIDGETS = """() => {
  const train = document.querySelector('subword-lab[view=train]').shadowRoot;
  const clipped = [...train.querySelectorAll('.train-chips')].filter((c) => c.scrollWidth > c.clientWidth + 1).length;
  const pairs = [...train.querySelectorAll('[data-testid=pair-row]')].map((row) => {
    const cell = row.querySelector('td');
    const chip = cell.querySelector('*');
    return cell.getBoundingClientRect().height / chip.getBoundingClientRect().height;
  });
  const compare = document.querySelector('subword-lab[view=compare]');
  return {width: train.host.getBoundingClientRect().width, clipped, pairs, chips: train.querySelectorAll('.train-chips').length,
          theme: compare.dataset.theme, scheme: getComputedStyle(compare).colorScheme};
}"""


def test_course_column_widgets_fit_and_follow_the_page_theme(app):
    """Item 14: in the course page's 736 px column the train widget shows whole splits and one-line
    pairs; the compare widget is light on the light page and turns dark when the page does."""
    page = app.page
    page.goto(f"{app.site}/examples/course.html")
    page.wait_for_function("() => [...document.querySelectorAll('subword-lab')].every((e) => e.dataset.state === 'ready')",
                           timeout=180_000)
    seen = page.evaluate(COURSE_WIDGETS)
    assert 700 < seen["width"] < 800 and seen["chips"] >= 5, seen
    assert seen["clipped"] == 0, seen
    assert seen["pairs"] and max(seen["pairs"]) < 2, f"a pair cell wraps: {seen['pairs']}"
    assert seen["theme"] == "light" and seen["scheme"] == "light", seen
    page.evaluate("() => { document.body.style.background = '#16181c'; document.body.style.color = '#eee'; }")
    page.wait_for_function("() => document.querySelector('subword-lab[view=compare]').dataset.theme === 'dark'")
    assert page.evaluate(COURSE_WIDGETS)["scheme"] == "dark"


# A link naming a tokenizer (or a training algorithm) the page does not have: every view
# that reads the name says so and shows a real one (before, the pipeline, chat and train
# views swapped in another without a word, and the compare view kept a blank column that
# waited for ever).
BAD_LINKS = {
    "tokenize": "?tokenizer=nope",
    "pipeline": "?view=pipeline&tokenizer=nope&text=Hi",
    "encode": "?view=encode&tokenizer=nope&text=Hi",
    "compare": "?view=compare&tokenizers=gpt2,nope,bert-base-uncased&text=Hi",
    "chat": "?view=chat&tokenizer=nope",
    "train": "?view=train&algo=nope&corpus=course-toy",
}
SAID = """(view) => {
  const root = document.getElementById('view-' + view);
  const said = [...root.querySelectorAll('p, [role=status], [role=alert]')]
    .filter((e) => e.offsetParent !== null && e.textContent.includes('“nope”'));
  const selects = [...root.querySelectorAll('select')].filter((s) => s.offsetParent !== null);
  return {said: said.map((e) => e.textContent), blank: selects.filter((s) => s.selectedIndex < 0).length,
          values: selects.map((s) => s.value)};
}"""


def test_a_link_to_a_tokenizer_the_page_lacks_says_so(app):
    for i, (view, query) in enumerate(BAD_LINKS.items()):
        app.open(f"{query}&lang={['en', 'zh'][i % 2]}")  # the line's strings in both, by turns
        app.page.evaluate("async (v) => { const x = await window.subwordLab.showView(v);"
                          " if (x && x.settled) await x.settled(); await window.subwordLab.settled(); }", view)
        seen = app.page.evaluate(SAID, view)
        assert len(seen["said"]) == 1, (view, seen)
        assert seen["blank"] == 0, (view, seen)
        if view == "compare":
            assert seen["values"][:2] == ["gpt2", "bert-base-uncased"], seen

"""The Unigram lattice at both widths: it fits its box at 1280 px (XLM-R's "▁unbelievably"
was cut at position 10), no two of its labels overlap (edge pieces, scores, characters,
the numbers under each position), the page never scrolls sideways, and a tie in the n
best list is said in words (the course's "hugs": three segmentations of one score), in
the three languages.
"""
from __future__ import annotations

import pytest

from shots import shot_path

WIDTHS = [(1280, 900), (390, 844)]
CASES = [("tokenizer=xlm-roberta", "unbelievably"), ("tokenizer=botchan-unigram", "unbelievably"),
         ("algo=unigram&corpus=course-toy", "hugs")]

OVERLAPS = """() => {
  const texts = [...document.querySelectorAll('svg.lattice text')].filter((t) =>
    t.textContent.trim() && !t.closest('.is-hidden'));
  const boxes = texts.map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) out.push([a, b]);
  }
  return out;
}"""


def last_step(app, query, text, lang="en"):
    app.open(f"?view=encode&{query}&text={text}&step=100000&lang={lang}")
    app.page.evaluate("async () => { await (await window.subwordLab.showView('encode')).settled(); }")
    app.page.wait_for_selector("[data-testid=unigram-nbest][data-state=done]", timeout=120_000)


@pytest.mark.parametrize("query, text", CASES)
def test_lattice_fits_and_labels_do_not_overlap(app, query, text):
    for width, height in WIDTHS:
        app.page.set_viewport_size({"width": width, "height": height})
        last_step(app, query, text)
        assert app.page.evaluate(OVERLAPS) == [], (query, width)
        sizes = app.page.evaluate("(() => { const s = document.querySelector('.lattice-scroll');"
                                  " return [s.scrollWidth, s.clientWidth]; })()")
        if width == 1280:
            assert sizes[0] <= sizes[1], sizes
        assert app.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        app.page.screenshot(path=shot_path(f"lattice-{text}-{query.split('=')[-1]}-{width}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
def test_a_tie_in_the_n_best_list_is_explained(app, lang):
    last_step(app, "algo=unigram&corpus=course-toy", "hugs", lang)
    items = app.page.get_by_test_id("nbest-item")
    scores = [float(items.nth(i).get_attribute("data-score")) for i in range(items.count())]
    tied = [i for i, s in enumerate(scores) if scores.count(s) > 1]
    assert len(tied) >= 3  # the course's example: h·ugs, hu·gs, hug·s
    notes = app.page.get_by_test_id("nbest-tie")
    assert notes.count() == len({scores[i] for i in tied})
    note = notes.first.text_content()
    for i in tied[:3]:
        assert str(i + 1) in note
    # #1 is the path the encoder took (the lattice's best edges), so the note may say why
    best = app.page.evaluate("""() => [...document.querySelectorAll('[data-testid=lattice-edge][data-best=true]')]
        .sort((a, b) => a.dataset.start - b.dataset.start).map((e) => e.dataset.piece)""")
    first = items.first.locator(".nbest-token").all_text_contents()
    assert best == first

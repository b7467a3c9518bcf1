"""The Unigram training view as a reader sees it, for both methods, at both widths, in the
three languages: the status's step count is the player's, every list names what its
numbers are (counts before the end, log-probabilities at it), no number is printed with
a dozen digits (the exact value is on hover), the pruning rounds list shows whole lines,
and counts read in the singular where they are one ("1 step/s", "Done: 1 token.").
"""
from __future__ import annotations

import re

import pytest

from shots import shot_path
from test_unigram_views import open_train as open_unigram_train, seek_main as seek

WIDTHS = [(1280, 900), (390, 844)]
LONG_DECIMAL = re.compile(r"\d[.,]\d{6,}")


def open_train(app, query):
    length = open_unigram_train(app, query)
    app.page.wait_for_function("() => /\\d/.test(document.querySelector('[data-testid=train-status]').textContent)")
    return length


# The head line of every list shown: what its numbers are.
HEADS = """() => [...document.querySelectorAll('.unigram-train .ut-list')]
    .filter((b) => !b.hidden).map((b) => b.querySelector('.ut-head .value').textContent)"""


def heads(app):
    return app.page.evaluate(HEADS)


# Every step from 1 to `length` in one round trip (two per step made most of this file's
# time): seek as seek_main does, wait for the player to show the step and for two frames,
# then read what the checks below judge.
WALK = """async ({length, timeout}) => {
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const position = () => document.querySelector('#player-slot [data-testid=player-position]').textContent;
  const heads = """ + HEADS + """;
  const cut = () => {
    const ol = document.querySelector('[data-testid=unigram-rounds]');
    const box = ol.getBoundingClientRect();
    return [...ol.children].filter((li) => {
      const r = li.getBoundingClientRect();
      const inside = r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
      const outside = r.bottom <= box.top + 0.5 || r.top >= box.bottom - 0.5;
      return !inside && !outside;
    }).map((li) => li.textContent);
  };
  const seen = [];
  for (let k = 1; k <= length; k++) {
    window.subwordLab.player().seek(k);
    const since = performance.now();
    while (!position().startsWith(k + ' /')) {
      if (performance.now() - since > timeout) throw new Error(`step ${k} never shown: ${position()}`);
      await frames();
    }
    await frames();
    seen.push({heads: heads(), cut: cut(),
               shown: document.querySelector('.unigram-train').innerText
                 + document.querySelector('#player-slot [data-testid=narration]').textContent});
  }
  return seen;
}"""


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
@pytest.mark.parametrize("method", ["exact", "em"])
def test_unigram_training_reads_clearly(app, lang, method):
    """Opened at the first width, then the window narrowed to the second and every step
    walked again: the lists must reflow (one training run, not one per width)."""
    app.page.set_viewport_size({"width": WIDTHS[0][0], "height": WIDTHS[0][1]})
    length = open_train(app, f"?view=train&algo=unigram&corpus=course-sentences&method={method}&lang={lang}")
    status = app.page.get_by_test_id("train-status").text_content()
    assert int(re.search(r"\d+", status).group()) == length, (status, length)
    for width, height in WIDTHS:
        app.page.set_viewport_size({"width": width, "height": height})
        seek(app, 0)
        at_start = heads(app)
        assert at_start and all(at_start), at_start
        for k, seen in enumerate(app.page.evaluate(WALK, {"length": length, "timeout": 30_000}), 1):
            assert all(seen["heads"]), (k, seen["heads"])
            assert not LONG_DECIMAL.search(seen["shown"]), (k, LONG_DECIMAL.search(seen["shown"]).group())
            assert seen["cut"] == [], (k, width)
        at_end = heads(app)
        assert at_end[-1] != at_start[-1]  # the vocabulary's numbers changed meaning: log-probabilities
        app.page.screenshot(path=shot_path(f"train-unigram-{method}-{lang}-{width}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
def test_one_reads_in_the_singular(app, lang):
    app.open(f"?view=encode&tokenizer=gpt2&text=Hello&lang={lang}")
    app.page.evaluate("async () => { await (await window.subwordLab.showView('encode')).settled(); }")
    options = app.page.eval_on_selector_all("[data-testid=player-speed] option", "os => os.map((o) => o.textContent)")
    english = {"en": "1 step/s"}.get(lang)
    assert not any(re.match(r"1 steps\b", o) for o in options), options
    if english:
        assert english in options
    seek(app, app.page.evaluate("() => window.subwordLab.player().length"))
    narration = app.page.locator("#player-slot [data-testid=narration]").text_content()
    assert not re.search(r"\b1 tokens\b", narration), narration
    if lang == "en":
        assert "Done: 1 token." in narration
    # one piece removed in a Unigram round: "the one piece", not "the 1 whose removal..."
    open_train(app, f"?view=train&algo=unigram&corpus=course-toy&method=exact&step=3&lang={lang}")
    said = app.page.locator("#player-slot [data-testid=narration]").text_content()
    assert not re.search(r"(the|Loại|其中) 1\b", said), said
    # the pipeline's last step when the tokenizer adds nothing: "none of them", not "(0 added)"
    app.open(f"?view=pipeline&tokenizer=gpt2&text=Hello&step=4&lang={lang}")
    app.page.evaluate("async () => { await (await window.subwordLab.showView('pipeline')).settled(); }")
    said = app.page.locator("#player-slot [data-testid=narration]").text_content()
    assert not re.search(r"[(（](其中 )?0\b", said), said

"""The train view (view=train) in Chromium: what it draws at each step is what the
Python trainers compute (expected values come from webapi.train in CPython, the same
code the page runs under Pyodide, checked against the course and `tokenizers` in
tests/python/test_web_train.py)."""
from __future__ import annotations

import json
import random
import string
from fractions import Fraction
from pathlib import Path

import pytest

from subword_lab.web import api as webapi
from shots import shot_path



def python_run(**args):
    events = []
    webapi.train(json.dumps(args), lambda e: events.append(json.loads(e)))
    return [e for e in events if e["type"] == "merge"]


def open_train(app, query):
    app.open(f"?view=train&{query}")
    page = app.page
    page.wait_for_selector("[data-testid=train-status]:has-text('Done')", timeout=120_000)
    page.evaluate("async () => { const v = await window.subwordLab.showView('train'); await v.settled(); }")
    return page


def position(page):
    return page.get_by_test_id("player-position").text_content()


def goto(page, k):
    page.evaluate("(k) => window.subwordLab.player().seek(k)", k)
    page.wait_for_function("(k) => document.querySelector('[data-testid=player-position]').textContent.startsWith(k + ' /')", arg=k)


def vocab(page):
    return page.eval_on_selector_all("[data-testid=vocab-item]", "els => els.map(e => e.textContent)")


def view_text(page):
    return page.evaluate("() => document.querySelector('section.view:not([hidden])').innerText")


def test_wordpiece_toy_steps(app):
    merges = python_run(algo="wordpiece", corpus="course-toy")
    page = open_train(app, "algo=wordpiece&corpus=course-toy&step=0")
    assert position(page).startswith("0 /")
    assert vocab(page) == []
    page.get_by_test_id("player-step-forward").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=vocab-item]').length === 1")
    assert vocab(page)[-1] == "##gs"
    winner = page.locator("[data-testid=pair-row][data-winner=true]")
    assert winner.get_attribute("data-pair") == "##g ##s"
    assert winner.get_by_test_id("pair-score").text_content().startswith("1/20 = 5 / (20 × 5)")
    narration = page.get_by_test_id("narration").text_content()
    assert "Step 1 of" in narration and "##gs" in narration
    page.get_by_test_id("player-step-forward").click()
    page.get_by_test_id("player-step-forward").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=vocab-item]').length === 3")
    third = merges[2]
    assert vocab(page) == ["##gs", "hu", third["token"]]
    score = Fraction(third["count"], third["left_count"] * third["right_count"])
    cell = page.locator("[data-testid=pair-row][data-winner=true] [data-testid=pair-score]").text_content()
    assert cell.startswith(f"{score.numerator}/{score.denominator} = ")


def test_bpe_toy_first_merges(app):
    page = open_train(app, "algo=bpe&corpus=course-toy&step=3")
    assert vocab(page) == [m["token"] for m in python_run(algo="bpe", corpus="course-toy")][:3]
    assert vocab(page) == ["ug", "un", "hug"]


@pytest.mark.parametrize("tie_break", ["first", "hf"])
def test_bpe_course_sentences_merge_lists(app, tie_break):
    expected = [m["token"] for m in python_run(algo="bpe", corpus="course-sentences",
                                                tie_break=tie_break, vocab_size=50) if m["new"]]
    page = open_train(app, f"algo=bpe&corpus=course-sentences&vocab_size=50&tie_break={tie_break}")
    assert position(page) == f"{len(expected)} / {len(expected)}"
    assert vocab(page) == expected
    if tie_break == "first":
        assert expected[:3] == ["Ġt", "is", "er"]
    else:
        assert expected[:3] == ["Ġt", "er", "is"]
    summary = page.get_by_test_id("train-summary").text_content()
    assert ("first occurrence" in summary) == (tie_break == "first")


def test_settled_means_the_step_is_drawn(app):
    """settled() resolves once the step asked for is on the page, not a frame later: the
    player draws at the next animation frame, and a test that read the position right after
    settled() once saw "0 / 0" for a finished run (a busy machine, no frame in between).
    Seeking and awaiting in one task leaves no frame between them."""
    page = open_train(app, "algo=bpe&corpus=course-sentences&tie_break=first")
    shown = page.evaluate("""async () => {
        const v = await window.subwordLab.showView('train');
        window.subwordLab.player().seek(3);
        await v.settled();
        return document.querySelector('[data-testid=player-position]').textContent;
    }""")
    assert shown.startswith("3 / ")


def test_stepping_back_restores_the_state_exactly(app):
    page = open_train(app, "algo=bpe&corpus=course-sentences&tie_break=first&step=5")
    before = view_text(page)
    page.get_by_test_id("player-step-forward").click()
    page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent.startsWith('6 /')")
    assert view_text(page) != before
    page.get_by_test_id("player-step-back").click()
    page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent.startsWith('5 /')")
    assert view_text(page) == before
    # and from far away: the end, then back to 5
    goto(page, 19)
    goto(page, 5)
    assert view_text(page) == before


def test_link_with_step_opens_that_step_and_keyboard_drives_player(app):
    page = open_train(app, "algo=wordpiece&corpus=course-sentences&step=4")
    assert position(page).startswith("4 /")
    assert vocab(page) == ["ab", "##fu", "Fa", "Fac"]
    # No click into the view first: the keys work wherever the focus is (here: nowhere).
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent.startsWith('5 /')")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent.startsWith('3 /')")
    page.keyboard.press(" ")
    page.wait_for_function("() => document.querySelector('[data-testid=player-play]').getAttribute('aria-pressed') === 'true'")
    page.keyboard.press(" ")
    page.wait_for_function("() => document.querySelector('[data-testid=player-play]').getAttribute('aria-pressed') === 'false'")
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === document.querySelector('[data-testid=player-position]').textContent.split(' /')[0]")


def test_cancel_botchan_run_keeps_page_usable(app):
    page = open_train(app, "algo=wordpiece&corpus=course-toy")
    page.get_by_test_id("train-corpus").select_option("botchan")
    page.get_by_test_id("train-algo").select_option("bpe")
    assert page.get_by_test_id("train-vocab-size").input_value() == "5257"
    # The form's largest vocabulary: a run far longer than the checks below, so Cancel always
    # meets it running (the default 5,000 merges once ended first on a busy machine).
    page.get_by_test_id("train-vocab-size").fill("100000")
    page.get_by_test_id("train-button").click()
    page.wait_for_function("() => !document.querySelector('[data-testid=train-cancel]').disabled")
    # While it trains, the status and the bar say how far it has come.
    page.wait_for_selector("[data-testid=train-status]:has-text('of 99,743')", timeout=120_000)
    assert page.get_by_test_id("train-progress").is_visible()
    assert page.evaluate("document.querySelector('[data-testid=train-progress]').max") == 99_743
    page.get_by_test_id("train-cancel").click()
    page.wait_for_selector("[data-testid=train-status]:has-text('cancelled')", timeout=10_000)
    assert page.get_by_test_id("train-cancel").is_disabled()
    assert not page.get_by_test_id("train-button").is_disabled()
    # the main worker still tokenizes, and a new run (in a fresh worker) still trains
    assert page.evaluate("() => window.subwordLab.encode('hello world', 'gpt2')")["ids"]
    page.get_by_test_id("train-corpus").select_option("course-toy")
    page.get_by_test_id("train-button").click()
    page.wait_for_selector("[data-testid=train-status]:has-text('Done')", timeout=120_000)
    page.evaluate("() => { window.subwordLab.player().pause(); window.subwordLab.player().seek(3); }")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=vocab-item]').length === 3")
    assert vocab(page) == ["ug", "un", "hug"]


def test_train_button_plays_from_the_first_step(app):
    """Pressing Train shows the run from step 0 and plays it to the end; the status
    counts the steps the player shows."""
    page = open_train(app, "algo=bpe&corpus=course-toy")
    page.get_by_test_id("train-button").click()
    page.wait_for_selector("[data-testid=train-status]:has-text('Done')", timeout=120_000)
    first = position(page)
    total = int(first.split("/")[1])
    assert int(first.split("/")[0]) < total, first  # not at the end when it finishes
    page.wait_for_function("() => { const p = document.querySelector('[data-testid=player-position]').textContent.split(' / ');"
                           " return p[0] === p[1]; }", timeout=60_000)
    assert f"{total} steps" in page.get_by_test_id("train-status").inner_text()


def test_use_in_tokenize_and_download(app):
    page = open_train(app, "algo=bpe&corpus=course-sentences&tie_break=first")
    with page.expect_download() as info:
        page.get_by_test_id("train-download").click()
    saved = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert saved["model"]["type"] == "BPE" and len(saved["model"]["merges"]) == 19
    page.get_by_test_id("train-use").click()
    page.wait_for_function("() => window.subwordLab.view() === 'tokenize'")
    app.settled()
    key = page.get_by_test_id("tokenizer-select").input_value()
    assert key.startswith("file-")
    app.type_text("This is not a token.")
    tokens = [t[3] for t in app.tokens()]
    # (a chip shows what its token decodes to: a space as ␣; Ġ is the vocabulary's spelling)
    assert tokens == ["This", "␣is", "␣", "n", "o", "t", "␣a", "␣token", "."]


@pytest.mark.parametrize("query", ["algo=bpe&corpus=course-sentences&step=3",
                                   "algo=wordpiece&corpus=course-toy&step=1"])
def test_accessibility_axe(app, query):
    page = open_train(app, query)
    app.inject_axe()
    results = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results["violations"]
           if v["impact"] in ("serious", "critical")]
    assert bad == []


def test_screenshots(app):
    page = open_train(app, "algo=bpe&corpus=course-sentences&tie_break=first&step=3")
    page.screenshot(path=shot_path("screenshot-train-bpe.png"), full_page=True)
    page = open_train(app, "algo=wordpiece&corpus=course-toy&step=1")
    page.screenshot(path=shot_path("screenshot-train-wordpiece.png"), full_page=True)


def test_a_20_mb_corpus_reads_with_progress_and_cancel_stops_it(app, tmp_path):
    """The form takes a 20 MB file (kept aside: a text box that long would freeze the
    page), the run says how much of it is read, keeps going past the main worker's 20 s
    deadline (a run has none: the user watches it and can cancel), and Cancel ends it.
    The page's clock is Playwright's, which time flows through as usual: moved 21 s ahead
    at once, it fires every timer due by then, a deadline's too, without waiting 21 s."""
    corpus = tmp_path / "corpus.txt"
    # Two made-up words a line, drawn at random: hundreds of thousands of distinct
    # words, so 100,000 merges take about a minute in the page, and the run is still
    # going when Cancel comes (a corpus of a few thousand repeated words finished them
    # all in 19 s).
    rng = random.Random(20)
    with corpus.open("w", encoding="utf-8") as out:
        written, i = 0, 0
        while written < 20_000_000:
            a, b = ("".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 10)))
                    for _ in range(2))
            text = f"Line {i} of a long corpus: {a} and {b} come back again.\n"
            out.write(text)
            written += len(text)
            i += 1
    size = corpus.stat().st_size
    app.page.clock.install()
    page = open_train(app, "algo=bpe&corpus=course-toy")
    page.get_by_test_id("train-corpus").select_option("custom")
    page.get_by_test_id("train-file").set_input_files(str(corpus))
    page.wait_for_selector("[data-testid=train-status]:has-text('Loaded corpus.txt')", timeout=60_000)
    assert f"{size:,}" in page.get_by_test_id("train-status").text_content()
    assert page.get_by_test_id("train-text").input_value() == ""
    assert "corpus.txt" in page.get_by_test_id("train-text").get_attribute("placeholder")
    # The largest vocabulary the form takes: the run is still merging when Cancel comes
    # (CPython alone needs 21 s for these 100,000 merges; Pyodide about three times that).
    page.get_by_test_id("train-vocab-size").fill("100000")
    page.get_by_test_id("train-button").click()
    page.wait_for_selector("[data-testid=train-status]:has-text('Reading the corpus')", timeout=120_000)
    bar = "document.querySelector('[data-testid=train-progress]')"
    assert page.evaluate(f"{bar}.max") == size
    first = page.evaluate(f"{bar}.value")
    # Reading goes on, and past the 20 s a request may take elsewhere.
    page.wait_for_function(f"(v) => {bar}.value > v", arg=first, timeout=120_000)
    first = page.evaluate(f"{bar}.value")
    page.clock.fast_forward(21_000)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    # Still running past 20 s: reading, or on a quick machine already merging.
    assert page.get_by_test_id("train-error").text_content() == ""
    status = page.get_by_test_id("train-status").text_content()
    assert "Reading the corpus" in status or "Training" in status, status
    if "Reading the corpus" in status:
        page.wait_for_function(f"(v) => {bar}.value > v", arg=first, timeout=120_000)
    # Cancel stops the run at its next progress step: the status says so before the
    # bar moves more than once, and the bar does not move after it (events, not a clock).
    page.evaluate("""() => {
        window.__cancel = { moves: 0, movesAfter: 0, done: false };
        const status = document.querySelector('[data-testid=train-status]');
        const bar = document.querySelector('[data-testid=train-progress]');
        new MutationObserver(() => {
          if (!window.__cancel.done && status.textContent.includes('cancelled')) window.__cancel.done = true;
        }).observe(status, { childList: true, characterData: true, subtree: true });
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.oldValue === bar.getAttribute('value')) continue; // written again, not moved
            if (window.__cancel.done) window.__cancel.movesAfter++; else window.__cancel.moves++;
          }
        }).observe(bar, { attributes: true, attributeOldValue: true, attributeFilter: ['value'] });
        document.querySelector('[data-testid=train-cancel]').click();
    }""")
    page.wait_for_selector("[data-testid=train-status]:has-text('cancelled')", timeout=10_000)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    cancel = page.evaluate("window.__cancel")
    assert cancel["moves"] <= 1, f"the run went on for {cancel['moves']} progress steps after Cancel"
    assert cancel["movesAfter"] == 0, "the run went on after it said it was cancelled"
    assert not page.get_by_test_id("train-button").is_disabled()
    page.screenshot(path=shot_path("train-20mb-cancelled.png"))

"""The encode view: WordPiece longest match and BPE merges, drawn from subword_lab's events."""
from __future__ import annotations

import json

from subword_lab.web import api as webapi
from shots import shot_path

AXE_BAD = "() => axe.run(document).then(r => r.violations.filter(v => ['serious','critical'].includes(v.impact)).map(v => v.id + ': ' + v.nodes.map(n => n.target).join(' ')))"


def python_events(algo, text):
    webapi.open_toy(json.dumps({"corpus": "course-toy", "algo": algo}))
    events = []
    result = json.loads(webapi.trace_encode(json.dumps({"key": f"course-toy-{algo}", "text": text}),
                                            lambda e: events.append(json.loads(e))))
    return events, result


def open_encode(app, query):
    app.open(query)
    app.page.evaluate("async () => { await window.subwordLab.ready; }")
    app.page.wait_for_selector("[data-testid=player-position]:not(:empty)")
    app.page.evaluate("async () => { const v = await window.subwordLab.showView('encode'); await v.settled(); }")


def position(app):
    return app.page.get_by_test_id("player-position").text_content()


def stage_html(app):
    return app.page.eval_on_selector("[data-testid=encode-stage]", "e => e.innerHTML")


def go_end(app):
    app.page.get_by_test_id("player-end").click()
    app.page.wait_for_function("() => { const p = document.querySelector('[data-testid=player-position]').textContent.split(' / '); return p[0] === p[1]; }")


def texts(app, testid):
    return app.page.eval_on_selector_all(f"[data-testid={testid}]", "els => els.map(e => e.textContent)")


def test_wordpiece_hugs(app):
    events, result = python_events("wordpiece", "hugs")
    open_encode(app, "?view=encode&algo=wordpiece&corpus=course-toy&text=hugs")
    go_end(app)
    result_tokens = app.page.eval_on_selector_all("[data-testid=result-token]", "els => els.map(e => Number(e.dataset.tokenId))")
    assert result_tokens == result["ids"]
    assert [t.replace("\u200b", "") for t in texts(app, "result-token")] == ["hug", "##s"] == result["tokens"]
    assert app.page.get_by_test_id("encode-result").get_attribute("data-final") == "true"
    # Every candidate Python tried for the word is listed, found or not, in order.
    tried = [(e["candidate"], e["found"]) for e in events if e["type"] == "wordpiece.try"]
    shown = app.page.eval_on_selector_all("[data-testid=wp-try]", "els => els.map(e => [e.dataset.candidate, e.dataset.found === 'true'])")
    assert [tuple(s) for s in shown] == tried
    assert ("hugs", False) in tried and ("hug", True) in tried


def test_wordpiece_unk_explained(app):
    events, _ = python_events("wordpiece", "mug")
    unk = next(e for e in events if e["type"] == "wordpiece.unk")
    open_encode(app, "?view=encode&algo=wordpiece&corpus=course-toy&text=mug")
    go_end(app)
    box = app.page.get_by_test_id("wp-unk")
    assert box.get_attribute("data-position") == str(unk["position"]) == "0"
    assert "[UNK]" in box.text_content() and "“mug”" in box.text_content()
    assert texts(app, "result-token") == ["[UNK]"]
    assert "[UNK]" in app.page.get_by_test_id("narration").text_content()


def next_frame(app):
    """Wait until the browser has drawn the next frame (the view renders before it)."""
    app.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def test_bpe_merges_in_rank_order(app):
    text = "hugs bugs"
    events, result = python_events("bpe", text)
    open_encode(app, f"?view=encode&algo=bpe&corpus=course-toy&text={text.replace(' ', '%20')}")
    n = int(position(app).split(" / ")[1])
    # Walk every step; at each, the merge table is the word's merges so far, as Python sent them.
    per_word = []
    for e in events:
        if e["type"] == "bpe.word":
            per_word.append([])
        elif e["type"] == "bpe.merge":
            per_word[-1].append([e["rank"], " ".join(e["pair"])])
    # The tables shown, step by step, must be each word's merges so far, in order: one
    # more merge per step within a word, then the next word's from its first merge.
    expected = [merges[:i] for merges in per_word for i in range(1, len(merges) + 1)]
    seen = []
    for k in range(1, n + 1):
        app.page.get_by_test_id("player-step-forward").click()
        app.page.wait_for_function(
            "(k) => document.querySelector('[data-testid=player-position]').textContent.startsWith(k + ' /')", arg=k)
        next_frame(app)
        rows = app.page.eval_on_selector_all("[data-testid=bpe-merge]", "els => els.map(e => [Number(e.dataset.rank), e.dataset.pair])")
        if rows and (not seen or rows != seen[-1]):
            seen.append(rows)
    assert seen == expected
    assert [r for r, _ in per_word[0]] == sorted(r for r, _ in per_word[0])
    assert app.page.eval_on_selector_all("[data-testid=result-token]", "els => els.map(e => Number(e.dataset.tokenId))") == result["ids"]


def test_step_back_restores_and_step_link(app):
    open_encode(app, "?view=encode&algo=wordpiece&corpus=course-toy&text=hugs%20bum&step=3")
    assert position(app).startswith("3 / ")
    before = stage_html(app)
    narration = app.page.get_by_test_id("narration").text_content()
    app.page.get_by_test_id("player-step-forward").click()
    app.page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent.startsWith('4 /')")
    assert stage_html(app) != before
    app.page.get_by_test_id("player-step-back").click()
    app.page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent.startsWith('3 /')")
    next_frame(app)
    assert stage_html(app) == before
    assert app.page.get_by_test_id("narration").text_content() == narration


def test_no_serious_axe_violations(app):
    for query in ("?view=encode&algo=wordpiece&corpus=course-toy&text=hugs%20mug&step=6",
                  "?view=encode&algo=bpe&corpus=course-toy&text=hugs&step=4"):
        open_encode(app, query)
        app.inject_axe()
        assert app.page.evaluate(AXE_BAD) == []


def test_screenshot(app):
    open_encode(app, "?view=encode&algo=wordpiece&corpus=course-toy&text=hugs%20bum&step=8")
    app.page.screenshot(path=shot_path("screenshot-encode-wordpiece.png"), full_page=True)

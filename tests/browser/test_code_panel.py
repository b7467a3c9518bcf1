"""The Code panel: the plain reference's source beside the encode view, stepping with it.

At every step of the player the highlighted line and the variables listed are those
the reference (subword_lab.reference, run here in CPython with a steps.Steps
recorder) reported for the model event the view is showing.
"""
from __future__ import annotations

import json

import pytest

from subword_lab.reference import bpe, steps, wordpiece
from subword_lab.web import api as webapi
from subword_lab.web.registry import REGISTRY

SHOTS = "/work/wt/shots-reference"
REFERENCES = {"bpe": bpe, "wordpiece": wordpiece}
# The model events the word-by-word views make a step of (encode/bpe.js, encode/wordpiece.js).
IS_STEP = {"bpe": lambda e: e["type"] != "bpe.done",
           "wordpiece": lambda e: e["type"] in {"wordpiece.word", "wordpiece.try", "wordpiece.unk"}}


def reference_steps(algo, text):
    """The reference's step for each model event the view steps through, in order."""
    webapi.open_toy(json.dumps({"corpus": "course-toy", "algo": algo}))
    tokenizer = REGISTRY.get(f"course-toy-{algo}")
    events = []
    tokenizer.encode(text, on_event=events.append)
    recorder = steps.Steps()
    for word in [e["text"] for e in events if e["type"] == "model_piece"]:
        REFERENCES[algo].encode(tokenizer.model, word, on_event=recorder)
    return [step for event, step in zip(recorder.events, recorder.steps) if IS_STEP[algo](event)]


def shown(app):
    return app.page.evaluate("""() => {
      const line = document.querySelector('[data-testid=code-line][data-current=true]');
      const vars = [...document.querySelectorAll('[data-testid=code-var]')]
        .map((v) => [v.dataset.name, JSON.parse(v.dataset.value)]);
      const fn = document.querySelector('[data-testid=code-function]').textContent;
      return {line: line ? Number(line.dataset.line) : null, vars: Object.fromEntries(vars), fn,
              text: line ? line.querySelector('.code-text').textContent : null};
    }""")


def open_with_code(app, algo, text):
    app.open(f"?view=encode&algo={algo}&corpus=course-toy&text={text}")
    app.page.evaluate("async () => { const v = await window.subwordLab.showView('encode'); await v.settled(); }")
    app.page.wait_for_selector("[data-testid=code-panel][data-follows=reference]", timeout=60_000)


@pytest.mark.parametrize("algo,text", [("bpe", "hugs mhug"), ("wordpiece", "hugs mug")])
def test_code_panel_steps_with_the_reference(app, algo, text):
    expected = reference_steps(algo, text)
    open_with_code(app, algo, text)
    total = int(app.page.get_by_test_id("player-position").text_content().split(" / ")[1])
    assert total == len(expected)
    assert shown(app)["line"] is None  # step 0: nothing reported yet
    for k, step in enumerate(expected, start=1):
        app.page.get_by_test_id("player-step-forward").click()
        app.page.wait_for_function(
            f"() => document.querySelector('[data-testid=player-position]').textContent.startsWith('{k} /')")
        seen = shown(app)
        assert seen["line"] == step["line"], (k, seen, step)
        assert seen["vars"] == step["vars"], (k, seen, step)
        assert step["function"] + "()" in seen["fn"]
        assert "report(" in seen["text"]  # the highlighted line is the one that reported the event
    # back one step: the panel follows the player backwards too
    app.page.get_by_test_id("player-step-back").click()
    app.page.wait_for_function(
        f"() => document.querySelector('[data-testid=player-position]').textContent.startsWith('{total - 1} /')")
    assert shown(app)["line"] == expected[-2]["line"] and shown(app)["vars"] == expected[-2]["vars"]
    app.page.screenshot(path=f"{SHOTS}/encode-{algo}-1280.png", full_page=True)


@pytest.mark.parametrize("name,query,clicks", [
    ("encode-bpe", "view=encode&algo=bpe&corpus=course-toy&text=hugs", 2),
    ("train-unigram", "view=train&algo=unigram&corpus=course-toy&step=2", 0),
    ("train-unigram-vi", "view=train&algo=unigram&corpus=course-sentences&method=em&vocab_size=40"
                         "&lang=vi", 0)])
def test_code_panel_on_a_phone(sized_page, site, name, query, clicks):
    page = sized_page(390, 844)
    page.goto(f"{site}/?{query}")
    page.wait_for_selector("[data-testid=code-panel][data-follows=reference]", timeout=120_000)
    for _ in range(clicks):
        page.get_by_test_id("player-step-forward").click()
    page.wait_for_selector("[data-testid=code-line][data-current=true]")
    # no horizontal page scroll: the listing scrolls inside its own box
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator("[data-testid=code-panel]").screenshot(path=f"{SHOTS}/{name}-panel-390.png")
    page.screenshot(path=f"{SHOTS}/{name}-390.png", full_page=True)


def reference_train_steps(algo):
    """The training reference's step for each merge of the course toy's run."""
    from subword_lab.reference import bpe_train, wordpiece_train
    from subword_lab.web import code

    events = []
    webapi.train(json.dumps({"algo": algo, "corpus": "course-toy"}), lambda e: events.append(json.loads(e)))
    module = {"bpe": bpe_train, "wordpiece": wordpiece_train}[algo]
    counts, kwargs = code.train_arguments(module, [e for e in events if e["type"] != "progress"])
    recorder = steps.Steps()
    module.train(counts, **kwargs, on_event=recorder)
    return [s for e, s in zip(recorder.events, recorder.steps) if e["type"] == "merge"]


@pytest.mark.parametrize("algo", ["bpe", "wordpiece"])
def test_code_panel_steps_with_a_training_run(app, algo):
    expected = reference_train_steps(algo)
    app.open(f"?view=train&algo={algo}&corpus=course-toy")
    app.page.evaluate("async () => { const v = await window.subwordLab.showView('train'); await v.settled(); }")
    app.page.wait_for_selector("[data-testid=code-panel][data-follows=reference]", timeout=60_000)
    app.page.get_by_test_id("player-start").click()
    app.page.wait_for_function(
        "() => document.querySelector('[data-testid=player-position]').textContent.startsWith('0 /')")
    assert shown(app)["line"] is None
    for k, step in enumerate(expected, start=1):
        app.page.get_by_test_id("player-step-forward").click()
        app.page.wait_for_function(
            f"() => document.querySelector('[data-testid=player-position]').textContent.startsWith('{k} /')")
        seen = shown(app)
        assert (seen["line"], seen["vars"]) == (step["focus"], step["vars"]), (k, seen, step)
        # the highlighted line picks the pair and its count; the dashed one reports the merge
        assert "pair, count, score = best[" in seen["text"]
        assert app.page.locator("[data-testid=code-line][data-reports=true]").get_attribute(
            "data-line") == str(step["line"])
    app.page.screenshot(path=f"{SHOTS}/train-{algo}-1280.png", full_page=True)


def reference_unigram_steps(args):
    """The training reference's step for each step of the Unigram view (0: the seed)."""
    from subword_lab.web import code

    events = []
    webapi.train(json.dumps(args), lambda e: events.append(json.loads(e)))
    answer = json.loads(code.reference_train(json.dumps(
        {"algorithm": "unigram", "events": events, "train": args})))
    assert answer["follows"] == "reference"
    kept = [e for e in events if e["type"] in code.UNIGRAM_EVENTS]
    by_type = list(zip(kept, answer["steps"]))
    seed = next(s for e, s in by_type if e["type"] == "unigram_seed")
    return [seed] + [s for e, s in by_type if e["type"] in {
        "unigram_em", "unigram_prune", "unigram_exact_round", "train_end"}]


def step_to(app, k):
    app.page.wait_for_function(
        f"() => document.querySelector('[data-testid=player-position]').textContent.startsWith('{k} /')")


@pytest.mark.parametrize("corpus,method", [("course-toy", "exact"), ("course-sentences", "em")])
def test_code_panel_steps_with_a_unigram_training_run(app, corpus, method):
    """Each step of the Unigram view (the seed, every EM step, pruning round, exact
    round and the final vocabulary) highlights the reference line that takes it, with
    the values the reference held there; the learner's line, not the report's."""
    args = {"algo": "unigram", "corpus": corpus, "method": method}
    if method == "em":
        args["vocab_size"] = 40
    expected = reference_unigram_steps(args)
    query = "&".join(f"{k}={v}" for k, v in args.items())
    app.open(f"?view=train&{query}")
    app.page.evaluate("async () => { const v = await window.subwordLab.showView('train'); await v.settled(); }")
    app.page.wait_for_selector("[data-testid=code-panel][data-follows=reference]", timeout=120_000)
    app.page.get_by_test_id("player-start").click()
    step_to(app, 0)
    total = int(app.page.get_by_test_id("player-position").text_content().split(" / ")[1])
    assert total == len(expected) - 1
    focused = set()
    for k, step in enumerate(expected):
        if k:
            app.page.get_by_test_id("player-step-forward").click()
            step_to(app, k)
        seen = shown(app)
        assert (seen["line"], seen["vars"]) == (step["focus"], step["vars"]), (k, seen, step)
        assert step["function"] + "()" in seen["fn"]
        if step["focus"] != step["line"]:
            focused.add(seen["text"].strip().split("(")[0])
            assert "report(" not in seen["text"]
            assert app.page.locator("[data-testid=code-line][data-reports=true]").get_attribute(
                "data-line") == str(step["line"])
    # the M step and pruning (em) or the removal (exact) are where the steps point
    assert focused == ({"removed = ranked[:max"} if method == "exact"
                       else {"pieces, dropped = m_step", "pieces, removed, unused = prune"}), focused
    app.page.screenshot(path=f"{SHOTS}/train-unigram-{method}-1280.png", full_page=True)

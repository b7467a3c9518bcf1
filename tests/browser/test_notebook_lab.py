"""docs/notebook.ipynb in a real JupyterLab (from PyPI, on loopback, no token, a temporary
root), opened in Chromium and run cell by cell from Lab's own Run menu: every tokens widget
shows chips with the ids the library gives, typing in one makes the kernel encode again and
the chips follow, the training widgets finish and step when played, no console error, no
request leaves the machine. One server for the session; screenshots in test-results/."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from jupyter_host import assert_run_plays, chip_ids, look, serve, watched_page
from shots import shot_path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "python"))
from train_helpers import NOTEBOOK_SAMPLE, notebook_runs, reference_training

from subword_lab.reference import bpe as reference_bpe, steps as reference_steps

from installed import require

require("jupyterlab", "anywidget")

NEW_TEXT = "They understand how tokenizers are trained."


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """A JupyterLab server with docs/notebook.ipynb in its empty root; its base URL."""
    with serve(tmp_path_factory.mktemp("lab"), "jupyterlab") as url:
        yield url


@pytest.fixture
def lab_page(browser, lab):
    with watched_page(browser, lab) as page:
        yield page


def run_all(page, lab):
    page.goto(f"{lab}/lab/tree/notebook.ipynb")
    # the notebook's kernel connected and idle (before that the indicator says idle with "No Kernel")
    page.wait_for_function("""() => document.querySelector('.jp-Toolbar-kernelName')?.textContent === 'Python 3 (ipykernel)'
        && document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status === 'idle'""", timeout=120_000)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()
    tokens = page.locator("[data-testid=notebook-tokens]")
    try:
        expect(tokens).to_have_count(4, timeout=60_000)
    except AssertionError:
        page.screenshot(path=shot_path("notebook-lab-failed.png"), full_page=True)
        raise
    done = page.locator("[data-testid=training-status][data-state=done]")
    expect(done).to_have_count(3, timeout=120_000)
    return tokens, page.locator("[data-testid=notebook-training]")


def train_reference_steps(algo, events):
    """The training reference's step for each merge of a run, trained again here on the
    run's word counts with its options."""
    recorder = reference_training(algo, events)
    return [step for event, step in zip(recorder.events, recorder.steps) if event["type"] == "merge"]


def test_notebook_widgets_in_jupyterlab(lab_page, lab):
    page = lab_page
    runs = notebook_runs()
    tokens, training = run_all(page, lab)
    expected = [runs[a][0] for a in ("bpe", "wordpiece", "unigram", "bpe")]
    for widget, tok in zip(tokens.all(), expected):
        widget.locator("[data-testid=token]").first.wait_for()
        assert chip_ids(widget) == tok.encode(NOTEBOOK_SAMPLE).ids
    for name, widget in zip(("bpe", "wordpiece", "unigram", "held"), tokens.all()):
        look(page, widget, f"notebook-tokens-{name}.png")

    # the three side by side: one row per tokenizer, each with its own ids
    rows = page.locator("[data-testid=notebook-compare] [data-testid=compare-row]")
    expect(rows).to_have_count(3)
    for row, algo in zip(rows.all(), ("bpe", "wordpiece", "unigram")):
        assert chip_ids(row) == runs[algo][0].encode(NOTEBOOK_SAMPLE).ids
    look(page, page.locator("[data-testid=notebook-compare]"), "notebook-compare.png")

    linked_and_explained(page, tokens.nth(1), runs["wordpiece"][0])

    # the text is the kernel's: typing makes it encode again, and the chips follow
    first = tokens.first
    first.locator("[data-testid=text]").fill(NEW_TEXT)
    want = [str(i) for i in runs["bpe"][0].encode(NEW_TEXT).ids]
    expect(first.locator("[data-testid=token]")).to_have_count(len(want))
    expect(first.locator("[data-testid=token]").first).to_have_attribute("data-token-id", want[0])
    assert chip_ids(first) == [int(i) for i in want]

    # each run ends on its last step; played, it starts again from the first and steps
    for widget, algo in zip(training.all(), ("bpe", "wordpiece", "unigram")):
        _, events = runs[algo]
        position = widget.locator("[data-testid=player-position]")
        look(page, widget, f"notebook-training-{algo}.png")
        steps = assert_run_plays(widget, algo, events)
        look(page, widget, f"notebook-training-{algo}-played.png")
        # the Code panel: BPE and WordPiece runs are small enough for the reference to
        # train again, and the first merges show its line and variables; a Unigram run
        # (its corpus stays in the kernel) follows the fast events
        panel = widget.locator("[data-testid=code-panel]")
        widget.locator("[data-testid=player-start]").click()
        expect(position).to_have_text(f"0 / {steps}")
        if algo == "unigram":
            expect(panel).to_have_attribute("data-follows", "fast")
            widget.locator("[data-testid=player-step-forward]").click()
            expect(widget.locator("[data-testid=code-line][data-current=true]")).to_have_count(1)
            continue
        expect(panel).to_have_attribute("data-follows", "reference")
        for k, step in enumerate(train_reference_steps(algo, events)[:3], start=1):
            widget.locator("[data-testid=player-step-forward]").click()
            expect(position).to_have_text(f"{k} / {steps}")
            expect(widget.locator("[data-testid=code-line][data-current=true]")).to_have_attribute(
                "data-line", str(step["focus"]))
            shown = dict(widget.locator("[data-testid=code-var]").evaluate_all(
                "vars => vars.map((v) => [v.dataset.name, JSON.parse(v.dataset.value)])"))
            assert shown == step["vars"], (algo, k, shown, step)
        look(page, widget, f"notebook-training-{algo}-code.png")

    # the steps widget: BPE on one word, merge by merge, ending in the encode's own tokens
    steps = page.locator("[data-testid=notebook-steps]").first
    expect(page.locator("[data-testid=notebook-steps]")).to_have_count(2)
    events = []
    encoding = runs["bpe"][0].encode(" tokenization", on_event=events.append, add_special_tokens=False)
    position = steps.locator("[data-testid=player-position]")
    expect(position).to_have_text(re.compile(r"^0 / [1-9]\d*$"))
    # the Code panel below it: at each step, the reference's line and variables for the
    # merge on the player (the reference run here on the pieces the model saw)
    recorder = reference_steps.Steps()
    for piece in [e["text"] for e in events if e["type"] == "model_piece"]:
        reference_bpe.encode(runs["bpe"][0].model, piece, on_event=recorder)
    expected = [step for event, step in zip(recorder.events, recorder.steps) if event["type"] != "bpe.done"]
    expect(steps.locator("[data-testid=code-panel]")).to_have_attribute("data-follows", "reference")
    assert position.text_content() == f"0 / {len(expected)}"
    for k, step in enumerate(expected, start=1):
        steps.locator("[data-testid=player-step-forward]").click()
        expect(position).to_have_text(f"{k} / {len(expected)}")
        current = steps.locator("[data-testid=code-line][data-current=true]")
        expect(current).to_have_attribute("data-line", str(step["line"]))
        shown = dict(steps.locator("[data-testid=code-var]").evaluate_all(
            "vars => vars.map((v) => [v.dataset.name, JSON.parse(v.dataset.value)])"))
        assert shown == step["vars"], (k, shown, step)
        if k == 2:
            look(page, steps, "notebook-steps-bpe-code.png")
    steps.locator("[data-testid=player-start]").click()
    look(page, steps, "notebook-steps-bpe.png")
    steps.locator("[data-testid=player-end]").click()
    expect(steps.locator("[data-testid=result-token]")).to_have_count(len(encoding.ids))
    assert chip_ids(steps, "result-token") == encoding.ids
    look(page, steps, "notebook-steps-bpe-end.png")

    # Unigram's steps end in the lattice's n best paths, the first the one the encode took
    unigram_steps = page.locator("[data-testid=notebook-steps]").nth(1)
    unigram_steps.locator("[data-testid=player-end]").click()
    encoding = runs["unigram"][0].encode("tokenization", add_special_tokens=False)
    items = unigram_steps.locator("[data-testid=nbest-item]")
    expect(items.first).to_be_visible()
    assert items.count() > 1
    assert items.first.locator(".nbest-token").all_text_contents() == \
        [t.replace(" ", "␣") for t in encoding.tokens]
    look(page, unigram_steps, "notebook-steps-unigram-nbest.png")

    # Lab's dark theme: the widgets switch to the page's dark palette
    expect(tokens.first).to_have_attribute("data-theme", "light")
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Settings$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Theme$")).hover()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile("^JupyterLab Dark$")).click()
    for widget in (*tokens.all(), *training.all(), steps, unigram_steps):
        expect(widget).to_have_attribute("data-theme", "dark")
    look(page, tokens.first, "notebook-tokens-dark.png")
    look(page, tokens.nth(1), "notebook-why-dark.png")
    look(page, training.first, "notebook-training-dark.png")
    look(page, unigram_steps, "notebook-steps-unigram-dark.png")


def linked_and_explained(page, widget, tokenizer):
    """Pointing at a chip highlights its characters in the text, pointing at the text its
    chip; a click asks "why this token?" and the steps end in the tokens of its word."""
    encoding = tokenizer.encode(NOTEBOOK_SAMPLE)
    k = next(i for i, t in enumerate(encoding.tokens) if t.startswith("##"))  # inside a word
    chip = widget.locator(f"[data-testid=token][data-index='{k}']")
    seg = widget.locator(f"[data-testid=backdrop] .seg[data-index='{k}']")
    start, end = encoding.offsets[k]
    assert seg.text_content() == NOTEBOOK_SAMPLE[start:end]
    chip.hover()
    expect(seg).to_have_class(re.compile(r"\bhl\b"))
    expect(widget.locator("[data-testid=inspector]")).to_contain_text(f'"{encoding.tokens[k]}"')
    # the text's characters over another token's span: that token's chip lights up
    other = next(i for i in range(len(encoding.ids)) if i != k and encoding.offsets[i][1] > encoding.offsets[i][0])
    box = widget.locator(f"[data-testid=backdrop] .seg[data-index='{other}']").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(widget.locator(f"[data-testid=token][data-index='{other}']")).to_have_class(re.compile(r"\bhl\b"))
    expect(chip).not_to_have_class(re.compile(r"\bhl\b"))
    look(page, widget, "notebook-tokens-linked.png")

    chip.click()
    why = widget.locator("[data-testid=why]")
    expect(why).to_have_attribute("data-state", "steps")
    expect(why).to_have_attribute("data-index", str(k))
    first = k
    while first > 0 and encoding.tokens[first].startswith("##"):
        first -= 1
    last = k
    while last + 1 < len(encoding.ids) and encoding.tokens[last + 1].startswith("##"):
        last += 1
    expect(why.locator("[data-testid=player-position]")).to_have_text(re.compile(r"^0 / [1-9]\d*$"))
    why.locator("[data-testid=player-end]").click()
    expect(why.locator("[data-testid=result-token]")).to_have_count(last - first + 1)
    assert chip_ids(why, "result-token") == encoding.ids[first:last + 1]
    assert NOTEBOOK_SAMPLE[encoding.offsets[first][0]:encoding.offsets[last][1]] in \
        why.locator("[data-testid=why-title]").text_content()
    look(page, widget, "notebook-tokens-why.png")

"""The Unigram views: the encoding lattice and the training renderer.

Until the encode and train views mount them, the renderers are mounted by a small
harness in the page: the module is imported, given its own Player (web/lib/player.js)
and fed events computed by Python (in the page's worker for encoding; in this
process, with subword_lab, for training). Every number checked comes from Python.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from subword_lab.web import unigram as web_unigram
from shots import shot_path

ROOT = Path(__file__).resolve().parents[2]

MOUNT_ENCODE = """async ({key, text, preset}) => {
  const sl = window.subwordLab;
  if (preset) await sl.encode("x", key);
  else await sl.call("course_toy_unigram", {});
  const events = [];
  const off = sl.onEvents((batch) => events.push(...batch));
  const result = await sl.call("trace_encode", {key, text});
  off();
  const {Player} = await import(new URL("./lib/player.js", location.href).href);
  const {createUnigramEncodeRenderer} = await import(new URL("./views/encode/unigram.js", location.href).href);
  const host = document.createElement("section");
  host.className = "harness";
  host.setAttribute("aria-label", "Unigram lattice");
  document.querySelector("main").prepend(host);
  const controls = document.createElement("div");
  const body = document.createElement("div");
  host.append(controls, body);
  const player = new Player({container: controls, scope: host});
  const engine = {request: (cmd, args) => sl.call(args.name, args.args)};
  const renderer = createUnigramEncodeRenderer({root: body, player, engine});
  const timeline = renderer.show({...result, events, key});
  player.load(timeline, 0);
  window.__unigram = {player, renderer};
  return {length: timeline.length, pieces: renderer.pieces().length};
}"""


def seek(app, k):
    app.page.evaluate("(k) => window.__unigram.player.seek(k)", k)
    app.page.wait_for_function("(k) => document.querySelector('.harness [data-testid=player-position]')"
                               ".textContent.startsWith(k + ' /')", arg=k)
    app.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def edges(app):
    return app.page.evaluate("""() => [...document.querySelectorAll('[data-testid=lattice-edge]')]
        .filter((g) => !g.classList.contains('is-hidden'))
        .map((g) => [g.dataset.piece, +g.dataset.start, +g.dataset.end, g.dataset.best === 'true'])""")


def nodes(app):
    return app.page.evaluate("""() => [...document.querySelectorAll('[data-testid=lattice-node]')]
        .map((g) => [+g.dataset.position, g.dataset.probability ? +g.dataset.probability : null,
                     g.querySelector('.lattice-prob').textContent])""")


def toy_best_probabilities(word):
    """Python's best score per position (Viterbi over the toy model), as probabilities."""
    model = web_unigram.build_course_toy_tokenizer().model
    best = [0.0] + [-math.inf] * len(word)
    for start, row in enumerate(model.lattice(word)):
        for end, _, score, _ in row:
            best[end] = max(best[end], best[start] + score)
    return [math.exp(s) for s in best[1:]]


def test_unhug_on_course_toy(app):
    app.open()
    info = app.page.evaluate(MOUNT_ENCODE, {"key": "course-toy-unigram", "text": "unhug", "preset": False})
    assert info["pieces"] == 1
    n = info["length"]
    seek(app, 0)
    assert edges(app) == []
    # before the backtrack: every edge drawn, none marked best
    back_start = n - 1 - 2  # the n-best step, and two backtrack steps (hug, un)
    seek(app, back_start)
    drawn = edges(app)
    assert {(p, s, e) for p, s, e, _ in drawn} >= {("un", 0, 2), ("hug", 2, 5), ("u", 0, 1)}
    assert not any(best for *_, best in drawn)
    seek(app, n)
    best = sorted((p, s, e) for p, s, e, b in edges(app) if b)
    assert best == [("hug", 2, 5), ("un", 0, 2)]
    shown = nodes(app)[1:]
    expected = toy_best_probabilities("unhug")
    for (pos, prob, text), want in zip(shown, expected):
        assert prob == pytest.approx(want, rel=1e-12)
        assert text == f"p = {want:.6f}"
    # the README's rounded numbers, for the reader: 0.171429, 0.076190..., 0.005442 x3
    assert [round(p, 6) for p in expected] == pytest.approx([0.171429, 0.07619, 0.005442, 0.005442, 0.005442], abs=2e-6)
    # the n-best list: probabilities over all segmentations, from Python
    app.page.wait_for_selector("[data-testid=nbest-item]")
    got = app.page.evaluate("""() => [...document.querySelectorAll('[data-testid=nbest-item]')].map(
        (li) => [[...li.querySelectorAll('.nbest-token')].map((s) => s.textContent), +li.dataset.probability])""")
    want = web_unigram.nbest_of(web_unigram.build_course_toy_tokenizer().model, "unhug", 5)
    assert got == [[p["pieces"], pytest.approx(p["probability"], rel=1e-12)] for p in want["paths"]]
    # stepping back restores the state before the backtrack exactly
    seek(app, back_start)
    assert edges(app) == drawn
    assert "hug" in app.page.locator(".harness [data-testid=narration]").text_content()


def test_a_word_with_one_segmentation_says_so(app):
    # "u" has one segmentation in the course toy: not "the 1 best segmentations ... of all 1"
    assert web_unigram.nbest_of(web_unigram.build_course_toy_tokenizer().model, "u", 5)["segmentations"] == 1
    app.open()
    info = app.page.evaluate(MOUNT_ENCODE, {"key": "course-toy-unigram", "text": "u", "preset": False})
    seek(app, info["length"])
    app.page.wait_for_selector("[data-testid=nbest-item]")
    narration = app.page.locator(".harness [data-testid=narration]").text_content()
    assert "only one segmentation" in narration and "1 best" not in narration, narration
    assert app.page.locator(".unigram-nbest-title").text_content() == "The only segmentation (probability 1)"


def python_lattices(text):
    """How many lattices CPython draws for the botchan model on `text`: sentencepiece
    models lay one lattice over the whole text (they do not split words first)."""
    from subword_lab.web import api as webapi
    events = []
    webapi.trace_encode(json.dumps({"key": "botchan-unigram-cpython", "text": text}),
                        lambda e: events.append(json.loads(e)))
    return sum(1 for e in events if e["type"] == "unigram.word")


def test_botchan_unigram_multiword_picker_and_axe(app, botchan_unigram_model):
    app.open()
    text = "Botchan was a reckless boy."
    info = app.page.evaluate(MOUNT_ENCODE, {"key": "botchan-unigram", "text": text, "preset": True})
    tokenizer_ids = app.page.evaluate("(t) => window.subwordLab.encode(t, 'botchan-unigram')", text)["ids"]
    from subword_lab.web import api as webapi
    webapi.open_path("botchan-unigram-cpython", str(botchan_unigram_model))
    assert info["pieces"] == python_lattices(text) >= 1
    # the best paths of all pieces, in order, are the tokenizer's tokens
    pieces = []
    for i in range(info["pieces"]):
        app.page.get_by_test_id("lattice-piece").select_option(str(i))
        app.page.wait_for_function("() => document.querySelector('.harness [data-testid=player-position]').textContent.startsWith('0 /')")
        total = int(app.page.locator(".harness [data-testid=player-position]").text_content().split("/")[1])
        seek(app, total)
        pieces += sorted(((s, p) for p, s, e, b in edges(app) if b))
    tokens = app.page.evaluate("(t) => window.subwordLab.encode(t, 'botchan-unigram')", text)["tokens"]
    assert [p for _, p in pieces] == tokens and len(tokens) == len(tokenizer_ids)
    app.page.wait_for_selector("[data-testid=nbest-item]")
    app.page.get_by_test_id("lattice-edge").first.focus()
    app.inject_axe()
    result = app.page.evaluate("async () => await axe.run(document.querySelector('.harness'))")
    bad = [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == []


# ---------------------------------------------------------------- the real views

def python_train_events(**args):
    from subword_lab.web import api as webapi
    events = []
    webapi.train(json.dumps(args), lambda s: events.append(json.loads(s)))
    return events


def open_train(app, query):
    app.open(query)
    app.page.wait_for_selector("[data-testid=unigram-train]")
    app.page.wait_for_function("() => { const p = window.subwordLab.player(); return p.length > 0; }",
                               timeout=120_000)
    return app.page.evaluate("() => window.subwordLab.player().length")


def seek_main(app, k):
    app.page.evaluate("(k) => window.subwordLab.player().seek(k)", k)
    app.page.wait_for_function("(k) => document.querySelector('#player-slot [data-testid=player-position]')"
                               ".textContent.startsWith(k + ' /')", arg=k)
    app.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def test_train_unigram_exact_shows_course_numbers(app):
    events = python_train_events(algo="unigram", corpus="course-sentences", method="exact")
    rounds = [e for e in events if e["type"] == "unigram_exact_round"]
    length = open_train(app, "?view=train&algo=unigram&corpus=course-sentences&method=exact")
    steps = [e for e in events if e["type"] in ("unigram_exact_round", "train_end")]
    assert length == len(steps)
    seek_main(app, 1)
    # the course's number, computed by Python here and there: shown to three decimals, in full on hover
    assert rounds[0]["loss"] == 413.10377642940875
    assert app.page.get_by_test_id("unigram-loss-now").get_attribute("title") == repr(rounds[0]["loss"])
    assert app.page.get_by_test_id("unigram-loss-now").text_content() == f"{rounds[0]['loss']:.3f}"
    narration = app.page.locator("#player-slot [data-testid=narration]").text_content()
    assert f"{rounds[0]['loss']:.3f}" in narration
    # "ll": its removal loss is in the candidates' list (virtualised: scroll to its row)
    scores = [p for p, _ in rounds[0]["scores"]]
    index = scores.index("ll")
    assert rounds[0]["scores"][index][1] == 6.376412403623874
    removed = app.page.evaluate("() => [...document.querySelectorAll('[data-testid=unigram-removed][data-removed=true]')].map((r) => r.dataset.piece)")
    assert removed and set(removed) <= {p for p, _ in rounds[0]["removed"]}
    app.page.evaluate("""(i) => { const box = document.querySelector('[data-testid=unigram-removed]').closest('.ut-list');
        box.scrollTop = i * 26; box.dispatchEvent(new Event('scroll')); }""", index)
    row = app.page.locator("[data-testid=unigram-removed][data-piece='ll']")
    assert row.text_content().endswith("6.376")
    assert row.locator(".value").get_attribute("title") == "6.376412403623874"
    assert row.get_attribute("data-removed") is None
    # the vocabulary size over time, and the final vocabulary at the end
    size_now = int(app.page.get_by_test_id("unigram-vocab-size").get_attribute("data-value"))
    assert size_now == rounds[0]["vocab_size"] - rounds[0]["remove"]
    seek_main(app, length)
    final = events[-1]
    assert final["type"] == "train_end" and final["vocab_size"] == 98
    vocab = app.page.evaluate("() => [...document.querySelectorAll('[data-testid=unigram-vocab-item]')].map((r) => r.dataset.piece)")
    assert vocab == [p for p, _ in final["vocab"]][:len(vocab)] and len(vocab) >= 10
    # stepping back restores the first round exactly
    seek_main(app, 1)
    assert app.page.get_by_test_id("unigram-loss-now").get_attribute("title") == repr(rounds[0]["loss"])
    app.inject_axe()
    result = app.page.evaluate("async () => await axe.run(document.querySelector('#view-train'))")
    assert [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")] == []
    app.page.screenshot(path=shot_path("screenshot-train-unigram.png"), full_page=True)


def test_train_unigram_em_step_link(app):
    length = open_train(app, "?view=train&algo=unigram&corpus=course-sentences&method=em&vocab_size=60&step=2")
    events = python_train_events(algo="unigram", corpus="course-sentences", method="em", vocab_size=60)
    steps = [e for e in events if e["type"] in ("unigram_em", "unigram_prune", "train_end")]
    assert length == len(steps)
    position = app.page.locator("#player-slot [data-testid=player-position]").text_content()
    assert position.startswith("2 /")
    assert steps[1]["type"] == "unigram_em"
    assert app.page.get_by_test_id("unigram-loss-now").get_attribute("title") == repr(steps[1]["objective"])


def test_encode_view_unhug_marks_un_and_hug(app):
    app.open("?view=encode&algo=unigram&corpus=course-toy&text=unhug")
    app.page.wait_for_selector("[data-testid=lattice-edge]")
    length = int(app.page.locator("#player-slot [data-testid=player-position]").text_content().split("/")[1])
    seek_main(app, length)
    best = sorted(p for p, s, e, b in edges(app) if b)
    assert best == ["hug", "un"]
    expected = toy_best_probabilities("unhug")
    got = [prob for _, prob, _ in nodes(app)[1:]]
    assert got == pytest.approx(expected, rel=1e-12)
    app.page.wait_for_selector("[data-testid=nbest-item]")
    app.page.screenshot(path=shot_path("screenshot-unigram-lattice.png"), full_page=True)

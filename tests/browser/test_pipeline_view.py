"""The pipeline view: normalization, pre-tokenization, model and post-processing of subword_lab."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
import sentencepiece

import build
import subword_lab
from shots import shot_path

AXE_BAD = "() => axe.run(document).then(r => r.violations.filter(v => ['serious','critical'].includes(v.impact)).map(v => v.id + ': ' + v.nodes.map(n => n.target).join(' ')))"
TEXT = "Héllo  WORLD"


def open_pipeline(app, query):
    app.open(query)
    app.page.evaluate("async () => { const v = await window.subwordLab.showView('pipeline'); await v.settled(); }")


def reference(path, text):
    tokenizer = subword_lab.load(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    events = []
    encoding = tokenizer.encode(text, on_event=events.append)
    return events, encoding


def test_bert_normalization_and_pieces(app, bert_json):
    events, encoding = reference(bert_json, TEXT)
    normalize = next(e for e in events if e["type"] == "normalize")
    pieces = next(e for e in events if e["type"] == "pre_tokenize")["pieces"]
    open_pipeline(app, "?view=pipeline&tokenizer=bert-base-uncased&text=H%C3%A9llo%20%20WORLD")
    page = app.page
    normalized = page.get_by_test_id("normalized-text").get_attribute("data-text")
    assert normalized == normalize["after"] == "hello  world"  # lowercased, accent stripped
    kinds = page.eval_on_selector_all("[data-testid=norm-col]", "els => els.map(e => [e.dataset.before, e.dataset.after, e.dataset.kind])")
    assert ["é", "e", "changed"] in kinds and ["W", "w", "changed"] in kinds and ["l", "l", "same"] in kinds
    shown = page.eval_on_selector_all("[data-testid=pretoken]", "els => els.map(e => [e.dataset.text, Number(e.dataset.start), Number(e.dataset.end)])")
    assert shown == [[p["text"], *p["offsets"]] for p in pieces] == [["hello", 0, 5], ["world", 7, 12]]
    finals = page.eval_on_selector_all("[data-testid=final-token]", "els => els.map(e => Number(e.dataset.tokenId))")
    assert finals == list(encoding.ids)
    # Changed characters say so in text, not by colour alone.
    assert "≠" in page.get_by_test_id("pipeline-normalize").text_content()


def test_byte_level_marks(app, gpt2_tiktoken):
    events, _ = reference(gpt2_tiktoken, TEXT)
    pieces = next(e for e in events if e["type"] == "pre_tokenize")["pieces"]
    open_pipeline(app, "?view=pipeline&tokenizer=gpt2&text=H%C3%A9llo%20%20WORLD&step=2")
    shown = app.page.eval_on_selector_all("[data-testid=pretoken]", "els => els.map(e => [e.dataset.text, Number(e.dataset.start), Number(e.dataset.end)])")
    assert shown == [[p["text"], *p["offsets"]] for p in pieces]
    assert "Ġ" in app.page.get_by_test_id("pipeline-pretokenize").text_content()
    assert app.page.locator("[data-testid=pipeline-model] [data-testid=model-token]").count() == 0  # not reached


def test_characters_that_draw_as_nothing_are_named(app):
    # a zero-width space inside a piece: shown by its code point, as the tokenize view's chips
    # show it, with the legend's line for it, in the piece and in its original text
    open_pipeline(app, "?view=pipeline&tokenizer=llama2&text=" + quote("a\u200bb c") + "&step=2")
    panel = app.page.get_by_test_id("pipeline-pretokenize")
    pieces = app.page.eval_on_selector_all("[data-testid=pretoken] .pipe-piece-text", "els => els.map(e => e.textContent)")
    assert any("<U+200B>" in p for p in pieces) and "\u200b" not in "".join(pieces), pieces
    assert "\u200b" not in panel.text_content()
    assert any("<U+200B>" in item for item in panel.locator(".pipe-marks li").all_text_contents())


def test_steps_and_step_back(app):
    open_pipeline(app, "?view=pipeline&tokenizer=bert-base-uncased&text=H%C3%A9llo%20%20WORLD&step=1")
    page = app.page
    assert page.get_by_test_id("player-position").text_content() == "1 / 4"
    html = page.eval_on_selector("[data-testid=pipeline-stages]", "e => e.innerHTML")
    page.get_by_test_id("player-step-forward").click()
    page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent === '2 / 4'")
    assert page.locator("[data-testid=pretoken]").count() == 2
    page.get_by_test_id("player-step-back").click()
    page.wait_for_function("() => document.querySelector('[data-testid=player-position]').textContent === '1 / 4'")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.eval_on_selector("[data-testid=pipeline-stages]", "e => e.innerHTML") == html


def test_axe_and_screenshot(app):
    open_pipeline(app, "?view=pipeline&tokenizer=bert-base-uncased&text=H%C3%A9llo%20%20WORLD%21%20Don%27t%20panic.")
    app.inject_axe()
    assert app.page.evaluate(AXE_BAD) == []
    app.page.screenshot(path=shot_path("screenshot-pipeline.png"), full_page=True)


@pytest.mark.parametrize("key", ["botchan-bpe", "mistral-v1", "mistral-v7"])
def test_sentencepiece_bpe_models_fill_the_model_stage(app, key):
    """Issue 24, item 2: the Model stage was empty for sentencepiece BPE models (their
    pre-tokenizer gave no words). Its tokens, in order, are sentencepiece's own ids."""
    catalog = {p["id"]: p for p in json.loads((build.DIST / "presets" / "presets.json").read_text(encoding="utf-8"))["presets"]}
    processor = sentencepiece.SentencePieceProcessor(model_file=str(build.DIST / catalog[key]["file"]))
    text = "Hello weather, unbelievably good. Thời tiết đẹp. 今天天气很好"
    open_pipeline(app, f"?view=pipeline&tokenizer={key}&text={quote(text)}&step=4")
    ids = app.page.eval_on_selector_all("[data-testid=pipeline-model] [data-testid=model-token]",
                                        "els => els.map(e => Number(e.dataset.tokenId))")
    assert ids == processor.encode(text), key

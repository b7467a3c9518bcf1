"""The catalog picker (web/views/tokenize/picker.js): entries named by model family and model
first, the source package in the details only; typing in the filter says what it found; and
the filter matches names before numbers, so "llama 3" + ↓ + Enter opens Llama 3, not Llama 2
(whose package version, 3.7.2, also holds a "3")."""
from __future__ import annotations

import json

import pytest

import build

MANIFEST = build.DIST / "presets" / "presets.json"


def presets() -> dict:
    return {p["id"]: p for p in json.loads(MANIFEST.read_text(encoding="utf-8"))["presets"]}


def test_entries_name_the_model_first_and_keep_the_package_for_the_details(app):
    app.open()
    options = app.page.eval_on_selector_all(
        "[data-testid=tokenizer-select] option:not([disabled])",
        "os => os.filter(o => !o.value.startsWith('file-')).map(o => [o.value, o.textContent])")
    catalog = presets()
    assert len(options) >= 10
    for key, text in options:
        preset = catalog[key]
        assert text.startswith(preset["label"]), (key, text)
        assert preset["source"] not in text and "pypi" not in text and "npm" not in text, text
    gpt4o = dict(options)["o200k-base"]
    assert gpt4o.startswith("GPT-4o") and "o200k_base" in gpt4o
    assert len(set(dict(options).values())) == len(options)  # no two entries read the same
    # the algorithm, size and package are said in the details line of the chosen entry
    app.select("o200k-base")
    details = app.page.get_by_test_id("preset-details").text_content()
    assert catalog["o200k-base"]["source"] in details and "byte-level BPE" in details
    assert "199,998" in details


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
def test_llama_3_down_enter_opens_llama_3_and_the_filter_says_what_it_found(app, lang):
    page = app.open(f"?lang={lang}").page
    status = page.get_by_test_id("filter-status")
    assert not status.is_visible()
    box = page.get_by_test_id("tokenizer-filter")
    box.press_sequentially("llama 3")
    assert status.is_visible()
    label = presets()["llama3"]["label"]
    assert label in status.text_content()
    box.press("ArrowDown")
    box.press("Enter")
    page.wait_for_function("() => window.subwordLab.state().tokenizer === 'llama3'", timeout=180_000)
    # nothing matches: said too
    box.fill("no such model")
    assert status.is_visible() and "no such model" in status.text_content()
    box.fill("")
    assert not status.is_visible()

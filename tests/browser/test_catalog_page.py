"""The catalog in Chromium: every shipped preset gives the ids of the file's own library,
presets are downloaded only when picked and come from the Cache API the next time, and
the filter box narrows the picker.

One page serves every preset (Pyodide starts once); each preset is opened there by
picking it, as a reader would, and the time from the pick to the painted tokens is
written to test-results/pick-to-paint.json (BENCHMARKS.md quotes it).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "realfiles"))
import assets
import catalog
import cases  # tests/realfiles: each file's own library, and where we are not exact yet

from conftest import READY, Watch  # tests/browser/conftest.py
from shots import shot_path

import subword_lab

SHIPPED = [key for key in catalog.PRESETS if catalog.why_missing(assets, key) is None]
# preset id -> the realfiles case that opens the same file with its own library
CASE_OF = {"o200k-base": "o200k_base", "o200k-harmony": "o200k_base", "cl100k-base": "cl100k_base", "p50k-base": "p50k_base",
           "qwen3-6": "qwen3.6", "kyoto-unigram": "kyoto-ja-unigram"}
TEXT = ("Tokenizers read pieces: naïve café in Zürich, 1234567 and 3.14159 — ok?\n"
        "Привет, мир! こんにちは世界。 مرحبا بالعالم 👩‍👩‍👧 🇫🇷 👍🏽\n"
        "def area(r):\n    return 3.14 * r ** 2  # π r²\n")
TIMES = ROOT / "test-results" / "pick-to-paint.json"


def oracle(key):
    """(name, encode) for a preset: the file's own library where the realfiles suite shows
    us exact on ids, else subword_lab in CPython (what the page must equal until then).
    GGUF presets: subword_lab in CPython, which tests/realfiles/test_gguf_parity.py
    holds equal to llama.cpp itself."""
    asset = catalog.PRESETS[key].asset
    if asset.endswith(".gguf"):
        tokenizer = subword_lab.load(str(assets.fetch([asset], quiet=True)[asset]))
        return "subword_lab (CPython)", lambda text: list(tokenizer.encode(text).ids)
    case = cases.BY_ID[CASE_OF.get(key, key)]
    if "ids" not in case.xfail and case.asset.endswith("tokenizer.json"):
        from tokenizers import Tokenizer  # without the file's padding / truncation, as the page
        tok = Tokenizer.from_file(str(assets.fetch([case.asset], quiet=True)[case.asset]))
        tok.no_padding()
        tok.no_truncation()
        return "tokenizers", lambda text: tok.encode(text).ids
    if "ids" not in case.xfail:
        paths = assets.fetch([case.asset, *case.needs], quiet=True)
        ref = case.reference(paths, ROOT / "test-results" / "reference-packages", case.asset)
        return ref.name, ref.encode
    path = assets.fetch([case.asset], quiet=True)[case.asset]
    tokenizer = subword_lab.load(str(path), **({"format": case.format} if case.format else {}))
    return "subword_lab (CPython)", lambda text: list(tokenizer.encode(text).ids)


@pytest.fixture(scope="module")
def shared(browser, site):
    """One watched page for the whole module, the engine ready."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch = Watch(site)
    context.on("request", watch.saw)
    page = context.new_page()
    page.on("pageerror", lambda error: watch.errors.append(str(error)))
    page.goto(f"{site}/?tokenizer=bert-base-uncased")
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    page.evaluate("async () => await window.subwordLab.settled()")
    yield page, watch, context
    context.close()
    assert watch.errors == [] and watch.foreign == []


def preset_requests(watch):
    return [u for u in watch.requests if "/presets/" in u and not u.endswith("presets.json")]


def pick(page, key):
    """Pick a preset in the picker; seconds until its tokens were painted."""
    start = page.evaluate("performance.now()")
    page.get_by_test_id("tokenizer-select").select_option(key)
    page.wait_for_function("(k) => window.subwordLab.state().tokenizer === k"
                           " || document.querySelector('[data-testid=error]').textContent",
                           arg=key, timeout=180_000)
    assert page.get_by_test_id("error").text_content() == "", page.get_by_test_id("error").text_content()
    page.evaluate("async () => await window.subwordLab.settled()")
    page.wait_for_function("(t) => (window.subwordLab.state().paintedAt || 0) > t", arg=start)
    return (page.evaluate("window.subwordLab.state().paintedAt") - start) / 1000


def test_no_preset_file_is_fetched_before_it_is_picked(shared):
    page, watch, _ = shared
    fetched = preset_requests(watch)
    assert [u.rsplit("/", 1)[1] for u in fetched] == ["bert-base-uncased.tokenizer.json"]
    groups = page.eval_on_selector_all("[data-testid=tokenizer-select] optgroup",
                                       "gs => gs.map(g => g.label)")
    assert len({g for g in groups if g != "Opened in this page"}) >= 12, groups
    page.screenshot(path=shot_path("catalog-picker.png"))


# Presets the page does not give exactly yet, with the issue item that fixes each; strict,
# so the mark must go when the fix lands.
NOT_EXACT_YET: dict = {}  # none today


@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.xfail(
    reason=NOT_EXACT_YET[k], strict=True)) if k in NOT_EXACT_YET else k for k in SHIPPED])
def test_preset_ids_equal_its_own_library(shared, key):
    page, watch, _ = shared
    page.get_by_test_id("text-input").fill(TEXT)
    seconds = pick(page, key)
    shown = page.evaluate("window.subwordLab.state().ids")
    name, encode = oracle(key)
    assert shown == encode(TEXT), f"{key}: the page differs from {name}"
    times = json.loads(TIMES.read_text()) if TIMES.exists() else {}
    times[key] = round(seconds, 2)
    TIMES.parent.mkdir(exist_ok=True)
    TIMES.write_text(json.dumps(times, indent=1))


def test_a_second_visit_opens_presets_from_the_cache(shared, site):
    page, watch, context = shared
    before = len(preset_requests(watch))
    second = context.new_page()
    second.goto(f"{site}/?tokenizer=gpt2")
    second.wait_for_selector(READY, state="attached", timeout=180_000)
    second.evaluate("async () => await window.subwordLab.settled()")
    assert second.evaluate("window.subwordLab.state().tokenizer") == "gpt2"
    assert len(second.evaluate("window.subwordLab.state().ids")) > 0
    assert preset_requests(watch)[before:] == [], "gpt2 was downloaded again"
    second.close()


def test_filter_box_narrows_and_picks_with_the_keyboard(shared):
    page, _, _ = shared
    box = page.get_by_test_id("tokenizer-filter")
    box.fill("mistral")
    visible = page.eval_on_selector_all(
        "[data-testid=tokenizer-select] option",
        "os => os.filter(o => !o.hidden && !o.parentElement.hidden).map(o => o.value)")
    assert visible and all(v.startswith("mistral") or v.startswith("file-") for v in visible), visible
    box.fill("unigram japanese")
    box.press("ArrowDown")
    box.press("Enter")
    page.wait_for_function("() => window.subwordLab.state().tokenizer === 'kyoto-unigram'",
                           timeout=120_000)
    details = page.get_by_test_id("preset-details").text_content()
    assert "sentencepiece==0.2.3" in details and "Apache-2.0" in details
    box.fill("")


@pytest.mark.parametrize("key, model", [("o200k-base", "BPE"), ("bert-base-uncased", "WordPiece"),
                                        ("botchan-unigram", "Unigram")])
def test_why_this_token_round_trip(shared, key, model):
    page, _, _ = shared
    page.evaluate("() => window.subwordLab.showView('tokenize')")
    text = "Tokenizers read unbelievably long words."
    page.get_by_test_id("text-input").fill(text)
    pick(page, key)
    state = page.evaluate("window.subwordLab.state()")
    # the token inside "unbelievably": the encode view gets that word, with this tokenizer
    at = text.index("unbelievably") + 2
    index = next(i for i, (s, e) in enumerate(state["offsets"]) if s <= at < e)
    chip = page.locator(f"[data-testid=token][data-index='{index}']")
    chip.focus()
    chip.press("Enter")
    page.wait_for_function("() => window.subwordLab.view() === 'encode'")
    assert page.get_by_test_id("encode-text").input_value().strip() == "unbelievably"
    assert page.get_by_test_id("encode-tokenizer").input_value() == key
    page.wait_for_function("() => document.querySelector('[data-testid=encode-stage]').children.length > 0"
                           " && document.querySelector('[data-testid=encode-status]').hidden",
                           timeout=120_000)
    stage = page.get_by_test_id("encode-stage")
    assert stage.locator(".enc-renderer").count() == 1
    if key == "o200k-base":
        page.screenshot(path=shot_path("why-this-token-o200k.png"), full_page=True)
    page.get_by_test_id("why-back").click()
    page.wait_for_function("() => window.subwordLab.view() === 'tokenize'")
    assert page.get_by_test_id("text-input").input_value() == text
    assert page.evaluate("document.activeElement.dataset.index") == str(index)
    assert page.evaluate("window.subwordLab.state().tokenizer") == key


def test_compare_three_catalog_entries(shared):
    page, _, _ = shared
    text = "Tokenizers read unbelievably long words: 12345 naïve cafés 👍🏽"
    keys = ["gpt2", "o200k-base", "bert-base-uncased"]
    expected = {k: page.evaluate("([t, k]) => window.subwordLab.encode(t, k)", [text, k]) for k in keys}
    page.evaluate("() => window.subwordLab.showView('compare')")
    page.get_by_test_id("compare-text").fill(text)
    selects = page.get_by_test_id("compare-select")
    for i, key in enumerate(keys):
        selects.nth(i).select_option(key)
    page.wait_for_function(
        "(keys) => { const cols = [...document.querySelectorAll('[data-testid=compare-column]')];"
        " return cols.length === 3 && cols.every((c, i) => c.dataset.tokenizer === keys[i]"
        " && c.dataset.status === 'done'); }", arg=keys, timeout=120_000)
    columns = page.get_by_test_id("compare-column")
    size = len(text.encode("utf-8"))
    for i, key in enumerate(keys):
        column = columns.nth(i)
        n = len(expected[key]["ids"])
        assert column.get_by_test_id("compare-count").get_attribute("data-count") == str(n)
        assert column.get_by_test_id("compare-bytes-per-token").get_attribute("data-value") == f"{size / n:.2f}"
        assert column.get_by_test_id("compare-tokens-per-word").get_attribute("data-value") == \
            f"{n / len(text.split()):.2f}"
    # GPT-2 and o200k cut the digits and the emoji differently: some cuts are marked
    differing = [int(columns.nth(i).get_by_test_id("compare-cuts").get_attribute("data-count"))
                 for i in range(3)]
    assert all(d > 0 for d in differing), differing
    page.screenshot(path=shot_path("compare-three.png"), full_page=True)
    page.evaluate("() => window.subwordLab.showView('tokenize')")


# A special token's text in the input, per preset: "recognise" reads it as that token,
# "as text" as ordinary text (tiktoken's encode vs encode_ordinary; tokenizers'
# encode_special_tokens).
SPECIAL_TEXT = {"gpt2": "<|endoftext|>", "o200k-base": "<|endoftext|>",
                "cl100k-base": "<|endoftext|>", "deepseek-v3": "<｜begin▁of▁sentence｜>",
                "bert-base-uncased": "[SEP]"}


def special_oracle(key, choice):
    case = cases.BY_ID[CASE_OF.get(key, key)]
    path = assets.fetch([case.asset], quiet=True)[case.asset]
    if path.suffix == ".json":
        from tokenizers import Tokenizer
        tok = Tokenizer.from_file(str(path))
        tok.no_padding()
        tok.no_truncation()
        tok.encode_special_tokens = choice == "as_text"
        return lambda text: tok.encode(text).ids
    enc = case.reference(assets.fetch([case.asset, *case.needs], quiet=True),
                         ROOT / "test-results" / "reference-packages", case.asset).tiktoken
    if choice == "as_text":
        return enc.encode_ordinary
    return lambda text: enc.encode(text, allowed_special="all")


@pytest.mark.parametrize("key", sorted(SPECIAL_TEXT))
def test_special_tokens_in_text_recognised_or_as_text(shared, key):
    page, _, _ = shared
    page.evaluate("() => window.subwordLab.showView('tokenize')")
    text = f"Hello {SPECIAL_TEXT[key]} world 42"
    page.get_by_test_id("text-input").fill(text)
    pick(page, key)
    choice = page.get_by_test_id("special-tokens")
    page.evaluate("() => { document.querySelector('[data-testid=settings]').open = true; }")  # folded at first
    assert page.get_by_test_id("rules-line").is_visible()
    for wanted in ("recognise", "as_text"):
        choice.select_option(wanted)
        page.wait_for_function("(w) => window.subwordLab.state().specialTokens === w", arg=wanted)
        state = page.evaluate("async () => await window.subwordLab.settled()")
        assert state["ids"] == special_oracle(key, wanted)(text), f"{key}, {wanted}"


def test_two_files_opened_at_once(shared, tmp_path):
    """vocab.json + merges.txt picked together give the ids of tokenizers' BPE on them."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    page, _, _ = shared
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    corpus = ["low lower lowest newer newest wider", "the quick brown fox jumps over the lazy dog"] * 20
    tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=300, show_progress=False,
                                                        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    files = tok.model.save(str(tmp_path))
    page.evaluate("() => window.subwordLab.showView('tokenize')")
    text = "the lowest newer fox"
    page.get_by_test_id("text-input").fill(text)
    page.get_by_test_id("file-input").set_input_files(sorted(files))
    page.wait_for_function("() => (window.subwordLab.state().tokenizer || '').startsWith('file-')",
                           timeout=120_000)
    state = page.evaluate("async () => await window.subwordLab.settled()")
    assert state["ids"] == tok.encode(text).ids
    assert "vocab.json + merges.txt" in page.get_by_test_id("tokenizer-select").inner_text() or \
        "merges.txt + vocab.json" in page.get_by_test_id("tokenizer-select").inner_text()


def test_a_preset_under_a_licence_with_conditions_links_its_texts_and_shows_its_notice(shared):
    page, _, _ = shared
    pick(page, "llama3")
    details = page.get_by_test_id("preset-details")
    assert page.get_by_test_id("preset-notice").text_content().strip() == "Built with Meta Llama 3"
    links = details.locator("[data-testid=licence-files] a")
    assert links.all_text_contents() == ["LICENSE.txt", "NOTICE.txt"]
    texts = page.evaluate("async (hrefs) => Promise.all(hrefs.map(async (h) => {"
                          " const r = await fetch(h); return r.ok ? r.text() : `HTTP ${r.status}`; }))",
                          [links.nth(i).get_attribute("href") for i in range(links.count())])
    assert texts[0].startswith("META LLAMA 3 COMMUNITY LICENSE AGREEMENT")
    assert texts[1].strip() == catalog.TERMS["llama3"].notice
    pick(page, "gpt2")  # a file without such terms: no links, no notice
    assert page.get_by_test_id("preset-notice").count() == 0
    assert details.locator("[data-testid=licence-files]").count() == 0

"""The tokenize view in Chromium: it loads offline, shows what subword_lab computes, survives bad input."""
from __future__ import annotations

import json
import re

import pytest

import subword_lab

TEXTS = [
    "Hello world! Tokenizers don't read words; they read pieces.",
    "  Unbelievably, naïve café owners in Zürich   sold 1,234 crêpes\nin 2023.\n\n\tTabs too.",
]
PRESET_FILES = {"bert-base-uncased": "bert_json", "gpt2": "gpt2_tiktoken",
                "botchan-unigram": "botchan_unigram_model"}


def reference(path):
    """The same file opened by subword_lab in CPython, with the page's settings."""
    tokenizer = subword_lab.load(str(path))
    for name in ("no_truncation", "no_padding"):
        if hasattr(tokenizer, name):
            getattr(tokenizer, name)()
    return tokenizer


def encoded(tokenizer, text):
    encoding = tokenizer.encode(text)
    return list(encoding.ids), [list(o) for o in encoding.offsets]


def test_loads_offline_and_clean(app):
    app.open()
    watch = app.watch
    origin = app.site
    # Our wheel came from our site, gzipped whole (build.py's pack_wheel), and no package
    # installer with it (web/lib/wheel.js), nor Pyodide's package list (web/worker.js).
    assert not any("micropip" in u or "pyodide-lock.json" in u for u in watch.requests)
    assert any(re.fullmatch(rf"{origin}/wheels/subword_lab-[\d.]+-py3-none-any\.whl\.gz", u) for u in watch.requests)
    assert watch.foreign == []
    assert app.page.get_by_test_id("tokenizer-select").input_value() == "gpt2"
    values = app.page.eval_on_selector_all("[data-testid=tokenizer-select] option", "os => os.map(o => o.value)")
    assert {"bert-base-uncased", "gpt2", "botchan-unigram"} <= set(values)
    assert len(app.tokens()) > 5


def test_security_headers(app):
    response = app.page.goto(app.site + "/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "'unsafe-eval'" not in csp.replace("'wasm-unsafe-eval'", "")
    assert app.page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content") == csp
    wasm = app.page.request.get(app.site + "/pyodide/pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm"
    mjs = app.page.request.get(app.site + "/pyodide/pyodide.mjs")
    assert mjs.headers["content-type"].startswith("text/javascript")
    app.page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
    app.settled()


def test_typing_matches_cpython(app, request):
    """Each preset in turn, chosen in one page as a learner would."""
    app.open()
    for preset in sorted(PRESET_FILES):
        tokenizer = reference(request.getfixturevalue(PRESET_FILES[preset]))
        app.select(preset)
        assert app.page.get_by_test_id("tokenizer-select").input_value() == preset
        for text in TEXTS:
            app.type_text(text[:-6], then=text[-6:])
            ids, offsets = encoded(tokenizer, text)
            shown = app.tokens()
            assert [t[0] for t in shown] == ids, (preset, text)
            assert [[t[1], t[2]] for t in shown] == offsets, (preset, text)
            count = app.page.get_by_test_id("token-count")
            assert count.get_attribute("data-count") == str(len(ids)), preset
            assert count.text_content() == f"{len(ids):,}", preset
        # The JavaScript API gives the same answer.
        api = app.page.evaluate("([t, k]) => window.subwordLab.encode(t, k)", [TEXTS[0], preset])
        assert api["ids"] == encoded(tokenizer, TEXTS[0])[0], preset


def test_url_parameters_set_the_state(app, bert_json):
    text = "Deep links keep the text, ünïcode too."
    app.open("?" + "&".join(["tokenizer=bert-base-uncased", "text=" + __import__("urllib.parse").parse.quote(text)]))
    assert app.page.get_by_test_id("text-input").input_value() == text
    assert app.page.get_by_test_id("tokenizer-select").input_value() == "bert-base-uncased"
    assert app.ids() == encoded(reference(bert_json), text)[0]
    app.select("botchan-unigram")
    app.type_text("Changed")
    # The address follows a burst of typing once it pauses (urlstate.js: 150 ms).
    app.page.wait_for_url(re.compile(r".*tokenizer=botchan-unigram.*"))
    app.page.wait_for_url(re.compile(r".*text=Changed(&|$).*"))


def test_api_encode_asked_before_ready_uses_the_page_tokenizer(app, bert_json):
    """A script may ask as soon as the page has loaded: encode without an id waits for the
    tokenizer the page is opening (here from the address) instead of refusing."""
    text = "Asked early, answered exactly."
    app.open("?tokenizer=bert-base-uncased", wait=False)
    app.page.wait_for_function("() => window.subwordLab")
    api = app.page.evaluate("(t) => window.subwordLab.encode(t)", text)
    assert api["ids"] == encoded(reference(bert_json), text)[0]
    assert app.page.evaluate("window.subwordLab.state().tokenizer") == "bert-base-uncased"


FILE_TYPES = [("bert_json", "tokenizer.json"), ("bert_vocab", "vocab.txt"),
              ("gpt2_tiktoken", "gpt2.tiktoken"), ("botchan_unigram_model", "botchan.model")]


def test_open_each_file_type(app, request, tmp_path):
    """Each kind of file, opened in turn in one page: each becomes the tokenizer in use."""
    app.open()
    for k, (fixture, name) in enumerate(FILE_TYPES, start=1):
        path = tmp_path / name
        path.write_bytes(request.getfixturevalue(fixture).read_bytes())
        app.page.get_by_test_id("file-input").set_input_files(str(path))
        app.page.locator(f"#opened-group option[value=file-{k}]").wait_for(state="attached")
        app.settled()
        select = app.page.get_by_test_id("tokenizer-select")
        assert select.input_value() == f"file-{k}", name
        assert name in select.locator("option:checked").text_content()
        assert app.error_text() == "", name
        text = TEXTS[1]
        app.type_text(text)
        assert app.ids() == encoded(reference(path), text)[0], name


BAD_FILES = [
    ("garbage.model", b"\x08\x96\x01this is not a sentencepiece model\xff\xfe" * 20, "garbage.model"),
    ("notes.pdf", b"%PDF-1.4 not a tokenizer", "notes.pdf"),
    ("tokenizer.json", b'{"model": {"type": "BPE", "vocab": {"a": 0}', "tokenizer.json"),
    ("vocab.tiktoken", b"bm90IGJhc2U2NA== zero\n!!! 1\n", "vocab.tiktoken"),
]


def test_bad_file_shows_error_and_keeps_tokenizer(app, gpt2_tiktoken, tmp_path):
    """Each bad file in turn, in one page: each is named in the error, GPT-2 stays."""
    app.open()
    before = app.ids()
    for name, data, named in BAD_FILES:
        path = tmp_path / name
        path.write_bytes(data)
        app.page.get_by_test_id("file-input").set_input_files(str(path))
        error = app.page.get_by_test_id("error")
        error.filter(has_text=named).wait_for()
        message = app.error_text()
        assert named in message and "GPT-2" in message, message  # names the file, says what is still in use
        assert message.count(named) == 1, message  # once, as the user knows it
        assert "/tmp/" not in message and "subword-lab-" not in message, message  # no worker paths
        assert app.page.get_by_test_id("tokenizer-select").input_value() == "gpt2", name
        assert app.ids() == before, name
    text = "Still working after a bad file."
    app.type_text(text)
    assert app.ids() == encoded(reference(gpt2_tiktoken), text)[0]


def test_markup_in_text_is_shown_as_text(app):
    app.open()
    payload = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    app.type_text(payload)
    assert app.page.locator("main img, main script").count() == 0
    shown = "".join(t[3] for t in app.tokens()).replace("␣", " ")  # a chip shows a space as ␣
    assert shown == payload
    assert app.watch.dialogs == []


def test_markup_in_a_token_is_shown_as_text(app, tmp_path):
    """A tokenizer whose vocabulary holds markup: the token itself is markup."""
    evil = "<img src=x onerror=alert(1)>"
    spec = {
        "version": "1.0", "truncation": None, "padding": None, "normalizer": None,
        "added_tokens": [{"id": 2, "content": evil, "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": False, "special": False}],
        "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "hi": 1, evil: 2}, "unk_token": "[UNK]"},
    }
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec))
    app.open()
    app.page.get_by_test_id("file-input").set_input_files(str(path))
    app.page.locator("#opened-group option").first.wait_for(state="attached")
    app.settled()
    app.type_text(f"hi {evil} hi")
    # Spaces inside a token are drawn as ␣ (docs/automation.md); the markup stays text.
    assert [t[3] for t in app.tokens()] == ["hi", evil.replace(" ", "␣"), "hi"]
    assert [t[0] for t in app.tokens()] == [1, 2, 1]
    assert app.page.locator("main img").count() == 0


def test_huge_paste_stays_responsive(app):
    app.open()
    # Paste five megabytes, the way a paste arrives: one value change, one input event.
    big = app.page.evaluate("""() => {
        const line = "The quick brown fox jumps over the lazy dog; naïve café. ";
        const text = line.repeat(Math.ceil(5_000_000 / line.length));
        const box = document.querySelector('[data-testid=text-input]');
        box.focus();
        box.value = text;
        box.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
        return text.length;
    }""")
    assert big >= 5_000_000
    app.settled()
    hidden = app.page.get_by_test_id("hidden-count")
    assert hidden.is_visible()
    assert re.search(r"[\d,]+ characters are not tokenized yet", hidden.text_content())
    # A key pressed now reaches the text, and the tokens follow. (How fast is measured
    # in bench/bench_page.py, not asserted here: a timed test fails on a busy machine.)
    app.page.keyboard.press("End")
    app.page.keyboard.type("!")
    assert app.page.get_by_test_id("text-input").input_value().endswith("!")
    before = app.settled()
    # Only the chips in view are drawn (docs/automation.md); the state holds every token.
    drawn = app.page.locator("[data-testid=token]").count()
    assert 0 < drawn == before["drawn"][1] - before["drawn"][0] < len(before["ids"])
    app.page.get_by_test_id("show-more").click()
    after = app.settled()
    assert after["encodedChars"] > before["encodedChars"] and len(after["ids"]) > len(before["ids"])
    assert after["ids"][:len(before["ids"]) - 1] == before["ids"][:-1]  # the same head, more after it



def test_hover_links_token_and_text(app):
    app.open()
    app.type_text("alpha beta gamma")
    token = app.page.locator("[data-testid=token]").nth(1)
    token.hover()
    index = token.get_attribute("data-index")
    assert app.page.locator(f".backdrop .seg.hl[data-index='{index}']").count() == 1
    assert f"id {token.get_attribute('data-token-id')}" in app.page.locator("#inspector").text_content()
    # The other way round: point at the text, the token lights up.
    seg = app.page.locator(".backdrop .seg[data-index='2']")
    box = seg.bounding_box()
    app.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    app.page.locator("[data-testid=token][data-index='2'].hl").wait_for()


def test_keyboard_reaches_everything(app):
    app.open()
    app.type_text("keyboard users count too")
    app.page.evaluate("document.activeElement.blur()")
    reached = []
    for _ in range(24):  # the header's language select, share and export buttons come first
        app.page.keyboard.press("Tab")
        reached.append(app.page.evaluate(
            "() => { const e = document.activeElement; return e.dataset.testid || e.id || e.tagName; }"))
    for wanted in ("text-input", "tokenizer-select", "open-file", "token"):
        assert wanted in reached, reached
    # Focus is visible on a token, and arrow keys move along the tokens.
    app.page.locator("[data-testid=token]").first.focus()
    app.page.keyboard.press("ArrowRight")
    focused = app.page.evaluate("() => [document.activeElement.dataset.index, getComputedStyle(document.activeElement).outlineStyle]")
    assert focused[0] == "1" and focused[1] != "none"
    assert "Token 2 of" in app.page.locator("#inspector").text_content()


def test_accessibility_axe(app):
    app.open()
    app.type_text("Accessibility: ## ▁ Ġ [CLS] all explained.")
    app.inject_axe()
    results = app.page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == []


def test_missing_preset_is_explained(app):
    """Said only for the entry asked for (issue 24: a six-line note showed on every visit)."""
    def manifest(route):
        response = route.fetch()
        data = response.json()
        next(p for p in data["presets"] if p["id"] == "gpt2").update(file=None, missing="the download failed")
        route.fulfill(response=response, json=data)
    app.page.route(f"{app.site}/presets/presets.json", manifest)
    app.open("?tokenizer=bert-base-uncased")
    option = app.page.locator("[data-testid=tokenizer-select] option[value=gpt2]")
    assert option.is_disabled()
    note = app.page.get_by_test_id("preset-note")
    assert not note.is_visible()
    app.page.get_by_test_id("tokenizer-filter").fill("gpt-2")  # the filter finds the missing entry
    assert note.is_visible()
    assert "Not in this build" in note.text_content() and "GPT-2 (r50k_base): the download failed" in note.text_content()
    app.page.get_by_test_id("tokenizer-filter").fill("bert")
    assert not note.is_visible()
    app.page.get_by_test_id("tokenizer-filter").fill("")
    app.page.evaluate("() => window.subwordLab.setTokenizer('gpt2').catch(() => {})")  # asked for by id
    note.filter(has_text="the download failed").wait_for()


@pytest.mark.parametrize("preset", ["gpt2", "bert-base-uncased"])
def test_editing_in_the_middle_stays_exact(app, request, preset):
    """The view reuses unchanged tokens; after edits anywhere it must still equal a fresh encoding."""
    tokenizer = reference(request.getfixturevalue(PRESET_FILES[preset]))
    app.open(f"?tokenizer={preset}")
    box = app.page.get_by_test_id("text-input")
    app.type_text(TEXTS[1] + " " + TEXTS[0])
    edits = [(10, "XYZ "), (0, "Start, "), (40, "\n\n"), (25, "")]
    for position, insert in edits:
        box.evaluate("(el, p) => { el.focus(); el.setSelectionRange(p, p); }", position)
        if insert:
            app.page.keyboard.type(insert)
        else:
            app.page.keyboard.press("Backspace")
            app.page.keyboard.press("Delete")
        app.settled()
        text = box.input_value()
        ids, offsets = encoded(tokenizer, text)
        shown = app.tokens()
        assert [t[0] for t in shown] == ids
        assert [[t[1], t[2]] for t in shown] == offsets
        assert [int(el) for el in app.page.eval_on_selector_all(
            "[data-testid=token]", "els => els.map(e => e.dataset.index)")] == list(range(len(ids)))
        # The highlight layer under the text box holds exactly the text, each token's span in place.
        layer = app.page.evaluate("""() => {
            const b = document.getElementById('backdrop');
            return [b.textContent, [...b.querySelectorAll('.seg')].map(s => [Number(s.dataset.index), s.textContent])];
        }""")
        assert layer[0].rstrip("\u200b") == text
        for index, seg_text in layer[1]:
            start, end = offsets[index]
            assert seg_text == text[start:end]


def test_events_stream_in_batches(app, gpt2_tiktoken):
    """Python's step events reach the page through the worker's batches, all of them, in order."""
    app.open("?tokenizer=gpt2")
    text = "Events flow from Python to the page. " * 40
    out = app.page.evaluate("""async (text) => {
        const batches = [];
        const stop = window.subwordLab.onEvents((batch) => batches.push(batch));
        const result = await window.subwordLab.call("trace_encode", { key: "gpt2", text });
        stop();
        return { result, sizes: batches.map((b) => b.length), events: batches.flat() };
    }""", text)
    want = []
    tokenizer = reference(gpt2_tiktoken)
    encoding = tokenizer.encode(text, on_event=want.append)
    assert out["result"]["ids"] == list(encoding.ids)
    assert out["result"]["events"] == len(want) == sum(out["sizes"])
    assert [e["type"] for e in out["events"]] == [e["type"] for e in want]
    assert max(out["sizes"]) <= 500


def test_drop_a_file_on_the_page(app, tmp_path):
    vocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\nworld\n##s\n,\n"
    app.open()
    app.page.evaluate("""(vocab) => {
        const data = new DataTransfer();
        data.items.add(new File([vocab], "tiny-vocab.txt", { type: "text/plain" }));
        for (const type of ["dragenter", "dragover", "drop"]) {
            document.querySelector("main").dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        }
    }""", vocab)
    app.page.locator("#opened-group option").first.wait_for(state="attached")
    app.settled()
    assert "tiny-vocab.txt" in app.page.get_by_test_id("tokenizer-select").locator("option:checked").text_content()
    path = tmp_path / "vocab.txt"
    path.write_text(vocab)
    app.type_text("hello worlds, hello")
    assert app.ids() == encoded(reference(path), "hello worlds, hello")[0]
    assert not app.page.locator("#dropzone").is_visible()

"""Hostile input in the page (issue 13): a user regex that backtracks without end is
ended from the page with an error naming the file, the field and the pattern, and
typing goes on; bad files open as one clear error that names the user's file.

The inputs are made by the generators of the CPython hostile suite
(tests/python/hostile_cases.py, test_regex_guard.py), so both suites see the same cases.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


import subword_lab
from subword_lab.core.errors import SubwordLabError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import hostile_cases
from test_regex_guard import PLACES, SLOW, TEXT

from shots import shot_path
from waits import poll

FIELD = PLACES["split"][1]  # pre_tokenizer.pretokenizers[1].pattern


def open_bytes(app, name, data: bytes):
    """Open one file through the page's file input, as a user would."""
    app.page.get_by_test_id("file-input").set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data})


def reference_ids(path, text):
    tokenizer = subword_lab.load(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer.encode(text).ids


def test_catastrophic_pattern_is_ended_and_typing_goes_on(app, tmp_path):
    """A pattern that passes the load-time shape check (polynomial, degree 7) hangs on a
    run of a's: the page's watchdog ends the match, the error names the file, the field
    and the pattern within 2 s, the same file comes back and tokenizes other texts, and
    the text that hung fails at once instead of hanging again."""
    pattern = SLOW[0]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(PLACES["split"][0](pattern)), encoding="utf-8")
    subword_lab.load(str(path))  # passes the shape check: only the run-time bound can stop it
    app.open()
    open_bytes(app, "tokenizer.json", path.read_bytes())
    app.page.get_by_test_id("tokenizer-select").filter(has_text="tokenizer.json").wait_for()
    app.settled()
    chosen = app.page.get_by_test_id("tokenizer-select").input_value()
    app.type_text("a b ab")
    assert app.ids() == reference_ids(path, "a b ab")

    # The error area and the header are watched from inside the page, so the time is the
    # page's own, not that of this test's polling.
    app.page.evaluate("""() => {
        window.__hung = { typed: performance.now(), error: null };
        const box = document.querySelector('[data-testid=error]');
        new MutationObserver(() => {
          if (window.__hung.error === null && box.textContent.includes('pattern')) {
            window.__hung.error = performance.now();
          }
        }).observe(box, { childList: true, characterData: true, subtree: true });
    }""")
    app.page.get_by_test_id("text-input").fill(TEXT)
    poll(app, "window.__hung.error !== null", timeout=30)
    hung = app.page.evaluate("window.__hung")
    assert hung["error"] - hung["typed"] < 2000, f"error after {hung['error'] - hung['typed']:.0f} ms"
    stopped = app.error_text()
    for where in (stopped, app.page.get_by_test_id("engine-note").inner_text()):
        assert "tokenizer.json" in where and FIELD in where and pattern in where, where
        assert "/tmp" not in where and "Traceback" not in where, where

    # Python comes back by itself with the same file; the text that hung is not run again.
    poll(app, "subwordLab.restarts() === 1 && document.documentElement.dataset.engine === 'ready'",
         timeout=180)
    app.page.get_by_test_id("engine-note").filter(has_text="restarted").wait_for(timeout=180_000)
    app.settled()
    assert app.page.get_by_test_id("tokenizer-select").input_value() == chosen
    app.page.screenshot(path=shot_path("regex-hang-restored.png"))

    # Typing goes on: a harmless text paints the same file's tokens, the error is gone.
    app.type_text("ab a b")
    assert app.ids() == reference_ids(path, "ab a b")
    assert app.error_text() == ""
    # The piece that hung, inside a new text: refused at once, no second restart, and said
    # in the page's own words (its language), as when it was stopped, not in Python's.
    app.type_text(TEXT + " ab")
    assert app.error_text() == stopped
    # Its counts are not those of the last text that worked ("ab a b": 3 tokens): no token
    # figures, and the characters of the text shown.
    assert app.page.evaluate("""() => {
        const tokens = document.querySelector('[data-testid=token-count]');
        return [tokens.textContent, tokens.dataset.count ?? null,
                document.querySelector('[data-testid=char-count]').dataset.count]; }""") \
        == ["–", None, str(len(TEXT + " ab"))]
    assert app.page.evaluate("subwordLab.restarts()") == 1
    app.type_text("b a")
    assert app.ids() == reference_ids(path, "b a")


def _file_cases(botchan_model: bytes):
    """A subset of the CPython suite's hostile files, from its own generators:
    [(label, [(name, bytes), ...])]."""
    cases = []
    json_cases = list(hostile_cases.tokenizer_json_cases())
    deep = ("nested-1000", "nested-object")  # 1,000 and 100,000 levels
    picked = [c for c in json_cases if c[0].startswith("named:") or any(d in c[0] for d in deep)]
    picked += json_cases[::97]  # every kind of component, field and bad value, thinly
    for case_id, text, _ in picked:
        cases.append((f"json {case_id}", [("tokenizer.json", text.encode("utf-8"))]))
    for case_id, data in hostile_cases.vocab_txt_cases():
        cases.append((f"vocab.txt {case_id}", [("vocab.txt", data)]))
    for case_id, vocab, merges in hostile_cases.merges_cases():
        cases.append((f"bpe {case_id}", [("vocab.json", vocab.encode()), ("merges.txt", merges.encode())]))
    for case_id, text, _ in hostile_cases.tiktoken_cases():
        cases.append((f"tiktoken {case_id}", [("ranks.tiktoken", text.encode("utf-8"))]))
    for case_id, data, _ in hostile_cases.model_score_cases():
        cases.append((f"model {case_id}", [("spm.model", data)]))
    for case_id, data in hostile_cases.model_mutations(botchan_model, 13, 8):
        cases.append((f"model {case_id}", [("spm.model", data)]))
    return cases


DEEPEST_READ = 1000  # web/worker.js: deeper JSON is refused before Python reads it


def _json_depth(data: bytes) -> int:
    from subword_lab.core.json_checks.schema import _TOKENS
    depth = deepest = 0
    for match in _TOKENS.finditer(data.decode("utf-8", "replace")):
        token = match.group()
        depth += 1 if token in "[{" else -1 if token in "]}" else 0
        deepest = max(deepest, depth)
    return deepest


def _cpython_verdict(files):
    """What the same facade code says in CPython: None if it opens, else its error;
    for JSON deeper than the worker reads, the error CPython gives past tokenizers' limit."""
    from subword_lab.core.json_checks import schema as tokenizer_schema
    from subword_lab.web import opening
    for name, data in files:
        if data[:1] in (b"[", b"{") and _json_depth(data) > DEEPEST_READ:
            where = tokenizer_schema._locate_deep(data.decode("utf-8"))
            return f"{name}: {where}: {tokenizer_schema._TOO_DEEP}"
    names, blobs = [n for n, _ in files], [b for _, b in files]
    try:
        opening.open_bytes("hostile", names if len(files) > 1 else names[0],
                           blobs if len(files) > 1 else blobs[0])
    except SubwordLabError as error:
        return str(error)
    return None


def test_hostile_files_open_as_one_clear_error(app, botchan_unigram_model):
    """Each bad file gives the error CPython gives, naming the user's file (never the
    worker's paths or a traceback), each good one opens; a JSON file nested 100,000
    levels deep is refused before Python reads it (Pyodide's json reader would overflow
    the browser's stack and end Python for good); the page keeps tokenizing afterwards."""
    cases = _file_cases(Path(botchan_unigram_model).read_bytes())
    assert len(cases) >= 50
    app.open()
    sample = "Hostile files leave the page working."
    before = app.page.evaluate("(t) => subwordLab.encode(t)", sample)["ids"]
    opened = 0
    for label, files in cases:
        verdict = _cpython_verdict(files)  # a non-SubwordLabError here fails the test too
        count = len(app.page.evaluate("subwordLab.tokenizers()"))
        app.page.evaluate("document.querySelector('[data-testid=error]').textContent = ''")
        app.page.get_by_test_id("file-input").set_input_files(
            [{"name": n, "mimeType": "application/octet-stream", "buffer": b} for n, b in files])
        poll(app, f"document.querySelector('[data-testid=error]').textContent !== '' "
                  f"|| subwordLab.tokenizers().length > {count}", timeout=60)
        app.settled()
        error = app.error_text()
        shown = " + ".join(n for n, _ in files)
        if verdict is None:
            assert len(app.page.evaluate("subwordLab.tokenizers()")) == count + 1, (label, error)
            opened += 1
            continue
        first = files[0][0] + ": "
        body = verdict[len(first):] if verdict.startswith(first) else verdict
        assert error.startswith(f"Could not open {shown}: {body}"), (label, error, verdict)
        assert "/tmp" not in error and "subword-lab-" not in error, (label, error)
        assert "Traceback" not in error and "File \"" not in error, (label, error)
        assert error.count("\n") == 0, (label, error)
    assert 0 < opened < len(cases)  # both kinds were tried
    assert app.page.evaluate("(t) => subwordLab.encode(t, 'gpt2')", sample)["ids"] == before
    assert app.page.evaluate("subwordLab.restarts()") == 0

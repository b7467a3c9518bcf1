"""A toy vocabulary in Tokenize: what it cannot write is said, and counted honestly.

BPE trained on the course's five words (hug, pug, pun, bun, hugs) has no unknown token, so
the tokenizer drops every other character. The page says how many characters no token
covers and leaves them out of the per-token figures. Expected numbers come from the real
`tokenizers` library's offsets on the same tokenizer.json (trained by webapi.train in
CPython, the code the page runs), for a short text (counted from the drawn encoding) and a
long one (counted by Python a slice at a time)."""
from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer as HFTokenizer

from subword_lab.web import api as webapi

SENTENCE = "The hugs of a pug: bun and pun! "


def expected(tokenizer_json: str, text: str) -> tuple[int, int, int]:
    """(tokens, uncovered characters, their UTF-8 bytes) by tokenizers' own offsets."""
    reference = HFTokenizer.from_str(tokenizer_json)
    encoding = reference.encode(text)
    covered = set()
    for start, end in encoding.offsets:
        covered.update(range(start, end))
    missed = [c for i, c in enumerate(text) if i not in covered and not c.isspace()]
    return len(encoding.ids), len(missed), len("".join(missed).encode("utf-8"))


@pytest.mark.parametrize("lang", ["en", "vi", "zh"])
def test_a_toy_vocabulary_says_what_it_drops(app, lang):
    trained = json.loads(webapi.train(json.dumps({"algo": "bpe", "corpus": "course-toy", "vocab_size": 12,
                                                  "tie_break": "first"}),
                                      lambda event: None))["tokenizer_json"]
    page = app.open(f"?view=train&algo=bpe&corpus=course-toy&vocab_size=12&tie_break=first&lang={lang}").page
    page.wait_for_selector("[data-testid=train-use]:not([disabled])", timeout=120_000)
    page.get_by_test_id("train-use").click()
    page.wait_for_function("() => window.subwordLab.view() === 'tokenize'")
    app.settled()
    note = page.get_by_test_id("uncovered")
    for text in (SENTENCE, SENTENCE * 900):  # drawn whole; counted in slices
        page.evaluate("(t) => window.subwordLab.setText(t)", text)
        app.settled()
        page.wait_for_selector("[data-testid=token-count][data-complete=true]", state="attached", timeout=180_000)
        n, chars, nbytes = expected(trained, text)
        assert int(page.get_by_test_id("token-count").get_attribute("data-count")) == n
        assert chars > 0 and note.is_visible()
        assert note.get_attribute("data-count") == str(chars)
        assert f"{chars:,}".replace(",", "") in note.text_content().replace(",", "").replace(".", "")
        ratio = page.get_by_test_id("chars-per-token").text_content().replace(",", ".")
        assert ratio == f"{(len(text) - chars) / n:.2f}"
        per_byte = page.get_by_test_id("bytes-per-token").text_content().replace(",", ".")
        assert per_byte == f"{(len(text.encode('utf-8')) - nbytes) / n:.2f}"
    # a tokenizer that writes everything: no note
    app.select("gpt2")
    page.wait_for_selector("[data-testid=token-count][data-complete=true]", state="attached", timeout=180_000)
    assert not note.is_visible()

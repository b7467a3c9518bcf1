"""Every sentence of a lesson is true of the widget beside it (web/examples/course.html).

The sample course page marks each claim it makes about tokens with data attributes:
`data-claim-tokenizer` (a preset id, or `algo/corpus` for the toy views), `data-claim-text`
(the text the claim is about; none for a training run) and `data-claim-tokens` (a JSON list,
the tokens as the widget writes them). Each claim is read against the <subword-lab> of its
own section as the widget shows it on screen, never against a second computation."""
from __future__ import annotations

import json

import pytest

WIDGETS_READY = "() => [...document.querySelectorAll('subword-lab')].every(e => e.dataset.state === 'ready')"


def widget_tokenizer(attrs: dict) -> str:
    if attrs.get("tokenizer"):
        return attrs["tokenizer"]
    return f"{attrs.get('algo')}/{attrs.get('corpus')}"


FACE = "e => (e.querySelector('.t') ?? e).textContent"  # a chip's face, without its notes


def texts(locator) -> list[str]:
    return locator.evaluate_all(f"els => els.map({FACE})")


def shown_tokens(widget, attrs: dict, claim_text: str | None) -> list[str]:
    """The tokens the widget shows for the claim's text (or the run's pieces, for train)."""
    view = attrs["view"]
    if view == "train":
        return texts(widget.locator("[data-testid=vocab-item]"))
    if view == "tokenize":
        text = attrs["text"]
        start = text.find(claim_text)
        assert start >= 0, f"the widget's text {text!r} does not hold {claim_text!r}"
        end = start + len(claim_text)
        chips = widget.locator("[data-testid=token]").evaluate_all(
            f"els => els.map(e => [Number(e.dataset.start), Number(e.dataset.end), ({FACE})(e)])")
        return [face for s, e, face in chips if start <= s and e <= end and s < e]
    # pipeline and encode step through their stages: the claim is about where they end
    assert attrs["text"] == claim_text, f"the widget shows {attrs['text']!r}, the claim is about {claim_text!r}"
    end = widget.get_by_test_id("player-end")
    if end.is_enabled():  # (disabled: the widget already shows its last stage)
        end.click()
    testid = "final-token" if view == "pipeline" else "result-token"
    widget.locator(f"[data-testid={testid}]").first.wait_for()
    return texts(widget.locator(f"[data-testid={testid}]"))


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_every_claim_of_the_course_page_is_what_its_widget_shows(app, width, height):
    page = app.page
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{app.site}/examples/course.html")
    page.wait_for_function(WIDGETS_READY, timeout=180_000)
    claims = page.locator("[data-claim]")
    assert claims.count() >= 4
    checked = set()
    for i in range(claims.count()):
        claim = claims.nth(i)
        meta = claim.evaluate("""c => ({
            tokenizer: c.dataset.claimTokenizer, text: c.dataset.claimText ?? null,
            tokens: c.dataset.claimTokens, prose: c.textContent.replace(/\\s+/g, ' ').trim()})""")
        widget = claim.locator("xpath=ancestor::section[1]//subword-lab")
        assert widget.count() == 1, f"claim {meta['prose']!r} has no widget beside it"
        attrs = widget.evaluate("w => Object.fromEntries([...w.attributes].map(a => [a.name, a.value]))")
        assert widget_tokenizer(attrs) == meta["tokenizer"], (meta["prose"], attrs)
        expected = json.loads(meta["tokens"])
        # every token the claim names is written in its prose
        for token in expected:
            assert token in meta["prose"], f"{token!r} is claimed but not written in {meta['prose']!r}"
        assert shown_tokens(widget, attrs, meta["text"]) == expected, meta["prose"]
        checked.add(attrs["view"])
    assert checked >= {"tokenize", "pipeline", "train", "encode"}

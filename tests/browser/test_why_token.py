""""Why this token?" on every kind of preset, at both widths, on text in the three
languages: the encode view's last step ends in the very tokens the Tokenize view shows
at that place (the clicked one among them, and it alone marked as the one asked about,
in sight even where the lattice scrolls in its box),
it has steps to show (sentencepiece BPE models used to give "The model had nothing to do:
no words."), a whole-word token of a tiktoken-style model shows the merges by rank that
built it, and nothing runs off the page sideways.
"""
from __future__ import annotations

import pytest

from shots import shot_path

# one preset per kind: tiktoken BPE (two), tokenizer.json BPE with a "▁" put in front
# (Llama 2), WordPiece, tokenizer.json Unigram, sentencepiece Unigram and BPE (.model)
PRESETS = ["gpt2", "o200k-base", "llama2", "bert-base-uncased", "xlm-roberta",
           "botchan-unigram", "botchan-bpe", "mistral-v1", "mistral-v3"]
TEXT = ("Hello weather, unbelievably good.\n"
        "Thời tiết hôm nay thật đẹp.\n"
        "今天天气很好，分词器。")
WORDS = ["weather", "unbelievably", "Thời", "đẹp", "天气", "分词器"]
WIDTHS = [(1280, 900), (390, 844)]


def open_tokenize(page, key):
    page.evaluate("async () => { await window.subwordLab.showView('tokenize'); }")
    if page.evaluate("window.subwordLab.state().tokenizer") != key:
        page.get_by_test_id("tokenizer-select").select_option(key)
        page.wait_for_function("(k) => window.subwordLab.state().tokenizer === k"
                               " || document.querySelector('[data-testid=error]').textContent",
                               arg=key, timeout=300_000)
    if page.get_by_test_id("text-input").input_value() != TEXT:
        page.get_by_test_id("text-input").fill(TEXT)
    page.evaluate("async () => await window.subwordLab.settled()")
    assert page.get_by_test_id("error").text_content() == ""
    return page.evaluate("window.subwordLab.state()")


def final_tokens(page):
    """The ids the encode view's last step ends in (word renderers, or the lattice's best path)."""
    return page.evaluate("""() => {
      const chips = [...document.querySelectorAll('[data-testid=encode-result][data-final=true] [data-testid=result-token]')];
      if (chips.length) return chips.map((c) => Number(c.dataset.tokenId));
      const best = [...document.querySelectorAll('[data-testid=lattice-edge][data-best=true]')];
      best.sort((a, b) => Number(a.dataset.start) - Number(b.dataset.start));
      // the path before unknowns are fused: a run of unknown edges is one token (null: any)
      const out = [];
      for (const e of best) {
        const unk = e.dataset.unk === 'true';
        if (unk && out.length && out[out.length - 1] === null) continue;
        out.push(unk ? null : e.dataset.piece);
      }
      return out;
    }""")


def asked_marks(page):
    """What the encode view marks as the token asked about: the word renderers' final
    chips' places and ids, or the lattice's edges (piece, on the best path or not) and the
    n best list's tokens (once the list has come)."""
    return page.evaluate("""async () => {
      const chips = [...document.querySelectorAll('[data-testid=encode-result][data-final=true] [data-testid=result-token]')];
      if (chips.length) {
        return {chips: chips.flatMap((c, place) => c.dataset.asked === 'true' ? [[place, Number(c.dataset.tokenId)]] : [])};
      }
      const box = document.querySelector('[data-testid=unigram-nbest]');
      for (let i = 0; i < 600 && box && !['done', 'error'].includes(box.dataset.state); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const edges = [...document.querySelectorAll('[data-testid=lattice-edge][data-asked=true]')]
        .sort((a, b) => Number(a.dataset.start) - Number(b.dataset.start));
      const path = [...document.querySelectorAll('[data-testid=lattice-edge][data-best=true]')]
        .sort((a, b) => Number(a.dataset.start) - Number(b.dataset.start));
      const first = [...document.querySelectorAll('[data-testid=nbest-item]')][0];
      const tokens = first ? [...first.querySelectorAll('.nbest-token')] : [];
      return {edges: edges.map((e) => [e.dataset.piece, e.dataset.best === 'true']),
              // #1 of the n best is the encoder's path unless a tie put another first (an
              // unknown edge's label is "<unk>", the list shows its characters)
              firstIsTaken: tokens.length === path.length && path.every((e, i) => e.dataset.unk === 'true'
                || e.querySelector('.lattice-label').textContent === tokens[i].textContent),
              nbest: tokens.flatMap((t, place) => t.dataset.asked === 'true' ? [place] : []),
              edgePlace: edges.length ? path.indexOf(edges[0]) : null,
              // the lattice scrolls in its box on a phone: the asked edge must be in sight
              // (the first of a run of unknown edges wider than the box)
              inView: edges.slice(0, 1).every((e) => {
                const r = e.querySelector('.lattice-arc').getBoundingClientRect();
                const box = e.closest('.lattice-scroll').getBoundingClientRect();
                return r.left + r.width / 2 >= box.left && r.left + r.width / 2 <= box.right;
              })};
    }""")


def check_asked_mark(page, state, index, shown, runs):
    """The clicked token, and it alone, is marked among the last step's tokens."""
    marks = asked_marks(page)
    if "chips" in marks:
        assert len(marks["chips"]) == 1, marks
        place, token_id = marks["chips"][0]
        assert token_id == state["ids"][index] and index - place in runs, (marks, index, runs)
    else:
        # one edge, or the unknown characters' edges of a run fused into one token
        assert marks["edges"] and all(best for _, best in marks["edges"]), marks
        assert "".join(piece for piece, _ in marks["edges"]) == state["tokens"][index], marks
        assert marks["inView"], ("the asked edge is scrolled out of sight", marks)
        whole = len(marks["edges"]) == 1 and marks["firstIsTaken"]
        assert marks["nbest"] == ([marks["edgePlace"]] if whole else []), marks


def why(page, index):
    chip = page.locator(f"[data-testid=token][data-index='{index}']")
    chip.scroll_into_view_if_needed()
    chip.focus()
    chip.press("Enter")
    page.wait_for_function("() => window.subwordLab.view() === 'encode'")
    page.evaluate("async () => { await (await window.subwordLab.showView('encode')).settled(); }")
    return page.get_by_test_id("narration").text_content()


@pytest.mark.parametrize("key", PRESETS)
def test_why_ends_in_the_tokens_the_page_shows(app, key):
    app.open(f"?tokenizer={key}&lang=en")
    page = app.page
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        state = open_tokenize(page, key)
        for word in WORDS:
            at = TEXT.index(word) + len(word) // 2
            index = next(i for i, (s, e) in enumerate(state["offsets"]) if s <= at < e)
            narration = why(page, index)
            assert page.get_by_test_id("encode-status").is_hidden(), page.get_by_test_id("encode-status").text_content()
            assert "nothing to do" not in narration, (key, word, narration)
            shown = final_tokens(page)
            assert shown, (key, word)
            # the shown stretch is a run of the page's tokens holding the clicked one
            page_side = state["ids"] if all(isinstance(x, int) for x in shown) else state["tokens"]
            runs = [i for i in range(max(0, index - len(shown) + 1), index + 1)
                    if len(page_side[i:i + len(shown)]) == len(shown)
                    and all(x is None or x == y for x, y in zip(shown, page_side[i:]))]
            assert runs, (key, word, shown, page_side[max(0, index - 5):index + 5])
            check_asked_mark(page, state, index, shown, runs)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, (key, word, width, overflow)
            if word == "天气":
                page.screenshot(path=shot_path(f"why-{key}-{width}.png"), full_page=True)
            page.get_by_test_id("why-back").click()
            page.wait_for_function("() => window.subwordLab.view() === 'tokenize'")
    page.set_viewport_size({"width": 1280, "height": 900})


BLANK_TEXT = "a\n\n\n   b \ufeffc\u00a0"


@pytest.mark.parametrize("key", ["gpt2", "o200k-base"])
def test_why_on_tokens_of_spaces_and_invisible_characters(app, key):
    # a line-break token, space tokens, a byte-order mark, a no-break space: "why this
    # token?" used to do nothing on them (the word around was blank to JavaScript's trim)
    app.open(f"?tokenizer={key}&lang=en&text=a")
    page = app.page
    page.get_by_test_id("text-input").fill(BLANK_TEXT)
    page.evaluate("async () => await window.subwordLab.settled()")
    state = page.evaluate("window.subwordLab.state()")
    blank = [i for i, (s, e) in enumerate(state["offsets"])
             if not BLANK_TEXT[s:e].replace("\ufeff", "").strip()]
    assert len(blank) >= 3, state["tokens"]
    for index in blank:
        why(page, index)
        assert page.get_by_test_id("encode-status").is_hidden(), page.get_by_test_id("encode-status").text_content()
        shown = final_tokens(page)
        assert any(state["ids"][i:i + len(shown)] == shown for i in range(max(0, index - len(shown) + 1), index + 1)), \
            (key, index, shown, state["ids"])
        s, e = state["offsets"][index]
        if "\n" in BLANK_TEXT[s:e]:  # the one-line box drops line breaks, and a note says so
            assert page.get_by_test_id("encode-line-breaks").is_visible(), (key, index)
        page.get_by_test_id("why-back").click()
        page.wait_for_function("() => window.subwordLab.view() === 'tokenize'")
    why(page, 0)  # "a": no line break, no note
    assert page.get_by_test_id("encode-line-breaks").is_hidden()


def test_a_whole_word_token_shows_the_merges_that_built_it(app):
    """Each tiktoken-style model in turn, chosen in one page."""
    app.open("?tokenizer=gpt2&lang=en")
    page = app.page
    for key in ["gpt2", "o200k-base", "llama3", "mistral-tekken"]:
        state = open_tokenize(page, key)
        at = TEXT.index("weather") + 2
        index = next(i for i, (s, e) in enumerate(state["offsets"]) if s <= at < e)
        assert state["tokens"][index] == "Ġweather", key  # one token: a whole word of the vocabulary
        why(page, index)
        merges = page.get_by_test_id("bpe-merge")
        assert merges.count() >= 3, key  # Ġ w e a t h e r: at least three merges to one symbol
        assert page.locator("[data-testid=bpe-symbol]").count() == 1, key
        page.get_by_test_id("why-back").click()
        page.wait_for_function("() => window.subwordLab.view() === 'tokenize'")

"""The compare view: counts equal to subword_lab's in CPython for the same text."""
from __future__ import annotations

import subword_lab
from shots import shot_path

AXE_BAD = "() => axe.run(document).then(r => r.violations.filter(v => ['serious','critical'].includes(v.impact)).map(v => v.id + ': ' + v.nodes.map(n => n.target).join(' ')))"
TEXT = "Unbelievably, naïve café owners in Zürich sold 1,234 crêpes."
FILES = {"bert-base-uncased": "bert_json", "gpt2": "gpt2_tiktoken", "botchan-unigram": "botchan_unigram_model"}


def ids_of(path, text):
    tokenizer = subword_lab.load(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return list(tokenizer.encode(text).ids)


def open_compare(app, query):
    app.open(query)
    app.page.evaluate("async () => { const v = await window.subwordLab.showView('compare'); await v.settled(); }")


def columns(app):
    return app.page.eval_on_selector_all("[data-testid=compare-column]", """els => els.map(e => ({
        key: e.dataset.tokenizer, count: Number(e.querySelector('[data-testid=compare-count]').dataset.count),
        ids: [...e.querySelectorAll('[data-testid=compare-token]')].map(t => Number(t.dataset.tokenId))}))""")


def test_counts_match_cpython(app, request):
    open_compare(app, "?view=compare&tokenizers=bert-base-uncased,gpt2,botchan-unigram&text=" + TEXT.replace(" ", "%20"))
    shown = columns(app)
    assert [c["key"] for c in shown] == list(FILES)
    for column in shown:
        expected = ids_of(request.getfixturevalue(FILES[column["key"]]), TEXT)
        assert column["count"] == len(expected)
        assert column["ids"] == expected
    assert len({c["count"] for c in shown}) > 1  # the point of comparing


def test_choosing_and_axe(app, request):
    open_compare(app, "?view=compare&tokenizers=gpt2,bert-base-uncased&text=hello%20world")
    assert [c["key"] for c in columns(app)] == ["gpt2", "bert-base-uncased"]
    app.page.locator("[data-testid=compare-empty-column] [data-testid=compare-select]").select_option("botchan-unigram")
    app.page.evaluate("async () => { await window.subwordLab.showView('compare').then(v => v.settled()); }")
    app.page.wait_for_function("() => document.querySelectorAll('[data-testid=compare-column]').length === 3")
    last = columns(app)[2]
    assert last["ids"] == ids_of(request.getfixturevalue("botchan_unigram_model"), "hello world")
    app.inject_axe()
    assert app.page.evaluate(AXE_BAD) == []


def test_screenshot(app):
    open_compare(app, "?view=compare&tokenizers=bert-base-uncased,gpt2,botchan-unigram&text=" + TEXT.replace(" ", "%20"))
    app.page.screenshot(path=shot_path("screenshot-compare.png"), full_page=True)

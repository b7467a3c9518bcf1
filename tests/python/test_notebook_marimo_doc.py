"""docs/notebook_marimo.py runs headless (marimo's own `App.run()`, no browser) with no error,
and the state each widget holds there equals what the CPython library computes here for the
same input. The widgets drawn in a marimo editor: tests/browser/test_notebook_marimo.py."""
from __future__ import annotations

import importlib.util
from pathlib import Path


from installed import require

require("marimo", "anywidget")

from train_helpers import NOTEBOOK_SAMPLE as SAMPLE, notebook_runs

ROOT = Path(__file__).resolve().parents[2]


def test_marimo_notebook_runs_and_its_widgets_hold_the_library_results():
    spec = importlib.util.spec_from_file_location("notebook_marimo", ROOT / "docs" / "notebook_marimo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, defs = module.app.run()
    runs = notebook_runs()
    for name, algo in (("bpe", "bpe"), ("wordpiece", "wordpiece"), ("unigram", "unigram")):
        tokenizer, events = runs[algo]
        run = defs[f"{name}_run"].widget
        assert run.done and run.algorithm == algo
        assert run.events == len(events)
        assert run.vocab == [token for token, _ in sorted(tokenizer.get_vocab().items(), key=lambda kv: kv[1])]
        assert defs[name].encode(SAMPLE).ids == tokenizer.encode(SAMPLE).ids
    widget = defs["bpe_tokens"].widget
    encoding = runs["bpe"][0].encode(SAMPLE)
    assert (widget.text, widget.ids, widget.tokens) == (SAMPLE, encoding.ids, encoding.tokens)
    assert widget.offsets == [list(span) for span in encoding.offsets]

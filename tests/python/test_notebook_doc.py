"""docs/notebook.ipynb runs headless (nbclient, a real IPython kernel) with no error, and the
state each widget synced there equals what the CPython library computes here for the same
input. The widgets drawn in JupyterLab: tests/browser/test_notebook_lab.py."""
from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

import tokenizers as hf

from installed import require
from train_helpers import NOTEBOOK_SAMPLE as SAMPLE, notebook_runs

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "notebook.ipynb"
require("nbclient", "nbformat")


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    import nbclient  # imported when run, not when collected: 3.5 s in every xdist worker
    import nbformat
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", store_widget_state=True,
                                     resources={"metadata": {"path": str(tmp_path_factory.mktemp("run"))}})
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "py"), os.environ.get("PYTHONPATH", "")]))
    # the Jupyter client sets this process's Ctrl-C handler and leaves it set; put back
    # what the test run had, so that later tests in this worker see the same process
    ctrl_c = signal.getsignal(signal.SIGINT)
    try:
        client.execute(env=env)
    finally:
        signal.signal(signal.SIGINT, ctrl_c)
    return nb


def widget_states(nb):
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return [m["state"] for m in state.values() if m["state"].get("_anywidget_id", "").startswith("subword_lab.notebook")]


def test_notebook_runs_without_error(executed):
    for cell in executed.cells:
        if cell.cell_type == "code":
            assert not [o for o in cell.outputs if o.output_type == "error"], cell.source


def test_widgets_state_is_the_librarys(executed):
    runs = notebook_runs()
    states = widget_states(executed)
    training = [s for s in states if s["widget"] == "training"]
    tokens = [s for s in states if s["widget"] == "tokens"]
    assert [s["algorithm"] for s in training] == ["bpe", "wordpiece", "unigram"]
    for state in training:
        tok, events = runs[state["algorithm"]]
        vocab = tok.get_vocab()
        assert state["done"] and state["events"] == len(events)
        assert state["vocab"] == sorted(vocab, key=vocab.get)
        assert state["merges"] == [list(e["pair"]) for e in events if e["type"] == "merge"]
    assert len(tokens) == 4
    for state, tok in zip(tokens, [runs[a][0] for a in ("bpe", "wordpiece", "unigram", "bpe")]):
        encoding = tok.encode(SAMPLE)
        assert state["text"] == SAMPLE
        assert (state["ids"], state["tokens"]) == (encoding.ids, encoding.tokens)
        assert [tuple(o) for o in state["offsets"]] == encoding.offsets
    steps = [s for s in states if s["widget"] == "steps"]
    assert [s["word"] for s in steps] == [" tokenization", "tokenization"]
    for state, algo in zip(steps, ("bpe", "unigram")):
        events = []
        encoding = runs[algo][0].encode(state["word"], on_event=events.append, add_special_tokens=False)
        assert state["events"] == json.loads(json.dumps(events)) and state["ids"] == encoding.ids
    # Unigram's n best: segmentations of the word, best first, each scored by its pieces'
    # log probabilities in the trained model; the first is the path the encode took
    assert steps[0]["nbest"] == []
    (listed,) = steps[1]["nbest"]
    scores = dict(json.loads(runs["unigram"][0].to_str())["model"]["vocab"])
    paths = listed["paths"]
    assert listed["word"] == "▁tokenization" and paths[0]["pieces"] == steps[1]["tokens"]
    assert len(paths) == min(5, listed["segmentations"]) > 1
    for path in paths:
        assert "".join(path["pieces"]) == listed["word"]
        assert path["score"] == pytest.approx(sum(scores[p] for p in path["pieces"]))
    assert [p["score"] for p in paths] == sorted((p["score"] for p in paths), reverse=True)
    compare = [s for s in states if s["widget"] == "compare"]
    assert len(compare) == 1 and compare[0]["text"] == SAMPLE
    assert [r["name"] for r in compare[0]["rows"]] == ["BPE", "WordPiece", "Unigram"]
    for row, algo in zip(compare[0]["rows"], ("bpe", "wordpiece", "unigram")):
        assert (row["ids"], row["tokens"]) == (runs[algo][0].encode(SAMPLE).ids, runs[algo][0].encode(SAMPLE).tokens)
    # the last one came from tokenizers itself: its ids are that object's
    assert tokens[3]["ids"] == hf.Tokenizer.from_str(runs["bpe"][0].to_str()).encode(SAMPLE).ids

"""`trace_encode` with `steps: "stages"` (what the pipeline view asks for): the very events of
the full trace that are pipeline steps or a piece's `<model>.done`, in the same order, with
the same answer, and none of the model's own steps."""
from __future__ import annotations

import json

import pytest

from subword_lab.core.errors import SubwordLabError
from subword_lab.pipeline.events import STAGE_TYPES
from subword_lab.web import api

TEXT = ("Café crème, naïve façade — déjà vu! Straße ẞ, Ελληνικά, Ёлка, مرحبا ١٢٣, "
        "नमस्ते, 東京タワー, 한국어, emoji 🤗 and [CLS] tabs\there.")


def _trace(key, steps=None):
    events = []
    args = {"key": key, "text": TEXT, **({"steps": steps} if steps else {})}
    answer = json.loads(api.trace_encode(json.dumps(args), lambda e: events.append(json.loads(e))))
    return answer, events


@pytest.mark.parametrize("fixture", ["gpt2_tiktoken", "botchan_bpe_model", "botchan_unigram_model",
                                     "bert_json"])
def test_stages_are_the_full_trace_without_the_model_steps(request, fixture):
    key = f"trace-{fixture}"
    api.open_path(key, str(request.getfixturevalue(fixture)))
    full_answer, full = _trace(key)
    answer, stages = _trace(key, "stages")
    kept = [e for e in full if e["type"] in STAGE_TYPES or e["type"].endswith(".done")]
    assert len(kept) < len(full)  # the full trace has model steps to leave out
    assert stages == kept
    assert {k: v for k, v in answer.items() if k != "events"} == \
        {k: v for k, v in full_answer.items() if k != "events"}
    assert answer["events"] == len(stages)
    # each piece the model saw is followed by its tokens, which are the encode's, in order,
    # between the added tokens' own
    pieces = [i for i, e in enumerate(stages) if e["type"] == "model_piece"]
    assert pieces and all(stages[i + 1]["type"].endswith(".done") for i in pieces)
    done = iter([[row[1] for row in e["tokens"]] for e in stages if e["type"].endswith(".done")])
    final = stages[-1]
    assert final["type"] == "encoding"
    ids = iter([i for i, post in zip(final["ids"], final["added_by_post_processor"]) if not post])
    (pre_tokenize,) = [e for e in stages if e["type"] == "pre_tokenize"]
    for piece in pre_tokenize["pieces"]:
        if piece["added"]:
            next(ids)  # an added token's id: no model piece
            continue
        tokens = next(done)
        assert tokens == [next(ids) for _ in tokens], piece["text"]
    assert next(ids, None) is None and next(done, None) is None


@pytest.mark.parametrize("steps", ["stage", "STAGES", "", None, 1, ["stages"]])
def test_an_unknown_steps_value_is_refused(gpt2_tiktoken, steps):
    """A misspelt `steps` is an error naming the option, not a silent full trace."""
    api.open_path("trace-steps", str(gpt2_tiktoken))
    args = json.dumps({"key": "trace-steps", "text": "hi", "steps": steps})
    with pytest.raises(SubwordLabError, match="steps") as info:
        api.trace_encode(args, lambda e: None)
    assert info.value.field == "steps"

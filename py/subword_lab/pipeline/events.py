"""The events a Tokenizer reports while it encodes (docs/events.md): one plain,
JSON-ready dict per step, built from the step's NormalizedString or PreTokenizedString.

The general pipeline (tokenizer.py) and sentencepiece's own (io/sentencepiece.py)
report the same steps with these builders.
"""
from __future__ import annotations

__all__ = ["STAGE_TYPES", "added_tokens_event", "final_event", "is_stage", "normalize_event",
           "piece_event", "pre_tokenize_event"]

# The pipeline's own steps (docs/events.md, "the pipeline"): what a view of the stages
# draws. The model's steps between a piece's `model_piece` and its `<model>.done` are
# not among them: a sentencepiece BPE text is one piece whose every merge lists all its
# symbols, some 20 MB of events for 6 KB of text, none of which such a view reads.
STAGE_TYPES = frozenset({"input", "added_tokens", "normalize", "pre_tokenize", "model_piece",
                         "encoding"})


def is_stage(event) -> bool:
    """True for a pipeline step and for each piece's `<model>.done` (the piece's tokens)."""
    kind = event["type"]
    return kind in STAGE_TYPES or kind.endswith(".done")


def _span(ns):
    return list(ns.convert_offsets(0, len(ns.normalized)))


def normalize_event(ns, type_id):
    helper = getattr(ns, "to_event", None)
    event = helper() if helper is not None else {
        "type": "normalize", "original": ns.original, "normalized": ns.normalized}
    event = dict(event)
    event.setdefault("type", "normalize")
    event["sequence"] = type_id
    return event


def added_tokens_event(pts, type_id, added, stage):
    splits = []
    for split in pts.splits:
        entry = {"text": split.normalized.normalized, "offsets": _span(split.normalized),
                 "id": None, "special": False}
        if split.tokens is not None:
            id_ = split.tokens[0][0]
            entry["id"] = id_
            entry["special"] = added.tokens_map_r[id_].special
        splits.append(entry)
    return {"type": "added_tokens", "sequence": type_id, "stage": stage, "splits": splits}


def pre_tokenize_event(pts, type_id):
    pieces = []
    for split in pts.splits:
        ns = split.normalized
        pieces.append({"text": ns.normalized, "offsets": _span(ns),
                       "added": split.tokens is not None})
    return {"type": "pre_tokenize", "sequence": type_id, "pieces": pieces}


def piece_event(ns, index, type_id):
    return {"type": "model_piece", "sequence": type_id, "index": index,
            "text": ns.normalized, "offsets": _span(ns)}


def final_event(encoding):
    return {"type": "encoding", "ids": list(encoding.ids), "tokens": list(encoding.tokens),
            "offsets": [list(o) for o in encoding.offsets],
            "type_ids": list(encoding.type_ids),
            "attention_mask": list(encoding.attention_mask),
            "special_tokens_mask": list(encoding.special_tokens_mask),
            "added_by_post_processor": [bool(m and a) for m, a in
                                        zip(encoding.special_tokens_mask,
                                            encoding.attention_mask)],
            "word_ids": list(encoding.word_ids)}

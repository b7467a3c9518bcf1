"""Shared helpers for the trainer tests: both libraries side by side."""
from __future__ import annotations

import json

import tokenizers as hf

from subword_lab import Tokenizer, models, pre_tokenizers
from subword_lab.reference import bpe_train, steps, wordpiece_train
from subword_lab.trainers import BpeTrainer, UnigramTrainer, WordPieceTrainer

COURSE = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]

PRE_TOKENIZERS = {
    "byte_level": (lambda: pre_tokenizers.ByteLevel(add_prefix_space=False),
                   lambda: hf.pre_tokenizers.ByteLevel(add_prefix_space=False)),
    "whitespace": (pre_tokenizers.Whitespace, hf.pre_tokenizers.Whitespace),
    "bert": (pre_tokenizers.BertPreTokenizer, hf.pre_tokenizers.BertPreTokenizer),
}


def ours(model, pre):
    tok = Tokenizer(model)
    tok.pre_tokenizer = PRE_TOKENIZERS[pre][0]()
    return tok


def theirs(model, pre):
    tok = hf.Tokenizer(model)
    tok.pre_tokenizer = PRE_TOKENIZERS[pre][1]()
    return tok


def merges_of(tokenizer_json):
    """The merges of a tokenizer.json, as (left, right) tuples, either format."""
    merges = json.loads(tokenizer_json)["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in merges]


def same_encodings(ours_tok, hf_tok, lines):
    """Lines whose ids differ between the two tokenizers."""
    return [line for line in lines if ours_tok.encode(line).ids != hf_tok.encode(line).ids]


# docs/notebook.ipynb: the text its tokens widgets show, and its three runs
NOTEBOOK_SAMPLE = "This is about tokenization, unbelievably short words."


def notebook_runs():
    """The three tokenizers docs/notebook.ipynb trains, trained here: {algo: (tokenizer, events)}."""
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    wordpiece = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    wordpiece.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    unigram = Tokenizer(models.Unigram())
    unigram.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace()])
    runs = {
        "bpe": (bpe, BpeTrainer(vocab_size=50, special_tokens=["<|endoftext|>"], tie_break="first")),
        "wordpiece": (wordpiece, WordPieceTrainer(vocab_size=70, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
                                                  tie_break="first")),
        "unigram": (unigram, UnigramTrainer(vocab_size=100, method="exact", seed_size=300, shrink_fraction=0.1)),
    }
    out = {}
    for algo, (tok, trainer) in runs.items():
        events = []
        tok.train_from_iterator(COURSE, trainer, on_event=events.append)
        out[algo] = (tok, events)
    return out


def reference_training(algo, events):
    """The training reference ("bpe" or "wordpiece") trained again on a run's word counts
    with its options (its train_start and words events): a steps.Steps recorder holding
    the reference's events and, beside each, its step (line and variables)."""
    reference = {"bpe": bpe_train, "wordpiece": wordpiece_train}[algo]
    options = next(e for e in events if e["type"] == "train_start")["options"]
    counts = {w["word"]: w["count"] for w in next(e for e in events if e["type"] == "words")["words"]}
    extra = {"min_frequency": options["min_frequency"]} if algo == "bpe" else {}
    recorder = steps.Steps()
    reference.train(counts, vocab_size=options["vocab_size"], special_tokens=options["special_tokens"],
                    tie_break=options["tie_break"], options=options, on_event=recorder, **extra)
    return recorder

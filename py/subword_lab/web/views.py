"""Facade functions for the pipeline, encode and compare views (re-exported by web.api).

The course's toy tokenizers live here, built in Python so every number the page
shows is computed, never typed into JavaScript:

- "course-toy-wordpiece": the vocabulary the WordPiece chapter lists after its
  toy training ([UNK], b, h, p, ##g, ##n, ##s, ##u, ##gs, hu, hug). We use that
  listed vocabulary, not a run of our WordPieceTrainer: recomputing the scores,
  the third merge is (hu, ##gs) -> hugs at 1/15, not (hu, ##g) -> hug at 2/45,
  and with "hugs" in the vocabulary the chapter's examples (hugs -> hug ##s)
  would not come out. The page says so next to the vocabulary.
- "course-toy-bpe": trained here by our BpeTrainer on the toy word counts, with
  the course's tie-break (first occurrence) and ten tokens (the alphabet plus the
  merges ug, un, hug), plus [UNK] for letters the toy alphabet lacks.

Both split words on whitespace and punctuation (BertPreTokenizer), as the course does.
"""
from __future__ import annotations

import json

from ..core.errors import SubwordLabError
from .course import TOY_WORDS
from .registry import REGISTRY
from .unigram import COURSE_TOY_KEY, course_toy_unigram

TOY_COUNTS = dict(TOY_WORDS)
# The chapter's vocabulary after its toy training (see the module docstring).
TOY_WORDPIECE_VOCAB = ["[UNK]", "b", "h", "p", "##g", "##n", "##s", "##u", "##gs", "hu", "hug"]
TOY_BPE_MERGES = 3  # ug, un, hug: the course's first three merges


def _toy_wordpiece():
    from ..models import WordPiece
    from ..pre_tokenizers import BertPreTokenizer
    from ..tokenizer import Tokenizer

    vocab = {token: i for i, token in enumerate(TOY_WORDPIECE_VOCAB)}
    tokenizer = Tokenizer(WordPiece(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = BertPreTokenizer()
    return tokenizer


def _toy_bpe():
    from ..models import BPE
    from ..pre_tokenizers import BertPreTokenizer
    from ..tokenizer import Tokenizer
    from ..trainers import BpeTrainer

    alphabet = sorted({ch for word in TOY_COUNTS for ch in word})
    trainer = BpeTrainer(vocab_size=1 + len(alphabet) + TOY_BPE_MERGES,
                         special_tokens=["[UNK]"], tie_break="first", show_progress=False)
    trainer.feed_word_counts(TOY_COUNTS)
    model = BPE(unk_token="[UNK]")
    trainer.train(model)
    tokenizer = Tokenizer(model)
    tokenizer.pre_tokenizer = BertPreTokenizer()
    return tokenizer


_TOYS = {"course-toy-wordpiece": _toy_wordpiece, "course-toy-bpe": _toy_bpe}


def toy_key(corpus: str, algo: str) -> str:
    return f"{corpus}-{algo}"


def open_toy(args_json: str, emit=None) -> str:
    """Open the course's toy tokenizer for {corpus, algo} under the key "<corpus>-<algo>".

    Returns what `describe` returns, plus "vocab" (every token, in id order) so the
    view can show the vocabulary it encodes with. A key another module already
    opened (the toy Unigram) is described as it is.
    """
    args = json.loads(args_json or "{}")
    key = toy_key(str(args.get("corpus", "")), str(args.get("algo", "")))
    if key == COURSE_TOY_KEY and key not in REGISTRY:
        course_toy_unigram()  # the Unigram views' module builds and names that one
    if key not in REGISTRY:
        build = _TOYS.get(key)
        if build is None:
            raise SubwordLabError(f"there is no toy tokenizer {key!r}")
        REGISTRY.add(key, key, build())
    tokenizer = REGISTRY.get(key)
    vocab = tokenizer.get_vocab(with_added_tokens=True)
    info = REGISTRY.info(key)
    info["vocab"] = sorted(vocab, key=vocab.get)
    return json.dumps(info, ensure_ascii=False)

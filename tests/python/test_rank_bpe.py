"""BPE in rank mode (no merge list; the lowest-ranked concatenation merges first)
against tiktoken on the words where the two merge loops differ most: long words
(the heap path), random bytes, and small random vocabularies full of ties."""
from __future__ import annotations

import base64
import random

import pytest
import tiktoken

from subword_lab import models
from subword_lab.core.tables import byte_level
from subword_lab.models import _rank_engine as rank_engine


def _ranks(path):
    lines = path.read_text(encoding="ascii").splitlines()
    return {base64.b64decode(tok): int(rank) for tok, rank in (row.split() for row in lines if row)}


def _model(ranks):
    vocab = {byte_level.encode_bytes(t): r for t, r in ranks.items()}
    return models.BPE.from_ranks(vocab, ignore_merges=True)


@pytest.fixture(scope="module")
def gpt2(gpt2_tiktoken):
    ranks = _ranks(gpt2_tiktoken)
    # One piece, no pre-tokenizer split: the BPE step alone.
    enc = tiktoken.Encoding("bytes", pat_str=r"[\s\S]+", mergeable_ranks=ranks,
                            special_tokens={})
    return _model(ranks), enc


def _ours(model, data: bytes):
    return list(model.encode_word(byte_level.encode_bytes(data))[0])


@pytest.mark.parametrize("size", [1, 2, 47, 48, 49, 200, 5_000, 40_000])
def test_long_words_match_tiktoken(gpt2, botchan_txt, size):
    model, enc = gpt2
    text = botchan_txt.read_text(encoding="utf-8")
    word = "".join(ch for ch in text if ch.isalpha())[:size].encode()
    assert _ours(model, word) == enc.encode_ordinary(word.decode())


@pytest.mark.parametrize("seed", range(6))
def test_random_bytes_match_tiktoken(gpt2, seed):
    model, enc = gpt2
    rng = random.Random(seed)
    for size in (3, 30, 60, 700, 3000):
        data = bytes(rng.randrange(256) for _ in range(size))
        assert _ours(model, data) == enc._encode_bytes(data), (seed, size)


def test_repeated_characters(gpt2):
    # Runs of one character tie at every position: leftmost first decides all.
    model, enc = gpt2
    for ch in "a =\n0é":
        for size in (5, 50, 1001):
            word = ch * size
            assert _ours(model, word.encode()) == enc.encode_ordinary(word), (ch, size)


@pytest.mark.parametrize("seed", range(20))
def test_random_vocabularies_with_ties(seed):
    rng = random.Random(seed)
    alphabet = b"abc"
    ranks = {bytes([b]): b for b in range(256)}
    while len(ranks) < 300:
        a, b = rng.sample(sorted(ranks), 2)
        if set(a + b) <= set(alphabet) and a + b not in ranks:
            ranks[a + b] = len(ranks)
        elif rng.random() < 0.3:
            ranks.setdefault(bytes(rng.choice(alphabet) for _ in range(2)), len(ranks))
    enc = tiktoken.Encoding("t", pat_str=r"[\s\S]+", mergeable_ranks=ranks, special_tokens={})
    model = _model(ranks)
    for size in (4, 40, 48, 49, 120, 900):
        data = bytes(rng.choice(alphabet) for _ in range(size))
        assert _ours(model, data) == enc._encode_bytes(data), size


def test_short_and_long_paths_agree(gpt2, botchan_txt):
    """The list scan (short words) and the heap (long ones) give one answer."""
    model, _ = gpt2
    ranks = model._ranks
    text = byte_level.encode_text(botchan_txt.read_text(encoding="utf-8")[:3000])
    for start in range(0, 2900, 37):
        word = text[start:start + 1 + start % 90]
        assert rank_engine.short_word_bounds(word, ranks) == rank_engine.long_word_bounds(word, ranks)


def test_traced_path_gives_the_same_tokens(gpt2):
    model, _ = gpt2
    events = []
    for word in ["Ġhello", "Ġunbelievably", byte_level.encode_text(" naïveté 東京")]:
        fast = model.tokenize(word)
        assert model.tokenize(word, on_event=events.append) == fast
    assert any(e["type"] == "bpe.merge" for e in events)


def test_merges_derived_on_demand():
    ranks = {bytes([b]): b for b in range(256)}
    ranks[b"ab"] = 256
    ranks[b"abc"] = 257
    model = _model(ranks)
    assert model.merges == [("a", "b"), ("ab", "c")]
    assert model.to_dict()["merges"] == [["a", "b"], ["ab", "c"]]

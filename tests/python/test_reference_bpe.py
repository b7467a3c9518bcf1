"""The fast BPE (models.BPE) equals the plain reference (reference.bpe), by hypothesis.

Generated models (merge lists with and without a "##" prefix or "</w>" suffix,
unknown characters, byte fallback, ignore_merges; tiktoken-style rank mode) and
generated words: the untraced fast path (caches, the short/long rank engines,
long words cut in parts) gives the reference's tokens, and the traced path gives
the reference's events, one for one. Last, real GPT-2 on real text.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from subword_lab import load
from subword_lab.models import BPE
from reference_helpers import Named, model_events, model_words, rows
from subword_lab.reference import bpe as reference

SETTINGS = settings(max_examples=150, deadline=None)
LETTERS = "abcé中"
UNKNOWN = "xy"  # characters no generated vocabulary holds


def _byte_tokens():
    return [f"<0x{b:02X}>" for b in range(256)]


@st.composite
def merge_models(draw):
    """(vocab, merges, options) of a BPE that learned random merges of its own tokens."""
    alphabet = draw(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=5, unique=True))
    style = draw(st.sampled_from(["plain", "prefix", "suffix"]))
    if style == "prefix":
        firsts, rests = list(alphabet), ["##" + c for c in alphabet]
    elif style == "suffix":
        firsts = rests = list(alphabet) + [c + "</w>" for c in alphabet]
    else:
        firsts = rests = list(alphabet)
    tokens = list(dict.fromkeys(firsts + rests))
    merges = []
    for _ in range(draw(st.integers(0, 14))):
        left = draw(st.sampled_from([t for t in tokens if not t.endswith("</w>")]))
        right = draw(st.sampled_from(rests))
        new = left + (right[2:] if style == "prefix" else right)
        merges.append((left, right))
        if new not in tokens:
            tokens.append(new)
            (rests if style == "prefix" and left.startswith("##") else firsts).append(new)
    options = {"unk_token": draw(st.sampled_from([None, "<unk>"])),
               "fuse_unk": draw(st.booleans()), "byte_fallback": draw(st.booleans()),
               "ignore_merges": draw(st.booleans())}
    if style == "prefix":
        options["continuing_subword_prefix"] = "##"
    if style == "suffix":
        options["end_of_word_suffix"] = "</w>"
    extra = (["<unk>"] if options["unk_token"] else []) + (
        _byte_tokens() if options["byte_fallback"] else [])
    vocab = {t: i for i, t in enumerate(extra + tokens)}
    return vocab, merges, options, alphabet


@st.composite
def rank_models(draw):
    """(vocab, alphabet) of a tiktoken-style model: each token ranks by its id, and
    every token after the alphabet joins two earlier ones."""
    alphabet = draw(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=5, unique=True))
    tokens = list(alphabet)
    for _ in range(draw(st.integers(0, 14))):
        new = draw(st.sampled_from(tokens)) + draw(st.sampled_from(tokens))
        if new not in tokens:
            tokens.append(new)
    return {t: i for i, t in enumerate(tokens)}, alphabet


def _words(alphabet, unknown):
    chars = st.sampled_from(list(alphabet) + list(unknown))
    return st.lists(chars, min_size=1, max_size=20).map("".join) | st.lists(
        chars, min_size=48, max_size=90).map("".join)


def _same(model, word, ranks=None):
    """`ranks` for a merge list that may hold a pair twice (model.merges lists it once)."""
    expected_events = []
    if ranks is None:
        expected = reference.encode(model, word, on_event=expected_events.append)
    else:
        expected = reference.encode_word(
            word, model.vocab, ranks, unk_token=model.unk_token,
            continuing_subword_prefix=model.continuing_subword_prefix,
            end_of_word_suffix=model.end_of_word_suffix, fuse_unk=model.fuse_unk,
            byte_fallback=model.byte_fallback, ignore_merges=model.ignore_merges,
            on_event=expected_events.append)
    assert rows(model.tokenize(word)) == expected  # the fast path, caches and all
    assert rows(model.tokenize(word)) == expected  # ... and again, from the cache
    events = []
    assert rows(model.tokenize(word, on_event=events.append)) == expected
    assert events == expected_events


@SETTINGS
@given(st.data())
def test_merge_list_models_equal_the_reference(data):
    vocab, merges, options, alphabet = data.draw(merge_models())
    # Without an unknown token an unknown character is dropped, and tokenizers then
    # shifts offsets in a way the reference does not copy: no unknowns then.
    unknown = UNKNOWN if options["unk_token"] or options["byte_fallback"] else ""
    # The reference does not copy tokenizers' order of bytes before a pending
    # unknown token either: byte fallback covers every character here.
    word = data.draw(_words(alphabet, unknown))
    _same(BPE(vocab, merges, **options), word, reference.ranks_of_merges(merges))


@SETTINGS
@given(st.data())
def test_rank_models_equal_the_reference(data):
    vocab, alphabet = data.draw(rank_models())
    word = data.draw(_words(alphabet, ""))
    _same(BPE.from_ranks(vocab), word)


@SETTINGS
@given(st.data())
def test_rank_models_with_unknowns_equal_the_reference(data):
    vocab, alphabet = data.draw(rank_models())
    vocab = {"<unk>": len(vocab), **vocab}
    word = data.draw(_words(alphabet, UNKNOWN))
    _same(BPE.from_ranks(vocab, unk_token="<unk>", fuse_unk=True), word)


@pytest.fixture(scope="module")
def gpt2(gpt2_tiktoken):
    tokenizer = load(gpt2_tiktoken)
    model = tokenizer.model
    return Named("gpt2", tokenizer, reference.ranks_of_tokens(model.ranks))


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.sampled_from("hello world tokenizer's 2026 naïve 中文 ✓\n "), max_size=60))
def test_gpt2_on_text_equals_the_reference(gpt2, text):
    """Real GPT-2 (rank mode, byte-level): each pre-tokenized word as the reference merges it."""
    tokenizer, ranks = gpt2
    events = []
    encoding = tokenizer.encode(text, on_event=events.append)
    words = model_words(events)
    expected_events = []
    expected = [row[0] for word in words for row in reference.encode_word(
        word, tokenizer.model.vocab, ranks, ignore_merges=tokenizer.model.ignore_merges,
        on_event=expected_events.append)]
    assert tokenizer.encode(text).tokens == encoding.tokens == expected
    assert model_events(events, "bpe.") == expected_events

"""`Tokenizer.count` (pipeline/counting.py, sentencepiece/counting.py) is exact: on real
files and hostile texts it equals `len(encode(text).ids)` and the file's own library
(tiktoken, tokenizers, sentencepiece), with special tokens recognised or as text, added
tokens, normalizers, truncation and padding on or off, and whatever its caches forgot.
"""
from __future__ import annotations

import copy
import functools
import sys
from pathlib import Path

import pytest
import sentencepiece
from hypothesis import given, settings, strategies as st
import tokenizers

import subword_lab
from opened_files import opened
from subword_lab import AddedToken
from subword_lab.pipeline import counting
from subword_lab.sentencepiece import counting as spm_counting
from tools import assets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "realfiles"))
import references
from hard_inputs import hard_inputs

HF_FILES = ["bert-base-uncased.tokenizer.json", "xlm-roberta.tokenizer.json",
            "llama3_1.tokenizer.json", "gemma.tokenizer.json", "llama2.tokenizer.json"]
TIKTOKEN_FILES = ["gpt2.tiktoken", "o200k_base.tiktoken"]
SPM_FILES = ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model",
             "kyoto_ja_unigram_8000.model"]


@functools.cache
def texts(book):
    return [text for _, text in hard_inputs(book, mixes=150)]


def path(name):
    return str(assets.fetch([name], quiet=True)[name])


def fresh(name):
    """A tokenizer of its own (its caches and added tokens are not shared)."""
    tok = subword_lab.load(path(name))
    for method in ("no_truncation", "no_padding"):
        getattr(tok, method, lambda: None)()
    return tok


@functools.cache
def library(name):
    """text -> the file's own library's ids, special tokens as our tokenizer takes them by
    default (tiktoken files: as text, tiktoken's encode_ordinary; others: recognised)."""
    if name.endswith(".tiktoken"):
        return enc_special(name).encode_ordinary
    if name.endswith(".model"):
        sp = sentencepiece.SentencePieceProcessor(model_file=path(name))
        return sp.encode
    tok = tokenizers.Tokenizer.from_file(path(name))
    tok.no_truncation()
    tok.no_padding()
    return lambda text: tok.encode(text).ids


@functools.cache
def enc_special(name):
    """tiktoken's own encoding (gpt2, o200k_base), its ranks read from our cached file."""
    return references.openai(name.removesuffix(".tiktoken"), Path(path(name))).tiktoken


@pytest.mark.parametrize("name", TIKTOKEN_FILES + HF_FILES + SPM_FILES)
def test_count_is_the_encodings_length_and_the_librarys(book, name):
    tok, reference = opened(name), library(name)
    for text in texts(book):
        n = tok.count(text)
        assert n == len(tok.encode(text).ids) == len(reference(text)), repr(text[:80])
        assert tok.count(text, add_special_tokens=False) \
            == len(tok.encode(text, add_special_tokens=False).ids)


@pytest.mark.parametrize("name", TIKTOKEN_FILES + HF_FILES + SPM_FILES)
def test_a_whole_book(book, name):
    tok = opened(name)
    assert tok.count(book) == len(library(name)(book)) == len(tok.encode(book).ids)


@pytest.mark.parametrize("name", ["gpt2.tiktoken", "o200k_base.tiktoken", "llama3_1.tokenizer.json",
                                  "bert-base-uncased.tokenizer.json"])
def test_special_tokens_recognised_or_as_text(book, name):
    tok = opened(name)
    specials = ["<|endoftext|>", "<|begin_of_text|>", "[CLS]", "[SEP]", "[MASK]", "<|eot_id|>"]
    lines = book[:30_000].splitlines(keepends=True)
    text = "".join(line + specials[i % len(specials)] * (i % 3 == 0) for i, line in enumerate(lines))
    for mode in ("recognise", "as_text"):
        expected = len(tok.encode(text, special_tokens=mode).ids)
        assert tok.count(text, special_tokens=mode) == expected
    if name.endswith(".tiktoken"):
        assert tok.count(text, special_tokens="as_text") == len(library(name)(text))
        assert tok.count(text) == len(library(name)(text))
        assert tok.count(text, special_tokens="recognise") == len(
            enc_special(name).encode(text, allowed_special="all"))


@pytest.mark.parametrize("name", ["bert-base-uncased.tokenizer.json", "llama3_1.tokenizer.json",
                                  "xlm-roberta.tokenizer.json", "gpt2.tiktoken"])
def test_added_tokens_normalized_or_raw_stripping_or_not(book, name):
    ours = fresh(name)
    theirs = tokenizers.Tokenizer.from_file(path(name)) if name.endswith(".json") else None
    added = [AddedToken("quick brown", normalized=True), AddedToken("Botchan", normalized=False),
             AddedToken("ing", single_word=True), AddedToken(" the", lstrip=True, rstrip=True),
             AddedToken("!!", special=True)]
    ours.add_tokens(added[:4])
    ours.add_special_tokens(added[4:])
    if theirs is not None:
        theirs.no_truncation()
        theirs.no_padding()
        theirs.add_tokens([tokenizers.AddedToken(t.content, single_word=t.single_word, lstrip=t.lstrip,
                                                 rstrip=t.rstrip, normalized=t.normalized)
                           for t in added[:4]])
        theirs.add_special_tokens([tokenizers.AddedToken("!!", special=True)])
    cases = [book[:20_000], "The quick brown Botchan is thinking!! ing the  the!!Botchan"] + texts(book)[:300]
    for text in cases:
        n = ours.count(text)
        assert n == len(ours.encode(text).ids), repr(text[:80])
        if theirs is not None:
            assert n == len(theirs.encode(text).ids), repr(text[:80])


def test_truncation_and_padding_count_as_the_encode_does(book):
    tok = fresh("bert-base-uncased.tokenizer.json")
    tok.enable_truncation(128)
    assert tok.count(book) == 128 == len(tok.encode(book).ids)
    tok.no_truncation()
    tok.enable_padding(length=200_000)
    assert tok.count(book[:1000]) == 200_000
    tok.no_padding()
    assert tok.count(book) == len(library("bert-base-uncased.tokenizer.json")(book))
    # The file as it is: truncation to 128 and padding to 128.
    as_saved = subword_lab.load(path("bert-base-uncased.tokenizer.json"))
    reference = tokenizers.Tokenizer.from_file(path("bert-base-uncased.tokenizer.json"))
    for text in (book, "a short text"):
        assert as_saved.count(text) == len(reference.encode(text).ids) == 128


def test_a_changed_pipeline_is_counted_as_it_now_encodes(book):
    tok = fresh("gpt2.tiktoken")
    text = book[:5000]
    before = tok.count(text)
    tok.add_tokens(["Gutenberg's Botchan"])  # four tokens become one
    assert tok.count(text) == len(tok.encode(text).ids) < before
    other = fresh("o200k_base.tiktoken")
    tok.model = other.model
    tok.pre_tokenizer = other.pre_tokenizer
    assert tok.count(text) == len(tok.encode(text).ids)


@pytest.mark.parametrize("name", ["gpt2.tiktoken", "bert-base-uncased.tokenizer.json",
                                  "botchan_en_unigram_1000.model"])
def test_caches_that_overflow_are_emptied_and_counts_stay_exact(monkeypatch, book, name):
    monkeypatch.setattr(counting, "CACHE_CAPACITY", 50)
    monkeypatch.setattr(spm_counting, "CACHE_CAPACITY", 50)
    tok = fresh(name)
    expected = len(library(name)(book))
    for _ in range(2):  # cold, then with whatever the cache kept
        assert tok.count(book) == expected
        cache = tok.model.__dict__.get("_count_cache") or tok.model.__dict__.get("_count_plans")
        assert 0 < len(cache) <= 50
    long_words = "x" * 5000 + " " + "y" * 70
    assert tok.count(long_words) == len(library(name)(long_words))
    assert all(len(word) < 64 for word in cache)


def test_sentencepiece_near_ties_count_as_from_their_real_starting_score(book):
    """Words whose best path barely beats another (runs of dots, the book's near ties), each
    after many different texts, so that they start from many different path scores, some
    past the encoder's rebasing at 100,000: counted as sentencepiece counts them."""
    name = "botchan_en_unigram_1000.model"
    tok = fresh(name)
    reference = library(name)
    tok.count(book)
    plans = tok.model._count_plans
    near = [word.lstrip("\u2581") for word, plan in plans.items() if plan[1] is None]
    assert len(near) > 20
    dots = [" " + "." * k for k in range(2, 30)] + [" " + "!?" * k for k in range(1, 8)]
    words = book.split()
    for k in range(40):
        prefix = " ".join(words[k * 997 % len(words):][: 50 + 37 * k])
        text = prefix + " " + " ".join(near[k % len(near):][:30]) + "".join(dots)
        assert tok.count(text) == len(reference(text)) == len(tok.encode(text).ids)
    long_text = (book + " " + " ".join(near) + "".join(dots)) * 2
    assert tok.count(long_text) == len(reference(long_text))


def test_sentencepiece_exact_ties_of_different_lengths(tmp_path):
    """A model where "ab" scores exactly what "a" + "b" score (rounded to float32), so which
    path wins, one token or two, depends on how float32 rounds the path score each word
    starts from: 30,000 words, past several of the encoder's rebasings, counted as
    sentencepiece counts them."""
    import random
    import struct

    from hostile_cases import sentencepiece_model

    def f32(x):
        return struct.unpack("<f", struct.pack("<f", x))[0]

    a, b = f32(-3.1234567), f32(-2.7654321)
    model = tmp_path / "ties.model"
    model.write_bytes(sentencepiece_model([
        ("<unk>", 0.0, 2), ("\u2581", -1.5, 1), ("a", a, 1), ("b", b, 1), ("ab", f32(a + b), 1),
        ("\u2581a", f32(-1.5 + a), 1), ("ba", f32(a + b), 1)]))
    reference = sentencepiece.SentencePieceProcessor(model_file=str(model))
    tok = subword_lab.load(str(model))
    rng = random.Random(5)
    text = " ".join(rng.choice(["ab", "a", "b", "aba", "bab", "abab", "x"]) for _ in range(30_000))
    assert tok.count(text) == len(reference.encode(text)) == len(tok.encode(text).ids)


@pytest.mark.parametrize("normalizer", [
    "bert-base-uncased.tokenizer.json", "BertNormalizer(lowercase=False)",
    "BertNormalizer(strip_accents=True, lowercase=False)", "Sequence([NFD(), StripAccents(), Lowercase()])",
    "Sequence([NFKC(), Lowercase()])", "NFC()"])
def test_normalizing_line_by_line_is_normalizing_whole(book, normalizer):
    """counting.normalize_function: a per-character normalizer run line by line, ASCII lines
    through a table, gives what its normalize_str gives on the whole text."""
    from subword_lab import normalizers as n
    if normalizer.endswith(".json"):
        norm = opened(normalizer).normalizer
    else:
        norm = eval(normalizer, vars(n))  # the parameters above
    assert counting.per_char(norm)
    fast = counting.normalize_function(norm)
    cases = texts(book) + ["\n".join(texts(book)[:400]), book[:50_000], "ΑΣ\nΣ\nA\u0301\n\u0301\u0323x\n日本\n"]
    for text in cases:
        assert fast(text) == norm.normalize_str(text), repr(text[:80])


SPM_TEXT = st.lists(st.sampled_from(list("ab XY.\n\t\r\u3000 \u00a0\u2581\ufeff\u200b\u00bdｱﾞ①ﬁ日é\u0301"))
                    | st.sampled_from(["  ", "   ", "\n\n", " \u2581 ", "\u2581\u2581"]),
                    max_size=60).map("".join)


@pytest.mark.parametrize("name", SPM_FILES)
@pytest.mark.parametrize("remove_extra", [True, False])
@pytest.mark.parametrize("prefix", ["prefix", "suffix", "none"])
@settings(max_examples=150, deadline=None)
@given(text=SPM_TEXT)
def test_sentencepiece_normalized_text_without_alignment(name, remove_extra, prefix, text):
    """SpmNormalizer.normalize_text (whole-string operations, for counting) gives what
    normalize_parts gives with its alignment, whitespace rules on or off, a dummy prefix,
    suffix or none, on spaces, rules that write spaces, characters that vanish and "▁"."""
    norm = copy.copy(opened(name).spm_normalizer)
    norm.remove_extra = remove_extra
    norm.add_dummy_prefix = prefix != "none"
    norm.suffix = prefix == "suffix"
    expected = norm.normalize_parts(text)[0] if text else ""
    assert norm.normalize_text(text) == expected

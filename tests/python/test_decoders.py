"""Decoders against `tokenizers.decoders` as the oracle.

Token lists come from real encodings of botchan.txt (bert-base-uncased WordPiece,
a byte-level BPE trained here with `tokenizers`, the botchan sentencepiece model),
plus hypothesis-generated lists for the edge cases real text rarely reaches.
"""
from __future__ import annotations

import json
import random

import pytest
import sentencepiece
import tokenizers
from hypothesis import given, settings, strategies as st
from tokenizers import decoders as hf

from subword_lab import decoders as ours
from subword_lab.core.errors import SubwordLabError

# Pairs built the same way on both sides; the oracle is HF's `.decode(tokens)`.
PAIRS = [
    (ours.WordPiece(), hf.WordPiece()),
    (ours.WordPiece(prefix="##", cleanup=False), hf.WordPiece(prefix="##", cleanup=False)),
    (ours.ByteLevel(), hf.ByteLevel()),
    (ours.Metaspace(), hf.Metaspace()),
    (ours.Metaspace(prepend_scheme="never"), hf.Metaspace(prepend_scheme="never")),
    (ours.Metaspace(prepend_scheme="first"), hf.Metaspace(prepend_scheme="first")),
    (ours.BPEDecoder(), hf.BPEDecoder()),
    (ours.BPEDecoder(suffix="_"), hf.BPEDecoder(suffix="_")),
    (ours.ByteFallback(), hf.ByteFallback()),
    (ours.Fuse(), hf.Fuse()),
    (ours.Strip(" ", 1, 0), hf.Strip(" ", 1, 0)),
    (ours.Replace("\u2581", " "), hf.Replace("\u2581", " ")),
    (ours.Replace({"Regex": "a+|##"}, "-"), hf.Replace(tokenizers.Regex("a+|##"), "-")),
    (ours.CTC(), hf.CTC()),
    (ours.CTC(cleanup=False), hf.CTC(cleanup=False)),
    (ours.Sequence([ours.Replace("\u2581", " "), ours.ByteFallback(), ours.Fuse(),
                    ours.Strip(" ", 1, 0)]),
     hf.Sequence([hf.Replace("\u2581", " "), hf.ByteFallback(), hf.Fuse(),
                  hf.Strip(" ", 1, 0)])),
]
IDS = [type(o).__name__ + str(i) for i, (o, _) in enumerate(PAIRS)]


@pytest.fixture(scope="session")
def bert_token_lists(bert_json, botchan_lines):
    tok = tokenizers.Tokenizer.from_file(str(bert_json))
    tok.no_truncation()
    tok.no_padding()
    return [e.tokens for e in tok.encode_batch(botchan_lines, add_special_tokens=False)]


@pytest.fixture(scope="session")
def byte_level_token_lists(botchan_lines):
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=600, initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False)
    tok.train_from_iterator(botchan_lines, trainer)
    lines = botchan_lines + ["naïve café — “quotes” 東京 😀👍🏽"]
    return [e.tokens for e in tok.encode_batch(lines)]


@pytest.fixture(scope="session")
def spm_piece_lists(botchan_unigram_model, botchan_lines):
    sp = sentencepiece.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    return sp.encode(botchan_lines, out_type=str)


def _with_byte_tokens(pieces, rng):
    """Spell some pieces as `<0xHH>` byte tokens, sometimes dropping one byte so the
    run is invalid UTF-8: the input a byte-fallback model gives ByteFallback."""
    out = []
    for piece in pieces:
        if rng.random() < 0.3:
            data = piece.encode("utf-8")
            if len(data) > 1 and rng.random() < 0.2:
                data = data[:-1]
            out.extend(f"<0x{b:02X}>" for b in data)
        else:
            out.append(piece)
    return out


def _check_all(pair, token_lists):
    mine, oracle = pair
    bad = [t for t in token_lists if mine.decode(t) != oracle.decode(t)]
    assert not bad, f"{len(bad)} of {len(token_lists)} lists differ, first: {bad[0]!r}"


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_real_wordpiece_tokens(pair, bert_token_lists):
    _check_all(pair, bert_token_lists)


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_real_byte_level_tokens(pair, byte_level_token_lists):
    _check_all(pair, byte_level_token_lists)


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_real_sentencepiece_tokens(pair, spm_piece_lists):
    rng = random.Random(1)
    _check_all(pair, spm_piece_lists + [_with_byte_tokens(p, rng) for p in spm_piece_lists])


def test_wordpiece_decodes_bert_back_to_lowercased_text(bert_json):
    # The cleanup rules must fire where BERT split off punctuation and contractions.
    # (Apostrophes split on both sides, "don ' t", stay spaced: HF's rules need " ' ".)
    tok = tokenizers.Tokenizer.from_file(str(bert_json))
    tok.no_padding()
    tokens = tok.encode("Well , is it done ? Yes !", add_special_tokens=False).tokens
    assert ours.WordPiece().decode(tokens) == hf.WordPiece().decode(tokens)
    assert ours.WordPiece().decode(tokens) == "well, is it done? yes!"


def test_decode_chain_keeps_one_string_per_token():
    # (HF's Python binding has no decode_chain; the per-token shape is checked here.)
    tokens = ["\u2581Hello", "\u2581wor", "ld", "<0xE2>", "<0x96>", "<0x81>"]
    assert ours.Metaspace().decode_chain(tokens) == [
        "Hello", " wor", "ld", "<0xE2>", "<0x96>", "<0x81>"]
    assert ours.ByteFallback().decode_chain(tokens) == tokens[:3] + ["\u2581"]
    assert ours.Fuse().decode_chain(tokens) == ["".join(tokens)]
    assert ours.ByteFallback().decode_chain(["<0xE2>", "x"]) == ["\ufffd", "x"]


def test_empty_token_list():
    for mine, oracle in PAIRS:
        assert mine.decode([]) == oracle.decode([]), mine


# --- hypothesis: arbitrary token lists -----------------------------------------------

_ALPHABET = st.sampled_from(list("ab ▁#<>0xEF9+.,?!'|_snt") + ["##", "<pad>", "</w>",
                            "<0xE3>", "<0x81>", "<0x82>", "<0x41>", "é", "Ġ", "Ċ", "\u0100"])
_TOKEN = st.lists(_ALPHABET, max_size=6).map("".join)
_TOKENS = st.lists(_TOKEN, max_size=12)
_SAFE_STRIPS = [(ours.Strip("a", 2, 0), hf.Strip("a", 2, 0)),
                (ours.Strip(" ", 0, 1), hf.Strip(" ", 0, 1))]


@settings(max_examples=300, deadline=None)
@given(_TOKENS)
def test_arbitrary_token_lists(tokens):
    for mine, oracle in PAIRS:
        assert mine.decode(tokens) == oracle.decode(tokens), mine


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOKEN.filter(lambda t: len(t) >= 3), max_size=8))
def test_strip_within_token_length(tokens):
    # HF panics when the strip widths exceed a token; within them it is the oracle.
    for mine, oracle in _SAFE_STRIPS:
        assert mine.decode(tokens) == oracle.decode(tokens)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=4), max_size=6))
def test_byte_level_lossy_utf8_matches_rust(chunks):
    # Invalid UTF-8 must become U+FFFD exactly where Rust's lossy decode puts it.
    table = {b: c for c, b in ours._char_to_byte().items()}
    tokens = ["".join(table[b] for b in chunk) for chunk in chunks]
    assert ours.ByteLevel().decode(tokens) == hf.ByteLevel().decode(tokens)


# --- tokenizer.json form ------------------------------------------------------------

@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_to_dict_matches_tokenizers_json(pair):
    mine, oracle = pair
    assert mine.to_dict() == json.loads(oracle.__getstate__())


@pytest.mark.parametrize("pair", PAIRS, ids=IDS)
def test_from_dict_round_trip(pair):
    mine, _ = pair
    again = ours.from_dict(mine.to_dict())
    assert again == mine and again.to_dict() == mine.to_dict()


def test_from_dict_reads_real_bert_decoder(bert_json):
    d = json.loads(bert_json.read_text(encoding="utf-8"))["decoder"]
    assert ours.from_dict(d).to_dict() == d


def test_metaspace_legacy_add_prefix_space():
    d = {"type": "Metaspace", "replacement": "\u2581", "add_prefix_space": False}
    assert ours.from_dict(d).prepend_scheme == "never"
    assert ours.from_dict(dict(d, add_prefix_space=True)).prepend_scheme == "always"


@pytest.mark.parametrize("bad, field", [
    ({"type": "Nope"}, "decoder.type"),
    ({}, "decoder.type"),
    ([], "decoder"),
    ({"type": "Metaspace"}, "decoder.replacement"),
    ({"type": "Metaspace", "replacement": "ab"}, "decoder.replacement"),
    ({"type": "Metaspace", "replacement": "_", "prepend_scheme": "sometimes"},
     "decoder.prepend_scheme"),
    ({"type": "Strip", "content": " ", "start": 1}, "decoder.stop"),
    ({"type": "Strip", "content": " ", "start": "1", "stop": 0}, "decoder.start"),
    ({"type": "Replace", "content": " "}, "decoder.pattern"),
    ({"type": "Replace", "pattern": {"Glob": "*"}, "content": " "}, "decoder.pattern"),
    ({"type": "Replace", "pattern": {"Regex": "("}, "content": " "}, "decoder.pattern"),
    ({"type": "WordPiece", "cleanup": "yes"}, "decoder.cleanup"),
    ({"type": "Sequence"}, "decoder.decoders"),
    ({"type": "Sequence", "decoders": [{"type": "Fuse"}, {"type": "X"}]},
     "decoder.decoders[1].type"),
])
def test_from_dict_errors_name_the_field(bad, field):
    with pytest.raises(SubwordLabError) as info:
        ours.from_dict(bad)
    assert info.value.field == field
    assert str(info.value).startswith(field + ": ")

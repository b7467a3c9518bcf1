"""Every normalizer against tokenizers (and Precompiled against sentencepiece)."""
from __future__ import annotations

import json

import pytest
import sentencepiece
import tokenizers
from hypothesis import given, settings, strategies as st
from tokenizers import normalizers as hf

from subword_lab import normalizers as ours
from subword_lab.core.errors import SubwordLabError
from subword_lab.core.normalized import NormalizedString

from test_normalized import SAMPLE, hf_char_alignment, our_char_alignment


def charsmap_from_model(path):
    """normalizer_spec (field 3) -> precompiled_charsmap (field 2), read from the
    protobuf by hand: varints and length-delimited fields are all we meet."""
    def fields(buf):
        i = 0
        while i < len(buf):
            key, i = varint(buf, i)
            wire = key & 7
            if wire == 0:
                value, i = varint(buf, i)
            elif wire == 2:
                size, i = varint(buf, i)
                value, i = buf[i:i + size], i + size
            else:
                size = 4 if wire == 5 else 8
                value, i = buf[i:i + size], i + size
            yield key >> 3, value

    def varint(buf, i):
        result = shift = 0
        while True:
            byte = buf[i]
            i += 1
            result |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return result, i

    data = path.read_bytes()
    spec = next(v for f, v in fields(data) if f == 3)
    return next(v for f, v in fields(spec) if f == 2)


@pytest.fixture(scope="module")
def charsmap(botchan_unigram_model):
    return charsmap_from_model(botchan_unigram_model)


def pairs(charsmap=None):
    out = [
        (hf.NFC(), ours.NFC()), (hf.NFD(), ours.NFD()),
        (hf.NFKC(), ours.NFKC()), (hf.NFKD(), ours.NFKD()),
        (hf.Lowercase(), ours.Lowercase()), (hf.StripAccents(), ours.StripAccents()),
        (hf.BertNormalizer(), ours.BertNormalizer()),
        (hf.BertNormalizer(lowercase=False), ours.BertNormalizer(lowercase=False)),
        (hf.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True,
                           lowercase=False),
         ours.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True,
                             lowercase=False)),
        (hf.BertNormalizer(strip_accents=False), ours.BertNormalizer(strip_accents=False)),
        (hf.Strip(), ours.Strip()), (hf.Strip(left=False), ours.Strip(left=False)),
        (hf.Strip(right=False), ours.Strip(right=False)),
        (hf.Replace(" ", "▁"), ours.Replace({"String": " "}, "▁")),
        (hf.Replace(tokenizers.Regex(r" {2,}"), " "), ours.Replace({"Regex": r" {2,}"}, " ")),
        (hf.Replace("e", ""), ours.Replace("e", "")),
        (hf.Prepend("▁"), ours.Prepend("▁")),
        (hf.Prepend(), ours.Prepend()), (hf.Nmt(), ours.Nmt()),
        (hf.Sequence([hf.NFD(), hf.StripAccents(), hf.Lowercase()]),
         ours.Sequence([ours.NFD(), ours.StripAccents(), ours.Lowercase()])),
    ]
    if charsmap is not None:
        out.append((hf.Precompiled(charsmap), ours.Precompiled(charsmap)))
        out.append((hf.Sequence([hf.Precompiled(charsmap), hf.Replace(tokenizers.Regex(" {2,}"), " ")]),
                    ours.Sequence([ours.Precompiled(charsmap), ours.Replace({"Regex": " {2,}"}, " ")])))
    return out


def _ids(items):
    return [json.dumps(o.to_dict())[:60] if not isinstance(o, (ours.Precompiled, ours.Sequence))
            else type(o).__name__ for _, o in items]


ALL = pairs()


@pytest.mark.parametrize("hf_norm,our_norm", ALL, ids=_ids(ALL))
def test_parity_with_alignment(hf_norm, our_norm, botchan_lines, multilingual_lines):
    lines = botchan_lines + multilingual_lines + SAMPLE
    strings = [t for t in lines if hf_norm.normalize_str(t) != our_norm.normalize_str(t)]
    assert strings == []
    aligned = [t for t in lines if hf_char_alignment(t, hf_norm.normalize)
               != our_char_alignment(t, our_norm.normalize)]
    assert aligned == []


def test_precompiled_parity_with_tokenizers(charsmap, botchan_lines, multilingual_lines):
    lines = botchan_lines + multilingual_lines + SAMPLE
    for hf_norm, our_norm in pairs(charsmap)[-2:]:
        assert [t for t in lines if hf_norm.normalize_str(t) != our_norm.normalize_str(t)] == []
        assert [t for t in lines if hf_char_alignment(t, hf_norm.normalize)
                != our_char_alignment(t, our_norm.normalize)] == []


def _sentencepiece_like(text, normalizer):
    """sentencepiece's default whitespace handling around the charsmap: drop
    leading, trailing and repeated spaces, add the dummy prefix, spaces -> ▁."""
    words = [w for w in normalizer.normalize_str(text).split(" ") if w]
    return "▁" + "▁".join(words) if words else ""


def test_precompiled_sentencepiece_mode_matches_sentencepiece(
        charsmap, botchan_unigram_model, botchan_lines, multilingual_lines):
    sp = sentencepiece.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    norm = ours.Precompiled(charsmap, mode="sentencepiece")
    lines = botchan_lines + multilingual_lines + SAMPLE
    bad = [t for t in lines if sp.normalize(t) != _sentencepiece_like(t, norm)]
    assert bad == []


def test_charsmap_starters_are_the_chars_that_may_start_a_key(charsmap):
    """`starters()` walks the trie one UTF-8 char deep; `may_start` asks it char by
    char, over every code point (surrogates included, as surrogatepass encodes)."""
    table = ours.Precompiled(charsmap).charsmap
    starters = table.starters()
    assert starters == "".join(sorted(set(starters)))
    assert set(starters) == {c for c in map(chr, range(1, 0x110000)) if table.may_start(c)}
    assert any(c > "\uffff" for c in starters) and any(c.isascii() for c in starters)


def test_hf_and_sentencepiece_modes_differ_where_the_libraries_differ(
        charsmap, botchan_unigram_model):
    # A fullwidth letter + combining mark is one short grapheme cluster: HF looks
    # it up whole, finds the rule for the letter alone and drops the mark;
    # sentencepiece rewrites the letter and keeps the mark.
    sp = sentencepiece.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    text = "x Ａ\u0301 y"
    hf_out = hf.Precompiled(charsmap).normalize_str(text)
    sp_out = sp.normalize(text)
    assert hf_out != sp_out.replace("▁", " ").strip()
    assert ours.Precompiled(charsmap).normalize_str(text) == hf_out
    assert _sentencepiece_like(text, ours.Precompiled(charsmap, mode="sentencepiece")) == sp_out


def test_nmt_matches_tokenizers_on_every_character():
    # Every BMP character and a sample of astral ones, each between letters so
    # that removals and replacements shift the alignment of what follows.
    chars = [chr(c) for c in range(1, 0x10000) if not 0xD800 <= c <= 0xDFFF]
    chars += [chr(c) for c in range(0x10000, 0x110000, 97)]
    texts = ["".join(f"a{c}" for c in chars[i:i + 512]) for i in range(0, len(chars), 512)]
    texts += ["\x01\t\u2581\ufeff", "\u200b\u200b x \x7f\x8f\x9f", "\x0b", "\ufffd"]
    hf_nmt, our_nmt = hf.Nmt(), ours.Nmt()
    assert [t for t in texts if hf_nmt.normalize_str(t) != our_nmt.normalize_str(t)] == []
    assert [t for t in texts if hf_char_alignment(t, hf_nmt.normalize)
            != our_char_alignment(t, our_nmt.normalize)] == []


def _hf_dict(normalizer):
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel({"a": 0}, unk_token="a"))
    tok.normalizer = normalizer
    return json.loads(tok.to_str())["normalizer"]


@pytest.mark.parametrize("hf_norm,our_norm", ALL, ids=_ids(ALL))
def test_to_dict_is_tokenizer_json(hf_norm, our_norm):
    expected = _hf_dict(hf_norm)
    assert our_norm.to_dict() == expected
    rebuilt = ours.from_dict(expected)
    assert rebuilt.to_dict() == expected
    assert rebuilt.normalize_str(SAMPLE[0] + SAMPLE[5]) == hf_norm.normalize_str(SAMPLE[0] + SAMPLE[5])


def test_precompiled_dict_round_trip(charsmap):
    expected = _hf_dict(hf.Precompiled(charsmap))
    assert ours.Precompiled(charsmap).to_dict() == expected
    assert ours.from_dict(expected).precompiled_charsmap == charsmap


def test_bert_tokenizer_json_normalizer(bert_json, botchan_lines, multilingual_lines):
    spec = json.loads(bert_json.read_text(encoding="utf-8"))["normalizer"]
    mine = ours.from_dict(spec)
    theirs = tokenizers.Tokenizer.from_file(str(bert_json)).normalizer
    lines = botchan_lines + multilingual_lines + SAMPLE
    assert [t for t in lines if mine.normalize_str(t) != theirs.normalize_str(t)] == []


@pytest.mark.parametrize("bad,field", [
    ({"type": "Nope"}, "normalizer"),
    ({}, "normalizer"),
    ({"type": "Prepend"}, "normalizer"),
    ({"type": "Replace", "pattern": {"String": "a"}}, "normalizer"),
    ({"type": "Replace", "pattern": {"Glob": "a"}, "content": ""}, "pattern"),
    ({"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Bogus"}]},
     "normalizer.normalizers[1]"),
    ({"type": "Precompiled", "precompiled_charsmap": "not base64!"}, "precompiled_charsmap"),
    ({"type": "BertNormalizer", "lowercase": "yes"}, "normalizer"),
    ("NFC", "normalizer"),
])
def test_bad_dicts_raise_subword_lab_error(bad, field):
    with pytest.raises(SubwordLabError) as info:
        ours.from_dict(bad)
    assert info.value.field == field
    assert field in str(info.value)


def test_empty_precompiled_is_identity():
    assert ours.Precompiled(b"").normalize_str("ﬁ x") == "ﬁ x"
    assert ours.from_dict({"type": "Precompiled", "precompiled_charsmap": None}).normalize_str("a") == "a"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_arbitrary_unicode_never_raises(text):
    for _, norm in ALL:
        ns = NormalizedString(text)
        norm.normalize(ns)
        spans = ns.alignments()
        assert len(spans) == len(ns.normalized)
        assert all(0 <= a <= b <= len(text) for a, b in spans)
        assert all(x <= y for x, y in zip(spans, spans[1:]))


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=20))
def test_precompiled_arbitrary_unicode(charsmap, text):
    for mode in ("hf", "sentencepiece"):
        ns = NormalizedString(text)
        ours.Precompiled(charsmap, mode=mode).normalize(ns)
        spans = ns.alignments()
        assert all(0 <= a <= b <= len(text) for a, b in spans)
        assert all(x <= y for x, y in zip(spans, spans[1:]))

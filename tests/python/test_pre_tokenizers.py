"""Pre-tokenizers against `tokenizers.pre_tokenizers`: same pieces, same offsets."""
from __future__ import annotations

import json
import unicodedata

import pytest
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import pre_tokenizers as hf

from subword_lab import pre_tokenizers as ours
from subword_lab.core.errors import SubwordLabError
from subword_lab.core.normalized import NormalizedString, PreTokenizedString

from test_byte_level import SAMPLE

BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]
GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
          r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def _pairs():
    """(id, ours, reference) for every pre-tokenizer and the common options."""
    out = [
        ("Whitespace", ours.Whitespace(), hf.Whitespace()),
        ("WhitespaceSplit", ours.WhitespaceSplit(), hf.WhitespaceSplit()),
        ("Bert", ours.BertPreTokenizer(), hf.BertPreTokenizer()),
        ("Digits", ours.Digits(False), hf.Digits(False)),
        ("Digits-individual", ours.Digits(True), hf.Digits(True)),
        ("CharDelimiterSplit", ours.CharDelimiterSplit("e"), hf.CharDelimiterSplit("e")),
        ("FixedLength", ours.FixedLength(3), hf.FixedLength(3)),
    ]
    for prefix in (False, True):
        for use_regex in (True, False):
            out.append((f"ByteLevel-{prefix}-{use_regex}", ours.ByteLevel(prefix, use_regex=use_regex),
                        hf.ByteLevel(add_prefix_space=prefix, use_regex=use_regex)))
    for scheme in ("always", "first", "never"):
        for split in (True, False):
            out.append((f"Metaspace-{scheme}-{split}", ours.Metaspace(prepend_scheme=scheme, split=split),
                        hf.Metaspace(prepend_scheme=scheme, split=split)))
    for b in BEHAVIORS:
        out.append((f"Punctuation-{b}", ours.Punctuation(b), hf.Punctuation(b)))
        for invert in (False, True):
            out.append((f"Split-str-{b}-{invert}", ours.Split(" ", b, invert), hf.Split(" ", b, invert)))
            for name, rx in (("ws", r"\s+|\d+"), ("gpt2", GPT2)):
                out.append((f"Split-{name}-{b}-{invert}", ours.Split(ours.Regex(rx), b, invert),
                            hf.Split(tokenizers.Regex(rx), b, invert)))
    out.append(("Sequence-ws-punct-digits",
                ours.Sequence([ours.WhitespaceSplit(), ours.Punctuation(), ours.Digits(True)]),
                hf.Sequence([hf.WhitespaceSplit(), hf.Punctuation(), hf.Digits(True)])))
    out.append(("Sequence-llama3",
                ours.Sequence([ours.Split(ours.Regex(LLAMA3), "isolated"), ours.ByteLevel(False, use_regex=False)]),
                hf.Sequence([hf.Split(tokenizers.Regex(LLAMA3), "isolated"),
                             hf.ByteLevel(add_prefix_space=False, use_regex=False)])))
    out.append(("Sequence-metaspace-digits",
                ours.Sequence([ours.Metaspace(), ours.Digits(True)]),
                hf.Sequence([hf.Metaspace(), hf.Digits(True)])))
    return out


PAIRS = _pairs()


@pytest.fixture(scope="module")
def texts(botchan_lines, multilingual_lines):
    lines = botchan_lines + multilingual_lines + SAMPLE
    return lines + ["\n".join(SAMPLE), "\n".join(multilingual_lines)]


@pytest.mark.parametrize("name,mine,ref", PAIRS, ids=[p[0] for p in PAIRS])
def test_parity_on_every_line(name, mine, ref, texts):
    mismatches = [t for t in texts if mine.pre_tokenize_str(t) != ref.pre_tokenize_str(t)]
    assert mismatches == []
    assert len(texts) > 4000


@pytest.mark.parametrize("name,mine,ref", PAIRS, ids=[p[0] for p in PAIRS])
def test_to_dict_is_tokenizers_json(name, mine, ref):
    expected = json.loads(ref.__getstate__())
    assert mine.to_dict() == expected
    rebuilt = ours.from_dict(expected)
    assert rebuilt == mine
    assert rebuilt.pre_tokenize_str("Hey, it's 42 ok") == ref.pre_tokenize_str("Hey, it's 42 ok")


def _assigned_text(sep):
    return sep.join(chr(c) for c in range(0x110000)
                    if unicodedata.category(chr(c)) not in ("Cn", "Cs"))


@pytest.mark.parametrize("sep", ["", "a", " "])
@pytest.mark.parametrize("name", ["Whitespace", "WhitespaceSplit", "Bert", "Digits-individual",
                                  "Punctuation-isolated"])
def test_parity_on_every_assigned_code_point(name, sep):
    # Each character class (\w, White_Space, BERT punctuation, numerics) agrees
    # with tokenizers' on every character this Python's Unicode knows.
    mine, ref = next((m, r) for n, m, r in PAIRS if n == name)
    text = _assigned_text(sep)
    assert mine.pre_tokenize_str(text) == ref.pre_tokenize_str(text)


def test_bert_tokenizer_json_pre_tokenizer(bert_json):
    data = json.loads(bert_json.read_text(encoding="utf-8"))
    pre = ours.from_dict(data["pre_tokenizer"])
    assert isinstance(pre, ours.BertPreTokenizer)
    assert pre.to_dict() == data["pre_tokenizer"]


def test_pre_tokenize_works_on_normalized_text():
    # Offsets point at the original characters after a normalizer changed them.
    ns = NormalizedString("Ｈéllo  WORLD!")
    ns.nfkd()
    ns.lowercase()
    pts = PreTokenizedString(ns)
    ours.ByteLevel(add_prefix_space=True).pre_tokenize(pts)
    normalizer = tokenizers.normalizers.Sequence(
        [tokenizers.normalizers.NFKD(), tokenizers.normalizers.Lowercase()])
    ref_pts = tokenizers.PreTokenizedString("Ｈéllo  WORLD!")
    ref_pts.normalize(normalizer.normalize)
    hf.ByteLevel(add_prefix_space=True).pre_tokenize(ref_pts)
    expected = [(s, o) for s, o, _ in ref_pts.get_splits("original", "char")]
    assert [(s, o) for s, o, _ in pts.get_splits("original", "char")] == expected


def test_metaspace_legacy_add_prefix_space():
    m = ours.from_dict({"type": "Metaspace", "replacement": "▁", "add_prefix_space": False})
    assert m.prepend_scheme == "never"
    m = ours.from_dict({"type": "Metaspace", "replacement": "▁", "add_prefix_space": True,
                        "str_rep": "▁"})
    assert m.prepend_scheme == "always" and m.split
    with pytest.raises(SubwordLabError):
        ours.from_dict({"type": "Metaspace", "replacement": "_", "add_prefix_space": False,
                        "prepend_scheme": "always"})


@pytest.mark.parametrize("bad,field", [
    ({"type": "NoSuchThing"}, "type"),
    ({"kind": "Whitespace"}, "type"),
    ("Whitespace", "type"),
    ({"type": "Metaspace"}, "replacement"),
    ({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "sometimes"}, "prepend_scheme"),
    ({"type": "ByteLevel", "add_prefix_space": True}, "trim_offsets"),
    ({"type": "Digits"}, "individual_digits"),
    ({"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Isolated"}, "invert"),
    ({"type": "Split", "pattern": "a", "behavior": "Isolated", "invert": False}, "pattern"),
    ({"type": "Split", "pattern": {"Regex": "(a"}, "behavior": "Isolated", "invert": False}, "pattern"),
    ({"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Sideways", "invert": False}, "behavior"),
    ({"type": "Sequence"}, "pretokenizers"),
    ({"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}, {"type": "Nope"}]},
     "pretokenizers[1].type"),
])
def test_bad_dicts_raise_one_error_naming_the_field(bad, field):
    with pytest.raises(SubwordLabError) as info:
        ours.from_dict(bad)
    assert info.value.field == field
    assert field in str(info.value)


# Texts drawn from all of Unicode (but surrogates, which a Rust string cannot hold).
unicode_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
spacey_text = st.text(st.sampled_from(list("ab1 '\t\n\u00a0\u3000.,!é中👋\u200d\u0301▁")), max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.one_of(unicode_text, spacey_text))
def test_arbitrary_unicode_never_raises_and_offsets_are_sane(text):
    for name, mine, _ in PAIRS:
        pieces = mine.pre_tokenize_str(text)
        last = 0
        for piece, (start, end) in pieces:
            assert 0 <= start <= end <= len(text), name
            assert start >= last or start == end, name
            last = max(last, start)
            assert piece


@settings(max_examples=200, deadline=None)
@given(st.one_of(unicode_text, spacey_text))
def test_arbitrary_unicode_matches_tokenizers(text):
    # Characters this Python's Unicode does not know may be known to the
    # reference, so keep to assigned ones.
    text = "".join(c for c in text if unicodedata.category(c) != "Cn")
    for name, mine, ref in PAIRS:
        assert mine.pre_tokenize_str(text) == ref.pre_tokenize_str(text), name


# -- the words-only path trainers use (pre_tokenize_words) ---------------------------------

def test_training_words_equal_pre_tokenize_str():
    import random
    from subword_lab.pipeline.training_words import words_function
    P = ours
    pres = [P.ByteLevel(add_prefix_space=False), P.ByteLevel(), P.ByteLevel(use_regex=False),
            P.BertPreTokenizer(), P.Whitespace(), P.WhitespaceSplit(), P.Metaspace(),
            P.Metaspace(prepend_scheme="never"), P.Metaspace(split=False),
            P.Metaspace(prepend_scheme="first"),
            P.Sequence([P.WhitespaceSplit(), P.Metaspace()]),
            P.Sequence([P.Punctuation(), P.Digits()]),
            P.Sequence([P.WhitespaceSplit(), P.ByteLevel()]),
            P.Sequence([P.Whitespace(), P.Metaspace(prepend_scheme="first")])]
    alphabet = list(" \t\n\u3000\u00a0\u2581abcXYZ12,.!?'\"é字ーя😀\u0301-")
    rng = random.Random(7)
    texts = ["", " ", "\u2581", "  a", "a  ", "\u2581\u2581a", "a\u2581", "Hello, world! It's 2024."]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24))) for _ in range(1500)]
    for p in pres:
        words = words_function(p)
        for text in texts:
            assert words(text) == [w for w, _ in p.pre_tokenize_str(text)], (p, text)
    assert words_function(None)("a b") == ["a b"] and words_function(None)("") == []


def test_trainer_counts_byte_level_words_as_pre_tokenize_str_gives_them():
    """A trainer counts ByteLevel's raw pieces and turns each distinct one into byte
    characters once: the counts must still be those of pre_tokenize_str's words,
    with and without a normalizer before it."""
    from collections import Counter
    from subword_lab import normalizers
    from subword_lab.pipeline.training_words import training_words
    from subword_lab.trainers import BpeTrainer
    texts = ["Hello  world, héllo wörld!", "", "字字 ー 😀 hello\n", " hello", "HELLO"] * 3
    for p in (ours.ByteLevel(), ours.ByteLevel(add_prefix_space=False),
              ours.ByteLevel(use_regex=False),
              ours.Sequence([ours.WhitespaceSplit(), ours.ByteLevel()])):
        for normalize in (None, normalizers.Lowercase().normalize_str):
            trainer = BpeTrainer()
            trainer.feed(texts, training_words(p, normalize))
            expected = Counter(w for text in texts for w, _ in
                               p.pre_tokenize_str(normalize(text) if normalize else text))
            assert trainer.words == dict(expected), (p, normalize)
            assert list(trainer.words) == list(expected)  # first-occurrence order

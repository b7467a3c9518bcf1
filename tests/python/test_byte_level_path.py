"""The fast byte-level encode path (pipeline/byte_level_encode.py) and the compact Encoding.

Every field the fast path fills must equal the general pipeline's (forced by
asking for events) and `tokenizers`' own, and an Encoding built compactly must
behave as a list-built one under every public method."""
from __future__ import annotations

import pickle

import pytest
import tokenizers
from tokenizers import models as hf_models, pre_tokenizers as hf_pre, trainers as hf_trainers

import subword_lab
from subword_lab.pipeline import byte_level_encode as byte_level_path
from subword_lab.encoding import Encoding

FIELDS = ("ids", "tokens", "offsets", "type_ids", "attention_mask", "special_tokens_mask",
          "word_ids", "sequence_ids")

TEXTS = [
    "Hello world", "", " ", "  leading and trailing  ", "naïve café — 東京タワー 🙂👍🏽",
    "a<|endoftext|>b <|endoftext|> c", "tabs\tand\nnewlines\r\n\u00a0nbsp\u3000ideo",
    "123456789012 3.14159 x=1;y=2", "e\u0301\u0301 combining", "x" * 300,
    "https://example.com/path?q=1&r=2#frag", "ÿÿÿ\u0000\u0001 control",
]

LLAMA3_LIKE = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"
               r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def _fields(enc):
    return {name: getattr(enc, name) for name in FIELDS}


def _general(tok, text, pair=None):
    return tok.encode(text, pair, on_event=lambda event: None)


@pytest.fixture(scope="module")
def gpt2(gpt2_tiktoken):
    return subword_lab.load(gpt2_tiktoken)


@pytest.fixture(scope="module")
def hf_pair(botchan_txt, tmp_path_factory):
    """A byte-level BPE trained by `tokenizers` (Llama 3's pre-tokenizer shape,
    added tokens), and the same file loaded by us."""
    hf = tokenizers.Tokenizer(hf_models.BPE())
    hf.pre_tokenizer = hf_pre.Sequence([
        hf_pre.Split(tokenizers.Regex(LLAMA3_LIKE), "isolated"),
        hf_pre.ByteLevel(add_prefix_space=False, use_regex=False)])
    trainer = hf_trainers.BpeTrainer(vocab_size=2000, initial_alphabet=hf_pre.ByteLevel.alphabet(),
                                     show_progress=False)
    hf.train([str(botchan_txt)], trainer)
    hf.add_special_tokens(["<|begin|>"])
    hf.add_tokens([tokenizers.AddedToken("wörld", single_word=False)])
    path = tmp_path_factory.mktemp("hf") / "tokenizer.json"
    hf.save(str(path))
    return hf, subword_lab.Tokenizer.from_file(str(path))


def test_fast_path_is_taken(gpt2, hf_pair):
    assert byte_level_path.plan(gpt2) is not None
    assert byte_level_path.plan(hf_pair[1]) is not None


@pytest.mark.parametrize("text", TEXTS)
def test_fast_equals_general_gpt2(gpt2, text):
    assert _fields(gpt2.encode(text)) == _fields(_general(gpt2, text))


@pytest.mark.parametrize("text", TEXTS + ["<|begin|>Hello wörld<|begin|>"])
def test_fast_equals_tokenizers(hf_pair, text):
    hf, ours = hf_pair
    want = hf.encode(text)
    got = ours.encode(text)
    for name in FIELDS:
        assert getattr(got, name) == getattr(want, name), name
    assert _fields(got) == _fields(_general(ours, text))


def test_botchan_lines_equal_tokenizers(hf_pair, botchan_lines):
    hf, ours = hf_pair
    for line in botchan_lines[:400]:
        want = hf.encode(line)
        got = ours.encode(line)
        assert (got.ids, got.offsets, got.word_ids) == (want.ids, want.offsets, want.word_ids)


@pytest.mark.parametrize("text", TEXTS + ["ﬁne ①②", "e\u0301 vs é", "Å"])
def test_unicode_form_normalizers(hf_pair, tmp_path, text):
    """NFKC/NFC normalizers: the fast path takes texts already normalized, the
    general path the rest; both agree with tokenizers."""
    hf, _ = hf_pair
    hf = tokenizers.Tokenizer.from_str(hf.to_str())
    hf.normalizer = tokenizers.normalizers.Sequence([tokenizers.normalizers.NFKC(),
                                                     tokenizers.normalizers.NFC()])
    ours = subword_lab.Tokenizer.from_str(hf.to_str())
    assert byte_level_path.plan(ours) is not None
    want, got = hf.encode(text), ours.encode(text)
    for name in FIELDS:
        assert getattr(got, name) == getattr(want, name), name


DEEPSEEK_LIKE = [r"\p{N}{1,3}", "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+",
                 r"[!-/:-@\[-`{-~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"
                 r"| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"]


@pytest.mark.parametrize("text", TEXTS + ["東京タワー12345は 2024年", "x1234567y"])
def test_several_splits(hf_pair, text):
    """Several Splits before ByteLevel (DeepSeek's shape) run one after the other."""
    hf, _ = hf_pair
    hf = tokenizers.Tokenizer.from_str(hf.to_str())
    hf.pre_tokenizer = hf_pre.Sequence(
        [hf_pre.Split(tokenizers.Regex(p), "isolated") for p in DEEPSEEK_LIKE]
        + [hf_pre.ByteLevel(add_prefix_space=False, use_regex=False)])
    ours = subword_lab.Tokenizer.from_str(hf.to_str())
    assert len(byte_level_path.plan(ours)[0]) == 3
    want, got = hf.encode(text), ours.encode(text)
    for name in FIELDS:
        assert getattr(got, name) == getattr(want, name), name


def test_pairs_and_pretokenized(gpt2):
    got = gpt2.encode("first part", "second part")
    assert _fields(got) == _fields(_general(gpt2, "first part", "second part"))
    words = ["many", " words", " here 東京"]
    fast = gpt2.encode(words, is_pretokenized=True)
    slow = gpt2.encode(words, is_pretokenized=True, on_event=lambda e: None)
    assert _fields(fast) == _fields(slow)


# -- the compact Encoding ----------------------------------------------------------------

@pytest.fixture
def both(gpt2):
    text = "Compact storage keeps 東京 and emoji 🙂 the same."
    return gpt2.encode(text), _general(gpt2, text)


def test_compact_is_compact(both):
    # a short text: ids in a list, every other column made only when read
    fast, slow = both
    assert type(fast._offsets) is not list and type(fast._word_ids) is not list
    assert len(fast) == len(slow)
    assert fast.ids == slow.ids and type(fast.ids) is list
    assert fast.offsets == slow.offsets and fast.word_ids == slow.word_ids


def test_a_long_text_is_kept_in_arrays(gpt2):
    text = "Compact storage keeps 東京 and emoji 🙂 the same. " * 500  # > SMALL pieces
    fast, slow = gpt2.encode(text), _general(gpt2, text)
    assert type(fast._ids) is not list and type(fast._offsets) is not list
    assert len(fast) == len(slow)
    assert type(fast._ids) is not list  # len() did not build the list
    assert fast.ids == slow.ids and type(fast.ids) is list
    assert fast.offsets == slow.offsets and fast.word_ids == slow.word_ids


def test_compact_attributes_are_lists_and_settable(both):
    fast, slow = both
    for name in FIELDS[:-1]:
        assert type(getattr(fast, name)) is list
    fast.ids = [1, 2]
    assert fast.ids == [1, 2]


@pytest.mark.parametrize("direction", ["right", "left"])
def test_truncate(both, direction):
    fast, slow = both
    fast.truncate(5, stride=2, direction=direction)
    slow.truncate(5, stride=2, direction=direction)
    assert _fields(fast) == _fields(slow)
    assert [_fields(o) for o in fast.overflowing] == [_fields(o) for o in slow.overflowing]


@pytest.mark.parametrize("direction", ["right", "left"])
def test_pad(both, direction):
    fast, slow = both
    fast.pad(40, direction=direction, pad_id=7, pad_token="<pad>")
    slow.pad(40, direction=direction, pad_id=7, pad_token="<pad>")
    assert _fields(fast) == _fields(slow)


def test_merge_and_helpers(both, gpt2):
    fast, slow = both
    other_fast, other_slow = gpt2.encode("more text"), _general(gpt2, "more text")
    a = Encoding.merge([fast, other_fast], growing_offsets=True)
    b = Encoding.merge([slow, other_slow], growing_offsets=True)
    assert _fields(a) == _fields(b)
    for k in range(len(b) + 1):
        assert a.token_to_chars(k) == b.token_to_chars(k)
        assert a.token_to_word(k) == b.token_to_word(k)
    for c in range(60):
        assert a.char_to_token(c) == b.char_to_token(c)
        assert a.char_to_word(c) == b.char_to_word(c)
    for w in range(12):
        assert a.word_to_tokens(w) == b.word_to_tokens(w)
        assert a.word_to_chars(w) == b.word_to_chars(w)


def test_copy_pickle_to_dict(both):
    fast, slow = both
    assert fast.to_dict() == slow.to_dict()
    assert _fields(fast.copy()) == _fields(slow)
    assert _fields(pickle.loads(pickle.dumps(fast))) == _fields(slow)


def test_batch_padding_and_truncation(gpt2):
    tok = subword_lab.Tokenizer.from_str(gpt2.to_str())
    tok.enable_truncation(6, stride=1)
    tok.enable_padding(pad_id=0, pad_token="!")
    texts = ["short", "a rather longer text that will overflow the window", "東京 🙂"]
    fast = tok.encode_batch(texts)
    slow = [tok.encode(t, on_event=lambda e: None) for t in texts]
    tok.no_padding()
    assert [len(e) for e in fast] == [6, 6, 6]
    assert [e.ids[:len(s.ids)] for e, s in zip(fast, slow)] == [s.ids for s in slow]
    assert [[_fields(o) for o in e.overflowing] for e in fast] == \
        [[_fields(o) for o in e.overflowing] for e in slow]

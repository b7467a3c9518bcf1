"""The Tokenizer API against `tokenizers`: vocabulary, added tokens, truncation,
padding, bad files, and the pipeline events."""
from __future__ import annotations

import json

import pytest
import tokenizers

from subword_lab import AddedToken, Tokenizer
from subword_lab.core.errors import SubwordLabError
from test_parity_bert import FULL, mismatches, view
from tools import assets


@pytest.fixture()
def both(bert_json):
    ours, theirs = Tokenizer.from_file(bert_json), tokenizers.Tokenizer.from_file(str(bert_json))
    for tok in (ours, theirs):
        tok.no_truncation()
        tok.no_padding()
    return ours, theirs


def test_vocabulary_lookups(both):
    ours, theirs = both
    assert ours.get_vocab() == theirs.get_vocab()
    assert ours.get_vocab(with_added_tokens=False) == theirs.get_vocab(with_added_tokens=False)
    assert ours.get_vocab_size() == theirs.get_vocab_size() == 30522
    for token in ["[CLS]", "hello", "##ing", "not-a-token", ""]:
        assert ours.token_to_id(token) == theirs.token_to_id(token)
    for id_ in [0, 100, 101, 2000, 30521, 30522, 99999]:
        assert ours.id_to_token(id_) == theirs.id_to_token(id_)


ADDED_TEXTS = [
    "I love New York and new york and NEW YORK.",
    "dogs and hotdogs, dog-days, a dog.",
    "before   <mask>   after and<mask>glued",
    "[NEW] at start and end [NEW]",
    "naïve café owners: the Naive Cafe, NAÏVE CAFÉ",
    "emoji 👋🏽 rocket 🚀 and 🚀🚀",
    "overlap: abcde abcd abc",
]


def _add_same(ours, theirs, normal, special):
    for tok in (ours, theirs):
        cls = AddedToken if tok is ours else tokenizers.AddedToken
        made = [cls(**kw) if isinstance(kw, dict) else kw for kw in normal]
        made_special = [cls(**kw) if isinstance(kw, dict) else kw for kw in special]
        counts = (tok.add_tokens(made), tok.add_special_tokens(made_special))
        if tok is ours:
            ours_counts = counts
        else:
            assert counts == ours_counts


def test_added_tokens_match_like_tokenizers(both, multilingual_lines):
    ours, theirs = both
    _add_same(ours, theirs, [
        "New York",                                     # normalized: matched lowercased
        {"content": "dog", "single_word": True},
        {"content": "Café", "normalized": True},
        "abc", "abcd", "🚀",
        {"content": "[NEW]", "normalized": False},
        "hello",                                        # already in the vocab
    ], [
        {"content": "<mask>", "lstrip": True, "rstrip": True},
        "naïve",
    ])
    assert ours.get_vocab() == theirs.get_vocab()
    assert ours.get_vocab_size() == theirs.get_vocab_size()
    assert ours.get_vocab_size(False) == theirs.get_vocab_size(False)
    for id_ in range(30520, 30535):
        assert ours.id_to_token(id_) == theirs.id_to_token(id_)
    inputs = ADDED_TEXTS + multilingual_lines
    assert mismatches(ours, theirs, inputs, FULL) == []
    assert mismatches(ours, theirs, list(zip(inputs[::2], inputs[1::2])), FULL) == []
    for text in ADDED_TEXTS:
        ids = theirs.encode(text).ids
        assert ours.decode(ids) == theirs.decode(ids)
        assert ours.decode(ids, False) == theirs.decode(ids, False)
    # written and read back by tokenizers, the added tokens keep their options
    reread = tokenizers.Tokenizer.from_str(ours.to_str())
    assert json.loads(reread.to_str())["added_tokens"] == json.loads(theirs.to_str())["added_tokens"]


def test_adding_twice_or_empty_adds_nothing(both):
    ours, theirs = both
    for tok in (ours, theirs):
        assert tok.add_tokens(["brandnewtoken"]) == 1
    for tok in (ours, theirs):
        assert tok.add_tokens(["brandnewtoken", ""]) == 0
    assert ours.token_to_id("brandnewtoken") == theirs.token_to_id("brandnewtoken")


def test_encode_special_tokens_flag(both):
    ours, theirs = both
    text = "[CLS] hello [SEP] world [MASK]"
    for tok in (ours, theirs):
        tok.encode_special_tokens = True
    assert view(ours.encode(text)) == view(theirs.encode(text))
    for tok in (ours, theirs):
        tok.encode_special_tokens = False
    assert view(ours.encode(text)) == view(theirs.encode(text))


@pytest.mark.parametrize("params", [
    dict(max_length=10),
    dict(max_length=10, stride=2),
    dict(max_length=12, stride=4, direction="left"),
    dict(max_length=9, strategy="only_first"),
    dict(max_length=9, strategy="only_second", stride=1),
    dict(max_length=2),
])
def test_truncation_like_tokenizers(both, botchan_lines, params):
    ours, theirs = both
    for tok in (ours, theirs):
        tok.enable_truncation(**params)
    assert ours.truncation == theirs.truncation
    texts = [line for line in botchan_lines[100:160] if line]
    pairs = list(zip(texts[::2], texts[1::2]))
    for inputs in (texts, pairs):
        for item in inputs:
            args = item if isinstance(item, tuple) else (item,)
            try:
                expected = theirs.encode(*args)
            except BaseException:  # noqa: B036 - tokenizers panics on some settings
                with pytest.raises(SubwordLabError):
                    ours.encode(*args)
                continue
            got = ours.encode(*args)
            assert view(got) == view(expected), item
            assert [view(o) for o in got.overflowing] == [view(o) for o in expected.overflowing]


@pytest.mark.parametrize("params", [
    dict(),
    dict(length=40),
    dict(length=40, direction="left", pad_id=3, pad_type_id=2, pad_token="[X]"),
    dict(pad_to_multiple_of=7),
])
def test_padding_like_tokenizers(both, botchan_lines, params):
    ours, theirs = both
    for tok in (ours, theirs):
        tok.enable_padding(**params)
        tok.enable_truncation(30, stride=5)
    assert ours.padding == theirs.padding
    texts = botchan_lines[200:230]
    assert mismatches(ours, theirs, texts + [" ".join(texts)], FULL) == []
    batch = texts[:5] + [(texts[5], texts[6])]
    assert [view(e) for e in ours.encode_batch(batch)] == \
        [view(e) for e in theirs.encode_batch(batch)]


def test_stride_too_large_is_refused(both):
    ours, theirs = both
    with pytest.raises(Exception):
        theirs.enable_truncation(4, stride=3)
    with pytest.raises(SubwordLabError, match="stride"):
        ours.enable_truncation(4, stride=3)


def test_encoding_helpers_like_tokenizers(both):
    ours, theirs = both
    text, pair = "Hello wonderful world, it's me!", "A second sentence here."
    a, b = ours.encode(text, pair), theirs.encode(text, pair)
    assert a.n_sequences == b.n_sequences == 2
    for pos in range(len(text)):
        assert a.char_to_token(pos) == b.char_to_token(pos)
        assert a.char_to_word(pos) == b.char_to_word(pos)
    for i in range(len(a.ids)):
        assert a.token_to_chars(i) == b.token_to_chars(i)
        assert a.token_to_word(i) == b.token_to_word(i)
        assert a.token_to_sequence(i) == b.token_to_sequence(i)
    for w in range(8):
        for s in (0, 1):
            assert a.word_to_tokens(w, s) == b.word_to_tokens(w, s)
            assert a.word_to_chars(w, s) == b.word_to_chars(w, s)


# -- bad files ------------------------------------------------------------------------

def _write(tmp_path, text):
    path = tmp_path / "tokenizer.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.pop("model"), "model"),
    (lambda d: d.update(version="9.9"), "version"),
    (lambda d: d.update(truncation={"strategy": "LongestFirst"}), "truncation.max_length"),
    (lambda d: d.update(padding={"strategy": {"Fixed": "x"}}), "padding.strategy"),
    (lambda d: d.update(added_tokens=[{"id": 1}]), "added_tokens[0]"),
    (lambda d: d.update(normalizer={"type": "NoSuchNormalizer"}), "normalizer"),
    (lambda d: d.update(pre_tokenizer={"type": "NoSuchPreTokenizer"}), "pre_tokenizer"),
    (lambda d: d.update(post_processor={"type": "TemplateProcessing"}), "post_processor"),
    (lambda d: d.update(decoder={"type": "NoSuchDecoder"}), "decoder"),
    (lambda d: d["model"].update(type="NoSuchModel"), "model"),
    (lambda d: d["model"].pop("vocab"), "model"),
])
def test_bad_fields_name_file_and_field(bert_json, tmp_path, mutate, field):
    data = json.loads(bert_json.read_text(encoding="utf-8"))
    mutate(data)
    path = _write(tmp_path, json.dumps(data))
    with pytest.raises(SubwordLabError) as info:
        Tokenizer.from_file(path)
    assert info.value.path == str(path)
    assert (info.value.field or "").startswith(field)
    assert str(path) in str(info.value) and field in str(info.value)
    with pytest.raises(Exception):  # tokenizers refuses these files too
        tokenizers.Tokenizer.from_file(str(path))


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "not json at all", '{"model": 3}'])
def test_malformed_json(tmp_path, text):
    path = _write(tmp_path, text)
    with pytest.raises(SubwordLabError) as info:
        Tokenizer.from_file(path)
    assert str(path) in str(info.value)


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(SubwordLabError, match="cannot read"):
        Tokenizer.from_file(tmp_path / "nope.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SubwordLabError, match="UTF-8"):
        Tokenizer.from_file(binary)


def test_from_buffer(bert_json):
    tok = Tokenizer.from_buffer(bert_json.read_bytes())
    assert tok.encode("hello").tokens[1] == "hello"


# -- events ---------------------------------------------------------------------------

def test_events_describe_the_pipeline(both):
    ours, _ = both
    ours.add_special_tokens(["<tag>"])
    events = []
    text = "Héllo <tag> wörld, unaffable!"
    enc = ours.encode(text, on_event=events.append)
    json.dumps(events)  # plain JSON all the way
    kinds = [e["type"] for e in events]
    assert kinds[0] == "input" and events[0]["text"] == text
    assert "added_tokens" in kinds and "normalize" in kinds and "pre_tokenize" in kinds
    assert kinds[-1] == "encoding"
    added = next(e for e in events if e["type"] == "added_tokens")
    assert [s["text"] for s in added["splits"]] == ["Héllo ", "<tag>", " wörld, unaffable!"]
    assert [s["id"] is not None for s in added["splits"]] == [False, True, False]
    pre = next(e for e in events if e["type"] == "pre_tokenize")
    for piece in pre["pieces"]:
        start, end = piece["offsets"]
        assert 0 <= start <= end <= len(text)
    pieces = [e for e in events if e["type"] == "model_piece"]
    assert [p["text"] for p in pieces] == [p["text"] for p in pre["pieces"] if not p["added"]]
    # the model's own events come right after its piece marker
    after = kinds[kinds.index("model_piece") + 1]
    assert after not in ("model_piece", "encoding")
    final = events[-1]
    assert final["ids"] == enc.ids and final["tokens"] == enc.tokens
    assert final["offsets"] == [list(o) for o in enc.offsets]
    assert final["added_by_post_processor"] == [t in ("[CLS]", "[SEP]") for t in enc.tokens]


def test_events_do_not_change_the_result(both, multilingual_lines):
    ours, _ = both
    for line in multilingual_lines:
        assert view(ours.encode(line, on_event=lambda e: None)) == view(ours.encode(line))


def _fast_view(encoding):
    """Every column and helper answer of an encode_batch_fast result, its overflow's too."""
    return (encoding.ids, encoding.tokens, encoding.offsets, encoding.word_ids, encoding.type_ids,
            encoding.sequence_ids, encoding.special_tokens_mask, encoding.attention_mask,
            encoding.n_sequences, encoding.char_to_token(2), encoding.token_to_chars(1),
            encoding.word_to_tokens(0), encoding.token_to_word(1),
            [_fast_view(o) for o in encoding.overflowing])


FAST_INPUTS = ["Hello<|endoftext|> the quick brown fox<|begin_of_text|> <s>x [SEP] naïve",
               ("A first sentence of a pair, long enough to overflow.", "and its second part"),
               ("Both texts of this pair are long enough", "to overflow: their overflow holds both"),
               "", "   ", "日本語のテキスト and emoji 👍🏽"]


@pytest.mark.parametrize("name", ["bert-base-uncased.tokenizer.json", "gpt2.tokenizer.json",
                                  "llama3_1.tokenizer.json", "xlm-roberta.tokenizer.json",
                                  "llama2.tokenizer.json"])
@pytest.mark.parametrize("settings", ["plain", "truncated and padded"])
def test_encode_batch_fast_gives_what_tokenizers_gives(name, settings):
    """tokenizers' fast batch tracks no string, offsets or word for the text's tokens (the
    post-processor's and the padding's keep theirs): the same ids and masks as encode_batch,
    (0, 0) offsets, None words and "" tokens; async too, pre-tokenized words too."""
    import asyncio

    path = str(assets.fetch([name], quiet=True)[name])
    ours, theirs = Tokenizer.from_file(path), tokenizers.Tokenizer.from_file(path)
    for tok in (ours, theirs):
        tok.no_truncation()
        tok.no_padding()
        tok.add_tokens(["quick brown"])
        if settings != "plain":
            tok.enable_truncation(12, stride=2)
            tok.enable_padding(length=16)
    got = [_fast_view(e) for e in ours.encode_batch_fast(FAST_INPUTS)]
    assert got == [_fast_view(e) for e in theirs.encode_batch_fast(FAST_INPUTS)]
    assert got == [_fast_view(e) for e in asyncio.run(ours.async_encode_batch_fast(FAST_INPUTS))]
    assert [e.ids for e in ours.encode_batch_fast(FAST_INPUTS)] == [
        e.ids for e in ours.encode_batch(FAST_INPUTS)]
    words = [["Pre", "tokenized", "words", "as", "a", "list"], ["and", "a", "pair", "of", "lists", "too"]]
    assert [_fast_view(e) for e in ours.encode_batch_fast([words], is_pretokenized=True)] == [
        _fast_view(e) for e in theirs.encode_batch_fast([words], is_pretokenized=True)]

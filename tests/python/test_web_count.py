"""Whole-text counts in slices (web/count.py): the sum over slices is the whole text's count.

The page counts long texts a slice at a time; every cut must leave the count exactly
as one encode of the whole text gives it, for every kind of pipeline (byte-level BPE,
WordPiece with [CLS]/[SEP], sentencepiece Unigram and BPE, a pipeline without a
pre-tokenizer whose cuts must all be refused).
"""
import json

import pytest
from hypothesis import given, settings, strategies as st

from opened_files import opened
from subword_lab.web import api
from subword_lab.web.count import Counter, whole_count

FILES = ["gpt2.tiktoken", "bert-base-uncased.tokenizer.json", "botchan_en_unigram_1000.model",
         "botchan_en_bpe_1000.model", "cl100k_base.tiktoken", "llama2.tokenizer.json",
         "gemma.tokenizer.json", "kyoto_ja_unigram_8000.model"]


@pytest.mark.parametrize("name", FILES)
def test_slices_add_up_to_the_whole_text(asset_paths, book, name):
    tok = opened(name)
    text = book if name in FILES[:3] else book[:60000]
    counter = Counter(tok, text, slice_chars=1500)
    assert counter.run() == len(tok.encode(text).ids)
    if name != "llama2.tokenizer.json":
        assert len(counter.cuts) > 10  # it was really counted in slices


def test_a_pipeline_that_merges_across_spaces_is_never_cut(asset_paths, book):
    # llama2's tokenizer.json has no pre-tokenizer and prepends "▁" to the text:
    # every cut changes the tokens at it, so the local test refuses them all.
    counter = Counter(opened("llama2.tokenizer.json"), book[:20000], slice_chars=1000)
    counter.run()
    assert counter.cuts == []


def test_counts_agree_with_the_reference_libraries(bert_json, gpt2_tiktoken, asset_paths, book):
    tokenizers = pytest.importorskip("tokenizers")
    bert = tokenizers.Tokenizer.from_file(str(bert_json))
    bert.no_truncation()
    assert whole_count(opened("bert-base-uncased.tokenizer.json"), book) \
        == len(bert.encode(book).ids)
    import sentencepiece
    sp = sentencepiece.SentencePieceProcessor(model_file=str(asset_paths["botchan_en_unigram_1000.model"]))
    assert whole_count(opened("botchan_en_unigram_1000.model"), book) == len(sp.encode(book))


ALPHABET = st.sampled_from(list("ab XYZ.,'-\n\t\r 0123 ééñ日本語👍\u0301 [CLS][SEP]<s></s>▁"))
TEXTS = st.lists(ALPHABET, max_size=300).map("".join)


@pytest.mark.parametrize("name", FILES[:4] + ["gemma.tokenizer.json"])
@settings(max_examples=60, deadline=None)
@given(text=TEXTS, slice_chars=st.integers(1, 40))
def test_any_text_any_slice_size(asset_paths, name, text, slice_chars):
    tok = opened(name)
    assert whole_count(tok, text, slice_chars) == len(tok.encode(text).ids)


@pytest.mark.parametrize("fast_chars", [0, None])
def test_the_facade_counts_step_by_step(bert_json, book, fast_chars):
    """Encoded slices (fast_chars 0) go one a call; slices counted without offsets (the
    page's default) go as many a call as fit in count.STEP_SECONDS: either way each
    call moves on and the sum is the whole text's."""
    api.open_path("count-bert", str(bert_json))
    args = {"key": "count-bert", "text": book, "session": "s1"}
    if fast_chars is not None:
        args["fast_chars"] = fast_chars
    state = json.loads(api.count_start(json.dumps(args)))
    seen = [state]
    while not state["complete"]:
        state = json.loads(api.count_step(json.dumps({"session": "s1"})))
        seen.append(state)
    assert all(a["done"] < b["done"] for a, b in zip(seen, seen[1:]))
    if fast_chars == 0:
        assert len(seen) > 10
    assert state["count"] == len(api.REGISTRY.get("count-bert").encode(book).ids)
    assert state["total"] == len(book)
    # A new count drops the old one.
    api.count_start(json.dumps({"key": "count-bert", "text": "a b", "session": "s2"}))
    json.loads(api.count_start(json.dumps({"key": "count-bert", "text": book, "session": "s3"})))
    assert json.loads(api.count_step(json.dumps({"session": "s2"}))) == {"session": "s2", "gone": True}


@pytest.mark.parametrize("special", ["recognise", "as_text"])
def test_the_special_tokens_choice_counts_as_it_encodes(gpt2_tiktoken, book, special):
    """The page counts with the special-tokens choice in force: '<|endoftext|>' written in
    the text is one token when recognised and several as text, in every slice; tiktoken
    (encode with the special allowed, or encode_ordinary) is the reference."""
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str
    oracle = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                               mergeable_ranks=load_tiktoken_bpe(str(gpt2_tiktoken)),
                               special_tokens={ENDOFTEXT: 50256})
    lines = book[:40_000].splitlines(keepends=True)
    text = "".join(line + ("<|endoftext|>" if i % 25 == 0 else "") for i, line in enumerate(lines))
    assert text.count("<|endoftext|>") > 20
    expected = (len(oracle.encode(text, allowed_special={ENDOFTEXT})) if special == "recognise"
                else len(oracle.encode_ordinary(text)))
    api.open_path("count-gpt2", str(gpt2_tiktoken))
    state = json.loads(api.count_start(json.dumps(
        {"key": "count-gpt2", "text": text, "session": "sp", "special": special})))
    while not state["complete"]:
        state = json.loads(api.count_step(json.dumps({"session": "sp"})))
    assert state["count"] == expected


def test_a_character_that_vanishes_costs_a_short_encoded_slice(bert_json, book):
    """BERT's normalizer deletes a byte-order mark: the slices holding one are encoded
    with offsets (so that it is counted as uncovered) but only a slice of the encoded
    size around each, the rest counted without offsets; the count and the uncovered
    characters are those of a count that encodes every slice."""
    tok = opened("bert-base-uncased.tokenizer.json")
    text = "\ufeff" + book[:150_000] + "\ufeff" + book[150_000:]
    fast = Counter(tok, text, slice_chars=4000, fast_chars=1 << 16)
    slow = Counter(tok, text, slice_chars=4000, fast_chars=0)
    assert fast.run() == slow.run() == len(tok.encode(text).ids)
    assert (fast.uncovered, fast.uncovered_bytes) == (slow.uncovered, slow.uncovered_bytes) \
        == (text.count("\ufeff"), 3 * text.count("\ufeff"))
    assert slow.encoded_chars == len(text)
    assert fast.encoded_chars <= 2 * 4000 * text.count("\ufeff")

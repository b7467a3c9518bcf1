"""BpeTrainer against tokenizers' BpeTrainer: identical merges, options, errors, events."""
from __future__ import annotations

import json

import pytest
import tokenizers as hf
from hypothesis import assume, given, settings, strategies as st

from subword_lab import models, trainers
from subword_lab.core.errors import SubwordLabError
from subword_lab.trainers import BpeTrainer, TrainingCancelled
from subword_lab.trainers.base import train_tokenizer

from train_helpers import COURSE, merges_of, ours, same_encodings, theirs


def train_both(lines, pre, **options):
    mine = ours(models.BPE(), pre)
    mine.train_from_iterator(lines, BpeTrainer(**options))
    ref = theirs(hf.models.BPE(), pre)
    ref.train_from_iterator(lines, hf.trainers.BpeTrainer(show_progress=False, **options))
    return mine, ref


@pytest.mark.parametrize("pre", ["byte_level", "whitespace"])
@pytest.mark.parametrize("vocab_size", [1000, 5000])
def test_botchan_merges_identical(botchan_lines, pre, vocab_size):
    mine, ref = train_both(botchan_lines, pre, vocab_size=vocab_size,
                           special_tokens=["<|endoftext|>"])
    ours_merges, hf_merges = merges_of(mine.to_str()), merges_of(ref.to_str())
    assert len(hf_merges) > vocab_size - 300
    assert ours_merges == hf_merges
    assert mine.get_vocab() == ref.get_vocab()


def test_course_corpus_merges_identical():
    mine, ref = train_both(COURSE, "byte_level", vocab_size=50,
                           special_tokens=["<|endoftext|>"])
    assert merges_of(mine.to_str()) == merges_of(ref.to_str())


@pytest.mark.parametrize("options", [
    {"vocab_size": 2000, "min_frequency": 5},
    {"vocab_size": 1500, "max_token_length": 4},
    {"vocab_size": 1200, "initial_alphabet": ["é", "ü", "€x"]},
    {"vocab_size": 800, "limit_alphabet": 60},
])
def test_botchan_options_identical(botchan_lines, options):
    mine, ref = train_both(botchan_lines, "whitespace", **options)
    assert merges_of(mine.to_str()) == merges_of(ref.to_str())
    assert mine.get_vocab() == ref.get_vocab()


@pytest.mark.parametrize("options", [
    {"end_of_word_suffix": "</w>"},
    {"continuing_subword_prefix": "##"},
])
def test_prefix_suffix_round_trip(botchan_lines, options):
    """With a prefix or suffix tokenizers numbers the new initial tokens in hash
    order, so only the file round trip is compared: it loads there and encodes
    identically."""
    mine = ours(models.BPE(**options), "whitespace")
    mine.train_from_iterator(botchan_lines[:1500], BpeTrainer(vocab_size=1500, **options))
    loaded = hf.Tokenizer.from_str(mine.to_str())
    assert same_encodings(mine, loaded, botchan_lines) == []
    suffix_or_prefix = next(iter(options.values()))
    assert any(suffix_or_prefix in t and len(t) > len(suffix_or_prefix) + 1
               for t in mine.get_vocab())


def test_byte_level_round_trip(botchan_lines, multilingual_lines):
    mine = ours(models.BPE(), "byte_level")
    trainer = BpeTrainer(vocab_size=3000, special_tokens=["<|endoftext|>"],
                         initial_alphabet=trainers_alphabet())
    mine.train_from_iterator(botchan_lines, trainer)
    loaded = hf.Tokenizer.from_str(mine.to_str())
    assert same_encodings(mine, loaded, botchan_lines + multilingual_lines) == []


def trainers_alphabet():
    from subword_lab import pre_tokenizers
    return pre_tokenizers.ByteLevel.alphabet()


def test_train_from_files_matches_tokenizers(tmp_path, botchan_txt):
    """`train(files)` keeps the line endings, as tokenizers does."""
    mine = ours(models.BPE(), "byte_level")
    mine.train([str(botchan_txt)], BpeTrainer(vocab_size=1000))
    ref = theirs(hf.models.BPE(), "byte_level")
    ref.train([str(botchan_txt)], hf.trainers.BpeTrainer(vocab_size=1000, show_progress=False))
    assert merges_of(mine.to_str()) == merges_of(ref.to_str())


# -- errors -------------------------------------------------------------------------

def test_vocab_size_below_alphabet():
    tok = ours(models.BPE(), "whitespace")
    with pytest.raises(SubwordLabError, match=r"vocab_size: 10 is too small.*1 special"):
        tok.train_from_iterator(COURSE, BpeTrainer(vocab_size=10, special_tokens=["<s>"]))


def test_empty_corpus():
    tok = ours(models.BPE(), "whitespace")
    with pytest.raises(SubwordLabError, match="corpus is empty"):
        tok.train_from_iterator(["", "   "], BpeTrainer(vocab_size=100))


@pytest.mark.parametrize("bad", [{"tie_break": "last"}, {"vocab_size": -1},
                                 {"min_frequency": "2"}, {"trace": "verbose"},
                                 {"special_tokens": [3]}, {"max_token_length": 0}])
def test_bad_options(bad):
    with pytest.raises(SubwordLabError):
        BpeTrainer(**bad)


def test_wrong_model_type():
    tok = ours(models.WordPiece(), "whitespace")
    with pytest.raises(SubwordLabError, match="BPE"):
        tok.train_from_iterator(COURSE, BpeTrainer(vocab_size=60))


# -- events -------------------------------------------------------------------------

def collect(trainer, lines, pre="byte_level"):
    events = []
    tok = ours(models.BPE(), pre)
    tok.train_from_iterator(lines, trainer, on_event=events.append)
    return tok, events


def test_events_schema_and_counts(botchan_lines):
    lines = botchan_lines[:400]
    tok, events = collect(BpeTrainer(vocab_size=600, trace="full"), lines)
    assert json.loads(json.dumps(events)) == json.loads(json.dumps(events))
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["train_start", "alphabet", "words"] and kinds[-1] == "train_end"
    words = events[2]["words"]
    splits = [list(w["tokens"]) for w in words]
    assert [w["count"] for w in words] == [c for c in word_counts(tok, lines).values()]
    merges = [e for e in events if e["type"] == "merge"]
    assert [e["step"] for e in merges] == list(range(1, len(merges) + 1))
    assert events[-1]["vocab_size"] == 600 == merges[-1]["vocab_size"]
    for e in merges:
        left, right = e["pair"]
        # replay the merge on the words it names: count and corpus length must follow
        count = 0
        for w in e["words"]:
            s, out, i = splits[w], [], 0
            while i < len(s):
                if i + 1 < len(s) and s[i] == left and s[i + 1] == right:
                    out.append(e["token"])
                    count += words[w]["count"]
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            splits[w] = out
        assert count == e["count"]
        assert sum(len(s) * w["count"] for s, w in zip(splits, words)) == e["corpus_tokens"]
        assert len(e["candidates"]) <= 5
        assert all(c["count"] <= e["count"] for c in e["candidates"])
        if e["tie"]:
            assert e["tie"]["rule"] == "smallest_ids"
            assert all(c["count"] == e["count"] for c in e["candidates"][:len(e["tie"]["tied"])])
    assert events[-1]["vocab"] == [t for t, _ in sorted(tok.get_vocab().items(), key=lambda x: x[1])]


def word_counts(tok, lines):
    counts = {}
    for line in lines:
        for w, _ in tok.pre_tokenizer.pre_tokenize_str(line):
            counts[w] = counts.get(w, 0) + 1
    return counts


def test_summary_trace_is_compact(botchan_lines):
    _, events = collect(BpeTrainer(vocab_size=3000), botchan_lines)
    merges = [e for e in events if e["type"] == "merge"]
    assert all("words" not in e and len(e["candidates"]) <= 3 for e in merges)
    size = len(json.dumps(merges))
    assert size / len(merges) < 600, size / len(merges)


def test_ties_are_reported():
    trainer = BpeTrainer(vocab_size=50, special_tokens=["<|endoftext|>"])
    _, events = collect(trainer, COURSE)
    ties = [e for e in events if e["type"] == "merge" and e["tie"]]
    assert ties
    for e in ties:
        first = e["tie"]["tied"][0]
        # the winner has the smallest ids among the tied pairs
        ids = {t: i for i, t in enumerate(events[-1]["vocab"])}
        assert tuple(e["ids"]) < (ids[first[0]], ids[first[1]])


def test_cancel_from_callback_leaves_model_untouched():
    tok = ours(models.BPE(), "byte_level")
    before = tok.model.to_dict()

    def on_event(event):
        if event["type"] == "merge" and event["step"] == 3:
            return "cancel"
        return None
    with pytest.raises(TrainingCancelled):
        tok.train_from_iterator(COURSE, BpeTrainer(vocab_size=50), on_event=on_event)
    assert tok.model.to_dict() == before


def test_cancel_flag():
    trainer = BpeTrainer(vocab_size=50)
    seen = []

    def on_event(event):
        seen.append(event["type"])
        if event["type"] == "merge":
            trainer.cancel()
    tok = ours(models.BPE(), "byte_level")
    with pytest.raises(TrainingCancelled):
        tok.train_from_iterator(COURSE, trainer, on_event=on_event)
    assert seen.count("merge") == 1
    # the flag is spent: the same trainer trains again
    tok.train_from_iterator(COURSE, trainer)
    assert tok.get_vocab_size() == 50


# -- arbitrary corpora --------------------------------------------------------------

SMALL_ALPHABET = st.text(alphabet="abcé ", min_size=1, max_size=12)


@settings(max_examples=120, deadline=None)
@given(st.lists(SMALL_ALPHABET, min_size=1, max_size=25), st.integers(5, 40))
def test_random_corpora_match_tokenizers(lines, vocab_size):
    """Few characters and repeated text make ties and tokens two pairs spell alike:
    the places where a different queue would show."""
    assume(any(line.strip() for line in lines))
    ref = theirs(hf.models.BPE(), "whitespace")
    ref.train_from_iterator(lines, hf.trainers.BpeTrainer(vocab_size=vocab_size,
                                                          show_progress=False))
    mine = ours(models.BPE(), "whitespace")
    try:
        train_tokenizer(mine, lines, BpeTrainer(vocab_size=vocab_size))
    except SubwordLabError as err:
        # We refuse a size below the alphabet; tokenizers then silently returns
        # more tokens than asked. Refusing is right only when that happens.
        assert "too small" in str(err)
        assert ref.get_vocab_size() > vocab_size
        return
    assert merges_of(mine.to_str()) == merges_of(ref.to_str())
    assert mine.get_vocab() == ref.get_vocab()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=30), min_size=1, max_size=10))
def test_arbitrary_unicode_never_raises_unexpectedly(lines):
    for trainer in (BpeTrainer(vocab_size=300, tie_break="first"),
                    trainers.WordPieceTrainer(vocab_size=300)):
        tok = ours(models.BPE() if isinstance(trainer, BpeTrainer) else models.WordPiece(),
                   "byte_level")
        try:
            tok.train_from_iterator(lines, trainer)
        except SubwordLabError as err:
            assert "too small" in str(err) or "empty" in str(err)


def test_words_go_back_to_lists_when_ids_pass_the_last_character(botchan_lines, monkeypatch):
    """HfEngine holds words as strings, one character per id, until an id no
    character can hold; then it goes on with lists of ids. CHARS is lowered so
    that the switch happens here, mid-run: the merges must not change."""
    from subword_lab.trainers import hf_engine
    monkeypatch.setattr(hf_engine, "CHARS", 150)
    calls = []
    on_lists = hf_engine.HfEngine._merge_lists
    monkeypatch.setattr(hf_engine.HfEngine, "_merge_lists",
                        lambda self, *args: calls.append(args[2]) or on_lists(self, *args))
    mine, ref = train_both(botchan_lines, "byte_level", vocab_size=400)
    assert calls and min(calls) == 150  # strings up to id 149, lists from 150 on
    assert merges_of(mine.to_str()) == merges_of(ref.to_str())
    assert mine.get_vocab() == ref.get_vocab()

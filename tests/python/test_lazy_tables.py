"""Tables filled on first use give what the whole tables gave, and what tokenizers gives:
the prefix walk of Unigram and WordPiece (models/_prefixes.py), BPE's merge table of
"left right" strings (models/merge_table.py), and the JSON read whose numbers and
depth are checked in whole-list passes (core/json_checks/_scan.py) against the hooked read.
"""
from __future__ import annotations

import json
import random

import pytest
import tokenizers
from tokenizers import models as hf_models

from subword_lab import models
from subword_lab.core.json_checks import schema as tokenizer_schema
from subword_lab.core.errors import SubwordLabError
from subword_lab.models.merge_table import MergeTable
from subword_lab.models._prefixes import Prefixes
from test_models_common import model_dict_of

ALPHABET = "abcé▁"


def _random_words(rng, count, longest=12):
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, longest)))
            for _ in range(count)]


def test_prefixes_answer_as_the_whole_table():
    rng = random.Random(7)
    pieces = {w: i for i, w in enumerate(dict.fromkeys(_random_words(rng, 300, 6)))}
    table = Prefixes(pieces)
    for probe in _random_words(rng, 2000, 8) * 2:  # the second round reads placed keys
        if probe in pieces:
            want = pieces[probe]
        elif any(p.startswith(probe) for p in pieces):
            want = -1
        else:
            want = None
        assert table[probe] == want, probe
    assert pieces == {k: v for k, v in pieces.items()}  # the caller's dict is untouched
    assert len(pieces) < len(table)


def _bpe_pair(rng):
    """A trained BPE as tokenizers saves it, with merges as "a b" strings and as pairs,
    a repeated merge included (the last rank counts)."""
    hf = tokenizers.Tokenizer(hf_models.BPE(unk_token="<unk>"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    hf.train_from_iterator([" ".join(_random_words(rng, 400))],
                           tokenizers.trainers.BpeTrainer(vocab_size=120, special_tokens=["<unk>"]))
    d = model_dict_of(hf)
    pairs = [list(m) if isinstance(m, list) else m.split(" ") for m in d["merges"]]
    pairs.append(pairs[3])
    as_strings = dict(d, merges=[" ".join(p) for p in pairs])
    as_pairs = dict(d, merges=pairs)
    return as_strings, as_pairs


def test_merge_table_of_strings_encodes_as_the_full_table_and_tokenizers():
    rng = random.Random(11)
    as_strings, as_pairs = _bpe_pair(rng)
    lazy = models.from_dict(as_strings)
    lazy_pairs = models.from_dict(as_pairs)
    assert isinstance(lazy._merges, MergeTable) and lazy._merges._ranks is not None
    assert lazy_pairs._merges._ranks is not None  # pairs of space-free tokens: lazy too
    full = models.from_dict(as_pairs)
    full._build_merges([tuple(p) for p in as_pairs["merges"]])  # the general build
    assert full._merges._ranks is None
    hf = hf_models.BPE(vocab=as_strings["vocab"], merges=[tuple(p) for p in as_pairs["merges"]],
                       unk_token="<unk>")
    for word in _random_words(rng, 500, 20):
        got = [t.id for t in lazy.tokenize(word)]
        assert got == [t.id for t in full.tokenize(word)] == [t.id for t in lazy_pairs.tokenize(word)], word
        assert got == [t.id for t in hf.tokenize(word)], word
    assert lazy.merges == full.merges == lazy_pairs.merges
    assert lazy.to_dict()["merges"] == full.to_dict()["merges"] == lazy_pairs.to_dict()["merges"]


def test_pairs_with_a_space_in_a_token_are_built_whole_and_encode_as_tokenizers():
    """A pair's text would not say which merge "a b" + "c" is, so the table is built whole."""
    vocab = {"a": 0, "b": 1, "c": 2, " ": 3, "a ": 4, "a b": 5, "a bc": 6, "bc": 7}
    merges = [["a", " "], ["a ", "b"], ["b", "c"], ["a b", "c"]]
    ours = models.from_dict({"type": "BPE", "vocab": vocab, "merges": merges})
    assert ours._merges._ranks is None
    hf = hf_models.BPE(vocab=vocab, merges=[tuple(m) for m in merges])
    for word in ["a bc", "a b", "bc", "a a bc", "ca b"]:
        assert [t.id for t in ours.tokenize(word)] == [t.id for t in hf.tokenize(word)], word


def test_merge_outside_the_vocabulary_is_still_refused_by_name():
    rng = random.Random(3)
    as_strings, _ = _bpe_pair(rng)
    bad = dict(as_strings, merges=as_strings["merges"] + ["zz q"])
    with pytest.raises(SubwordLabError, match="'zz' is not in the vocabulary"):
        models.from_dict(bad)
    spaced = dict(as_strings, merges=as_strings["merges"] + ["a b c"])
    with pytest.raises(SubwordLabError, match="not two tokens separated by one space"):
        models.from_dict(spaced)


def _hooked(text):
    """The number-by-number read loads_strict falls back to (serde_json's rules)."""
    return json.loads(text, parse_constant=tokenizer_schema._refuse_constant,
                      parse_float=tokenizer_schema._float, parse_int=tokenizer_schema._int)


@pytest.mark.parametrize("number", ["0", "-7", "1.5", "-0.0", str(2 ** 64 - 1), str(2 ** 64),
                                    str(-2 ** 64 + 1), str(-2 ** 64), "1" + "0" * 30, "1e308",
                                    "1e309", "-1e309", "9" * 5000, "NaN", "1E2", "2.5e-400"])
def test_strict_json_numbers_read_as_the_hooked_read(number):
    text = '{"model": {"vocab": [["a", %s], ["b", [1, {"x": %s}]]]}, "n": %s}' % (
        number, number, number)
    try:
        want = _hooked(text)
    except SubwordLabError:
        with pytest.raises(SubwordLabError):
            tokenizer_schema.loads_strict(text)
        return
    got = tokenizer_schema.loads_strict(text)
    assert got == want and repr(got) == repr(want)  # same values, int vs float included


@pytest.mark.parametrize("depth, readable", [(126, True), (127, True), (128, False)])
def test_strict_json_depth_limit(depth, readable):
    text = "[" * (depth - 1) + '{"a": 1}' + "]" * (depth - 1)
    if readable:
        assert tokenizer_schema.loads_strict(text) == json.loads(text)
    else:
        with pytest.raises(SubwordLabError, match="nested too deeply"):
            tokenizer_schema.loads_strict(text)

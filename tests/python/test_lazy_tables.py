"""Tables filled on first use give what the whole tables gave, and what tokenizers gives:
the prefix walk of Unigram and WordPiece (models/_prefixes.py), BPE's merge table of
"left right" strings (models/_merge_table.py), and the JSON read whose numbers and
depth are checked in whole-list passes (core/json_scan.py) against the hooked read.
"""
from __future__ import annotations

import json
import random

import pytest

from subword_lab.core import tokenizer_schema
from subword_lab.core.errors import SubwordLabError
from subword_lab.models._prefixes import Prefixes


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

"""UnicodeScripts against `tokenizers`: every code point, and generated strings
that mix every script with spaces, marks, digits and unassigned code points.

tokenizers compares the scripts of neighbouring chars (its own Unicode 9 table,
kana and U+30FC as Han, the space as no script); a char of no script never
starts a piece, and one before the first char with a script is dropped. The
oracle decides every split here; our table is not used to make expectations.
"""
from __future__ import annotations

import random

import pytest
from tokenizers import pre_tokenizers as hf

from subword_lab import pre_tokenizers as ours
from subword_lab.core.tables import unicode_scripts

CODES = [i for i in range(0x110000) if not 0xD800 <= i < 0xE000]
OURS, REFERENCE = ours.UnicodeScripts(), hf.UnicodeScripts()


def _same(text):
    return OURS.pre_tokenize_str(text) == REFERENCE.pre_tokenize_str(text)


@pytest.mark.parametrize("letter", ["a", "\u03b1", "\u4eac", "\u0627"])
def test_every_code_point_between_two_letters_splits_as_tokenizers(letter):
    # each code point alone between two letters of one script: it splits there
    # exactly when its script differs, and joins when it has none or the same
    text = letter + letter.join(map(chr, CODES)) + letter
    assert OURS.pre_tokenize_str(text) == REFERENCE.pre_tokenize_str(text)


def test_every_code_point_next_to_its_neighbour_splits_as_tokenizers():
    text = "".join(map(chr, CODES))
    assert OURS.pre_tokenize_str(text) == REFERENCE.pre_tokenize_str(text)


def _pools():
    """Chars of each script by Unicode block (a sample of code points of each
    1/16 of a block), so every script tokenizers knows is drawn from; plus
    what sits between words."""
    by_block = {}
    for cp in CODES:
        by_block.setdefault(cp >> 7, []).append(chr(cp))
    pools = [chars[::8] or chars for chars in by_block.values()]
    pools.append([" ", "  ", "\t", "\n", "\u3000", "\u00a0"])
    pools.append(["0", "7", ".", ",", "!", "\u30fc", "\u3002", "\u0301", "\u0308", "\u200d"])
    return pools


def _strings(seed, count, pools):
    rng = random.Random(seed)
    for _ in range(count):
        words = []
        for _ in range(rng.randint(1, 6)):
            pool = rng.choice(pools)
            words.append("".join(rng.choice(pool) for _ in range(rng.randint(1, 4))))
        yield "".join(words)


@pytest.mark.parametrize("seed", range(4))
def test_generated_strings_from_every_script_split_as_tokenizers(seed):
    pools = _pools()
    wrong = [text for text in _strings(seed, 5000, pools) if not _same(text)]
    assert not wrong, f"{len(wrong)} of 5000 differ, first {wrong[0]!r}"


# the scripts of issue 27's report: Latin, Greek, Cyrillic, Arabic, kana, CJK,
# Hangul, fullwidth letters, with spaces, digits and the marks between them
_ISSUE_POOLS = [
    [chr(c) for c in range(0x41, 0x7B) if chr(c).isalpha()] + ["\u00aa", "\u00e9", "\u0101"],
    [chr(c) for c in range(0x391, 0x3CA) if chr(c).isalpha()],
    [chr(c) for c in range(0x410, 0x450)],
    [chr(c) for c in range(0x621, 0x64B)],
    [chr(c) for c in range(0x3041, 0x3097)] + [chr(c) for c in range(0x30A1, 0x30FB)] + ["\u30fc"],
    [chr(c) for c in range(0x4E00, 0x4E80)],
    [chr(c) for c in range(0xAC00, 0xAC80)],
    [chr(c) for c in range(0xFF21, 0xFF3B)] + [chr(c) for c in range(0xFF41, 0xFF5B)],
    [" ", "0", "1", ",", "\u3002", "-"],
]


def test_the_issue_scripts_split_as_tokenizers():
    wrong = [text for text in _strings(27, 3000, _ISSUE_POOLS) if not _same(text)]
    assert not wrong, f"{len(wrong)} of 3000 differ, first {wrong[0]!r}"


@pytest.mark.parametrize("text,pieces", [
    ("abc\uff21\uff22\uff23", ["abc\uff21\uff22\uff23"]),   # fullwidth letters are Latin
    ("\u00aab", ["\u00aab"]),                               # so is the feminine ordinal
    ("  lead", ["lead"]),                                   # no script before the first: dropped
    ("\u30ab\u30fc\u4eac", ["\u30ab\u30fc\u4eac"]),          # kana, U+30FC and Han: one piece
])
def test_named_cases_follow_tokenizers(text, pieces):
    assert [p for p, _ in REFERENCE.pre_tokenize_str(text)] == pieces  # the oracle says so
    assert [p for p, _ in OURS.pre_tokenize_str(text)] == pieces


def test_table_names_every_class_once():
    assert len(set(unicode_scripts.SCRIPTS)) == len(unicode_scripts.SCRIPTS)
    assert unicode_scripts.SCRIPTS[ours._script_of("\u4eac")] == "Han"
    assert unicode_scripts.SCRIPTS[ours._script_of("\u30ab")] == "Han"  # kana: tokenizers' fix-up
    assert ours._script_of(" ") is None

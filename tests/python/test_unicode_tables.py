"""Every code point through the Unicode-dependent normalizers, against `tokenizers`.

`tokenizers` carries its own Unicode tables (older than this Python's for
marks, controls and normalization, newer for lowercase); unicode_tables.py
ships them. Here each normalizer sees every code point alone, and the
normalization forms also see every combining mark next to marks of other
classes (canonical reordering) and every decomposable char decomposed
(composition), so a stale or missing table entry fails a test.

Ours runs on chunks of chars joined by a separator the normalizer neither
changes nor produces; the oracle runs per char.
"""
from __future__ import annotations

import unicodedata

import pytest
from tokenizers import normalizers as hf

from subword_lab import normalizers as ours
from subword_lab.core.tables import unicode as unicode_tables

CHARS = [chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000]

CASES = {
    "NFC": (ours.NFC(), hf.NFC()),
    "NFD": (ours.NFD(), hf.NFD()),
    "NFKC": (ours.NFKC(), hf.NFKC()),
    "NFKD": (ours.NFKD(), hf.NFKD()),
    "Lowercase": (ours.Lowercase(), hf.Lowercase()),
    "StripAccents": (ours.StripAccents(), hf.StripAccents()),
    "Bert": (ours.BertNormalizer(), hf.BertNormalizer()),
    "Bert-cased": (ours.BertNormalizer(lowercase=False), hf.BertNormalizer(lowercase=False)),
    "Bert-strip-cased": (ours.BertNormalizer(strip_accents=True, lowercase=False),
                         hf.BertNormalizer(strip_accents=True, lowercase=False)),
}


CHUNK = 4096  # chars per call: keeps each call's set of distinct chars small


def separator(name):
    # NUL is a starter that nothing composes with or maps to; clean_text
    # removes it, so the Bert cases use "|" (no decomposition or case mapping
    # produces it).
    return "|" if name.startswith("Bert") else "\x00"


def each_alone(normalizer, chars, sep):
    """What `normalizer` makes of each char, read from texts of CHUNK chars kept apart
    by `sep` (one call per char would take 1.1 million calls)."""
    out = []
    for i in range(0, len(chars), CHUNK):
        out += normalizer.normalize_str(sep.join(chars[i:i + CHUNK])).split(sep)
    assert len(out) == len(chars)
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_every_code_point(name):
    mine, theirs = CASES[name]
    sep = separator(name)
    assert theirs.normalize_str(sep) == mine.normalize_str(sep) == sep
    chars = [c for c in CHARS if c != sep]
    bad = [(f"U+{ord(c):04X}", g, theirs.normalize_str(c))
           for c, g, w in zip(chars, each_alone(mine, chars, sep), each_alone(theirs, chars, sep))
           if g != w]
    assert not bad, f"{len(bad)} code points differ, first: {bad[:10]}"


# one mark of each of a few classes: 1, 220, 230, 240
PROBE_MARKS = "\u0334\u0316\u0301\u0345"
FORMS = ["NFC", "NFD", "NFKC", "NFKD"]


def _compare(form, texts):
    mine, theirs = CASES[form]
    bad = [t for t in texts if mine.normalize_str(t) != theirs.normalize_str(t)]
    assert not bad, f"{len(bad)} differ, first: {[ascii(t) for t in bad[:10]]}"


@pytest.mark.parametrize("form", FORMS)
def test_combining_classes_reorder_as_hf(form):
    # every char this Python or HF calls a nonstarter, before and after marks
    # of other classes: a wrong class shows up as a wrong order
    marks = {c for c in CHARS if unicodedata.combining(c)} | unicode_tables.charset("nonstarters")
    texts = [f"a{c}{m}" for c in sorted(marks) for m in PROBE_MARKS]
    texts += [f"a{m}{c}" for c in sorted(marks) for m in PROBE_MARKS]
    _compare(form, texts)


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_compositions_as_hf(form):
    # every char this Python decomposes, given decomposed: HF composes back
    # only the composites its own table knows
    texts = {unicodedata.normalize(f, c) for c in CHARS for f in ("NFD", "NFKD")}
    _compare(form, sorted(t for t in texts if len(t) > 1))


def test_tables_are_what_the_oracle_says():
    # spot checks that the generated module is in sync with the oracle: a
    # regenerated table would change these sets
    strip = hf.StripAccents()
    removed = {c for c in CHARS if not strip.normalize_str(c)}
    assert removed == unicode_tables.charset("strip_accents")
    lower = hf.Lowercase()
    table = unicode_tables.lowercase_table()
    assert {ord(c): lower.normalize_str(c) for c in CHARS if lower.normalize_str(c) != c} == table

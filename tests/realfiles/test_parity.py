"""Tokenizer files of today's models, opened by subword_lab and by their own library
(tiktoken, tokenizers, sentencepiece, or the class the package ships) on every hard
input: the ids, the tokens and the decoded text must be equal.

Cases not exact yet carry strict xfail marks naming the issue item that fixes them
(cases.py): when a fix lands the test passes, the run goes red, and the mark goes.
"""
from __future__ import annotations

import pytest

import subword_lab
from cases import CASES
from parity import ASPECTS, library_encodings


def _params(aspects, cases=CASES):
    for case in cases:
        for aspect in aspects:
            marks = ()
            if aspect in case.xfail:
                marks = pytest.mark.xfail(strict=True, reason=case.xfail[aspect])
            yield pytest.param(case, aspect, marks=marks, id=f"{case.id}-{aspect}")


@pytest.mark.parametrize("case, aspect", _params(ASPECTS))
def test_same_as_its_own_library(case, aspect, result_of):
    result = result_of(case)
    assert result.load_error is None, f"{case.id}: {result.load_error}"
    assert result.counts[aspect] == 0, result.report(aspect)


DETECTED = [c for c in CASES if c.format]


@pytest.mark.parametrize("case, aspect", _params(["detect"], DETECTED))
def test_format_found_from_content(case, aspect, realfile_paths, result_of):
    """load() without format= reads the file as what it is (same ids as with it)."""
    options = {k: v for k, v in result_of(case).options.items()
               if k not in ("format", "special_tokens")}
    explicit = subword_lab.load(realfile_paths[case.asset], format=case.format, **options)
    found = subword_lab.load(realfile_paths[case.asset], **options)
    text = "Hello world 2024 — naïve 東京 😀"
    assert found.encode(text).ids == explicit.encode(text).ids


NAMED = [c for c in CASES if c.encoding]


@pytest.mark.parametrize("case, aspect", _params(["name"], NAMED))
def test_library_knows_the_encoding(case, aspect, result_of):
    """The split pattern and special tokens come from the library's own table by name
    (the parity tests above then use the name, and so check the table's pattern)."""
    result = result_of(case)
    assert case.encoding in library_encodings(), (
        f"{case.encoding!r} is not a known encoding; the parity tests gave its pattern "
        "and special tokens from the reference package")
    assert result.options.get("pattern") == case.encoding

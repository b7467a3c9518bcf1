"""Numbers in a tokenizer.json are read to the floats tokenizers holds.

tokenizers reads the file with serde_json's default float parser, which rounds
twice and so lands, for some 17-digit numbers, one unit in the last place away
from Python's float(). Unigram scores written by tokenizers' own trainer are such
numbers; when two segmentations tie, that unit decides which one wins. The oracle
is tokenizers itself: a file is loaded there and its scores read back with to_str.
"""
from __future__ import annotations

import json
import random

import pytest
import tokenizers

import subword_lab
from subword_lab.core.errors import SubwordLabError
from subword_lab.core.json_checks.serde_numbers import serde_float


def _unigram_doc(pieces_and_scores, unk_id=None):
    vocab = ",".join(f"[{json.dumps(p)}, {s}]" for p, s in pieces_and_scores)
    return ('{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],'
            '"normalizer":null,"pre_tokenizer":null,"post_processor":null,"decoder":null,'
            '"model":{"type":"Unigram","unk_id":%s,"vocab":[%s],"byte_fallback":false}}'
            % (json.dumps(unk_id), vocab))


def _held_by_tokenizers(numbers):
    doc = _unigram_doc((f"p{i}", s) for i, s in enumerate(numbers))
    return [score for _, score in json.loads(tokenizers.Tokenizer.from_str(doc).to_str())["model"]["vocab"]]


def _numbers(rng, count):
    """Decimals of 1 to 30 digits, some with exponents, both signs."""
    for _ in range(count):
        text = f"{rng.randint(0, 10 ** rng.randint(0, 22))}." + "".join(
            rng.choice("0123456789") for _ in range(rng.randint(1, 30)))
        if rng.random() < 0.3:
            text += rng.choice("eE") + rng.choice(["", "-", "+"]) + str(rng.randint(0, 330))
        yield "-" + text if rng.random() < 0.5 else text


EDGES = ["-5.1301781766742796", "1e-400", "123456789012345678901234567890.5",
         "18446744073709551615.9", "18446744073709551616.1", "1844674407370955161.7",
         "0.1e-320", "4.9e-324", "2.4703282292062327e-324", "0e99999999999",
         "1e-99999999999", "0.00000000000000000000000000000000001234567890123456789"]


@pytest.mark.parametrize("seed", [1, 2])
def test_numbers_read_as_tokenizers_holds_them(seed):
    numbers, refused = [], []
    for text in [*EDGES, *_numbers(random.Random(seed), 4000)]:
        try:
            numbers.append((text, serde_float(text)))
        except SubwordLabError:
            refused.append(text)
    held = _held_by_tokenizers([text for text, _ in numbers])
    assert [(t, repr(v)) for t, v in numbers] == [(t, repr(h)) for (t, _), h in zip(numbers, held)]
    # The test can tell the parsers apart: Python's own float() misses many of these.
    assert sum(repr(float(t)) != repr(h) for (t, _), h in zip(numbers, held)) > 100
    for text in refused:  # what we call out of range, tokenizers refuses too
        with pytest.raises(Exception, match="out of range"):
            tokenizers.Tokenizer.from_str(_unigram_doc([("p", text)]))


def test_a_tie_is_broken_as_tokenizers_breaks_it(tmp_path):
    """'\\n' + '\\n\\n' and '\\n\\n' + '\\n' score the same in exact arithmetic; with
    the score of '\\n\\n' as tokenizers reads it, the second wins there."""
    pieces = [("<unk>", "0.0"), ("▁a", "-3.125223188353094"), ("bé", "-4.304795562933159"),
              ("\n", "-2.7007717704184717"), ("\n\n", "-5.1301781766742796"),
              ("▁", "-1.319896441908626"), ("a", "-6.5"), ("b", "-6.5"), ("é", "-6.5")]
    path = tmp_path / "tie.tokenizer.json"
    path.write_text(_unigram_doc([(p, s) for p, s in pieces], unk_id=0), encoding="utf-8")
    ours = subword_lab.load(str(path))
    theirs = tokenizers.Tokenizer.from_file(str(path))
    for text in ["▁abé\n\n\n", "\n\n\n", "▁a\n\n\nbé\n\n\n▁"]:
        assert ours.encode(text).tokens == theirs.encode(text).tokens, repr(text)
    assert theirs.encode("▁abé\n\n\n").tokens[-2:] == ["\n\n", "\n"]  # the case is live
    assert json.loads(ours.to_str())["model"]["vocab"] == json.loads(theirs.to_str())["model"]["vocab"]

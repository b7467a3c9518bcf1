"""gpt2.tiktoken loaded by subword_lab vs tiktoken itself: identical ids.

The oracle is a tiktoken.Encoding built from the fixture file (never
tiktoken.get_encoding, which downloads). Also checks the merge derivation on small
random vocabularies, where tiktoken's leftmost-on-tie rule is easy to hit.
"""
from __future__ import annotations

import base64
import random

import pytest
import tiktoken
from hypothesis import given, settings, strategies as st

import subword_lab
from subword_lab.core.tables import byte_level
from subword_lab.io import loaders

# GPT-2's split pattern as openai's encoder.py wrote it, and tiktoken's r50k form.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
R50K_PATTERN = (r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$"""
                r"""|\s+(?!\S)|\s""")


def _ranks(path):
    lines = path.read_text(encoding="ascii").splitlines()
    return {base64.b64decode(tok): int(rank) for tok, rank in (row.split() for row in lines if row)}


@pytest.fixture(scope="module")
def ranks(gpt2_tiktoken):
    return _ranks(gpt2_tiktoken)


@pytest.fixture(scope="module", params=[GPT2_PATTERN, R50K_PATTERN], ids=["gpt2", "r50k"])
def oracle(request, ranks):
    return tiktoken.Encoding(name="gpt2", pat_str=request.param, mergeable_ranks=ranks,
                             special_tokens={"<|endoftext|>": 50256})


@pytest.fixture(scope="module")
def ours(gpt2_tiktoken):
    return subword_lab.load(gpt2_tiktoken)


def _mismatches(ours, oracle, lines):
    bad = []
    for line in lines:
        got = ours.encode(line).ids
        want = oracle.encode(line, allowed_special="all")
        if got != want:
            bad.append((line, got, want))
    return bad


def test_botchan_every_line(ours, oracle, botchan_lines):
    bad = _mismatches(ours, oracle, botchan_lines)
    assert not bad, f"{len(bad)} of {len(botchan_lines)} lines differ; first: {bad[0]}"


def test_multilingual_every_line(ours, oracle, multilingual_lines):
    bad = _mismatches(ours, oracle, multilingual_lines)
    assert not bad, f"{len(bad)} of {len(multilingual_lines)} lines differ; first: {bad[0]}"


def test_whole_botchan_as_one_text(ours, oracle, botchan_txt):
    # Newlines, runs of blank lines and the file's end exercise the \s patterns.
    text = botchan_txt.read_text(encoding="utf-8")[:60000]
    assert ours.encode(text).ids == oracle.encode(text)


def test_special_token_and_decode(ours, oracle):
    text = "Hello<|endoftext|> world  \n\n naïve 😀"
    enc = ours.encode(text, special_tokens="recognise")
    assert enc.ids == oracle.encode(text, allowed_special="all")
    assert 50256 in enc.ids
    # The lab's default for tiktoken files: special-token text is plain text.
    assert ours.encode(text).ids == oracle.encode_ordinary(text)
    assert ours.decode(enc.ids, skip_special_tokens=False) == oracle.decode(enc.ids)


@pytest.fixture(scope="module")
def plain_oracle(ranks):
    return tiktoken.Encoding(name="gpt2h", pat_str=GPT2_PATTERN, mergeable_ranks=ranks,
                             special_tokens={})


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40))
def test_arbitrary_text(ours, plain_oracle, text):
    if "<|endoftext|>" not in text:
        assert ours.encode(text).ids == plain_oracle.encode(text, disallowed_special=())


def test_pattern_names_known(gpt2_tiktoken):
    # A named pattern selects tiktoken's split and its special tokens.
    tok = subword_lab.load(gpt2_tiktoken, pattern="r50k_base")
    assert tok.token_to_id("<|endoftext|>") == 50256


# --- the merge derivation, on small vocabularies ------------------------------------

def _random_ranks(rng, n_tokens):
    """All 256 bytes, then tokens over b"ab" each made of two earlier tokens."""
    ranks = {bytes([b]): b for b in range(256)}
    made = [b"a", b"b"]
    while len(ranks) < 256 + n_tokens:
        new = rng.choice(made) + rng.choice(made)
        if new not in ranks and len(new) <= 8:
            ranks[new] = len(ranks)
            made.append(new)
    # Shuffle the multi-byte ranks: tiktoken only ever looks at the rank of a
    # concatenation, so a token may even rank below its parts.
    multi = [t for t in ranks if len(t) > 1]
    shuffled = list(range(256, 256 + len(multi)))
    rng.shuffle(shuffled)
    ranks.update(zip(multi, shuffled))
    return ranks


def _write(tmp_path, ranks):
    path = tmp_path / "small.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n"
                            for t, r in sorted(ranks.items(), key=lambda kv: kv[1])))
    return path


@pytest.mark.parametrize("seed", range(12))
def test_random_vocabularies_match_tiktoken(tmp_path, seed):
    rng = random.Random(seed)
    ranks = _random_ranks(rng, 40)
    ours = subword_lab.load(_write(tmp_path, ranks), special_tokens={})
    oracle = tiktoken.Encoding(name=f"t{seed}", pat_str=GPT2_PATTERN, mergeable_ranks=ranks,
                               special_tokens={})
    words = ["".join(rng.choice("ab") for _ in range(rng.randint(1, 14))) for _ in range(400)]
    bad = [(w, ours.encode(w).ids, oracle.encode(w)) for w in words
           if ours.encode(w).ids != oracle.encode(w)]
    assert not bad, bad[:3]


def test_every_split_of_a_token_is_a_merge(tmp_path):
    # "abc" ranks below "ab": tiktoken reaches it from [a, bc]. A merge list with
    # only one split per token (say ab + c) would stop at [a, bc].
    ranks = {bytes([b]): b for b in range(256)}
    for token in (b"bc", b"ab", b"abc"):
        ranks[token] = len(ranks)
    merges = loaders.tiktoken_merges(ranks)
    enc = byte_level.encode_bytes
    # Both splits, each with the rank of the token they make.
    assert (enc(b"a"), enc(b"bc"), ranks[b"abc"]) in merges
    assert (enc(b"ab"), enc(b"c"), ranks[b"abc"]) in merges
    ours = subword_lab.load(_write(tmp_path, ranks), special_tokens={})
    oracle = tiktoken.Encoding(name="splits", pat_str=GPT2_PATTERN, mergeable_ranks=ranks,
                               special_tokens={})
    for word in ("abc", "abcabc", "aabcc", "bcab"):
        assert ours.encode(word).ids == oracle.encode(word), word

"""Every sentencepiece option that shapes encoding, against sentencepiece itself.

Models are trained here with sentencepiece on botchan.txt (plus indented and
numbered lines, so that whitespace-only and digit pieces exist), one per option
combination, Unigram and BPE; each is loaded by subword_lab and compared with
sentencepiece on generated hard texts: ids, pieces and decode must be equal.
"""
from __future__ import annotations

import random

import pytest
import sentencepiece as spm

import subword_lab

# name -> trainer options (on top of the common ones below)
OPTIONS = {
    "unigram_keep_spaces": dict(model_type="unigram", remove_extra_whitespaces=False,
                                allow_whitespace_only_pieces=True, split_by_whitespace=False),
    "bpe_keep_spaces": dict(model_type="bpe", remove_extra_whitespaces=False,
                            allow_whitespace_only_pieces=True, split_digits=True,
                            byte_fallback=True, normalization_rule_name="identity"),
    "unigram_suffix": dict(model_type="unigram", treat_whitespace_as_suffix=True),
    "bpe_suffix": dict(model_type="bpe", treat_whitespace_as_suffix=True,
                       remove_extra_whitespaces=False),
    "unigram_symbols": dict(model_type="unigram", remove_extra_whitespaces=False,
                            byte_fallback=True, user_defined_symbols=["[CLS]", "<sep>", "Botchan"],
                            control_symbols=["[INST]", "<ctl>"]),
    "bpe_symbols": dict(model_type="bpe", user_defined_symbols=["[CLS]", "<sep>", "Botchan"],
                        control_symbols=["[INST]", "<ctl>"]),
    "unigram_no_prefix": dict(model_type="unigram", add_dummy_prefix=False,
                              split_by_unicode_script=False, split_by_number=False),
    "bpe_no_prefix_keep_spaces": dict(model_type="bpe", add_dummy_prefix=False,
                                      remove_extra_whitespaces=False),
    "unigram_casefold": dict(model_type="unigram", normalization_rule_name="nmt_nfkc_cf",
                             split_digits=True),
}

FRAGMENTS = [
    "    indented", " 2690", "  東京", " [CLS] world", "[CLS]", "<sep>", "Botchan", "<s>",
    "</s>", "<unk>", "[INST]", "<ctl>", "<0x41>", "." * 20, "\t", "\t\t", "\u00a0", "\u3000",
    "  ", "   ", "\u2581", "\u2581\u2581", "123456789012", "3.14", "東京タワー", "😀👍🏽",
    "👨‍👩‍👧", "e\u0301", "ﬁ", "①", "ｶﾞｷﾞ", "Hello", "world", "I was", "the boy", "\n",
    "x\u2581y", "\ufeff", "Ünïcödé", "ÄÖÜ", "مرحبا", "привет", "\x00",
]


def _texts(seed=7, count=250):
    rng = random.Random(seed)
    out = list(FRAGMENTS)
    for _ in range(count):
        parts = rng.choices(FRAGMENTS, k=rng.randint(1, 6))
        seps = rng.choices(["", " ", "  ", "\t", "    "], k=len(parts))
        out.append("".join(s + p for s, p in zip(seps, parts)) + rng.choice(["", " ", "  "]))
    return out


TEXTS = _texts()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, botchan_lines):
    lines = []
    for i, line in enumerate(botchan_lines):
        if i % 3 == 0:
            line = "    " + line
        if i % 5 == 0:
            line = f"{line} {i * 7919} \t {i}"
        lines.append(line)
    path = tmp_path_factory.mktemp("spm_corpus") / "corpus.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def trained(corpus, tmp_path_factory):
    """name -> model path, trained on first use."""
    folder = tmp_path_factory.mktemp("spm_opt")
    paths = {}

    def get(name):
        if name not in paths:
            prefix = folder / name
            spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(prefix),
                                           vocab_size=900, minloglevel=2, **OPTIONS[name])
            paths[name] = prefix.with_suffix(".model")
        return paths[name]
    return get


@pytest.fixture(params=sorted(OPTIONS))
def model_path(request, trained):
    return trained(request.param)


def test_options_encode_and_decode_as_sentencepiece(model_path):
    ours = subword_lab.load(model_path)
    oracle = spm.SentencePieceProcessor(model_file=str(model_path))
    bad = []
    for text in TEXTS:
        enc = ours.encode(text)
        ids = oracle.encode(text)
        pieces = oracle.encode(text, out_type=str)
        if enc.ids != ids or enc.tokens != pieces:
            bad.append(("encode", text, enc.tokens, pieces))
        elif ours.decode(ids) != oracle.decode(ids):
            bad.append(("decode", text, ours.decode(ids), oracle.decode(ids)))
    assert bad == [], f"{len(bad)} of {len(TEXTS)} differ; first: {bad[:2]}"


@pytest.mark.parametrize("name", sorted(n for n, o in OPTIONS.items()
                                         if o.get("allow_whitespace_only_pieces")))
def test_whitespace_only_pieces_are_used(name, trained):
    """Models with whitespace-only pieces use "▁▁…" for runs, as sentencepiece does."""
    model_path = trained(name)
    oracle = spm.SentencePieceProcessor(model_file=str(model_path))
    ours = subword_lab.load(model_path)
    pieces = ours.encode("a        b").tokens
    assert any(set(p) == {"\u2581"} and len(p) > 1 for p in pieces), pieces
    assert pieces == oracle.encode("a        b", out_type=str)


def test_unknown_and_control_ids_decode_as_sentencepiece(model_path):
    ours = subword_lab.load(model_path)
    oracle = spm.SentencePieceProcessor(model_file=str(model_path))
    ids = [oracle.unk_id(), oracle.bos_id(), 5, oracle.unk_id(), oracle.eos_id(), 7]
    assert ours.decode(ids) == oracle.decode(ids)


def test_saved_tokenizer_json_loads_in_tokenizers(model_path):
    tokenizers = pytest.importorskip("tokenizers")
    ours = subword_lab.load(model_path)
    theirs = tokenizers.Tokenizer.from_str(ours.to_str())
    assert theirs.get_vocab_size() == ours.get_vocab_size()
    again = subword_lab.Tokenizer.from_str(ours.to_str())
    for text in TEXTS[:60]:
        assert again.encode(text).ids == theirs.encode(text).ids, text

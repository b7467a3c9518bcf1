"""sentencepiece .model files loaded by subword_lab vs sentencepiece itself.

Identical ids and pieces on every line of botchan.txt and the multilingual file,
for the two botchan models from sentencepiece's sdist and for models trained here
with byte_fallback and user-defined / control symbols.
"""
from __future__ import annotations

import pytest
import sentencepiece as spm

import subword_lab


@pytest.fixture(scope="session")
def trained_models(tmp_path_factory, botchan_txt):
    """Byte-fallback Unigram and BPE models with user-defined and control symbols."""
    folder = tmp_path_factory.mktemp("spm")
    paths = {}
    for kind in ("unigram", "bpe"):
        prefix = folder / f"bf_{kind}"
        spm.SentencePieceTrainer.train(
            input=str(botchan_txt), model_prefix=str(prefix), vocab_size=1000,
            model_type=kind, byte_fallback=True, user_defined_symbols=["<sep>", "Botchan"],
            control_symbols=["<ctl>"], minloglevel=2)
        paths[kind] = prefix.with_suffix(".model")
    return paths


def _mismatches(path, lines):
    ours = subword_lab.load(path)
    oracle = spm.SentencePieceProcessor(model_file=str(path))
    bad = []
    for line in lines:
        enc = ours.encode(line)
        ids, pieces = oracle.encode(line), oracle.encode(line, out_type=str)
        if enc.ids != ids or enc.tokens != pieces:
            bad.append((line, enc.tokens, pieces))
    return bad


def _assert_none(bad, lines, allowed=0):
    assert len(bad) <= allowed, (f"{len(bad)} of {len(lines)} lines differ; "
                                 f"first: {bad[0] if bad else None}")


@pytest.mark.parametrize("model", ["botchan_unigram_model", "botchan_bpe_model"])
def test_botchan_models_every_line(request, model, botchan_lines, multilingual_lines):
    path = request.getfixturevalue(model)
    lines = botchan_lines + multilingual_lines
    _assert_none(_mismatches(path, lines), lines)


def test_byte_fallback_bpe_every_line(trained_models, botchan_lines, multilingual_lines):
    lines = botchan_lines + multilingual_lines
    bad = _mismatches(trained_models["bpe"], lines)
    assert bad == [], bad[:2]


def test_byte_fallback_unigram_every_line(trained_models, botchan_lines, multilingual_lines):
    lines = botchan_lines + multilingual_lines
    bad = _mismatches(trained_models["unigram"], lines)
    # Includes the Viterbi ties ("." + "......" against "......" + ".") that
    # sentencepiece breaks in float32.
    assert bad == [], bad[:3]


@pytest.mark.parametrize("text", [
    "", " ", "   leading and   inner   and trailing   ", "\ttabs\tand\nnewlines\r\n",
    "x\u2581y\u2581 ", "\u2581", "naïve ｶﾞｷﾞｸﾞ ﬁ ①", "东京 😀👍🏽 e\u0301", "\ufeffBOM",
    "xBotchany <sep> Botchan", "\x00\x01 control",
])
def test_edge_texts(text, botchan_unigram_model, botchan_bpe_model, trained_models):
    for path in (botchan_unigram_model, botchan_bpe_model, trained_models["unigram"],
                 trained_models["bpe"]):
        ours = subword_lab.load(path)
        oracle = spm.SentencePieceProcessor(model_file=str(path))
        enc = ours.encode(text)
        assert (enc.ids, enc.tokens) == (oracle.encode(text),
                                         oracle.encode(text, out_type=str)), path.name


def test_decode_matches_sentencepiece(botchan_unigram_model, trained_models, botchan_lines,
                                      multilingual_lines):
    # Lines with unknown pieces included: sentencepiece writes " ⁇ " for them.
    for path in (botchan_unigram_model, trained_models["bpe"]):
        ours = subword_lab.load(path)
        oracle = spm.SentencePieceProcessor(model_file=str(path))
        unknown = 0
        for line in botchan_lines + multilingual_lines:
            ids = oracle.encode(line)
            unknown += oracle.unk_id() in ids
            assert ours.decode(ids) == oracle.decode(ids), line
        assert path == trained_models["bpe"] or unknown > 0


def test_bos_eos_option(botchan_unigram_model):
    oracle = spm.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    ours = subword_lab.load(botchan_unigram_model, add_bos=True, add_eos=True)
    text = "I was a boy."
    assert ours.encode(text).ids == oracle.encode(text, add_bos=True, add_eos=True)
    assert ours.encode(text, add_special_tokens=False).ids == oracle.encode(text)

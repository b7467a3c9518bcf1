"""load() for tokenizer.json, vocab.txt, vocab.json + merges.txt, and the protobuf reader."""
from __future__ import annotations

import json

import pytest
import sentencepiece as spm
import tokenizers
from tokenizers.implementations import BertWordPieceTokenizer, ByteLevelBPETokenizer

import subword_lab
from subword_lab.io.sentencepiece_model import read_model


def _ids_mismatch(ours, oracle, lines):
    return [t for t in lines if ours.encode(t).ids != oracle.encode(t).ids]


def test_vocab_txt_matches_bert_wordpiece_tokenizer(bert_vocab, botchan_lines,
                                                    multilingual_lines):
    ours = subword_lab.load(bert_vocab)
    oracle = BertWordPieceTokenizer(str(bert_vocab), lowercase=True)
    lines = botchan_lines + multilingual_lines
    bad = _ids_mismatch(ours, oracle, lines)
    assert not bad, f"{len(bad)} of {len(lines)} differ, first {bad[0]!r}"


def test_vocab_txt_matches_bert_tokenizer_json(bert_vocab, bert_json, botchan_lines):
    ours = subword_lab.load(bert_vocab)
    oracle = tokenizers.Tokenizer.from_file(str(bert_json))
    oracle.no_truncation()
    oracle.no_padding()
    for line in botchan_lines[:1500]:
        a, b = ours.encode(line), oracle.encode(line)
        assert (a.ids, a.tokens, a.offsets) == (b.ids, b.tokens, b.offsets), line
    assert ours.decode(ours.encode("Hello, world!").ids) == "hello, world!"


def test_vocab_txt_cased_option(bert_vocab):
    ours = subword_lab.load(bert_vocab, lowercase=False)
    oracle = BertWordPieceTokenizer(str(bert_vocab), lowercase=False)
    text = "Hello World, Naïve CAFÉ"
    assert ours.encode(text).ids == oracle.encode(text).ids


def test_tokenizer_json_by_name_and_folder(bert_json, tmp_path, botchan_lines):
    (tmp_path / "tokenizer.json").write_bytes(bert_json.read_bytes())
    oracle = tokenizers.Tokenizer.from_file(str(bert_json))
    oracle.no_truncation()
    oracle.no_padding()
    for path in (bert_json, tmp_path, tmp_path / "tokenizer.json"):
        ours = subword_lab.load(path)
        ours.no_truncation()
        ours.no_padding()
        assert ours.encode(botchan_lines[30]).ids == oracle.encode(botchan_lines[30]).ids


@pytest.fixture(scope="module")
def byte_level_files(tmp_path_factory, botchan_lines):
    """A GPT-2 style byte-level BPE trained with tokenizers and saved as
    vocab.json + merges.txt."""
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = tokenizers.decoders.ByteLevel()
    tok.post_processor = tokenizers.processors.ByteLevel(trim_offsets=True)
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=2000, special_tokens=["<|endoftext|>"], show_progress=False,
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(botchan_lines, trainer)
    folder = tmp_path_factory.mktemp("bpe")
    tok.model.save(str(folder))
    return folder, tok


@pytest.mark.parametrize("which", ["folder", "vocab.json", "merges.txt"])
def test_vocab_json_merges_txt(byte_level_files, which, botchan_lines, multilingual_lines):
    folder, oracle = byte_level_files
    path = folder if which == "folder" else folder / which
    ours = subword_lab.load(path)
    lines = botchan_lines[:2000] + multilingual_lines
    bad = _ids_mismatch(ours, oracle, lines)
    assert not bad, f"{len(bad)} differ, first {bad[0]!r}"
    text = "naïve café 😀 <|endoftext|> end"
    assert ours.encode(text).ids == oracle.encode(text).ids
    assert ours.decode(ours.encode(multilingual_lines[0]).ids) == multilingual_lines[0]


def test_vocab_json_merges_txt_offsets(byte_level_files, botchan_lines):
    # Lines that start with spaces exercise ByteLevel's offset trimming; the oracle
    # is HF's own ByteLevelBPETokenizer over the same two files.
    folder, _ = byte_level_files
    oracle = ByteLevelBPETokenizer(str(folder / "vocab.json"), str(folder / "merges.txt"))
    ours = subword_lab.load(folder)
    lines = [t for t in botchan_lines if t.startswith(" ")][:200] + botchan_lines[:300]
    bad = [t for t in lines if ours.encode(t).offsets != oracle.encode(t).offsets]
    assert not bad, f"{len(bad)} of {len(lines)} differ, first {bad[0]!r}"


def test_loaded_tokenizers_save_and_reload_in_tokenizers(gpt2_tiktoken, bert_vocab,
                                                         botchan_unigram_model, tmp_path,
                                                         botchan_lines):
    # What load() builds is an ordinary tokenizer.json that HF reads back the same.
    for source in (bert_vocab, botchan_unigram_model, gpt2_tiktoken):
        ours = subword_lab.load(source)
        out = tmp_path / (source.stem + ".json")
        ours.save(str(out))
        theirs = tokenizers.Tokenizer.from_file(str(out))
        for line in botchan_lines[100:400]:
            assert ours.encode(line).ids == theirs.encode(line).ids, (source.name, line)


@pytest.mark.parametrize("model", ["botchan_unigram_model", "botchan_bpe_model"])
def test_protobuf_reader_matches_sentencepiece(request, model):
    path = request.getfixturevalue(model)
    proto = read_model(path)
    sp = spm.SentencePieceProcessor(model_file=str(path))
    assert len(proto.pieces) == sp.get_piece_size()
    for i, p in enumerate(proto.pieces):
        assert p.piece == sp.id_to_piece(i)
        assert p.score == pytest.approx(sp.get_score(i), abs=0, rel=1e-7)
        assert (p.type_name == "CONTROL") == sp.is_control(i)
        assert (p.type_name == "UNKNOWN") == sp.is_unknown(i)
        assert (p.type_name == "BYTE") == sp.is_byte(i)
        assert (p.type_name == "UNUSED") == sp.is_unused(i)
    spec = proto.trainer_spec
    assert (spec.unk_id, spec.bos_id, spec.eos_id, spec.pad_id) == (
        sp.unk_id(), sp.bos_id(), sp.eos_id(), sp.pad_id())
    assert spec.model_type_name == ("UNIGRAM" if "unigram" in model else "BPE")
    assert spec.vocab_size == sp.get_piece_size()
    assert proto.normalizer_spec.precompiled_charsmap
    assert proto.normalizer_spec.add_dummy_prefix and proto.normalizer_spec.remove_extra_whitespaces


def test_tokenizer_json_dict_shape_of_sentencepiece_load(botchan_unigram_model):
    d = json.loads(subword_lab.load(botchan_unigram_model).to_str())
    assert d["model"]["type"] == "Unigram"
    assert d["pre_tokenizer"]["type"] == "Metaspace"
    assert [t["content"] for t in d["added_tokens"]] == ["<unk>", "<s>", "</s>"]


def test_loading_holds_the_collector_off_and_gives_it_back(bert_json, tmp_path):
    """core/gc_pause.py: load() and Tokenizer.from_str run with automatic collection off
    and leave it as they found it, after a refusal too."""
    import gc
    from subword_lab.core import gc_pause

    seen = []
    original = gc_pause.gc.disable
    bad = tmp_path / "bad.json"
    bad.write_text('{"model": {"type": "BPE", "vocab": {"a": -1}, "merges": []}}')
    try:
        gc_pause.gc.disable = lambda: (seen.append(gc.isenabled()), original())
        for was_on in (True, False):
            gc.enable() if was_on else gc.disable()
            subword_lab.load(bert_json)
            with pytest.raises(subword_lab.SubwordLabError):
                subword_lab.load(bad)
            with pytest.raises(subword_lab.SubwordLabError):
                subword_lab.Tokenizer.from_str(bad.read_text())
            assert gc.isenabled() is was_on
    finally:
        gc_pause.gc.disable = original
        gc.enable()
    assert len(seen) >= 6  # each load paused it

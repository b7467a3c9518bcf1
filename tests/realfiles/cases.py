"""The real files checked for parity, each with how we open it and how its own library does.

A case names an asset of tools/assets.py, the load() options it needs, its
reference (references.py) and, where we are not exact yet, the issue item that
will fix it (strict xfail: the suite goes red when a fix lands, so the mark is
removed then).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import references as refs

ISSUE = "issue 11"


@dataclass
class Case:
    id: str
    asset: str
    reference: Callable          # (paths, root) -> references.Reference
    format: str | None = None    # load(format=...) while detection cannot tell
    encoding: str | None = None  # the tiktoken encoding name our library should know
    options: dict = field(default_factory=dict)
    needs: tuple = ()            # other assets (the reference's source)
    # aspect ("ids", "tokens", "decode"; "detect": load() without format= tells the
    # format; "name": the library knows the encoding by name) -> why not yet
    xfail: dict = field(default_factory=dict)


def _openai(name):
    return lambda paths, root, asset: refs.openai(name, paths[asset])


def _json(paths, root, asset):
    return refs.from_tokenizers(paths[asset])


def _spm(paths, root, asset):
    return refs.from_sentencepiece(paths[asset])


_LLAMA_SRC = ("llama_models/tokenizer_utils.py",)


def _all(reason):
    return {"ids": reason, "tokens": reason, "decode": reason}


def _text(reason):
    return {"ids": reason, "tokens": reason}

CASES = [
    # -- OpenAI -------------------------------------------------------------------------
    Case("gpt2", "gpt2.tiktoken", _openai("gpt2"), encoding="gpt2"),
    Case("r50k_base", "gpt2.tiktoken", _openai("r50k_base"), encoding="r50k_base"),
    Case("p50k_base", "p50k_base.tiktoken", _openai("p50k_base"), encoding="p50k_base"),
    Case("cl100k_base", "cl100k_base.tiktoken", _openai("cl100k_base"),
         encoding="cl100k_base"),
    Case("o200k_base", "o200k_base.tiktoken", _openai("o200k_base"), encoding="o200k_base"),
    Case("whisper-multilingual", "whisper-multilingual.tiktoken",
         lambda paths, root, asset: refs.whisper(paths[asset], paths, root),
         encoding="multilingual", needs=("whisper/tokenizer.py",)),
    # -- Meta ---------------------------------------------------------------------------
    Case("llama2", "llama2.tokenizer.json", _json),
    Case("llama3", "llama3.tokenizer.model",
         lambda paths, root, asset: refs.llama(3, paths[asset], paths, root),
         format="tiktoken", encoding="llama3",
         needs=_LLAMA_SRC + ("llama_models/llama3/tokenizer.py",)),
    Case("llama4", "llama4.tokenizer.model",
         lambda paths, root, asset: refs.llama(4, paths[asset], paths, root),
         format="tiktoken", encoding="llama4",
         needs=_LLAMA_SRC + ("llama_models/llama4/tokenizer.py",)),
    # -- Mistral ------------------------------------------------------------------------
    Case("mistral-v1", "mistral.tokenizer.model.v1", _spm, format="sentencepiece"),
    Case("mistral-v2", "mistral.tokenizer.model.v2", _spm, format="sentencepiece"),
    Case("mistral-v3", "mistral.tokenizer.model.v3", _spm, format="sentencepiece"),
    Case("mistral-v7", "mistral.tokenizer.model.v7", _spm, format="sentencepiece"),
    Case("mistral-tekken", "mistral-tekken-240718.json",
         lambda paths, root, asset: refs.tekken(paths[asset]), format="tekken"),
    # -- Google, Alibaba, DeepSeek, Anthropic ----------------------------------------------
    Case("gemma", "gemma.tokenizer.json", _json),
    Case("qwen", "qwen.tiktoken",
         lambda paths, root, asset: refs.qwen(paths[asset], paths, root, "dashscope"),
         encoding="qwen", needs=("dashscope/tokenizers/qwen_tokenizer.py",
                                 "dashscope/tokenizers/tokenizer_base.py")),
    Case("qwen3.6", "qwen3_6.tiktoken",
         lambda paths, root, asset: refs.qwen(paths[asset], paths, root, "qwen_tokenizer"),
         encoding="qwen3.5", needs=("qwen_tokenizer/qwen_tokenizer.py",
                                    "qwen_tokenizer/tokenizer_base.py")),
    Case("deepseek-v3", "deepseek-v3.tokenizer.json", _json),
    Case("qwen3", "chat-qwen3/tokenizer.json", _json),  # the qwen3 preset (with its chat template)
    Case("claude-legacy", "claude-legacy.tokenizer.json", _json),
    # The same file against Anthropic's own package (tiktoken over its claude.json).
    Case("claude-legacy-anthropic", "claude-legacy.tokenizer.json",
         lambda paths, root, asset: refs.anthropic(paths["claude-legacy.claude.json"]),
         needs=("claude-legacy.claude.json",)),
    # -- classic files --------------------------------------------------------------------
    Case("bert-base-uncased", "bert-base-uncased.tokenizer.json", _json),
    Case("bert-base-uncased-vocab.txt", "bert-base-uncased.vocab.txt",
         lambda paths, root, asset: refs.from_bert_vocab(paths[asset])),
    Case("botchan-unigram", "botchan_en_unigram_1000.model", _spm),
    Case("botchan-bpe", "botchan_en_bpe_1000.model", _spm),
    Case("kyoto-ja-unigram", "kyoto_ja_unigram_8000.model", _spm),
    # XLM-RoBERTa's 250,002-piece sentencepiece Unigram (100 languages), as tokenizer.json
    Case("xlm-roberta", "xlm-roberta.tokenizer.json", _json),
]

BY_ID = {case.id: case for case in CASES}


def assets_needed(cases=CASES) -> list[str]:
    names = []
    for case in cases:
        for name in (case.asset, *case.needs):
            if name not in names:
                names.append(name)
    return names

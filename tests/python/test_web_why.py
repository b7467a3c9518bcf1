""""Why this token?" (web/why.py): for every kind of preset and texts in the page's three
languages, the steps traced for any token end in the very tokens the page's encode
gave at that place, the clicked one among them, and the model reports steps (a
sentencepiece BPE model used to report none, so the page said "no words").
"""
import json

import pytest

from opened_files import opened
from subword_lab.web import api
from subword_lab.web.registry import REGISTRY

FILES = ["gpt2.tiktoken", "o200k_base.tiktoken", "llama3.tokenizer.model",
         "mistral-tekken-240718.json", "bert-base-uncased.tokenizer.json",
         "llama2.tokenizer.json", "xlm-roberta.tokenizer.json",
         "botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model",
         "mistral.tokenizer.model.v1", "mistral.tokenizer.model.v3",
         "mistral.tokenizer.model.v7", "kyoto_ja_unigram_8000.model",
         # GGUF, one of each kind: BPE by score, WordPiece, Unigram, BPE by rank
         "ggml-vocab-llama-spm.gguf", "ggml-vocab-bert-bge.gguf",
         "ggml-vocab-nomic-bert-moe.gguf", "ggml-vocab-gpt-2.gguf"]
TEXTS = {
    "en": "Hello weather! Tokenizers split unbelievably long words, don't they?\n  Twice.",
    "vi": "Thời tiết hôm nay thật đẹp, chúng ta đi dạo nhé!",
    "zh": "今天天气很好，我们去公园散步吧。分词器把文字切成词元。",
    # words longer than why.WORD_LIMIT: a stretch of their tokens alone may encode otherwise
    "long": "Pneumonoultramicroscopicsilicovolcanoconiosis_and_antidisestablishmentarianism"
            "_together www.example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
}
DONE = {"bpe.done", "wordpiece.done", "unigram.done", "wordlevel.done"}


def why(key, text, index):
    events = []
    result = json.loads(api.why_trace(json.dumps({"key": key, "text": text, "index": index}),
                                      lambda e: events.append(json.loads(e))))
    return result, events


@pytest.mark.parametrize("name", FILES)
def test_why_ends_in_the_tokens_the_page_shows(name):
    key = f"why-{name}"
    REGISTRY.add(key, name, opened(name))
    for text in TEXTS.values():
        page = json.loads(api.encode(key, text))
        for index, token in enumerate(page["tokens"]):
            if page["special"][index]:
                continue
            result, events = why(key, text, index)
            done = [e for e in events if e["type"] in DONE]
            assert len(done) == 1, (name, text, index)
            shown = [row[0] for row in done[0]["tokens"]]
            assert shown == result["tokens"]
            # the stretch is a run of the page's tokens, with the clicked one in its place
            first = index - result["token"]
            assert page["tokens"][first:first + len(shown)] == shown, (name, index, shown)
            assert page["ids"][first:first + len(shown)] == result["ids"]
            assert page["offsets"][first][0] == result["start"]
            assert page["offsets"][first + len(shown) - 1][1] == result["end"]
            steps = [e for e in events if e["type"].split(".")[0] in ("bpe", "unigram", "wordpiece")]
            assert len(steps) > 2  # a word event, at least one step, done


def test_llama2_weather_is_one_token_with_one_prefix():
    REGISTRY.add("why-llama2", "llama2", opened("llama2.tokenizer.json"))
    text = "Hello weather"
    page = json.loads(api.encode("why-llama2", text))
    index = page["tokens"].index("▁weather")
    result, events = why("why-llama2", text, index)
    assert result["tokens"] == ["▁weather"]
    assert result["word"] == "▁weather"


@pytest.mark.parametrize("name", ["gpt2.tiktoken", "o200k_base.tiktoken", "llama3.tokenizer.model",
                                  "mistral-tekken-240718.json"])
def test_whole_word_tokens_show_the_merges_that_built_them(name):
    """tiktoken takes a piece that is a token as it is (ignore_merges); "why" still shows
    the merges by rank from its bytes, replayed here to the symbols they report."""
    key = f"why-{name}"
    REGISTRY.add(key, name, opened(name))
    wholes = 0
    for text in TEXTS.values():
        page = json.loads(api.encode(key, text))
        for index in range(len(page["tokens"])):
            result, events = why(key, text, index)
            whole = [e for e in events if e["type"] == "bpe.ignore_merges"]
            if not whole:
                continue
            wholes += 1
            symbols = next(e for e in events if e["type"] == "bpe.symbols")["symbols"]
            merges = [e for e in events if e["type"] == "bpe.merge"]
            assert merges or len(symbols) == 1, (name, result["tokens"])
            for merge in merges:
                p = merge["position"]
                assert symbols[p:p + 2] == merge["pair"]
                symbols[p:p + 2] = ["".join(merge["pair"])]
                assert symbols == merge["symbols"]
            assert whole[0]["merged"] == (symbols == [whole[0]["token"]])
            assert events.index(whole[0]) > events.index(merges[-1]) if merges else True
    assert wholes > 10

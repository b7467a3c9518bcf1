"""The page's live encode (web/live.py): after any edit, the spliced encoding is the
text's own encoding, token for token (ids, tokens, spans, special mask), and the
changes it sends rebuild on the page's side exactly what api.encode would answer.
"""
import json
import random

import pytest

from opened_files import opened
from subword_lab.web import api, live
from subword_lab.web.live import LiveText
from subword_lab.web.registry import REGISTRY

FILES = ["gpt2.tiktoken", "bert-base-uncased.tokenizer.json", "botchan_en_unigram_1000.model",
         "botchan_en_bpe_1000.model", "o200k_base.tiktoken", "mistral.tokenizer.model.v3",
         "llama2.tokenizer.json", "kyoto_ja_unigram_8000.model"]
INSERTS = ["a", " ", "x ", "\n", "Zürich, ", "  ", "<|endoftext|>", "[CLS]", "🙂", "的 ", "don't", "1234"]


def edits(text, rng, n):
    """n edits of the kinds typing makes: a key, a deletion, a paste, at start, middle, end."""
    for i in range(n):
        where = [0, len(text) // 2, len(text), rng.randrange(len(text) + 1)][i % 4]
        kind = rng.random()
        if kind < 0.5:
            text = text[:where] + rng.choice(INSERTS) + text[where:]
        elif kind < 0.8:
            text = text[:max(0, where - rng.randint(1, 3))] + text[where:]
        else:
            a = rng.randrange(len(text) + 1)
            text = text[:a] + text[rng.randrange(len(text)):][:300] + text[a:]
        yield text


def fresh(tok, text):
    encoding = tok.encode(text)
    mask = list(encoding.special_tokens_mask or [0] * len(encoding.ids))
    return list(encoding.ids), list(encoding.tokens), [tuple(o) for o in encoding.offsets], mask


@pytest.mark.parametrize("name", FILES)
def test_every_edit_gives_the_texts_own_encoding(book, name):
    tok = opened(name)
    rng = random.Random(name)
    state = LiveText(tok)
    start = rng.randrange(0, 200000)
    size = 8000
    text = book[start:start + size]
    state.update(text)
    local = 0
    for text in edits(text, rng, 24):
        state.update(text)
        local += state.reencoded < len(text) // 4
        assert (state.ids, state.tokens, state.offsets(), state.mask) == fresh(tok, text)
    assert local >= 18  # most edits re-encoded only a small part of the text


def test_post_processor_tokens_stay_at_the_ends(book):
    tok = opened("bert-base-uncased.tokenizer.json")
    state = LiveText(tok)
    assert (state.pre, state.post) == (1, 1)  # [CLS] ... [SEP]
    state.update(book[:3000])
    text = "Start " + book[:3000] + " end"
    state.update(text)
    assert state.spliced
    assert state.tokens[0] == "[CLS]" and state.tokens[-1] == "[SEP]"
    assert (state.ids, state.tokens, state.offsets(), state.mask) == fresh(tok, text)


def apply(page, answer):
    """What web/views/tokenize.js does with an answer of encode_live."""
    if answer["full"]:
        return {k: answer[k] for k in ("ids", "tokens", "offsets", "special")}
    out = {}
    for k in ("ids", "tokens", "offsets", "special"):
        old = page[k]
        tail = old[len(old) - answer["tail"]:] if answer["tail"] else []
        if k == "offsets":
            tail = [[s + answer["shift"], e + answer["shift"]] if i < answer["moved"] else [s, e]
                    for i, (s, e) in enumerate(tail)]
        out[k] = old[:answer["head"]] + answer[k] + tail
    return out


@pytest.mark.parametrize("name", ["gpt2.tiktoken", "bert-base-uncased.tokenizer.json",
                                  "botchan_en_unigram_1000.model"])
def test_the_pages_copy_follows_api_encode(book, name):
    key = f"live-{name}"
    REGISTRY.add(key, name, opened(name))
    rng = random.Random(7)
    text = "🙂 Emoji first: offsets are UTF-16. " + book[5000:9000]
    page, base = None, None
    for i, text in enumerate(edits(text, rng, 24)):
        if i == 12:
            base = None  # a dropped reply or a restarted worker: the page asks for it all
        args = {"key": key, "text": text, "limit": 20000, "base": base}
        answer = json.loads(live.encode_live(json.dumps(args)))
        assert answer["full"] == (page is None or base is None)
        page = apply(page, answer)
        base = answer["version"]
        want = json.loads(api.encode(key, text, 20000))
        assert page == {k: want[k] for k in ("ids", "tokens", "offsets", "special")}
        assert answer["length"] == len(want["ids"])
        assert answer["encoded_chars"] == want["encoded_chars"]
    # A changed option is another encoding: the page gets it all.
    args = {"key": key, "text": text, "limit": 20000, "base": base, "special": "as_text"}
    assert json.loads(live.encode_live(json.dumps(args)))["full"]


def test_a_long_text_is_cut_like_api_encode(book):
    key = "live-window"
    REGISTRY.add(key, "gpt2", opened("gpt2.tiktoken"))
    answer = json.loads(live.encode_live(json.dumps({"key": key, "text": book[:50000], "limit": 20000})))
    want = json.loads(api.encode(key, book[:50000], 20000))
    assert answer["ids"] == want["ids"] and answer["encoded_chars"] == want["encoded_chars"] < 20001
    assert answer["total_chars"] == 50000

"""BPE against HF `tokenizers` on models trained by its BpeTrainer on botchan.txt."""
from __future__ import annotations

import json

import pytest
import tokenizers
from tokenizers import models as hf_models
from tokenizers import pre_tokenizers as hf_pre
from tokenizers import trainers as hf_trainers

from subword_lab import models
from subword_lab.core.errors import SubwordLabError
from test_models_common import EXOTIC, hf_from_model_dict, mismatches, model_dict_of, words_of

BYTES = [f"<0x{b:02X}>" for b in range(256)]


@pytest.fixture(scope="module")
def botchan_words(botchan_txt):
    return words_of(botchan_txt.read_text(encoding="utf-8"))


def train(lines, prefix=None, suffix=None, limit_alphabet=None, specials=("<unk>",), vocab_size=2000):
    # tokenizers refuses None for these options, so pass only the ones set.
    affixes = {k: v for k, v in [("continuing_subword_prefix", prefix),
                                 ("end_of_word_suffix", suffix)] if v is not None}
    hf = tokenizers.Tokenizer(hf_models.BPE(unk_token="<unk>", **affixes))
    hf.pre_tokenizer = hf_pre.Whitespace()
    trainer = hf_trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(specials),
                                     limit_alphabet=limit_alphabet, **affixes)
    hf.train_from_iterator(lines, trainer)
    return model_dict_of(hf)


@pytest.fixture(scope="module")
def trained(botchan_lines):
    """Model dicts trained once per variant."""
    return {
        "plain": train(botchan_lines, limit_alphabet=40),
        "prefix": train(botchan_lines, prefix="##", limit_alphabet=50),
        "suffix": train(botchan_lines, suffix="</w>", limit_alphabet=50),
        "bytes": train(botchan_lines, limit_alphabet=30, specials=["<unk>"] + BYTES,
                       vocab_size=2500),
    }


VARIANTS = [
    ("plain", {}),
    ("plain", {"fuse_unk": True}),
    ("plain", {"unk_token": None}),
    ("plain", {"ignore_merges": True}),
    ("prefix", {}),
    ("prefix", {"fuse_unk": True, "ignore_merges": True}),
    ("suffix", {}),
    ("suffix", {"fuse_unk": True}),
    ("bytes", {"byte_fallback": True}),
    ("bytes", {"byte_fallback": True, "fuse_unk": True}),
    ("bytes", {"byte_fallback": False, "fuse_unk": True}),
    ("plain", {"dropout": 1.0}),
]


@pytest.mark.parametrize("variant, options", VARIANTS)
def test_every_botchan_word_matches_tokenizers(trained, botchan_words, variant, options):
    d = dict(trained[variant], **options)
    ours = models.from_dict(d)
    hf = hf_from_model_dict(ours.to_dict())
    assert model_dict_of(hf) == ours.to_dict()
    words = botchan_words + EXOTIC + [w.upper() for w in EXOTIC]
    assert len(botchan_words) > 40_000
    assert mismatches(ours, hf, words) == []


def test_trained_model_file_loads_as_it_is(trained):
    d = trained["prefix"]
    ours = models.from_dict(d)
    assert ours.to_dict() == d
    assert isinstance(d["merges"][0], list)


def test_legacy_string_merges_load(trained, botchan_words):
    d = dict(trained["suffix"])
    d["merges"] = [" ".join(m) for m in d["merges"]]
    ours = models.from_dict(d)
    assert ours.to_dict()["merges"] == trained["suffix"]["merges"]
    assert mismatches(ours, hf_from_model_dict(d), botchan_words[:3000]) == []


def test_vocab_and_merges_files(tmp_path, trained, botchan_words):
    d = trained["plain"]
    hf = hf_models.BPE(vocab=d["vocab"], merges=[tuple(m) for m in d["merges"]], unk_token="<unk>")
    hf.save(str(tmp_path))
    ours = models.BPE.from_file(tmp_path / "vocab.json", tmp_path / "merges.txt", unk_token="<unk>")
    assert ours.to_dict() == d


def test_merge_order_is_rank_then_leftmost():
    # "aaa": the leftmost "a a" merges first; rank beats position elsewhere.
    vocab = {t: i for i, t in enumerate(["a", "b", "c", "aa", "bc", "ab", "aab", "abc"])}
    merges = [("b", "c"), ("a", "a"), ("a", "b"), ("aa", "b"), ("a", "bc")]
    ours = models.BPE(vocab, merges)
    hf = hf_from_model_dict(ours.to_dict())
    words = ["aaa", "aaaa", "abc", "aabc", "aaabc", "abab", "ababc", "cab", "aaaaab"]
    assert mismatches(ours, hf, words) == []
    assert [t.value for t in ours.tokenize("aaa")] == ["aa", "a"]
    # "b c" has the lowest rank, so it wins although "a a" is further left.
    assert [t.value for t in ours.tokenize("aabc")] == ["aa", "bc"]


def test_dropout_is_reproducible_with_a_seed(trained, botchan_words):
    words = botchan_words[:2000]
    d = trained["plain"]

    def run(seed):
        m = models.BPE(d["vocab"], d["merges"], unk_token="<unk>", dropout=0.3, seed=seed)
        return [[t.value for t in m.tokenize(w)] for w in words]

    a, b, c = run(1), run(1), run(2)
    assert a == b and a != c
    plain = models.from_dict(d)
    deterministic = [[t.value for t in plain.tokenize(w)] for w in words]
    # Dropout only skips merges: the same text, cut into more pieces.
    assert sum(map(len, a)) > sum(map(len, deterministic))
    assert ["".join(p) for p in a] == ["".join(p) for p in deterministic]


def test_dropout_with_seed_argument():
    vocab = {t: i for i, t in enumerate(["h", "u", "g", "hu", "ug", "hug"])}
    merges = [("u", "g"), ("h", "ug")]
    runs = [[t.value for t in models.BPE(vocab, merges, dropout=0.5, seed=7).tokenize("hughug")]
            for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    assert [t.value for t in models.BPE(vocab, merges, dropout=1.0).tokenize("hug")] == ["h", "u", "g"]
    assert [t.value for t in models.BPE(vocab, merges, dropout=0.0).tokenize("hug")] == ["hug"]


def test_merge_events(trained, botchan_words):
    ours = models.from_dict(trained["suffix"])
    for word in sorted(set(botchan_words))[:3000] + EXOTIC:
        events = []
        tokens = ours.tokenize(word, on_event=events.append)
        assert tokens == ours.tokenize(word), word
        json.dumps(events)
        kinds = [e["type"] for e in events]
        assert kinds[0] == "bpe.word" and kinds[-1] == "bpe.done"
        symbols = next(e for e in events if e["type"] == "bpe.symbols")["symbols"]
        ranks = []
        for e in events:
            if e["type"] != "bpe.merge":
                continue
            left, right = e["pair"]
            p = e["position"]
            # The event's symbols are the previous ones with the pair replaced in place.
            assert symbols[p:p + 2] == [left, right]
            assert e["new"] == left + right
            symbols = symbols[:p] + [e["new"]] + symbols[p + 2:]
            assert e["symbols"] == symbols
            ranks.append(e["rank"])
        assert symbols == [t.value for t in tokens]
        # In a trained model a merge's parts always have lower ranks than it.
        assert ranks == sorted(ranks)


def test_unk_and_byte_fallback_events():
    vocab = {"<unk>": 0, "a": 1, "b": 2, "ab": 3, "<0xC3>": 4, "<0xA9>": 5}
    ours = models.BPE(vocab, [("a", "b")], unk_token="<unk>", byte_fallback=True, fuse_unk=True)
    events = []
    tokens = ours.tokenize("aé€€b", on_event=events.append)
    assert [t.value for t in tokens] == ["a", "<0xC3>", "<0xA9>", "<unk>", "b"]
    assert [t.offsets for t in tokens] == [(0, 1), (1, 2), (1, 2), (2, 4), (4, 5)]
    fallback = [e for e in events if e["type"] == "bpe.byte_fallback"]
    assert fallback == [{"type": "bpe.byte_fallback", "symbol": "é", "start": 1, "end": 2,
                         "tokens": ["<0xC3>", "<0xA9>"]}]
    assert [e["fused"] for e in events if e["type"] == "bpe.unk"] == [False, True]
    assert mismatches(ours, hf_from_model_dict(ours.to_dict()), ["aé€€b", "€ab€", "abé", "€é", "€€éa", "é€é"]) == []


@pytest.mark.parametrize("given", [{"vocab": "vocab.json"}, {"merges": "merges.txt"},
                                   {"vocab": "vocab.json", "merges": [("a", "b")]}])
def test_one_file_path_alone_is_refused_as_tokenizers_refuses_it(given):
    with pytest.raises(ValueError):
        hf_models.BPE(**given)  # the reference refuses it
    with pytest.raises(SubwordLabError, match="vocab and merges must both be given"):
        models.BPE(**given)

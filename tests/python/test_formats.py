"""Formats by content, the files of today's models, split rules and the special-tokens choice.

Oracles: tiktoken (its file reader, its core, its registry of OpenAI encodings),
Whisper's own get_encoding (whisper/tokenizer.py from the pinned openai-whisper
sdist), tokenizers (ByteLevelBPETokenizer, encode_special_tokens) and sentencepiece.
"""
from __future__ import annotations

import base64
import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import assets
import pytest
import sentencepiece as spm
import tiktoken
import tokenizers
from hypothesis import given, settings, strategies as st
from tiktoken import load as tiktoken_load
from tiktoken_ext import openai_public

import subword_lab
from subword_lab.core.tables import byte_level
from subword_lab.core.errors import SubwordLabError
from subword_lab.io import known_encodings
from subword_lab.io.tiktoken_file import read_tiktoken
from subword_lab.web import api as webapi

ROOT = Path(__file__).resolve().parents[2]
TEXTS = ["Hello world", "  indented\tline  ", "$7357168133.99 and 2690 apples",
         "naïve café 東京 😀👍🏽", "don't I'LL we've", "<|endoftext|> after", "a\r\nb\n\n c",
         "ℌ𝔢𝔩𝔩𝔬 ١٢٣ ๑๒๓", "x" * 50]


def _ranks(path):
    return read_tiktoken(Path(path))


def _sample(lines, n=150):
    return lines[:n] + TEXTS


@pytest.fixture(scope="module")
def gpt2_ranks(gpt2_tiktoken):
    return _ranks(gpt2_tiktoken)


@pytest.fixture(scope="module")
def gpt2_oracle(gpt2_ranks):
    return tiktoken.Encoding(name="gpt2", pat_str=byte_level.TIKTOKEN_PATTERNS["gpt2"],
                             mergeable_ranks=gpt2_ranks, special_tokens={"<|endoftext|>": 50256})


@pytest.fixture(scope="module")
def gpt2_ours(gpt2_tiktoken):
    return subword_lab.load(gpt2_tiktoken)


# --- detection by content --------------------------------------------------------------

@pytest.mark.parametrize("name", ["tokenizer.model", "ranks.bin", "gpt2.model.v3", "noext"])
def test_tiktoken_ranks_under_any_name(tmp_path, gpt2_tiktoken, gpt2_oracle, botchan_lines,
                                       name):
    path = tmp_path / name
    shutil.copyfile(gpt2_tiktoken, path)
    tok = subword_lab.load(path)
    # a renamed file is still recognised by its ranks
    assert tok.rules["format"] == "tiktoken" and tok.rules["encoding"] == "gpt2"
    for line in _sample(botchan_lines, 40):
        assert tok.encode(line).ids == gpt2_oracle.encode_ordinary(line), line


def test_tiktoken_ranks_in_a_folder_as_tokenizer_model(tmp_path, gpt2_tiktoken, gpt2_oracle):
    shutil.copyfile(gpt2_tiktoken, tmp_path / "tokenizer.model")
    tok = subword_lab.load(tmp_path)
    assert tok.encode(TEXTS[2]).ids == gpt2_oracle.encode_ordinary(TEXTS[2])


@pytest.mark.parametrize("name", ["tokenizer.model.v1", "tokenizer.model.v3",
                                  "mistral_instruct.model.v7", "proto.bin"])
def test_sentencepiece_proto_under_any_name(tmp_path, botchan_bpe_model, botchan_lines, name):
    path = tmp_path / name
    shutil.copyfile(botchan_bpe_model, path)
    oracle = spm.SentencePieceProcessor(model_file=str(botchan_bpe_model))
    # in a folder, files named neither *.model* nor *token* are not candidates
    folder_too = ".model" in name
    for tok in [subword_lab.load(path)] + ([subword_lab.load(tmp_path)] if folder_too else []):
        assert tok.rules["format"] == "sentencepiece"
        for line in botchan_lines[:60]:
            assert tok.encode(line).ids == oracle.encode(line), line


def test_folder_with_two_candidates_asks_for_one(tmp_path, gpt2_tiktoken, botchan_bpe_model):
    shutil.copyfile(gpt2_tiktoken, tmp_path / "tokenizer.model")
    shutil.copyfile(botchan_bpe_model, tmp_path / "tokenizer.model.v3")
    with pytest.raises(SubwordLabError) as info:
        subword_lab.load(tmp_path)
    assert "several" in info.value.reason and "tokenizer.model.v3" in info.value.reason


def test_tokenizer_json_under_another_name(tmp_path, bert_json):
    path = tmp_path / "my-tokenizer.json"
    shutil.copyfile(bert_json, path)
    assert subword_lab.load(path).rules["format"] == "tokenizer.json"


# --- GPT-2's original release: encoder.json + vocab.bpe ------------------------------------

def _merge_of(token, rank, ranks):
    """The two parts GPT-2's BPE joins to make `token`: merge its bytes by rank, using
    only ranks below its own, until two parts are left."""
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        best = min(range(len(parts) - 1),
                   key=lambda i: ranks.get(parts[i] + parts[i + 1], 1 << 40))
        parts[best:best + 2] = [parts[best] + parts[best + 1]]
    return parts


@pytest.fixture(scope="module")
def gpt2_release(tmp_path_factory, gpt2_ranks):
    """encoder.json and vocab.bpe as OpenAI published them, rebuilt from the ranks and
    checked by tiktoken's own reader of that release (data_gym_to_mergeable_bpe_ranks)."""
    folder = tmp_path_factory.mktemp("gpt2-release")
    chars = byte_level.encode_bytes
    encoder = {chars(token): rank for token, rank in gpt2_ranks.items()}
    encoder["<|endoftext|>"] = 50256
    lines = ["#version: 0.2"]
    for token, rank in sorted(gpt2_ranks.items(), key=lambda item: item[1]):
        if rank >= 256:
            left, right = _merge_of(token, rank, gpt2_ranks)
            lines.append(f"{chars(left)} {chars(right)}")
    (folder / "encoder.json").write_text(json.dumps(encoder), encoding="utf-8")
    (folder / "vocab.bpe").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with _no_tiktoken_cache():
        assert tiktoken_load.data_gym_to_mergeable_bpe_ranks(
            str(folder / "vocab.bpe"), str(folder / "encoder.json")) == gpt2_ranks
    return folder


@contextlib.contextmanager
def _no_tiktoken_cache():
    """tiktoken's readers read local files straight when its cache dir is ""."""
    saved = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    try:
        yield
    finally:
        if saved is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = saved


def test_encoder_json_and_vocab_bpe(gpt2_release, gpt2_oracle, botchan_lines,
                                    multilingual_lines):
    encoder, merges = gpt2_release / "encoder.json", gpt2_release / "vocab.bpe"
    hf = tokenizers.ByteLevelBPETokenizer(str(encoder), str(merges))
    # as GPT-2's tokenizer.json does (and our loader, for <|...|> entries of the vocabulary)
    hf.add_special_tokens(["<|endoftext|>"])
    loaded = [subword_lab.load(encoder, merges=str(merges)), subword_lab.load(encoder),
              subword_lab.load(merges), subword_lab.load(gpt2_release)]
    for line in _sample(botchan_lines, 60) + multilingual_lines[:40]:
        want = hf.encode(line)
        assert want.ids == gpt2_oracle.encode(line, allowed_special="all")
        for tok in loaded:
            got = tok.encode(line)
            assert (got.ids, got.tokens, got.offsets) == (want.ids, want.tokens,
                                                          want.offsets), line


def test_facade_takes_both_files_at_once(gpt2_release, gpt2_oracle):
    names = ["vocab.bpe", "encoder.json"]
    blobs = [(gpt2_release / n).read_bytes() for n in names]
    info = json.loads(webapi.open_bytes("gpt2-release", names, blobs))
    assert info["name"] == "encoder.json + vocab.bpe" and info["rules"]["format"] == "bpe"
    got = json.loads(webapi.encode("gpt2-release", TEXTS[2]))
    assert got["ids"] == gpt2_oracle.encode_ordinary(TEXTS[2])


def test_facade_takes_vocab_json_and_merges_txt(gpt2_release, gpt2_oracle):
    names = ["vocab.json", "merges.txt"]
    blobs = [(gpt2_release / n).read_bytes() for n in ("encoder.json", "vocab.bpe")]
    json.loads(webapi.open_bytes("hf-pair", names, blobs))
    got = json.loads(webapi.encode("hf-pair", TEXTS[3]))
    assert got["ids"] == gpt2_oracle.encode_ordinary(TEXTS[3])


def test_facade_refuses_two_unrelated_files(gpt2_tiktoken, bert_vocab):
    with pytest.raises(SubwordLabError) as info:
        webapi.open_bytes("two", ["gpt2.tiktoken", "vocab.txt"],
                          [gpt2_tiktoken.read_bytes(), bert_vocab.read_bytes()])
    assert "gpt2.tiktoken + vocab.txt" in str(info.value)


# --- reading tiktoken lines exactly as tiktoken does ------------------------------------

def _tiktoken_accepts(path):
    """tiktoken's verdict: its reader, then its core; the ranks or None."""
    try:
        with _no_tiktoken_cache():
            ranks = tiktoken_load.load_tiktoken_bpe(str(path))
        tiktoken.Encoding(name="x", pat_str=r"\S+|\s+", mergeable_ranks=ranks,
                          special_tokens={})
    except BaseException as exc:  # the core panics (PanicException is a BaseException)
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        return None
    return ranks


_TOKENS = st.sampled_from([b"=", b"QUI=", b"QUJD", b"QQ", b"!!!!", b"QUI=x", b"4oCZ",
                           b"\xc3\xa9QUI=", b"QUJDRA==", b"YWJj", b"QQ==", b"AA=="])
_RANKS = st.sampled_from([b"300", b"301", b"+302", b"3_03", b"-1", b"4294967295",
                          b"4294967296", b"\xd9\xa3\xd9\xa0\xd9\xa4", b"1e3", b"0x10",
                          b"305", b"256"])
_SEPARATORS = st.sampled_from([b" ", b"\t", b"  ", b"\x0b", b"\x0c", b" \t "])
_LINE = st.one_of(
    st.tuples(_TOKENS, _SEPARATORS, _RANKS).map(lambda t: b"".join(t)),
    st.sampled_from([b"", b"   ", b"QUI= 300 7", b"QUI=", b"\x1cQUI= 307"]))
_ENDINGS = st.sampled_from([b"\n", b"\r\n", b"\r"])


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.tuples(_LINE, _ENDINGS), max_size=5))
def test_tiktoken_lines_accepted_exactly_as_tiktoken(tmp_path_factory, lines):
    base = b"".join(b"%s %d\n" % (base64.b64encode(bytes([b])), b) for b in range(256))
    path = tmp_path_factory.mktemp("lines") / "x.tiktoken"
    path.write_bytes(base + b"".join(line + end for line, end in lines))
    want = _tiktoken_accepts(path)
    try:
        got = read_tiktoken(path)
    except SubwordLabError as exc:
        assert want is None, f"we refuse what tiktoken accepts: {exc}"
        assert exc.field and exc.field.startswith("line "), str(exc)
        return
    assert got == want


@pytest.fixture(scope="module")
def whisper_paths():
    """Whisper's multilingual ranks and its tokenizer.py (not among the core assets)."""
    return assets.fetch(["whisper-multilingual.tiktoken", "whisper/tokenizer.py"], quiet=True)


def test_whisper_multilingual_empty_token(whisper_paths, whisper_oracle, botchan_lines,
                                          multilingual_lines):
    path = whisper_paths["whisper-multilingual.tiktoken"]
    tok = subword_lab.load(path)
    assert tok.rules["encoding"] == "whisper_multilingual"
    assert tok.rules["special_tokens"] == whisper_oracle._special_tokens
    assert whisper_oracle.decode_bytes([50256]) == b"" == tok.decode(
        [50256], skip_special_tokens=False).encode()
    for line in _sample(botchan_lines, 80) + multilingual_lines[:60]:
        assert tok.encode(line).ids == whisper_oracle.encode_ordinary(line), line
        assert tok.encode(line, special_tokens="recognise").ids == whisper_oracle.encode(
            line, allowed_special="all"), line


@pytest.fixture(scope="module")
def whisper_oracle(whisper_paths, tmp_path_factory):
    """Whisper's own get_encoding("multilingual"), run from the sdist's tokenizer.py next
    to the pinned multilingual.tiktoken."""
    folder = tmp_path_factory.mktemp("whisper")
    (folder / "assets").mkdir()
    shutil.copyfile(whisper_paths["whisper/tokenizer.py"], folder / "tokenizer.py")
    shutil.copyfile(whisper_paths["whisper-multilingual.tiktoken"],
                    folder / "assets" / "multilingual.tiktoken")
    spec = importlib.util.spec_from_file_location("whisper_tokenizer_ref",
                                                  folder / "tokenizer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.get_encoding("multilingual")


def test_whisper_rows_match_whisper(whisper_oracle):
    row = known_encodings.by_name("whisper_multilingual")
    assert row.pattern == whisper_oracle._pat_str
    assert row.specials(50257) == whisper_oracle._special_tokens
    assert known_encodings.by_name("whisper_gpt2").specials(50256) == {
        token: i - 1 for token, i in whisper_oracle._special_tokens.items()}


# --- the known encodings against tiktoken's registry -----------------------------------

def _registry(name):
    """tiktoken's own definition of an encoding, without downloading its ranks."""
    saved = (openai_public.load_tiktoken_bpe, openai_public.data_gym_to_mergeable_bpe_ranks)
    openai_public.load_tiktoken_bpe = lambda *a, **k: {}
    openai_public.data_gym_to_mergeable_bpe_ranks = lambda *a, **k: {}
    try:
        return openai_public.ENCODING_CONSTRUCTORS[name]()
    finally:
        openai_public.load_tiktoken_bpe, openai_public.data_gym_to_mergeable_bpe_ranks = saved


@pytest.mark.parametrize("name", ["gpt2", "r50k_base", "p50k_base", "p50k_edit",
                                  "cl100k_base", "o200k_base", "o200k_harmony"])
def test_openai_rows_match_tiktoken_registry(name):
    row, ref = known_encodings.by_name(name), _registry(name)
    assert row.pattern == ref["pat_str"]
    assert row.specials(0) == ref["special_tokens"]
    if "explicit_n_vocab" in ref:
        n_ranks = ref["explicit_n_vocab"] - len(ref["special_tokens"])
        assert any(p.startswith(f"{n_ranks}-") for p in row.fingerprints)


def test_llama4_pattern_is_o200k():
    assert known_encodings.by_name("llama4").pattern == _registry("o200k_base")["pat_str"]


def test_every_row_is_consistent():
    names = [row.name for row in known_encodings.ENCODINGS]
    assert len(names) == len(set(names))
    for row in known_encodings.ENCODINGS:
        n_ranks = int(row.fingerprints[0].split("-")[0]) if row.fingerprints else 50256
        specials = row.specials(n_ranks)
        twice = 1 if row.name == "o200k_harmony" else 0  # 200018: tiktoken's two names
        assert len(set(specials.values())) == len(specials) - twice, row.name
        assert row.source and row.title


# --- split rules: which pattern is in force, and the choice --------------------------------

def test_unknown_ranks_get_gpt2_pattern_and_say_so(tmp_path, gpt2_tiktoken):
    path = tmp_path / "mine.tiktoken"
    path.write_bytes(b"".join(gpt2_tiktoken.read_bytes().splitlines(keepends=True)[:3000]))
    tok = subword_lab.load(path)
    assert tok.rules["encoding"] is None and tok.rules["pattern_name"] is None
    assert tok.rules["pattern_source"] == known_encodings.GPT2_DEFAULT
    assert tok.rules["special_tokens"] == {"<|endoftext|>": 3000}


# (cl100k_base and o200k_base wait for the possessive-quantifier fix of the regex
# translation, issue 11 item 1; these patterns have none.)
@pytest.mark.parametrize("pattern", ["llama3", "qwen", r"\p{N}{1,2}|[^\p{N}]+"])
def test_pattern_choice_matches_tiktoken(gpt2_tiktoken, gpt2_ranks, pattern, botchan_lines):
    row = known_encodings.by_name(pattern)
    oracle = tiktoken.Encoding(name="x", pat_str=row.pattern if row else pattern,
                               mergeable_ranks=gpt2_ranks, special_tokens={})
    tok = subword_lab.load(gpt2_tiktoken, pattern=pattern)
    assert tok.rules["pattern_source"] == (f"the pattern of {pattern}, as chosen" if row
                                           else "your pattern")
    # the file is GPT-2's: its own special tokens stay
    assert tok.rules["special_tokens"] == {"<|endoftext|>": 50256}
    for line in _sample(botchan_lines, 40):
        assert tok.encode(line).ids == oracle.encode_ordinary(line), line


def test_pattern_option_checked(gpt2_tiktoken):
    with pytest.raises(SubwordLabError) as info:
        subword_lab.load(gpt2_tiktoken, pattern=3)
    assert info.value.field == "pattern"


# --- special tokens in the text: a choice ------------------------------------------------

SPECIAL_TEXTS = ["a<|endoftext|>b", "<|endoftext|><|endoftext|>", "x <|endoftext|> y",
                 "[CLS] hello [SEP] [MASK]", "no specials", "<|endoftext"]


def test_tiktoken_choice_matches_tiktoken(gpt2_ours, gpt2_oracle):
    for text in SPECIAL_TEXTS:
        assert gpt2_ours.encode(text).ids == gpt2_oracle.encode_ordinary(text)
        assert gpt2_ours.encode(text, special_tokens="as_text").ids == gpt2_oracle.encode(
            text, disallowed_special=())
        assert gpt2_ours.encode(text, special_tokens="recognise").ids == gpt2_oracle.encode(
            text, allowed_special="all")
    assert gpt2_ours.encode_special_tokens is True  # the call did not change the default
    batch = gpt2_ours.encode_batch(SPECIAL_TEXTS, special_tokens="recognise")
    assert [e.ids for e in batch] == [gpt2_oracle.encode(t, allowed_special="all")
                                      for t in SPECIAL_TEXTS]


def test_tokenizer_json_choice_matches_tokenizers(bert_json):
    ours = subword_lab.load(bert_json)
    hf = tokenizers.Tokenizer.from_file(str(bert_json))
    for tok in (ours, hf):
        tok.no_truncation()
        tok.no_padding()
    assert ours.encode_special_tokens is False is hf.encode_special_tokens
    for text in SPECIAL_TEXTS:
        assert ours.encode(text).ids == hf.encode(text).ids
    hf.encode_special_tokens = True
    for text in SPECIAL_TEXTS:
        want = hf.encode(text).ids
        assert ours.encode(text, special_tokens="as_text").ids == want
        assert ours.encode(text, split_special_tokens=True).ids == want
    ours.encode_special_tokens = True  # HF's attribute, mirrored
    for text in SPECIAL_TEXTS:
        assert ours.encode(text).ids == hf.encode(text).ids
    hf.encode_special_tokens = False
    for text in SPECIAL_TEXTS:
        assert ours.encode(text, special_tokens="recognise").ids == hf.encode(text).ids


def test_special_tokens_choice_checked(gpt2_ours):
    with pytest.raises(SubwordLabError) as info:
        gpt2_ours.encode("x", special_tokens="maybe")
    assert info.value.field == "special_tokens"
    with pytest.raises(SubwordLabError):
        gpt2_ours.encode("x", special_tokens="recognise", split_special_tokens=True)


def test_facade_special_tokens_choice(gpt2_tiktoken, gpt2_oracle):
    info = json.loads(webapi.open_path("gpt2-choice", str(gpt2_tiktoken)))
    assert info["rules"]["special_tokens_default"] == "as_text"
    assert info["rules"]["pattern_source"] == "known encoding gpt2"
    text = SPECIAL_TEXTS[2]
    plain = json.loads(webapi.encode("gpt2-choice", text))
    matched = json.loads(webapi.encode("gpt2-choice", text, None, "recognise"))
    assert plain["ids"] == gpt2_oracle.encode_ordinary(text)
    assert plain["special_tokens"] == "as_text"
    assert matched["ids"] == gpt2_oracle.encode(text, allowed_special="all")
    info = json.loads(webapi.open_path("gpt2-choice", str(gpt2_tiktoken), None,
                                       {"special_tokens": "recognise"}))
    assert info["rules"]["special_tokens_default"] == "recognise"
    assert json.loads(webapi.encode("gpt2-choice", text))["ids"] == matched["ids"]


def test_facade_reopen_with_a_pattern(gpt2_tiktoken, gpt2_ranks):
    webapi.open_bytes("renamed", "mine.model", gpt2_tiktoken.read_bytes())
    info = json.loads(webapi.reopen("renamed", json.dumps({"pattern": "llama3"})))
    assert info["name"] == "mine.model"
    assert info["rules"]["pattern_name"] == "llama3"
    oracle = tiktoken.Encoding(name="x", pat_str=known_encodings.by_name("llama3").pattern,
                               mergeable_ranks=gpt2_ranks, special_tokens={})
    assert json.loads(webapi.encode("renamed", TEXTS[2]))["ids"] == oracle.encode(TEXTS[2])
    with pytest.raises(SubwordLabError):
        webapi.reopen("renamed", {"colour": "red"})


# --- the command line -------------------------------------------------------------------

def _cli(args, stdin):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "subword_lab", "encode", *args],
                          input=stdin.encode(), capture_output=True, env=env, timeout=300)


def test_cli_special_tokens_and_pattern(gpt2_tiktoken, gpt2_oracle, gpt2_ranks):
    lines = [SPECIAL_TEXTS[0], TEXTS[2]]
    stdin = "\n".join(lines) + "\n"
    for flags, encode in (([], gpt2_oracle.encode_ordinary),
                          (["--special-tokens", "as-text"], gpt2_oracle.encode_ordinary),
                          (["--special-tokens", "recognise"],
                           lambda t: gpt2_oracle.encode(t, allowed_special="all"))):
        done = _cli(["--tokenizer", str(gpt2_tiktoken), *flags], stdin)
        assert done.returncode == 0, done.stderr.decode()
        assert [json.loads(r)["ids"] for r in done.stdout.decode().splitlines()] == \
            [encode(t) for t in lines]
        assert not done.stderr  # a known encoding: nothing to warn about
    llama3 = tiktoken.Encoding(name="x", pat_str=known_encodings.by_name("llama3").pattern,
                               mergeable_ranks=gpt2_ranks, special_tokens={})
    done = _cli(["--tokenizer", str(gpt2_tiktoken), "--pattern", "llama3"], stdin)
    assert [json.loads(r)["ids"] for r in done.stdout.decode().splitlines()] == \
        [llama3.encode_ordinary(t) for t in lines]
    assert [json.loads(r)["ids"] for r in done.stdout.decode().splitlines()] != \
        [gpt2_oracle.encode_ordinary(t) for t in lines]  # the choice made a difference


def test_cli_notes_the_default_pattern(tmp_path, gpt2_tiktoken):
    path = tmp_path / "mine.tiktoken"
    path.write_bytes(b"".join(gpt2_tiktoken.read_bytes().splitlines(keepends=True)[:2000]))
    done = _cli(["--tokenizer", str(path)], "hello\n")
    assert done.returncode == 0
    assert "GPT-2's pattern by default" in done.stderr.decode()
    assert "--pattern" in done.stderr.decode()


def test_cli_merges_flag_and_bad_choice(gpt2_release, gpt2_oracle):
    done = _cli(["--tokenizer", str(gpt2_release / "encoder.json"),
                 "--merges", str(gpt2_release / "vocab.bpe")], TEXTS[3] + "\n")
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout)["ids"] == gpt2_oracle.encode_ordinary(TEXTS[3])
    done = _cli(["--tokenizer", str(gpt2_release / "encoder.json"), "--pattern", "gpt2"],
                "x\n")
    assert done.returncode == 2 and b"pattern" in done.stderr and b"Traceback" not in done.stderr


def test_aliases_name_the_same_rows(gpt2_tiktoken):
    for alias, name in known_encodings.ALIASES.items():
        assert known_encodings.by_name(alias) is known_encodings.by_name(name)
    tok = subword_lab.load(gpt2_tiktoken, pattern="whisper")  # Whisper's pattern is GPT-2's
    assert tok.rules["pattern_name"] == "whisper_multilingual"
    assert tok.rules["normalizer"] is None

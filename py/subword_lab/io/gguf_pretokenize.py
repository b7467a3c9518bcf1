"""How llama.cpp splits text into words before BPE, for each `tokenizer.ggml.pre` kind.

llama.cpp does not run the models' split regexes with a full Unicode regex engine.
For each kind it keeps a list of regexes, applied one after the other (each splits
the pieces the previous one left, keeping what matched and what did not). Four of
them (GPT-2's, Llama 3's, Qwen2's and Qwen 3.5's) run as hand-written scanners; the
others run with C++ std::regex on a "collapsed" copy of the text, where each
non-ASCII code point stands as one byte for its category (letter, number,
punctuation, mark, symbol, other, whitespace), and `\\p{L}` becomes "that byte or
A-Za-z". Both differ from the regexes themselves on some text (a Greek letter after
an apostrophe, a non-ASCII space before a letter, U+0085...); tokens follow llama.cpp.

This module does the same with its own code: the scanners, the collapsing, and
Python's `re` in ASCII mode standing for std::regex (ECMAScript grammar, "C" locale).
Categories are llama.cpp's own (gguf_unicode.py).
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..core.errors import SubwordLabError
from . import gguf_unicode as U

__all__ = ["PRE_KINDS", "pre_kind", "split_words"]

_WS = 0x100  # our flag for llama.cpp's whitespace set, beside the category flags

# -- the regex lists, by llama.cpp's pre-tokenizer type ---------------------------------
_GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
_CONTRACTIONS = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
_LLAMA3 = (_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
           r"|\s*[\r\n]+|\s+(?!\S)|\s+")
_QWEN2 = (_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
          r"|\s*[\r\n]+|\s+(?!\S)|\s+")
_QWEN35 = (_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}"
           r"| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_NEWLINES = r"[^\n]+|[\n]+"
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
_HUNYUAN = (r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?"
            r"[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")

_REGEXES = {
    "default": [r"[\p{P}\$\+<=>\^~\|]+", _GPT2, r"\p{N}+", "[0-9][0-9][0-9]"],
    "llama3": [_LLAMA3],
    "jais2": [_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
              r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s{512}(?!\S)|\s{256}(?!\S)"
              r"|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)"
              r"|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1}"],
    "deepseek-llm": ["[\r\n]", _DEEPSEEK_LETTERS, _DEEPSEEK_PUNCT, "\\s+$",
                     _CJK, r"\p{N}+"],
    "deepseek3": [r"\p{N}{1,3}", _KANA, _HUNYUAN],
    "deepseek-coder": ["[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", _CJK, r"\p{N}"],
    "falcon": [r"[\p{P}\$\+<=>\^~\|`]+", _GPT2, "[0-9][0-9][0-9]"],
    "starcoder": [r"\p{N}", _GPT2],
    "gpt2": [_GPT2],
    "qwen2": [_QWEN2],
    "qwen35": [_QWEN35],
    "bloom": [_BLOOM],
    "viking": [_BLOOM, r"\p{N}"],
    "tekken": [_CASED.replace("{c}", "") + r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+"
               r"|\s+(?!\S)|\s+"],
    "gpt4o": [_CASED.replace("{c}", _CONTRACTIONS + "?") + r"|\p{N}{1,3}"
              r"| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "chameleon": ["<sentinel:[0-9]+>", "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
                  "([\\t\\n]|    |  )", r"\p{N}", r"[\p{P}!-/:-@\[-`{-~]", _GPT2],
    "bailingmoe": [r"'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+"
                   r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"],
    "seed-coder": [_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}"
                   r"| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "ufakzeka": [r"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
                 r"|\s+(?!\S)|\s+"],
    "laguna": [_NEWLINES, _QWEN2],
    "exaone-moe": [_CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+"
                   r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+"],
    "gemma4": [_NEWLINES],
    "minicpm5": [r"\p{N}{1,3}", _CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+"
                 r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"],
    "whitespace": [r"\S+"],
}

# tokenizer.ggml.pre -> (regex list, options that llama.cpp sets with it).
# Options: clean (clean_spaces, default True for BPE), ignore_merges, bos (add_bos),
# raw (no GPT-2 byte encoding, spaces as ▁).
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
    ("gemma4 granite-embed-multi-311m", "gemma4", {"raw": True}),
    ("minicpm5", "minicpm5", {"ignore_merges": True}),
]
PRE_KINDS = {}
for _names, _regexes, _opts in _KINDS:
    for _name in _names.split():
        PRE_KINDS[_name] = (_regexes, dict({"clean": True, "ignore_merges": False,
                                        "bos": False, "raw": False}, **_opts))
# Kinds llama.cpp knows whose splitting is not reproduced here (custom scanners
# with digit grouping, Han exclusion, empty matches): refused by name.
UNSUPPORTED = ("kimi-k2", "afmoe", "tiny_aya", "cohere2moe", "superbpe", "youtu",
               "spark2_5", "granite-embed-multi-97m", "sarvam-moe", "whitespace")


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


# -- code point flags --------------------------------------------------------------------

@lru_cache(maxsize=1 << 16)
def _flags(ch):
    cp = ord(ch)
    return U.category(cp) | (_WS if cp in U.WHITESPACE else 0)


_L, _N, _M = U.LETTER, U.NUMBER, U.MARK
_CR_LF = ("\r", "\n")


# -- the hand-written scanners (llama.cpp's custom splitters) -----------------------------

def _scan_gpt2(text, start, end, out):
    flags = [_flags(c) for c in text[start:end]] + [0, 0, 0]
    pos, n = 0, end - start
    while pos < n:
        c, f = text[start + pos], flags[pos]
        if c == "'" and pos + 1 < n:
            c1 = text[start + pos + 1]
            if c1 in "stmd":
                out.append(2)
                pos += 2
                continue
            if pos + 2 < n and c1 + text[start + pos + 2] in ("re", "ve", "ll"):
                out.append(3)
                pos += 3
                continue
        f2 = flags[pos + 1] if c == " " else f
        for kind in (_L, _N):
            if f2 & kind:
                p = pos + (c == " ")
                while flags[p] & kind:
                    p += 1
                out.append(p - pos)
                pos = p
                break
        else:
            if not f2 & (_WS | _L | _N) and f2:
                p = pos + (c == " ")
                while not flags[p] & (_WS | _L | _N) and flags[p]:
                    p += 1
                out.append(p - pos)
                pos = p
                continue
            spaces = 0
            while flags[pos + spaces] & _WS:
                spaces += 1
            if spaces > 1 and pos + spaces < n:
                step = spaces - 1
            elif spaces > 0:
                step = spaces
            else:
                step = 1
            out.append(step)
            pos += step


def _scan_llama3(text, start, end, out, digits=3, marks=False):
    """Llama 3's splitter; Qwen2's is the same with single digits, Qwen 3.5's also
    counts marks as letters."""
    n = end - start
    flags = [_flags(c) for c in text[start:end]] + [0, 0, 0]
    letter = _L | _M if marks else _L
    pos = 0

    def cp(i):
        return text[start + i] if i < n else ""
    while pos < n:
        c, f = text[start + pos], flags[pos]
        if c == "'" and pos + 1 < n:
            c1 = cp(pos + 1).lower() if cp(pos + 1).isascii() else cp(pos + 1)
            if c1 in ("s", "t", "m", "d"):
                out.append(2)
                pos += 2
                continue
            if pos + 2 < n:
                c2 = cp(pos + 2).lower() if cp(pos + 2).isascii() else cp(pos + 2)
                if c1 + c2 in ("re", "ve", "ll"):
                    out.append(3)
                    pos += 3
                    continue
        if not (c in _CR_LF or f & _N) and (f & letter or flags[pos + 1] & letter):
            p = pos + 1
            while flags[p] & letter:
                p += 1
            out.append(p - pos)
            pos = p
            continue
        if f & _N:
            if digits == 1:
                out.append(1)
                pos += 1
                continue
            first = pos
            while flags[pos] & _N:
                pos += 1
                if pos - first >= 3:
                    out.append(pos - first)
                    first = pos
            if pos > first:
                out.append(pos - first)
            continue
        f2 = flags[pos + 1] if c == " " else f
        stop = _WS | _L | _N | (_M if marks else 0)
        if not f2 & stop and f:
            p = pos + (c == " ")
            while not flags[p] & stop and flags[p]:
                p += 1
            while cp(p) in _CR_LF and cp(p):
                p += 1
            out.append(p - pos)
            pos = p
            continue
        spaces, last_break = 0, 0
        while flags[pos + spaces] & _WS:
            if cp(pos + spaces) in _CR_LF:
                last_break = pos + spaces + 1
            spaces += 1
        if last_break > 0:
            step = last_break - pos
        elif spaces > 1 and pos + spaces < n:
            step = spaces - 1
        elif spaces > 0:
            step = spaces
        else:
            step = 1
        out.append(step)
        pos += step


def _scan_newlines(text, start, end, out):
    for match in re.finditer(r"\n+|[^\n]+", text[start:end]):
        out.append(match.end() - match.start())


_CUSTOM = {_GPT2: _scan_gpt2, _LLAMA3: _scan_llama3,
           _QWEN2: lambda t, s, e, o: _scan_llama3(t, s, e, o, digits=1),
           _QWEN35: lambda t, s, e, o: _scan_llama3(t, s, e, o, digits=1, marks=True),
           _NEWLINES: _scan_newlines}


# -- the std::regex path -------------------------------------------------------------------

_CATEGORIES = {"N": U.NUMBER, "L": U.LETTER, "P": U.PUNCTUATION, "M": U.MARK,
               "S": U.SYMBOL, "Lu": U.LETTER, "Ll": U.LETTER, "Lt": U.LETTER,
               "Lm": U.LETTER, "Lo": U.LETTER}
_STAND_IN = {U.NUMBER: "\xd1", U.LETTER: "\xd2", U.PUNCTUATION: "\xd3", U.MARK: "\xd4",
             U.SYMBOL: "\xd5"}
# What each category stands for among ASCII characters (kept as themselves).
_ASCII_OF = {U.NUMBER: "0-9", U.LETTER: "A-Za-z",
             U.PUNCTUATION: r"!-#%-*,-/:-;?-@\[-\]_\{\}", U.MARK: "",
             U.SYMBOL: r"\$\+<->\^`\|~"}


@lru_cache(maxsize=1 << 16)
def _collapsed(ch):
    cp = ord(ch)
    if cp < 128:
        return ch
    if cp in U.WHITESPACE:
        return "\x0b"
    return _STAND_IN.get(U.category(cp), "\xd0")


@lru_cache(maxsize=1 << 16)
def _wide(ch):
    return "\x0b" if ord(ch) > 127 and ord(ch) in U.WHITESPACE else ch


def _uses_categories(regex):
    return any("\\p{%s}" % name in regex for name in _CATEGORIES)


@lru_cache(maxsize=None)
def _compile(regex):
    """The regex as llama.cpp hands it to std::regex, as a Python pattern."""
    out, inside, i = [], False, 0
    collapse = _uses_categories(regex)
    while i < len(regex):
        ch = regex[i]
        if ch == "\\" and i + 1 < len(regex):
            m = re.match(r"\\p\{(\w+)\}", regex[i:]) if collapse else None
            if m and m.group(1) in _CATEGORIES:
                flag = _CATEGORIES[m.group(1)]
                body = re.escape(_STAND_IN[flag]) + _ASCII_OF[flag]
                out.append(body if inside else f"[{body}]")
                i += m.end()
                continue
            out.append(regex[i:i + 2])
            i += 2
            continue
        if ch == "[" and not inside:
            inside = True
        elif ch == "]" and inside:
            inside = False
        elif ch == "$" and not inside:
            ch = r"\Z"  # ECMAScript: end of input only
        out.append(ch)
        i += 1
    return re.compile("".join(out), re.ASCII)


def _regex_split(regex, text, collapsed, wide, pieces):
    pattern = _compile(regex)
    source = collapsed if _uses_categories(regex) else wide
    out, start = [], 0
    for length in pieces:
        chunk = source[start:start + length]
        at = 0
        for m in pattern.finditer(chunk):
            if m.start() > at:
                out.append(m.start() - at)
            out.append(m.end() - m.start())
            at = m.end()
        if at < length:
            out.append(length - at)
        start += length
    return out


def split_words(text, regex_key):
    """The words llama.cpp's pre-tokenizer makes of `text`: [(start, end)] in code points."""
    regexes = _REGEXES[regex_key]
    pieces = [len(text)] if text else []
    collapsed = wide = None
    for regex in regexes:
        custom = _CUSTOM.get(regex)
        if custom is not None:
            out, start = [], 0
            for length in pieces:
                custom(text, start, start + length, out)
                start += length
            pieces = out
            continue
        if collapsed is None:
            collapsed = "".join(map(_collapsed, text))
            wide = "".join(map(_wide, text))
        pieces = _regex_split(regex, text, collapsed, wide, pieces)
    spans, start = [], 0
    for length in pieces:
        spans.append((start, start + length))
        start += length
    return spans

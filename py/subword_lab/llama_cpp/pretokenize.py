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

This module does the same with its own code: the scanners (two more are in
custom_splits.py), the collapsing, and
Python's `re` in ASCII mode standing for std::regex (ECMAScript grammar, "C" locale).
Categories are llama.cpp's own (unicode.py).
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import unicode as U
from .custom_splits import scan_digit_groups, scan_kimi_k2, scan_rest
from .custom_splits import space_step as _space_step
from .pre_kinds import AFMOE_DIGITS, AYA_DIGITS, KIMI_K2
from .pre_kinds import GPT2 as _GPT2, LLAMA3 as _LLAMA3, NEWLINES as _NEWLINES
from .pre_kinds import QWEN2 as _QWEN2, QWEN35 as _QWEN35, REGEXES as _REGEXES

__all__ = ["split_words"]

_WS = 0x100  # our flag for llama.cpp's whitespace set, beside the category flags


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
            step = _space_step(flags, pos, n, 0)
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
        if f & _N and digits == 1:
            out.append(1)
            pos += 1
            continue
        pos = scan_rest(cp, flags, pos, n, out, _WS | _L | _N | (_M if marks else 0))


def _scan_newlines(text, start, end, out):
    for match in re.finditer(r"\n+|[^\n]+", text[start:end]):
        out.append(match.end() - match.start())


_CUSTOM = {_GPT2: _scan_gpt2, _LLAMA3: _scan_llama3,
           _QWEN2: lambda t, s, e, o: _scan_llama3(t, s, e, o, digits=1),
           _QWEN35: lambda t, s, e, o: _scan_llama3(t, s, e, o, digits=1, marks=True),
           _NEWLINES: _scan_newlines, KIMI_K2: scan_kimi_k2,
           AFMOE_DIGITS: scan_digit_groups, AYA_DIGITS: scan_digit_groups}


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
        if length:  # an empty match (superbpe's lookahead) makes an empty word: no tokens
            spans.append((start, start + length))
        start += length
    return spans

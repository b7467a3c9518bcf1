"""Two more of llama.cpp's hand-written splitters, beside the ones in pretokenize.py:
Kimi K2's word scanner (Han runs kept apart from other letters) and the digit
grouper of AFMoE (also used for Tiny Aya and Cohere2 MoE); and the part Kimi's
scanner shares with Llama 3's (pretokenize.py): digits, other runs, whitespace.

Both follow what llama.cpp's code does, not the models' regexes: Kimi's scanner
takes a letter run whole (no upper/lower case split, marks are not letters) and
the digit grouper cuts each run of \\p{N} into a head of 1-2 digits (its length
modulo 3) and groups of three, and leaves what comes before a run joined to the
run's first group (the later regexes of the kind split it again).
"""
from __future__ import annotations

from . import unicode as U

__all__ = ["scan_kimi_k2", "scan_digit_groups", "scan_rest", "space_step"]

_HAN = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
        (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0x2CEB0, 0x2EBEF), (0xF900, 0xFAFF),
        (0x2F800, 0x2FA1F))
_WS = 0x100  # llama.cpp's whitespace set, beside the category flags


def _is_han(ch):
    cp = ord(ch) if ch else -1
    return any(a <= cp <= b for a, b in _HAN)


def _flags(ch):
    cp = ord(ch)
    return U.category(cp) | (_WS if cp in U.WHITESPACE else 0)


def _lower(ch):
    return chr(U.lower(ord(ch))) if ch else ""


def scan_kimi_k2(text, start, end, out):
    """Kimi K2's splitter on text[start:end]: appends the piece lengths to `out`."""
    n = end - start
    chars = text[start:end]
    flags = [_flags(c) for c in chars] + [0, 0, 0]
    han = [_is_han(c) for c in chars] + [False, False, False]

    def ch(i):
        return chars[i] if i < n else ""

    def word_letter(i):
        return bool(flags[i] & U.LETTER) and not han[i]
    pos = 0
    while pos < n:
        c, f = chars[pos], flags[pos]
        if han[pos]:
            p = pos
            while han[p]:
                p += 1
            out.append(p - pos)
            pos = p
            continue
        leads = not (c in "\r\n" or f & (U.LETTER | U.NUMBER))
        if word_letter(pos) or (leads and word_letter(pos + 1)):
            p = pos + 1
            while word_letter(p):
                p += 1
            if ch(p) == "'" and p + 1 < n:
                c1 = _lower(ch(p + 1))
                if c1 in ("s", "t", "m", "d"):
                    p += 2
                elif p + 2 < n and c1 + _lower(ch(p + 2)) in ("re", "ve", "ll"):
                    p += 3
            out.append(p - pos)
            pos = p
            continue
        pos = scan_rest(ch, flags, pos, n, out, _WS | U.LETTER | U.NUMBER)


def scan_rest(ch, flags, pos, n, out, stop):
    """What Llama 3's scanner and Kimi K2's do at `pos` when no word starts there:
    digits in threes, a run of other characters (one space before it, line breaks
    after), or whitespace. `ch(i)` is the i-th character ("" past the end), `flags`
    their flags (padded with zeros), `stop` the flags that end the run. Appends the
    lengths to `out`; returns the new position. (llama.cpp's Kimi scanner reads the
    flags of the run's first character where Llama 3's reads those at `pos`; they
    differ only for a space that ends the piece, and both then take that space.)"""
    c, f = ch(pos), flags[pos]
    if f & U.NUMBER:
        first = pos
        while flags[pos] & U.NUMBER:
            pos += 1
            if pos - first >= 3:
                out.append(pos - first)
                first = pos
        if pos > first:
            out.append(pos - first)
        return pos
    f2 = flags[pos + 1] if c == " " else f
    if not f2 & stop and f:
        p = pos + (c == " ")
        while not flags[p] & stop and flags[p]:
            p += 1
        while ch(p) and ch(p) in "\r\n":
            p += 1
        out.append(p - pos)
        return p
    spaces, last_break = 0, 0
    while flags[pos + spaces] & _WS:
        if ch(pos + spaces) in ("\r", "\n"):
            last_break = pos + spaces + 1
        spaces += 1
    step = last_break - pos if last_break else space_step(flags, pos, n, spaces)
    out.append(step)
    return pos + step


def space_step(flags, pos, n, spaces):
    """The whitespace rules at `pos` (`\\s+(?!\\S)|\\s+`): a run of spaces
    before a non-space gives all but its last; at the end, all; no space, one
    character. `spaces` counts the run when the caller has (0: count it here)."""
    while flags[pos + spaces] & _WS:
        spaces += 1
    if spaces > 1 and pos + spaces < n:
        return spaces - 1
    return spaces or 1


def scan_digit_groups(text, start, end, out):
    """AFMoE's digit grouper on text[start:end]: appends the piece lengths to `out`."""
    prev, pos = start, start
    while pos < end:
        if not U.category(ord(text[pos])) & U.NUMBER:
            pos += 1
            continue
        first = pos
        while pos < end and U.category(ord(text[pos])) & U.NUMBER:
            pos += 1
        cut = first + (pos - first) % 3
        if cut > first:
            out.append(cut - prev)
            prev = cut
        while cut < pos:
            cut += 3
            out.append(cut - prev)
            prev = cut
    if prev < end:
        out.append(end - prev)

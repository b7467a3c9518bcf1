"""Write py/subword_lab/core/tables/unicode.py from the `tokenizers` oracle.

Dev-time only (needs the `tokenizers` package from .venv). Hugging Face
`tokenizers` carries its own Unicode tables, compiled into the Rust binary at
versions that are neither CPython 3.11's `unicodedata` (Unicode 15) nor
Pyodide's (Unicode 16). We ask it about every code point and keep what it
answers, as full sets where that is possible so the result does not depend on
the `unicodedata` of whatever Python runs the library later.

    .venv/bin/python tools/gen_unicode_tables.py

What is kept (ranges of code points, delta-encoded in hex strings):
- strip_accents: chars StripAccents removes (its Mn/Mc/Me table);
- bert_mn: chars BertNormalizer's accent stripping removes (its Mn table);
- bert_control / bert_space: chars clean_text drops / turns into a space;
- nfd / nfkd: chars HF's (canonical / compatibility) decomposition changes.
  Decomposition mappings never change once assigned (Unicode's stability
  policy), so for these chars `unicodedata` gives HF's result and for every
  other char HF leaves it alone; the generator checks both;
- nonstarters: chars with a nonzero combining class in HF's table (the class
  values themselves are stable and come from `unicodedata`);
- lowercase: Rust's `char::to_lowercase` for every char it changes.
Handle_chinese_chars is a fixed list of CJK blocks in HF, not a table.
"""
from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from tokenizers import __version__ as TOKENIZERS_VERSION
from tokenizers import normalizers as N

OUT = Path(__file__).resolve().parent.parent / "py" / "subword_lab" / "core" / "tables" / "unicode.py"
CHARS = [chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000]


def sweep(normalizer):
    return {c: normalizer.normalize_str(c) for c in CHARS}


def to_ranges(chars):
    out = []
    for x in sorted(map(ord, chars)):
        if out and out[-1][1] == x - 1:
            out[-1][1] = x
        else:
            out.append([x, x])
    return out


def encode_ranges(chars):
    """'gap length gap length ...' in hex, each gap from the previous range's end."""
    parts, last = [], 0
    for start, end in to_ranges(chars):
        parts += [f"{start - last:x}", f"{end - start + 1:x}"]
        last = end + 1
    return " ".join(parts)


def removed(normalizer):
    result = sweep(normalizer)
    odd = [c for c, r in result.items() if r not in ("", c)]
    assert not odd, f"{normalizer}: unexpected results for {[hex(ord(c)) for c in odd[:5]]}"
    return [c for c, r in result.items() if r == ""]


def bert_marks():
    """Chars Bert's accent stripping removes after its NFD; checks that
    filtering the NFD of every other char with them gives HF's result."""
    nfd = sweep(N.NFD())
    result = sweep(N.BertNormalizer(clean_text=False, handle_chinese_chars=False,
                                    strip_accents=True, lowercase=False))
    marks = {c for c, r in result.items() if r == "" and nfd[c] == c}
    wrong = [c for c, r in result.items() if "".join(x for x in nfd[c] if x not in marks) != r]
    assert not wrong, [hex(ord(c)) for c in wrong[:5]]
    return marks


def bert_clean_sets():
    result = sweep(N.BertNormalizer(clean_text=True, handle_chinese_chars=False,
                                    strip_accents=False, lowercase=False))
    control = [c for c, r in result.items() if r == ""]
    space = [c for c, r in result.items() if r == " " and c != " "]
    odd = [c for c, r in result.items() if r not in ("", " ", c)]
    assert not odd, [hex(ord(c)) for c in odd[:5]]
    return control, space


def decomposed(form):
    """Chars HF's `form` changes; checks that `unicodedata` agrees on each."""
    result = sweep(getattr(N, form)())
    changed = [c for c, r in result.items() if r != c]
    wrong = [c for c in changed if unicodedata.normalize(form, c) != result[c]]
    assert not wrong, f"{form}: unicodedata disagrees on {[hex(ord(c)) for c in wrong[:5]]}"
    return changed


def nonstarters():
    """Chars HF sorts as combining marks: a nonzero class in its table shows up
    as reordering against a mark of a known class (U+0301 is 230, U+0334 is 1)."""
    nfd = N.NFD()
    out = []
    for c in CHARS:
        ccc = unicodedata.combining(c)
        if not ccc:
            continue
        base = unicodedata.normalize("NFD", c)
        if ccc < 230:
            swapped = nfd.normalize_str("a\u0301" + c) == "a" + base + "\u0301"
        else:
            swapped = nfd.normalize_str("a" + c + "\u0334") == "a\u0334" + base
        if swapped:
            out.append(c)
    return out


def lowercase_runs():
    """Runs 'start count stride delta' of single-char mappings, plus the
    mappings to several chars."""
    result = sweep(N.Lowercase())
    single = sorted((ord(c), ord(r) - ord(c)) for c, r in result.items() if r != c and len(r) == 1)
    multi = {c: r for c, r in result.items() if len(r) > 1}
    runs = []
    for cp, delta in single:
        if runs:
            start, count, stride, d = runs[-1]
            last = start + (count - 1) * stride
            if d == delta and (count == 1 and cp - last <= 2 or cp - last == stride):
                runs[-1] = [start, count + 1, cp - last if count == 1 else stride, d]
                continue
        runs.append([cp, 1, 1, delta])
    text = " ".join(f"{s:x} {n:x} {st:x} {d:x}" for s, n, st, d in runs)
    return text, multi


TEMPLATE = '''"""Unicode tables of Hugging Face `tokenizers` {version}.

GENERATED by tools/gen_unicode_tables.py from the `tokenizers` package itself:
do not edit. `tokenizers` compiles its own Unicode tables into its binary, at
versions unlike the `unicodedata` of CPython 3.11 (Unicode 15) or Pyodide
(Unicode 16); these are its answers for every code point, so our normalizers
agree with it whatever Python runs them. See the generator for what each
table means. Ranges are stored as hex 'gap length' pairs and decoded on first
use.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

TOKENIZERS_VERSION = {version!r}

_RANGES = {{
{ranges}
}}

# Lowercase: hex 'start count stride delta' runs (char + delta at every stride),
# then the chars that lowercase to several chars.
_LOWER_RUNS = {lower_runs!r}
_LOWER_MULTI = {lower_multi}


@lru_cache(maxsize=None)
def ranges(name: str) -> tuple:
    """((first, last), ...) code point ranges of the table `name`."""
    nums = [int(x, 16) for x in _RANGES[name].split()]
    out, last = [], 0
    for gap, length in zip(nums[::2], nums[1::2]):
        start = last + gap
        last = start + length
        out.append((start, last - 1))
    return tuple(out)


@lru_cache(maxsize=None)
def charset(name: str) -> frozenset:
    """The table `name` as a set of one-char strings (for the small tables)."""
    return frozenset(chr(i) for a, b in ranges(name) for i in range(a, b + 1))


@lru_cache(maxsize=None)
def char_class(name: str) -> str:
    """The table `name` as the body of a regular expression class `[...]`."""
    return "".join(re.escape(chr(a)) if a == b else f"{{re.escape(chr(a))}}-{{re.escape(chr(b))}}"
                   for a, b in ranges(name))


@lru_cache(maxsize=None)
def pattern(name: str):
    """A compiled `[...]` matching one char of the table `name`."""
    return re.compile("[" + char_class(name) + "]")


@lru_cache(maxsize=None)
def lowercase_table() -> dict:
    """str.translate table: every char HF's Lowercase changes, per char as
    Rust's char::to_lowercase (so no final-sigma rule)."""
    nums = [int(x, 16) for x in _LOWER_RUNS.split()]
    table = {{}}
    for i in range(0, len(nums), 4):
        start, count, stride, delta = nums[i:i + 4]
        for k in range(count):
            cp = start + k * stride
            table[cp] = chr(cp + delta)
    table.update((ord(k), v) for k, v in _LOWER_MULTI.items())
    return table


@lru_cache(maxsize=None)
def combining_classes() -> dict:
    """{{char: canonical combining class}} for every char HF treats as a
    nonstarter; every other char is a starter (class 0) for HF."""
    return {{c: unicodedata.combining(c) for c in charset("nonstarters")}}
'''


def main():
    control, space = bert_clean_sets()
    tables = {
        "strip_accents": removed(N.StripAccents()),
        "bert_mn": bert_marks(),
        "bert_control": control,
        "bert_space": space,
        "nfd": decomposed("NFD"),
        "nfkd": decomposed("NFKD"),
        "nonstarters": nonstarters(),
    }
    missing = [c for c in tables["nonstarters"] if not unicodedata.combining(c)]
    assert not missing
    runs, multi = lowercase_runs()
    body = "\n".join(f"    {name!r}: {encode_ranges(chars)!r}," for name, chars in tables.items())
    # escapes keep the source file plain ASCII
    multi_src = "{" + ", ".join(f"{ascii(k)}: {ascii(v)}" for k, v in sorted(multi.items())) + "}"
    OUT.write_text(TEMPLATE.format(version=TOKENIZERS_VERSION, ranges=body,
                                   lower_runs=runs, lower_multi=multi_src))
    for name, chars in tables.items():
        print(f"{name}: {len(chars)} chars, {len(to_ranges(chars))} ranges", file=sys.stderr)
    print(f"lowercase: {len(runs.split()) // 4} runs, {len(multi)} multi-char", file=sys.stderr)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()

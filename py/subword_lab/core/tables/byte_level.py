"""GPT-2's byte-level machinery: the byte<->character table and the split patterns.

Byte-level BPE works on UTF-8 bytes, but its vocabulary is stored as text, so
GPT-2 maps every byte to a printable character: the 188 bytes that are already
printable Latin-1 characters map to themselves, the other 68 (controls, space,
DEL, NBSP, soft hyphen...) to U+0100 onwards. A space becomes "Ġ" (U+0120), a
newline "Ċ" (U+010A).

The split patterns are tiktoken's and GPT-2's, run on Python's `re` through
`unicode_regex` (no third-party `regex` package).
"""
from __future__ import annotations

import codecs
import functools
import itertools

from ..regex import translate as unicode_regex

# The pattern of the original GPT-2 release, as Hugging Face's ByteLevel uses it.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

# tiktoken's patterns, by encoding name (r50k is the GPT-2 pattern written to run faster).
_R50K = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
_CL100K = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
           r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
_O200K = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])
TIKTOKEN_PATTERNS = {
    "gpt2": _R50K, "r50k_base": _R50K, "p50k_base": _R50K, "p50k_edit": _R50K,
    "cl100k_base": _CL100K, "o200k_base": _O200K,
}


@functools.lru_cache(maxsize=None)
def bytes_to_unicode() -> dict:
    """byte value -> its character, GPT-2's table."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


@functools.lru_cache(maxsize=None)
def unicode_to_bytes() -> dict:
    """character -> byte value, the inverse table."""
    return {c: b for b, c in bytes_to_unicode().items()}


@functools.lru_cache(maxsize=None)
def _byte_chars_to_latin1() -> dict:
    return {ord(c): b for b, c in bytes_to_unicode().items() if chr(b) != c}


def alphabet() -> list:
    """The 256 characters of the byte-level alphabet, in byte order."""
    table = bytes_to_unicode()
    return [table[b] for b in range(256)]


def encode_bytes(data: bytes) -> str:
    """Bytes -> their byte-level characters (one character per byte)."""
    # A charmap decode with the alphabet as its table is how Python's own 8-bit codecs
    # decode: one C loop, about 1 ns a byte (o200k's 1.4 MB of token bytes in 1.5 ms,
    # where a Latin-1 decode and a str.translate of the 68 moved bytes took 108 ms).
    return codecs.charmap_decode(data, "strict", _alphabet_table())[0]


@functools.lru_cache(maxsize=None)
def _alphabet_table() -> str:
    """The 256 byte-level characters in byte order, as one string (a charmap table)."""
    return "".join(alphabet())


def encode_text(text: str) -> str:
    """Text -> the byte-level characters of its UTF-8 encoding."""
    return encode_bytes(text.encode("utf-8", "surrogatepass"))


def decode_to_bytes(chars: str):
    """Byte-level characters -> bytes; None if some character is not in the alphabet."""
    latin = chars.translate(_byte_chars_to_latin1())
    try:
        return latin.encode("latin-1")
    except UnicodeEncodeError:
        return None


@functools.lru_cache(maxsize=4096)
def char_changes(ch: str) -> tuple:
    """The NormalizedString.transform changes that turn `ch` into its byte characters.

    The first byte character replaces the character (change 0); the others are
    insertions (change 1), so every one of them stays aligned with the original
    character, which is how Hugging Face keeps byte-level offsets on characters.
    """
    chars = encode_text(ch)
    return ((chars[0], 0),) + tuple((c, 1) for c in chars[1:])


def transform_changes(text: str):
    """Changes for the whole text (see char_changes), lazily chained."""
    return itertools.chain.from_iterable(map(char_changes, text))


@functools.lru_cache(maxsize=None)
def gpt2_regex():
    """The compiled GPT-2 split pattern, as Hugging Face's ByteLevel runs it (Oniguruma)."""
    return unicode_regex.compile(GPT2_PATTERN, "onig")


def tiktoken_regex(name_or_pattern: str):
    """A tiktoken encoding's split pattern, compiled with fancy-regex semantics."""
    pattern = TIKTOKEN_PATTERNS.get(name_or_pattern, name_or_pattern)
    return unicode_regex.compile(pattern, "fancy")


def split_gpt2(text: str) -> list:
    """GPT-2's pieces of `text` (the pieces cover the text: the pattern ends in \\s+)."""
    return gpt2_regex().findall(text)

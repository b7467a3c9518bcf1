"""llama.cpp's WordPiece tokenizer (GGUF "bert" vocabularies), for io/vocab.py.

llama.cpp's own BERT pre-processing (not tokenizers'): its one-code-point NFD with
the accents dropped, its lower-case map, words cut at its whitespace, each
punctuation character, ASCII symbol and CJK ideograph a word of its own; then the
longest token match from the left, "▁" marking a word's start (the GGUF converter
writes "▁word" for BERT's "word" and "word" for "##word"); a word with no full
match is one unknown token.
"""
from __future__ import annotations

from . import unicode as U
from .attrs import SPACE as _SPACE

__all__ = ["encode", "match", "words"]


def words(vocab, text, start, end):
    """llama.cpp's BERT pre-processing: [(word, [original index per char])]."""
    words, word, where = [], [], []
    for k in range(start, end):
        cp = ord(text[k])
        if vocab.strip_accents:
            cp = U.nfd_base(cp)
        cat = U.category(cp)
        if cp in U.WHITESPACE:
            if word:
                words.append(("".join(word), where))
                word, where = [], []
            continue
        if cp == 0 or cp == 0xFFFD or cat == U.CONTROL:
            continue
        if vocab.strip_accents and cat == U.MARK:
            continue
        ch = chr(U.lower(cp) if vocab.lowercase else cp)
        if cat == U.PUNCTUATION or (cp < 0x7F and cat == U.SYMBOL) or _is_chinese(cp):
            if word:
                words.append(("".join(word), where))
            words.append((ch, [k]))
            word, where = [], []
        else:
            word.append(ch)
            where.append(k)
    if word:
        words.append(("".join(word), where))
    return words

def encode(vocab, text, start, end, ids, starts, ends):
    get, longest = vocab.token_to_id.get, vocab.max_chars
    for word, where in words(vocab, text, start, end):
        found = [(t, where[max(i - 1, 0)], where[j - 2] + 1 if j >= 2 else where[0])
                 for t, i, j in match(_SPACE + word, get, longest)]
        if not found:
            found = [(vocab.specials["unk"], where[0], where[-1] + 1)]
        for t, lo, hi in found:
            ids.append(t)
            starts.append(lo)
            ends.append(hi)


def match(marked, get, longest, tried=None):
    """llama.cpp's longest match from the left over a marked word: [(id, start, end)]
    in `marked`, or [] when some position has no match (the word is then unknown).
    `tried`, a list, receives every window looked up as (start, end, id or None)."""
    n, i, found = len(marked), 0, []
    while i < n:
        for j in range(min(n, i + longest), i, -1):
            t = get(marked[i:j])
            if tried is not None:
                tried.append((i, j, t))
            if t is not None:
                found.append((t, i, j))
                i = j
                break
        else:
            return []
    return found


def _is_chinese(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F
            or 0x2B920 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)



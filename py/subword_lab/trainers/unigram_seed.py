"""Seed vocabulary for Unigram EM training: every character plus frequent substrings.

SentencePiece (and HF `tokenizers`) build an enhanced suffix array over all the
words joined by a boundary character and take the internal nodes of its suffix
tree: the substrings that occur at least twice *and* are not always followed by
the same character (right-branching). A substring that is always followed by the
same character is skipped because the longer one has the same count and covers
more text. Each node is scored by count x length in characters, and the best
`seed_size` make the seed, after all characters.

We find exactly the same nodes without a suffix array: pieces are at most
`max_piece_length` characters and never cross a word boundary, so it is enough to
look at every substring of every word up to that length, count it and remember
whether two different characters (the word end counts as one) ever follow it.

Counting follows `tokenizers`: the words are joined once each, so a substring's
count is the number of places it occurs among the distinct words; characters,
however, are counted with the words' frequencies.
"""
from __future__ import annotations

import math
import unicodedata

SPACE_MARK = "\u2581"  # "▁", what Metaspace puts in front of words
_END = "\0"  # the boundary character between joined words


_SCRIPT_ALIASES = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HALFWIDTH": "CJK", "IDEOGRAPHIC": "CJK"}


def script_of(ch: str):
    """An approximation of a character's Unicode script from the standard library:
    "" for combining marks (they take the script of the character before), the first
    word of a letter's name ("LATIN", "CYRILLIC", ...; kana and kanji as one, as
    sentencepiece merges them), and "COMMON" for everything else (punctuation,
    symbols, digits, spaces)."""
    cat = unicodedata.category(ch)
    if cat[0] == "M":
        return ""
    if cat[0] != "L":
        return "COMMON"
    name = unicodedata.name(ch, "")
    word = name.split(" ", 1)[0] if name else "UNKNOWN"
    return _SCRIPT_ALIASES.get(word, word)


def is_valid_piece(piece: str, max_piece_length: int, split_by_script=True) -> bool:
    """SentencePiece's rules for a candidate piece (split_by_whitespace mode): not too
    long; the space mark only as the first character, so no piece crosses a word
    boundary and "▁▁" never appears; and one script only (letters of one script,
    or punctuation, digits and symbols), so "e," or "a1" are no pieces."""
    if not 0 < len(piece) <= max_piece_length or SPACE_MARK in piece[1:]:
        return False
    if split_by_script:
        prev = None
        for ch in piece:
            if ch == SPACE_MARK:
                continue
            script = script_of(ch) or prev
            if prev is not None and script != prev:
                return False
            prev = script
    return True


def char_counts(words) -> dict:
    """Character -> number of occurrences, weighted by the words' counts."""
    counts = {}
    get = counts.get
    for word, count in words:
        for ch in word:
            counts[ch] = get(ch, 0) + count
    return counts


def substring_nodes(words, max_piece_length: int, weighted=False) -> dict:
    """Substring (2..max_piece_length characters) -> count, for the suffix-tree nodes.

    A node occurs at least twice among the distinct words and is right-branching:
    two of its occurrences are followed by different characters, where the end of
    a word counts as a character of its own (the boundary `\\0` in the joined text).
    """
    counts = {}
    follower = {}  # substring -> the one character seen after it so far
    branching = set()
    cget = counts.get
    for word, wc in words:
        inc = wc if weighted else 1
        n = len(word)
        for i in range(n - 1):
            top = min(n, i + max_piece_length)
            for j in range(i + 2, top + 1):
                sub = word[i:j]
                nxt = word[j] if j < n else _END
                seen = cget(sub)
                if seen is None:
                    counts[sub] = inc
                    follower[sub] = nxt
                else:
                    counts[sub] = seen + inc
                    if follower[sub] != nxt:
                        branching.add(sub)
    return {sub: counts[sub] for sub in branching}


def seed_pieces(words, seed_size: int, max_piece_length: int, weighted=False, split_by_script=True):
    """The seed vocabulary as (piece, log probability) pairs, characters first.

    Characters are sorted by count then character, both descending; substrings by
    count x length then text, both descending (the order `tokenizers` gives them).
    The seed holds at most `seed_size` entries, characters included. Scores are
    the log of each entry's count (characters) or count x length (substrings)
    over their total.
    """
    words = list(words)
    chars = char_counts(words)
    ranked_chars = sorted(((c, ch) for ch, c in chars.items()), reverse=True)
    entries = [(ch, c) for c, ch in ranked_chars]
    nodes = substring_nodes(words, max_piece_length, weighted)
    scored = [(count * len(sub), sub) for sub, count in nodes.items()
              if is_valid_piece(sub, max_piece_length, split_by_script)]
    # tokenizers adds a substring before checking the size, so at least one comes in
    room = max(seed_size - len(entries), 1)
    if scored:
        scored.sort(reverse=True)
        entries.extend((sub, score) for score, sub in scored[:room])
    total = sum(value for _, value in entries)
    log_total = math.log(total)
    return [(piece, math.log(value) - log_total) for piece, value in entries], chars

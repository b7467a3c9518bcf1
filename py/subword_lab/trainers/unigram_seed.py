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
whether two different characters ever follow it. After a word's last character
comes whatever followed the word in the corpus, which the trainer records while
it counts words (`followers`).

Counting follows sentencepiece, which runs the suffix array over the running text:
every occurrence counts (a word seen 10 times counts its substrings 10 times).
`tokenizers` joins the distinct words once each instead (`weighted=False`); its
seed then misses most of the pieces sentencepiece starts from, and its final
vocabulary shares only about 80% of sentencepiece's on botchan.txt.
"""
from __future__ import annotations

import math
import unicodedata

SPACE_MARK = "\u2581"  # "▁", what Metaspace puts in front of words
_END = "\0"  # the boundary character between joined words


# kana and kanji are one script, as sentencepiece merges them; "ー" (KATAKANA-HIRAGANA
# PROLONGED SOUND MARK) too, which sentencepiece names in its rule.
_SCRIPT_ALIASES = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HALFWIDTH": "CJK", "IDEOGRAPHIC": "CJK",
                   "KATAKANA-HIRAGANA": "CJK"}


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


MANY = None  # in `followers`: the word was followed by more than one character


def substring_nodes(words, max_piece_length: int, weighted=True, followers=None) -> dict:
    """Substring (2..max_piece_length characters) -> count, for the suffix-tree nodes.

    A node occurs at least twice and is right-branching: two of its occurrences
    are followed by different characters. Inside a word the next character is
    known; at a word's end it is whatever followed the word in the corpus:
    `followers[word]` is that character (the next word's first, or "\\0" at the
    end of a sequence), or MANY when it varied. Without `followers`, a word's end
    counts as one boundary character, as when the distinct words are joined.
    `weighted` counts every occurrence in the corpus (sentencepiece, which reads
    the running text); otherwise each distinct word counts once (tokenizers).
    """
    counts = {}
    follower = {}  # substring -> the one character seen after it so far
    branching = set()
    cget = counts.get
    fget = followers.get if followers is not None else None
    for word, wc in words:
        inc = wc if weighted else 1
        n = len(word)
        end = _END if fget is None else fget(word, _END)
        for i in range(n - 1):
            top = min(n, i + max_piece_length)
            for j in range(i + 2, top + 1):
                sub = word[i:j]
                nxt = word[j] if j < n else end
                seen = cget(sub)
                if seen is None:
                    counts[sub] = inc
                    follower[sub] = nxt
                    if nxt is MANY:
                        branching.add(sub)
                else:
                    counts[sub] = seen + inc
                    if nxt is MANY or follower[sub] != nxt:
                        branching.add(sub)
    return {sub: counts[sub] for sub in branching if counts[sub] >= 2}


def seed_pieces(words, seed_size: int, max_piece_length: int, split_by_script=True,
                followers=None, weighted=True):
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
    nodes = substring_nodes(words, max_piece_length, weighted, followers)
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

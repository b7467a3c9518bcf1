"""BPE encoding of one word: merge the adjacent pair of lowest rank, again and again.

A trained BPE model is a vocabulary (token -> id) and a list of merges, in the
order training learned them; a merge's position in that list is its *rank*.
Encoding a word:

1. Split it into symbols, one per character. (Byte-level models, such as GPT-2's,
   saw the word after `byte_level.split` rewrote each UTF-8 byte as one character,
   so here a symbol is a byte.) A character missing from the vocabulary becomes
   its bytes as "<0xNN>" tokens (byte fallback), or the unknown token, or is dropped.
2. Look at every adjacent pair of symbols; among those that have a merge, take
   the one of lowest rank (the leftmost if it occurs twice) and join it.
3. Repeat step 2 until no adjacent pair has a merge.

(A model with `ignore_merges`, as GPT-4o's and Llama 3's, then takes a word its
vocabulary holds whole as one token, whatever the merges made of it.)

That is all. The fast code (`subword_lab.models.BPE`) finds the same merges with
a heap and caches words; the tests prove both give the same tokens and events.
BPE-dropout (skipping merges at random) is left out here.
"""
from __future__ import annotations

from collections.abc import Mapping

__all__ = ["encode_word", "encode", "word_encoder", "ranks_of_merges", "ranks_of_tokens"]

# The variables the Code panel shows (see steps.py).
SHOWN = ("word", "symbols", "pair", "rank", "position", "new")


def encode_word(word, vocab, ranks, *, unk_token=None, continuing_subword_prefix="",
                end_of_word_suffix="", fuse_unk=False, byte_fallback=False,
                ignore_merges=False, on_event=None):
    """The tokens of `word` as [token, id, start, end] rows (offsets in characters).

    vocab: token -> id. ranks: (left, right) -> rank, for every pair that merges
    (`ranks_of_merges` makes it from a merge list). on_event: called with the
    events of docs/events.md ("bpe.word" ... "bpe.done").
    """
    if not word:
        return []
    report = on_event or (lambda event: None)
    report({"type": "bpe.word", "word": word})

    # Step 1: one symbol per character, each [text, start, end].
    symbols = initial_symbols(word, vocab, unk_token, continuing_subword_prefix or "",
                              end_of_word_suffix or "", fuse_unk, byte_fallback, report)
    report({"type": "bpe.symbols", "symbols": [s[0] for s in symbols],
            "ids": [vocab[s[0]] for s in symbols], "spans": [[s[1], s[2]] for s in symbols]})

    cut = len(continuing_subword_prefix or "")  # "##" leaves the right part when merged
    while True:
        # Step 2: the adjacent pair of lowest rank; min() keeps the leftmost on a tie.
        found = [(ranks[(a[0], b[0])], position)
                 for position, (a, b) in enumerate(zip(symbols, symbols[1:]))
                 if (a[0], b[0]) in ranks]
        if not found:
            break  # Step 3: nothing left to merge
        rank, position = min(found)
        left, right = symbols[position], symbols[position + 1]
        pair = [left[0], right[0]]
        new = left[0] + right[0][cut:]
        symbols[position:position + 2] = [[new, left[1], right[2]]]
        report({"type": "bpe.merge", "rank": rank, "pair": pair, "new": new, "id": vocab[new],
                "position": position, "symbols": [s[0] for s in symbols]})

    tokens = [[text, vocab[text], start, end] for text, start, end in symbols]
    if ignore_merges and word in vocab:
        # With ignore_merges, a word the vocabulary holds whole is one token, whatever
        # the merges made of it (they are still shown above: how it is built).
        whole = [word, vocab[word], 0, len(word)]
        report({"type": "bpe.ignore_merges", "token": word, "id": whole[1],
                "merged": [t[1] for t in tokens] == [whole[1]]})
        tokens = [whole]
    report({"type": "bpe.done", "tokens": tokens})
    return tokens


def initial_symbols(word, vocab, unk_token, prefix, suffix, fuse_unk, byte_fallback, report):
    """One [text, start, end] per character: the prefix on every character but the
    first, the suffix on the last; unknown ones become bytes, the unk token or nothing."""
    symbols = []
    last_was_unk = False
    for position, char in enumerate(word):
        symbol = (prefix if position else "") + char + (suffix if position == len(word) - 1 else "")
        if symbol in vocab:
            symbols.append([symbol, position, position + 1])
            last_was_unk = False
            continue
        byte_tokens = [f"<0x{b:02X}>" for b in symbol.encode("utf-8", "surrogatepass")]
        if byte_fallback and all(t in vocab for t in byte_tokens):
            report({"type": "bpe.byte_fallback", "symbol": symbol, "start": position,
                    "end": position + 1, "tokens": byte_tokens})
            symbols.extend([t, position, position + 1] for t in byte_tokens)
            last_was_unk = False
            continue
        fused = bool(unk_token is not None and fuse_unk and last_was_unk)
        report({"type": "bpe.unk", "symbol": symbol, "start": position, "end": position + 1,
                "token": unk_token, "id": vocab.get(unk_token) if unk_token else None,
                "fused": fused})
        if unk_token is None:
            continue  # no unknown token: the character is dropped
        if fused:
            symbols[-1][2] = position + 1  # the unknown before it grows over this one
        else:
            symbols.append([unk_token, position, position + 1])
        last_was_unk = True
    return symbols


def ranks_of_merges(merges):
    """(left, right) -> rank from a merge list: its position (a pair listed twice
    keeps its last position, as `tokenizers` does)."""
    return {(left, right): rank for rank, (left, right) in enumerate(merges)}


def ranks_of_tokens(token_ranks):
    """(left, right) -> rank for tiktoken-style files, where each token has a rank and
    a pair of two tokens ranks as the token it makes (so two splits of one token tie)."""
    return PairRanks(token_ranks)


class PairRanks(Mapping):
    """The pair ranks of a tiktoken-style file, looked up pair by pair: a file of 200,000
    tokens has some 900,000 pairs that merge, too many to list for every encode."""

    def __init__(self, token_ranks):
        self.token_ranks = token_ranks

    def __getitem__(self, pair):
        left, right = pair
        if left in self.token_ranks and right in self.token_ranks:
            return self.token_ranks[left + right]  # KeyError: the two make no token
        raise KeyError(pair)

    def __iter__(self):  # every split of a token into two tokens
        ranked = self.token_ranks
        return ((token[:cut], token[cut:]) for token in ranked for cut in range(1, len(token))
                if token[:cut] in ranked and token[cut:] in ranked)

    def __len__(self):
        return sum(1 for _ in self)


def word_encoder(model):
    """`encode_word` with the vocabulary, merges and options of a `models.BPE`, as a
    function of (word, on_event=None); the ranks are made once, for all the words."""
    ranks = ranks_of_merges(model.merges) if model.ranks is None else ranks_of_tokens(model.ranks)

    def encode(word, on_event=None):
        return encode_word(word, model.vocab, ranks, unk_token=model.unk_token,
                           continuing_subword_prefix=model.continuing_subword_prefix,
                           end_of_word_suffix=model.end_of_word_suffix, fuse_unk=model.fuse_unk,
                           byte_fallback=model.byte_fallback, ignore_merges=model.ignore_merges,
                           on_event=on_event)
    return encode


def encode(model, word, on_event=None):
    """`encode_word` of one word with a `models.BPE` (`word_encoder` for many)."""
    return word_encoder(model)(word, on_event)

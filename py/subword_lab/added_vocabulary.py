"""Added and special tokens: found in the text before the model ever sees it.

Follows HF's AddedVocabulary: tokens with `normalized=False` are matched in the
raw input; the pieces between them are then normalized, and tokens with
`normalized=True` are matched in that normalized text. Matching is leftmost-
longest and non-overlapping (an alternation sorted longest-first gives exactly
that with `re`), then `single_word`, `lstrip` and `rstrip` adjust each match.
"""
from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from .core.errors import SubwordLabError

__all__ = ["AddedToken", "AddedVocabulary"]

# Rust's `\s` (Unicode White_Space); Python's str.isspace also accepts \x1c-\x1f.
_WHITE_SPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
_WORD_CATEGORIES = frozenset({"Nd", "Nl", "Mn", "Mc", "Me", "Pc"})


def _is_word_char(c):
    """Rust regex `\\w`: alphabetic, marks, decimal digits, connectors, joiners."""
    return (c.isalpha() or unicodedata.category(c) in _WORD_CATEGORIES
            or c in "\u200c\u200d")


class AddedToken:
    """A token the tokenizer must never split (HF's `tokenizers.AddedToken`).

    `normalized=None` means "the default": True for ordinary added tokens,
    False for special ones (decided when the token is added)."""

    __slots__ = ("content", "single_word", "lstrip", "rstrip", "_normalized", "special")

    def __init__(self, content: str = "", single_word: bool = False, lstrip: bool = False,
                 rstrip: bool = False, normalized: bool | None = None,
                 special: bool = False) -> None:
        self.content = str(content)
        self.single_word = bool(single_word)
        self.lstrip = bool(lstrip)
        self.rstrip = bool(rstrip)
        self._normalized = normalized
        self.special = bool(special)

    @property
    def normalized(self) -> bool:
        return (not self.special) if self._normalized is None else bool(self._normalized)

    @normalized.setter
    def normalized(self, value: bool | None) -> None:
        self._normalized = value

    def _key(self):
        return (self.content, self.single_word, self.lstrip, self.rstrip,
                self.normalized, self.special)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self.content == other
        return isinstance(other, AddedToken) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self.content)

    def __str__(self) -> str:
        return self.content

    def __repr__(self) -> str:
        return (f'AddedToken("{self.content}", rstrip={self.rstrip}, lstrip={self.lstrip}, '
                f"single_word={self.single_word}, normalized={self.normalized}, "
                f"special={self.special})")

    def __getstate__(self) -> dict:
        return {"content": self.content, "single_word": self.single_word,
                "lstrip": self.lstrip, "rstrip": self.rstrip,
                "normalized": self.normalized, "special": self.special}

    def __setstate__(self, state: dict) -> None:
        type(self).__init__(self, **state)

    def resolved(self) -> AddedToken:
        """A copy with `normalized` fixed, as HF does when the token is added."""
        return AddedToken(self.content, self.single_word, self.lstrip, self.rstrip,
                          self.normalized, self.special)

    @classmethod
    def from_dict(cls, d: dict, path: str | os.PathLike[str] | None = None,
                  index: int = 0) -> AddedToken:
        field = f"added_tokens[{index}]"
        if not isinstance(d, dict) or not isinstance(d.get("content"), str):
            raise SubwordLabError("each added token needs a string 'content'", path, field)
        if "id" in d and not isinstance(d["id"], int):
            raise SubwordLabError(f"'id' must be an integer, not {d['id']!r}", path, field)
        return cls(d["content"], d.get("single_word", False), d.get("lstrip", False),
                   d.get("rstrip", False), d.get("normalized", True), d.get("special", False))


class AddedVocabulary:
    """The added tokens of one tokenizer, their ids, and how to find them in text."""

    def __init__(self) -> None:
        self.tokens_map: dict[str, int] = {}           # content -> id
        self.tokens_map_r: dict[int, AddedToken] = {}  # id -> AddedToken
        self.special_tokens: set[str] = set()
        self.normalized_cache: dict[int, str] = {}  # id -> the token's normalized content, when it differs
        self.encode_special_tokens = False
        self._raw_ids: dict[str, int] = {}   # normalized=False tokens, matched in the raw input
        self._norm_ids: dict[str, int] = {}  # normalized=True tokens, matched after normalization
        self._patterns: dict[bool, Any] = {}  # the regexes for both, compiled on first use

    def __len__(self) -> int:
        return len(self.tokens_map)

    def get_vocab(self) -> dict[str, int]:
        return dict(self.tokens_map)

    def get_added_tokens_decoder(self) -> dict[int, AddedToken]:
        return dict(self.tokens_map_r)

    def token_to_id(self, token: str, model: Any) -> int | None:
        found = self.tokens_map.get(token)
        return model.token_to_id(token) if found is None else found

    def simple_id_to_token(self, id_: int) -> str | None:
        tok = self.tokens_map_r.get(id_)
        if tok is None:
            return None
        return self.normalized_cache.get(id_, tok.content)

    def is_special_token(self, token: str) -> bool:
        return token in self.special_tokens

    # -- adding ---------------------------------------------------------------------

    def add_tokens(self, tokens: Iterable[AddedToken | str], model: Any,
                   normalizer: Any = None) -> int:
        """Add tokens (AddedToken or str); returns how many were really added."""
        vocab_size = model.get_vocab_size()
        if self.tokens_map_r:
            top = max(self.tokens_map_r)
            next_id = top + 1 if (top >= vocab_size or vocab_size == 0) else vocab_size
        else:
            next_id = vocab_size
        total = ignored = 0
        for token in tokens:
            total += 1
            if isinstance(token, str):
                token = AddedToken(token)
            token = token.resolved()
            if not token.content:
                ignored += 1
                continue
            known = self.tokens_map.get(token.content)
            if known is not None and self.tokens_map_r.get(known) == token:
                ignored += 1
                continue
            new_id = self.token_to_id(token.content, model)
            if new_id is None:
                new_id, next_id = next_id, next_id + 1
            self._cache_normalized(new_id, token, normalizer)
            self.tokens_map[token.content] = new_id
            if token.special:
                self.special_tokens.add(token.content)
            self.tokens_map_r[new_id] = token
        self._refresh()
        return total - ignored

    def _cache_normalized(self, id_, token, normalizer):
        if token.normalized and normalizer is not None:
            normed = normalizer.normalize_str(token.content)
            if normed != token.content:
                self.normalized_cache[id_] = normed

    def refresh_normalized(self, normalizer: Any) -> None:
        """Re-normalize every normalized token (the tokenizer's normalizer changed)."""
        self.normalized_cache.clear()
        for id_, token in self.tokens_map_r.items():
            self._cache_normalized(id_, token, normalizer)
        self._refresh()

    def _refresh(self):
        raw, norm = {}, {}
        for id_, token in self.tokens_map_r.items():
            if token.normalized:
                norm[self.normalized_cache.get(id_, token.content)] = id_
            else:
                raw[token.content] = id_
        self._raw_ids, self._norm_ids = raw, norm
        # Compiling an alternation of thousands of tokens takes a while: a
        # tokenizer that never looks for them in text (sentencepiece's) never pays.
        self._patterns = {}

    def _pattern(self, normalized_tokens):
        found = self._patterns.get(normalized_tokens, 0)
        if found == 0:
            found = _alternation(self._norm_ids if normalized_tokens else self._raw_ids)
            self._patterns[normalized_tokens] = found
        return found

    # -- matching -------------------------------------------------------------------

    @property
    def has_raw(self) -> bool:
        return bool(self._raw_ids)

    @property
    def has_normalized(self) -> bool:
        return bool(self._norm_ids)

    def find_matches(self, text: str,
                     normalized_tokens: bool) -> list[tuple[int | None, int, int]]:
        """[(id or None, start, end)] covering `text`: the added tokens found and the
        gaps between them (HF's find_matches, in character offsets)."""
        pattern = self._pattern(normalized_tokens)
        ids = self._norm_ids if normalized_tokens else self._raw_ids
        if not text:
            return [(None, 0, 0)]
        if pattern is None:
            return [(None, 0, len(text))]
        pieces: list[tuple[int | None, int, int]] = []
        cursor = 0
        for m in pattern.finditer(text):
            start, stop = m.span()
            id_ = ids[m.group()]
            token = self.tokens_map_r[id_]
            if self.encode_special_tokens and token.content in self.special_tokens:
                continue
            if token.single_word:
                before_ok = start == 0 or not _is_word_char(text[start - 1])
                after_ok = stop == len(text) or not _is_word_char(text[stop])
                if not (before_ok and after_ok):
                    continue
            if token.lstrip:
                start = max(len(text[:start].rstrip(_WHITE_SPACE)), cursor)
            if token.rstrip:
                stop = len(text) - len(text[stop:].lstrip(_WHITE_SPACE))
            if cursor < start:
                pieces.append((None, cursor, start))
            pieces.append((id_, start, stop))
            cursor = stop
        if cursor != len(text):
            pieces.append((None, cursor, len(text)))
        return pieces

    # -- tokenizer.json -------------------------------------------------------------

    def to_list(self) -> list[dict]:
        out = []
        for id_ in sorted(self.tokens_map_r):
            tok = self.tokens_map_r[id_]
            out.append({"id": id_, "content": tok.content, "single_word": tok.single_word,
                        "lstrip": tok.lstrip, "rstrip": tok.rstrip,
                        "normalized": tok.normalized, "special": tok.special})
        return out


def _alternation(table):
    """One regex that finds the leftmost, then longest, of the given strings."""
    if not table:
        return None
    alternatives = sorted(table, key=lambda s: (-len(s), s))
    return re.compile("|".join(re.escape(s) for s in alternatives))

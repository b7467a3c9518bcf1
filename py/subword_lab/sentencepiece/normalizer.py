"""sentencepiece's Normalizer: the whole text at once, by the precompiled charsmap and
the spec's whitespace rules, with every character's alignment to the input (see
__init__.py for why sentencepiece's pipeline is not Hugging Face's).
"""
from __future__ import annotations

import re

from ..core.normalized import NormalizedString

from .pieces import SPACE, matcher

__all__ = ["SpmNormalizer"]


class SpmNormalizer:
    """sentencepiece's Normalizer::Normalize: the charsmap (longest rule at each
    position; user-defined symbols pass through untouched), then its whitespace
    rules, the dummy prefix (or suffix) and the escaping of " " as "▁"."""

    def __init__(self, charsmap, spec, user_symbols, suffix=False):
        self.charsmap = charsmap  # a normalizers.Precompiled in sentencepiece mode, or None
        self.add_dummy_prefix = bool(spec.add_dummy_prefix)
        self.remove_extra = bool(spec.remove_extra_whitespaces)
        self.space = SPACE if spec.escape_whitespaces else " "
        self.suffix = bool(suffix)
        self.user = matcher(user_symbols)
        self._special = None

    def _special_starts(self):
        """A regex for the positions where something other than "copy this char"
        may happen: a user-defined symbol, or a char that may begin a charsmap rule
        (an ASCII char begins a rule only if it is listed in the charsmap's ASCII
        starters or a non-ASCII char follows it)."""
        parts = []
        if self.user is not None:
            parts.append(self.user.pattern)
        cm = self.charsmap
        if cm is not None and cm.charsmap is not None:
            starters = cm.charsmap.ascii_key_starters()
            if starters:
                parts.append("[" + re.escape(starters) + "]")
            parts.append("[\x00-\x7f](?=[^\x00-\x7f])|[^\x00-\x7f]")
        return re.compile("|".join(parts)) if parts else None

    def _steps(self, text):
        """sentencepiece's NormalizePrefix over the text: [(output, start, end, plain)],
        where a plain step is a run of chars copied unchanged."""
        if self._special is None:
            self._special = [self._special_starts()]
        special = self._special[0]
        if special is None:
            return [(text, 0, len(text), True)]
        user = self.user
        cm = self.charsmap
        longest = cm.charsmap.longest if cm is not None and cm.charsmap is not None else None
        steps = []
        i, n = 0, len(text)
        while i < n:
            m = special.search(text, i)
            if m is None:
                steps.append((text[i:], i, n, True))
                break
            j = m.start()
            if j > i:
                steps.append((text[i:j], i, j, True))
            i = j
            if user is not None:
                u = user.match(text, i)
                if u is not None:
                    steps.append((u.group(), i, u.end(), False))
                    i = u.end()
                    continue
            c = text[i]
            if longest is not None and cm._may_start(c):
                key = text[i:i + 32].encode("utf-8", "surrogatepass")
                hit = longest(key, 0)
                if hit is not None:
                    length, out = hit
                    old = key[:length].decode("utf-8", "surrogatepass")
                    steps.append((out, i, i + len(old), False))
                    i += len(old)
                    continue
            steps.append((c, i, i + 1, True))
            i += 1
        return steps

    def normalize_str(self, text: str) -> NormalizedString:
        if not text:
            return NormalizedString("")
        normalized, align = self._normalize(text, True)
        return NormalizedString(text, _normalized=normalized, _align=align)

    def normalize_text(self, text: str) -> str:
        """The normalized text alone, without the alignment (counting needs no offsets)."""
        return self._normalize(text, False)[0] if text else ""

    def keeps_every_char(self, text: str) -> bool:
        """True when no character of `text` but whitespace can vanish here: no rule of
        the charsmap that it meets writes nothing or only spaces (which may collapse)
        for characters that are not all whitespace. (A count that needs no offsets can
        then say that every other character lies in some token.)"""
        return all(out.strip(" ") or text[start:end].isspace()
                   for out, start, end, plain in self._steps(text) if not plain) if text else True

    def _normalize(self, text, aligned):
        """(normalized text, alignment or None): the alignment is built only if `aligned`."""
        steps = self._steps(text)
        remove, space = self.remove_extra, self.space
        k = 0
        if remove:  # sentencepiece drops the prefixes that normalize to " " first
            while k < len(steps):
                out, start, end, plain = steps[k]
                if plain:
                    kept = out.lstrip(" ")
                    if kept:
                        steps[k] = (kept, end - len(kept), end, True)
                        break
                elif out != " ":
                    break
                k += 1
            if k == len(steps):
                return "", []
        chars, align = [], ([] if aligned else None)
        if self.add_dummy_prefix and not self.suffix:
            chars.append(space)
            if aligned:
                align.append((steps[k][1], steps[k][1]))
        prev_space = remove
        for out, start, end, plain in steps[k:]:
            if plain and len(out) > 1 and not (remove and "  " in out):
                if prev_space and out[0] == " ":
                    out = out.lstrip(" ")
                    start = end - len(out)
                    if not out:
                        continue
                chars.append(out.replace(" ", space) if space != " " else out)
                if aligned:
                    align.extend(zip(range(start, end), range(start + 1, end + 1)))
                prev_space = remove and out[-1] == " "
                continue
            if plain and len(out) > 1:  # runs of spaces to collapse: char by char
                for i, c in enumerate(out, start):
                    if prev_space and c == " ":
                        continue
                    chars.append(space if c == " " else c)
                    if aligned:
                        align.append((i, i + 1))
                    prev_space = c == " "
                continue
            if prev_space:
                out = out.lstrip(" ")
            if out:
                span = (start, end)
                chars.append(out.replace(" ", space) if space != " " else out)
                if aligned:
                    align.extend([span] * len(out))
                prev_space = remove and out[-1] == " "
        normalized = "".join(chars)
        if remove:
            stripped = normalized.rstrip(space)
            if len(stripped) != len(normalized):
                if aligned:
                    del align[len(stripped):]
                normalized = stripped
        if self.suffix and self.add_dummy_prefix:
            normalized += space
            if aligned:
                at = align[-1][1] if align else len(text)
                align.append((at, at))
        return normalized, align

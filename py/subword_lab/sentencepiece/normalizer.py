"""sentencepiece's Normalizer: the whole text at once, by the precompiled charsmap and
the spec's whitespace rules, with every character's alignment to the input (see
__init__.py for why sentencepiece's pipeline is not Hugging Face's).
"""
from __future__ import annotations

import re

from ..core.normalized import NormalizedString

from .pieces import SPACE, matcher

__all__ = ["SpmNormalizer", "alignment"]

_WORD_OR_SPACES = re.compile("[^ ]+| +")
_SPACES = re.compile("  +")


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
        self._rules = {}

    def _special_starts(self):
        """A regex for the positions where something other than "copy this char"
        may happen: a user-defined symbol, or a char that may begin a charsmap rule
        (an ASCII char begins a rule only if it is listed in the charsmap's ASCII
        starters, or begins some rule and a non-ASCII char follows it). Any char
        past U+FFFF is found too and checked by the caller: a class of a few
        thousand such chars would be scanned range by range, slowly."""
        parts = []
        if self.user is not None:
            parts.append(self.user.pattern)
        cm = self.charsmap
        if cm is not None and cm.charsmap is not None:
            ascii_keys = cm.charsmap.ascii_key_starters()
            if ascii_keys:
                parts.append("[" + re.escape(ascii_keys) + "]")
        in_ascii = "|".join(parts)  # all that can happen in ASCII text
        if cm is not None and cm.charsmap is not None:
            starters = cm.charsmap.starters()  # sorted
            low = "".join(c for c in starters if c.isascii())
            if low:
                parts.append("[" + re.escape(low) + "](?=[^\\x00-\\x7f])")
            bmp = "".join(c for c in starters[len(low):] if c <= "\uffff")
            parts.append("[" + _ranges(bmp) + "\U00010000-\U0010ffff]")
        return (re.compile("|".join(parts)) if parts else None,
                re.compile(in_ascii) if in_ascii else None)

    def _steps(self, text):
        """sentencepiece's NormalizePrefix over the text: [(output, start, end, plain)],
        where a plain step is a run of chars copied unchanged."""
        if self._special is None:
            self._special = self._special_starts()
        special = self._special[text.isascii()]
        if special is None:
            return [(text, 0, len(text), True)]
        user = self.user
        cm = self.charsmap
        longest = cm.charsmap.longest if cm is not None and cm.charsmap is not None else None
        steps = []
        run = i = 0  # the plain run so far starts at `run`
        while True:
            m = special.search(text, i)
            if m is None:
                break
            i = m.start()
            step = None
            if user is not None:
                u = user.match(text, i)
                if u is not None:
                    step = (u.group(), i, u.end(), False)
            if step is None and longest is not None and cm._may_start(text[i]):
                hit = self._rule(text, i)
                if hit is not None:
                    step = (hit[1], i, i + hit[0], False)
            if step is None:  # the char is copied: the plain run goes on
                i += 1
                continue
            if i > run:
                steps.append((text[run:i], run, i, True))
            steps.append(step)
            i = run = step[2]
        if run < len(text):
            steps.append((text[run:], run, len(text), True))
        return steps

    def _rule(self, text, i):
        """The charsmap's longest rule at text[i]: (chars it replaces, replacement) or
        None; remembered by the two chars there when the lookup read no further."""
        pair = text[i:i + 2]
        hit = self._rules.get(pair, 0)
        if hit != 0:
            return hit
        key = text[i:i + 32].encode("utf-8", "surrogatepass")
        hit, read = self.charsmap.charsmap.longest_read(key)
        if hit is not None:
            hit = (len(key[:hit[0]].decode("utf-8", "surrogatepass")), hit[1])
        if read <= len(pair.encode("utf-8", "surrogatepass")) and len(self._rules) < 10_000:
            self._rules[pair] = hit
        return hit

    def normalize_str(self, text: str) -> NormalizedString:
        if not text:
            return NormalizedString("")
        normalized, chunks = self.normalize_parts(text)
        return NormalizedString(text, _normalized=normalized, _align=alignment(chunks))

    def normalize_text(self, text: str) -> str:
        """The normalized text alone, without the alignment (counting needs no offsets):
        what `normalize_parts` gives, by whole-string operations. Its whitespace rules
        come down to collapsing runs of spaces (within a plain run, and across the joins
        of steps, where it strips the leading spaces of a step after a space) and
        stripping both ends; they do not collapse spaces inside a charsmap rule's output,
        so text whose rules write two spaces in a row, or that keeps nothing, goes the
        long way."""
        if not text:
            return ""
        steps = self._steps(text)
        body = "".join([step[0] for step in steps])
        if self.remove_extra:
            if any(not plain and "  " in out for out, _, _, plain in steps):
                return self.normalize_parts(text)[0]
            body = _SPACES.sub(" ", body).strip(" ")
            if not body:
                return self.normalize_parts(text)[0]
        space = self.space
        if space != " ":
            body = body.replace(" ", space)
        if self.add_dummy_prefix and not self.suffix:
            body = space + body
        if self.remove_extra:
            body = body.rstrip(space)
        if self.suffix and self.add_dummy_prefix:
            body += space
        return body

    def keeps_every_char(self, text: str) -> bool:
        """True when no character of `text` but whitespace can vanish here: no rule of
        the charsmap that it meets writes nothing or only spaces (which may collapse)
        for characters that are not all whitespace. (A count that needs no offsets can
        then say that every other character lies in some token.)"""
        return all(out.strip(" ") or text[start:end].isspace()
                   for out, start, end, plain in self._steps(text) if not plain) if text else True

    def normalize_parts(self, text: str):
        """(normalized text, chunks): what `normalize_str` gives, with the alignment
        left to be made by `alignment(chunks)` when it is needed."""
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
                return "", ([], 0, None)
        # a chunk: (length, start, end, plain): `length` chars from text[start:end],
        # copied (plain) or each aligned to the whole span
        chars, chunks = [], []
        if self.add_dummy_prefix and not self.suffix:
            chars.append(space)
            chunks.append((1, steps[k][1], steps[k][1], False))
        prev_space = remove
        for out, start, end, plain in steps[k:]:
            if plain and len(out) > 1 and not (remove and "  " in out):
                if prev_space and out[0] == " ":
                    out = out.lstrip(" ")
                    start = end - len(out)
                    if not out:
                        continue
                chars.append(out.replace(" ", space) if space != " " else out)
                chunks.append((len(out), start, end, True))
                prev_space = remove and out[-1] == " "
                continue
            if plain and len(out) > 1:  # runs of spaces to collapse: one space each
                for m in _WORD_OR_SPACES.finditer(out):
                    a, b = m.span()
                    if out[a] != " ":
                        chars.append(out[a:b])
                        chunks.append((b - a, start + a, start + b, True))
                        prev_space = False
                    elif not prev_space:
                        chars.append(space)
                        chunks.append((1, start + a, start + a + 1, True))
                        prev_space = True
                continue
            if prev_space:
                out = out.lstrip(" ")
            if out:
                chars.append(out.replace(" ", space) if space != " " else out)
                chunks.append((len(out), start, end, plain))
                prev_space = remove and out[-1] == " "
        normalized = "".join(chars)
        keep = len(normalized)
        if remove:
            normalized = normalized.rstrip(space)
            keep = len(normalized)
        tail = None
        if self.suffix and self.add_dummy_prefix:
            tail = len(text)  # after the last char kept, or the text's end
            normalized += space
        return normalized, (chunks, keep, tail)


def alignment(parts) -> list:
    """The (start, end) in the text of each normalized char, from `normalize_parts`."""
    chunks, keep, tail = parts
    align = []
    for length, start, end, plain in chunks:
        if plain:
            align.extend(zip(range(start, end), range(start + 1, end + 1)))
        else:
            align.extend([(start, end)] * length)
    del align[keep:]
    if tail is not None:
        at = align[-1][1] if align else tail
        align.append((at, at))
    return align


def _ranges(chars: str) -> str:
    """A sorted string of distinct chars as a regex class body of ranges."""
    out, i = [], 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out.append(re.escape(chars[i]) if i == j else
                   re.escape(chars[i]) + "-" + re.escape(chars[j]))
        i = j + 1
    return "".join(out)

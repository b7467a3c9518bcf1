"""Keep user-given regular expressions from running forever.

Split pre-tokenizers and Replace normalizers in a tokenizer.json, and the split
pattern of a tiktoken file, are regexes written by whoever made the file. A
backtracking engine (Python's `re`, like Oniguruma) can take exponential time on
some of them: `(a+)+$`, `(a|aa)+b`, `(.*a){20}`. Hugging Face's tokenizers gives up
after a backtracking budget; `re` has none, so this module bounds the work in two
ways:

1. At load time, `compile_user` measures the pattern's shape and refuses the
   known-catastrophic ones: an unbounded repetition of something that can itself
   match in several ways (a nested unbounded repetition, alternatives that can
   start with the same character), or a bounded repetition of such a thing whose
   backtracking degree is too high. The published patterns of real tokenizers
   have none of these.
2. At run time, the patterns that pass get a time limit where Python can enforce
   one: in CPython's main thread an interval timer of CPU time (SIGPROF)
   interrupts a long match, since `re` checks for signals while it backtracks. Texts short enough
   for the pattern's polynomial degree skip the timer, so the hot path (many
   short pieces) pays nothing. Where there are no signals (other threads,
   Pyodide) nothing can interrupt Python from inside; `set_listener` lets the
   caller (the page's worker) learn that a long user-regex step is starting, so a
   watchdog outside Python knows which step to blame, and `refuse_input` tells a
   fresh Python which (pattern, text) pairs already ran past that watchdog, so
   they fail at once instead of hanging again.

Every failure is one SubwordLabError naming the file, the field and the pattern.
"""
from __future__ import annotations

import re
import signal
import sys
import threading
import time
import zlib

from . import translate as unicode_regex
from .planes import TwoPlaneRegex, pieces_in, spans_in
from ..errors import SubwordLabError

try:  # the private parser module is the only way to see the structure of a pattern
    from re import _parser as _sre_parse
    from re import _constants as _sre
except ImportError:  # pragma: no cover - older layouts
    import sre_parse as _sre_parse  # type: ignore
    import sre_constants as _sre  # type: ignore

# The time a user regex may take on one text: a fixed part, plus a part that grows
# with the text, so that long texts under sound patterns are never cut short
# while a runaway match on a text of modest size (up to ~100 KB) stops within 2 s.
LIMIT_SECONDS = 1.0
PER_CHAR_SECONDS = 5e-6
# Above this backtracking degree a pattern is refused outright (see _Shape).
MAX_DEGREE = 8
_INFINITE = float("inf")
# A text of n characters costs at most about n ** (degree + 1) steps; texts under
# this many steps skip the timer.
_CHEAP_STEPS = 2_000_000

_listener = None
_known_slow: dict = {}  # (pattern, digest of a text) -> seconds it ran before it was stopped


def set_listener(callback) -> None:
    """callback(phase, pattern, field, path, size, digest), phase "start" or "end",
    called around a user-regex match that cannot be timed here (no signals) and may
    be long: `size` is the text's length, `digest` names the text (`text_digest`)
    for `refuse_input`; phase "refused" just before RegexTooSlow is raised for a
    text `refuse_input` named. Plain strings and numbers only, so a JavaScript callback
    receives no proxies to free."""
    global _listener
    _listener = callback


def refuse_input(pattern: str, digest: str, seconds: float) -> None:
    """From now on, running `pattern` on the text named by `digest` raises
    RegexTooSlow at once: it ran for `seconds` before it was stopped from outside."""
    _known_slow[(pattern, digest)] = float(seconds)


def text_digest(text: str) -> str:
    """A short name for a text, the same in every Python process (unlike hash())."""
    return f"{len(text)}:{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


class RegexTooSlow(SubwordLabError):
    """A user-given regex ran past its time limit."""


class GuardedRegex:
    """A compiled user pattern with a bounded running time; quacks like re.Pattern
    for what the pipeline uses (finditer, sub, findall, search, match)."""

    __slots__ = ("compiled", "source", "path", "field", "cheap_length")

    def __init__(self, compiled: re.Pattern, source: str, degree: float, field: str):
        self.compiled = compiled
        self.source = source
        self.path = None
        self.field = field
        self.cheap_length = int(_CHEAP_STEPS ** (1.0 / (degree + 1)))

    @property
    def pattern(self):
        return self.compiled.pattern

    @property
    def groupindex(self):
        return self.compiled.groupindex

    @property
    def groups(self):
        return self.compiled.groups

    def label(self, path=None, field=None) -> None:
        """Say where the pattern comes from, for the error message."""
        if path is not None:
            self.path = str(path)
        if field is not None:
            self.field = field

    # Each method first picks the compiled pattern for this text, and only then runs it
    # under the bound: picking may compile a translated pattern's whole form (o200k's:
    # 0.1 s in CPython, 0.2 s in Pyodide, more on a busy machine), which is no part of
    # matching and must never be taken for backtracking by the page's watch.

    def _pick(self, text):
        compiled = self.compiled
        return compiled.pick(text) if type(compiled) is TwoPlaneRegex else compiled

    def _route(self, text):
        compiled = self.compiled
        return compiled.route(text) if type(compiled) is TwoPlaneRegex else (compiled, text)

    def finditer(self, text, *args):
        pattern = self._pick(text)
        return iter(self._run(lambda: list(pattern.finditer(text, *args)), text))

    def findall(self, text, *args):
        pattern = self._pick(text)
        return self._run(lambda: pattern.findall(text, *args), text)

    def sub(self, repl, text, count=0):
        pattern = self._pick(text)
        return self._run(lambda: pattern.sub(repl, text, count), text)

    def search(self, text, *args):
        pattern = self._pick(text)
        return self._run(lambda: pattern.search(text, *args), text)

    def match(self, text, *args):
        pattern = self._pick(text)
        return self._run(lambda: pattern.match(text, *args), text)

    def spans(self, text) -> list:
        """[(start, end)] of every match, as TwoPlaneRegex.spans gives them (astral
        characters as placeholders where the pattern allows)."""
        pattern, subject = self._route(text)
        return self._run(lambda: spans_in(pattern, subject), text)

    def pieces(self, text) -> list:
        """The matched strings, as TwoPlaneRegex.pieces gives them (no groups)."""
        if self.groups:
            raise ValueError("pieces() is for patterns without groups")
        pattern, subject = self._route(text)
        return self._run(lambda: pieces_in(pattern, subject, text), text)

    def _run(self, run, text):
        # Texts too short for the pattern's degree to matter skip the bound (the hot path).
        return run() if len(text) <= self.cheap_length else self._bounded(run, text)

    def _too_slow(self, limit) -> RegexTooSlow:
        return RegexTooSlow(
            f"the regex {self.source!r} takes too long on this text (over {limit:.1f} s): "
            "it backtracks too much; simplify it (fewer repetitions that can trade "
            "characters with each other)", path=self.path, field=self.field)

    def _bounded(self, run, text):
        size = len(text)
        if _can_time():
            limit = LIMIT_SECONDS + size * PER_CHAR_SECONDS
            return _with_timer(run, limit, lambda: self._too_slow(limit))
        if _listener is None and not _known_slow:
            return run()
        digest = text_digest(text)
        stopped_after = _known_slow.get((self.source, digest))
        if stopped_after is not None:
            if _listener is not None:  # so the page can say it as it did when it stopped it
                _listener("refused", self.source, self.field, self.path, size, digest)
            raise self._too_slow(stopped_after)
        if _listener is None:
            return run()
        _listener("start", self.source, self.field, self.path, size, digest)
        try:
            return run()
        finally:
            _listener("end", self.source, self.field, self.path, size, digest)


ROUTED = (TwoPlaneRegex, GuardedRegex)  # they give spans()/pieces() (astral placeholders)


def _can_time() -> bool:
    # Pyodide (emscripten) has the module but no timer that could interrupt Python.
    return (hasattr(signal, "setitimer") and sys.platform != "emscripten"
            and threading.current_thread() is threading.main_thread())


class _Alarm(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Alarm()


def _with_timer(run, limit, error):
    # The limit is CPU time (ITIMER_PROF), not wall-clock time: on a busy machine a
    # sound pattern on a long text must not be cut short because other programs ran.
    # An outer profiling timer (ours, nested, or the host program's) is kept and
    # re-armed; a host's wall-clock timers (SIGALRM) are not touched at all.
    previous = signal.signal(signal.SIGPROF, _on_alarm)
    outer_left, _ = signal.setitimer(signal.ITIMER_PROF, limit)
    started = time.process_time()
    try:
        return run()
    except _Alarm:
        raise error() from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        if outer_left:
            left = outer_left - (time.process_time() - started)
            signal.setitimer(signal.ITIMER_PROF, max(left, 1e-6))


# --------------------------------------------------------------------------
# The static check.

def compile_user(pattern: str, flavor: str, field: str = "pattern", *,
                 allow_named_groups: bool = True):
    """Translate, compile and check a user-given pattern; refuse the ones that
    backtrack catastrophically (SubwordLabError naming `field` and the pattern).
    Returns a GuardedRegex, or the plain re.Pattern when it runs in linear time."""
    compiled = unicode_regex.compile(pattern, flavor)
    if not allow_named_groups and compiled.groupindex:
        raise SubwordLabError(
            f"named groups are not allowed in a Split pattern: {pattern!r}", field=field)
    degree = backtracking_degree(compiled.pattern)
    if degree > MAX_DEGREE:
        raise SubwordLabError(
            f"the regex {pattern!r} can backtrack without end (a repetition of something "
            "that can itself match in several ways, like (a+)+ or (a|aa)+): it would hang "
            "on some texts; rewrite it without the nested repetition", field=field)
    if degree == 0:
        return compiled  # no repetition can give characters back: linear, nothing to bound
    return GuardedRegex(compiled, pattern, degree, field)


def backtracking_degree(source: str) -> float:
    """How many unbounded repetitions can trade characters with each other in one
    match attempt (polynomial degree of the worst case); infinite when a repetition
    repeats an ambiguous thing (exponential worst case)."""
    try:
        tree = _sre_parse.parse(source)
    except re.error:
        return 0  # the compile already succeeded; the parser may not agree on rare syntax
    return _Shape().sequence(list(tree), tail=True)


_MAXREPEAT = _sre.MAXREPEAT
_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT}
_POSSESSIVE = getattr(_sre, "POSSESSIVE_REPEAT", None)
_ATOMIC = getattr(_sre, "ATOMIC_GROUP", None)
_ALL = ((0, unicode_regex.MAX_CP),)


class _Shape:
    """Walks a parsed pattern (re._parser's tree).

    `tail` says nothing follows in the whole pattern: a repetition there is never
    forced to give characters back (the match ends as soon as it stops), so only
    what comes after a repetition can make it backtrack."""

    def sequence(self, items, tail=False) -> float:
        last = len(items) - 1
        return sum(self.item(op, av, tail and i == last) for i, (op, av) in enumerate(items))

    def item(self, op, av, tail) -> float:
        if op in _REPEATS:
            low, high, body = av
            return self.repeat(low, high, list(body), tail)
        if op == _POSSESSIVE:
            return self.sequence(list(av[2]))
        if op == _sre.SUBPATTERN:
            return self.sequence(list(av[-1]), tail)
        if op == _ATOMIC:
            return self.sequence(list(av), True)
        if op == _sre.ASSERT:
            return self.sequence(list(av[1]), True)  # any one match will do
        if op == _sre.ASSERT_NOT:
            return self.sequence(list(av[1]))
        if op == _sre.BRANCH:
            return max(self.sequence(list(b), tail) for b in av[1])
        if op == _sre.GROUPREF_EXISTS:
            return max(self.sequence(list(b), tail) for b in av[1:] if b is not None)
        if op == _sre.GROUPREF:
            return 1  # a backreference compares a span: one more free length
        return 0

    def repeat(self, low, high, body, tail) -> float:
        inner = self.sequence(body)
        if high == 1 or (tail and low <= 1):
            return inner
        if inner == 0 and not self.ambiguous(body):
            return 1  # one repetition of a fixed thing: its count is the only choice
        if high == _MAXREPEAT:
            return _INFINITE
        return max(1, inner) * high

    def ambiguous(self, body) -> bool:
        """Can one stretch of text match the body in two ways, or can the body match
        nothing: a choice (alternatives, an optional item) whose options may start
        alike or be empty. (The parser factors `a|aa` into `a(?:|a)`.)"""
        if self.first(body) is None:
            return True
        for op, av in body:
            if op in (_sre.SUBPATTERN, _ATOMIC) and self.ambiguous_inside(op, av):
                return True
            if op == _sre.BRANCH and self.branch_overlaps(av[1]):
                return True
        return False

    def ambiguous_inside(self, op, av) -> bool:
        items = list(av[-1]) if op == _sre.SUBPATTERN else list(av)
        return any(o == _sre.BRANCH and self.branch_overlaps(a[1]) for o, a in items) or \
            any(o in (_sre.SUBPATTERN, _ATOMIC) and self.ambiguous_inside(o, a) for o, a in items)

    def branch_overlaps(self, branches) -> bool:
        seen: list = []
        for branch in branches:
            f = self.first(list(branch))
            if f is None or unicode_regex.intersect(unicode_regex.normalize(list(seen)), f):
                return True
            seen.extend(f)
        return False

    def first(self, items):
        """Ranges the first character of a match may take; None if it may be empty."""
        for op, av in items:
            if op == _sre.LITERAL:
                return [(av, av)]
            if op == _sre.NOT_LITERAL:
                return unicode_regex.complement([(av, av)])
            if op == _sre.ANY:
                return list(_ALL)
            if op == _sre.IN:
                return _class_ranges(av)
            if op == _sre.SUBPATTERN:
                return self.first(list(av[-1]))
            if op in (_sre.ASSERT, _sre.ASSERT_NOT, _sre.AT):
                continue
            if op in _REPEATS or op == _POSSESSIVE:
                low, high, body = av
                return self.first(list(body)) if low > 0 else None
            return None
        return None


def _class_ranges(items) -> list:
    ranges, negate = [], False
    for op, av in items:
        if op == _sre.NEGATE:
            negate = True
        elif op == _sre.LITERAL:
            ranges.append((av, av))
        elif op == _sre.RANGE:
            ranges.append(av)
        else:  # \d and friends, case folding: be conservative
            return list(_ALL)
    ranges = unicode_regex.normalize(ranges)
    return unicode_regex.complement(ranges) if negate else ranges


def label(component, path=None, field: str = "") -> None:
    """Tell every user regex inside a pipeline component (normalizer, pre-tokenizer,
    Sequences of them) where it was read from, for runtime errors."""
    if component is None:
        return
    for attr, name in (("pretokenizers", "pretokenizers"), ("normalizers", "normalizers")):
        children = getattr(component, attr, None)
        if isinstance(children, list):
            for i, child in enumerate(children):
                label(child, path, f"{field}.{name}[{i}]" if field else f"{name}[{i}]")
    for attr in ("_compiled", "_matcher"):
        guarded = getattr(component, attr, None)
        if isinstance(guarded, GuardedRegex):
            guarded.label(path, f"{field}.pattern" if field else "pattern")

"""User-given regexes never hang: refused at load time when their shape is known
to backtrack without end, interrupted at run time otherwise; every error is one
SubwordLabError naming the file, the field and the pattern, within 2 s.
The published patterns of real tokenizers are never refused."""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import subword_lab
from subword_lab.core.regex import guard as regex_guard, planes, translate as unicode_regex
from subword_lab.core.errors import SubwordLabError

from test_regex_translation import _cached_file_patterns, _tiktoken_patterns

ROOT = Path(__file__).resolve().parents[2]

# Exponential on a run of a's with no match at its end.
REFUSED = [r"(a+)+$", r"(a|aa)+b", r"(.*a){20}", r"(a*)*b", r"(\w+\s?)+$",
           r"((ab)*|a)+c", r"(x+x+)+y"]
# Accepted by the static check (polynomial), but far too slow on a long run of a's.
SLOW = [r"a*a*a*a*a*a*a*b", r"(?:a*){8}b"]
TEXT = "a" * 400 + "!"


def _tokenizer_json(pre=None, norm=None) -> dict:
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
            "normalizer": norm, "pre_tokenizer": pre, "post_processor": None, "decoder": None,
            "model": {"type": "WordLevel", "vocab": {"a": 0, "[UNK]": 1}, "unk_token": "[UNK]"}}


def _split(pattern, invert=False):
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated",
            "invert": invert}


# (where the pattern goes, the field an error must name)
PLACES = {
    "split": (lambda p: _tokenizer_json(pre={"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"}, _split(p)]}), "pre_tokenizer.pretokenizers[1].pattern"),
    "inverted_split": (lambda p: _tokenizer_json(pre=_split(p, invert=True)),
                       "pre_tokenizer.pattern"),
    "replace": (lambda p: _tokenizer_json(norm={"type": "Sequence", "normalizers": [
        {"type": "Lowercase"},
        {"type": "Replace", "pattern": {"Regex": p}, "content": "x"}]}),
        "normalizer.normalizers[1].pattern"),
}


def _write(tmp_path, data, name="tokenizer.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _assert_named(exc, path, field, pattern):
    message = str(exc)
    assert str(path) in message and field in message and repr(pattern) in message, message


def _load_and_encode(path, text=TEXT, **options):
    # CPU time, as the guard counts it: other programs on a busy machine stretch the
    # wall-clock time of the same work.
    started = time.process_time()
    with pytest.raises(SubwordLabError) as info:
        subword_lab.load(path, **options).encode(text)
    elapsed = time.process_time() - started
    assert elapsed < 2.0, f"took {elapsed:.2f} s of CPU"
    return info.value


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("pattern", REFUSED + SLOW)
def test_catastrophic_pattern_errors_in_time(tmp_path, place, pattern):
    build, field = PLACES[place]
    path = _write(tmp_path, build(pattern))
    _assert_named(_load_and_encode(path), path, field, pattern)


@pytest.mark.parametrize("pattern", REFUSED)
def test_known_catastrophic_shapes_are_refused_at_load(tmp_path, pattern):
    path = _write(tmp_path, PLACES["split"][0](pattern))
    with pytest.raises(SubwordLabError, match="backtrack"):
        subword_lab.load(path)


def _tiktoken_file(tmp_path) -> Path:
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    path = tmp_path / "tiny.tiktoken"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


@pytest.mark.parametrize("pattern", [REFUSED[0], SLOW[0]])
def test_user_tiktoken_pattern_errors_in_time(tmp_path, pattern):
    path = _tiktoken_file(tmp_path)
    exc = _load_and_encode(path, pattern=pattern)
    _assert_named(exc, path, "pattern", pattern)


def _cli(args, stdin):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "subword_lab", *args], input=stdin.encode(),
                          capture_output=True, env=env, timeout=60)
    return done, time.monotonic() - started


@pytest.mark.parametrize("pattern", [REFUSED[0], SLOW[0]])
def test_cli_errors_in_one_line(tmp_path, pattern):
    path = _write(tmp_path, PLACES["inverted_split"][0](pattern))
    done, elapsed = _cli(["encode", "--tokenizer", str(path)], TEXT + "\n")
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    _assert_named(err, path, "pre_tokenizer.pattern", pattern)


def test_split_refuses_named_groups(tmp_path):
    path = _write(tmp_path, PLACES["split"][0](r"(?<word>\w+)"))
    with pytest.raises(SubwordLabError, match="named groups") as info:
        subword_lab.load(path)
    _assert_named(info.value, path, "pre_tokenizer.pretokenizers[1].pattern", r"(?<word>\w+)")


def _published():
    onig, fancy = _cached_file_patterns()
    yield from ((name, p, "onig") for name, p in onig.items())
    yield from ((name, p, "fancy") for name, p in fancy.items())
    yield from ((name, p, "fancy") for name, p in _tiktoken_patterns().items())


def test_published_patterns_are_accepted_and_fast():
    published = list(_published())
    assert len(published) >= 7  # tiktoken's own, at least
    long_text = ("Hello world's 12345678 東京 👍🏽  \r\n\t x " * 500)
    for name, pattern, flavor in published:
        guarded = regex_guard.compile_user(pattern, flavor)
        got = [m.span() for m in guarded.finditer(long_text)]  # under the time bound
        assert got == [m.span() for m in unicode_regex.compile(pattern, flavor).finditer(long_text)]


def _guarded_two_plane():
    """Each published pattern that the guard bounds, freshly compiled (its whole form not
    compiled yet), with the translation's own compile as the reference."""
    for name, pattern, flavor in _published():
        shared = regex_guard.compile_user(pattern, flavor)  # compiles are cached and shared
        if type(getattr(shared, "compiled", None)) is planes.TwoPlaneRegex:
            two = shared.compiled
            fresh = planes.TwoPlaneRegex(two.source, two.bmp, two.astral)
            degree = regex_guard.backtracking_degree(two.pattern)
            yield name, regex_guard.GuardedRegex(fresh, pattern, degree, "pattern"), two


def test_the_bound_times_matching_not_compiling():
    """Where nothing can interrupt Python (the page's worker), the page's watch times each
    bounded match from the listener's "start": a translated pattern's whole form (o200k's
    takes 0.2 s to compile in Pyodide) is compiled before that, and a text whose astral
    characters can run as placeholders never needs it. Same matches as the reference."""
    found = list(_guarded_two_plane())
    assert len(found) >= 3, found  # o200k, cl100k and others are bounded two-plane patterns
    astral = "Hello 👍🏽 world's 東京 𝒳 12345 " * 100  # past every cheap_length here
    surrogate = astral + "\ud800"  # a lone surrogate: no placeholders, the whole form runs
    for name, guarded, reference in found:
        compiled_at_start = []
        regex_guard.set_listener(lambda phase, *rest: phase == "start" and compiled_at_start.append(
            guarded.compiled._full is not None))
        results = {}

        def run():  # a thread: no signals, as in the page
            results["spans"] = guarded.spans(astral)
            results["pieces"] = guarded.pieces(astral) if not guarded.groups else None
            results["placeholders compiled"] = guarded.compiled._full is not None
            results["finditer"] = [m.span() for m in guarded.finditer(surrogate)]
        try:
            worker = threading.Thread(target=run)
            worker.start()
            worker.join(60)
        finally:
            regex_guard.set_listener(None)
        want = [m.span() for m in reference.finditer(astral)]
        assert results["spans"] == want, name
        if results["pieces"] is not None:
            assert results["pieces"] == [astral[a:b] for a, b in want], name
        if guarded.compiled.astral is not None:
            assert results["placeholders compiled"] is False, name
        assert results["finditer"] == [m.span() for m in reference.finditer(surrogate)], name
        assert len(astral) > guarded.cheap_length, name
        # spans and pieces on placeholders (no whole form yet), then finditer (with it)
        assert compiled_at_start[-1] is True, name


def test_without_signals_the_listener_hears_the_risky_step():
    heard = []
    regex_guard.set_listener(
        lambda phase, pattern, field, path, size, digest: heard.append((phase, pattern)))
    try:
        guarded = regex_guard.compile_user(r"\s*[\r\n]+x", "onig", "pattern")
        result = []
        worker = threading.Thread(target=lambda: result.append(guarded.findall(" \n" * 5000)))
        worker.start()
        worker.join(30)
        assert result == [[]]
        assert heard == [("start", r"\s*[\r\n]+x"), ("end", r"\s*[\r\n]+x")]
        heard.clear()
        guarded.findall(" \n")  # short: no timer, no report
        assert heard == []
    finally:
        regex_guard.set_listener(None)


def test_the_listener_names_the_file_field_and_text(tmp_path):
    """What the page's watchdog learns before a match it cannot time: enough to name
    the file, the field and the pattern if it has to stop Python, and the text."""
    path = _write(tmp_path, PLACES["split"][0](SLOW[0]))
    tokenizer = subword_lab.load(path)
    heard = []
    regex_guard.set_listener(lambda *args: heard.append(args))
    try:
        worker = threading.Thread(target=lambda: tokenizer.encode("b" * 50 + " x"), daemon=True)
        worker.start()
        worker.join(30)
    finally:
        regex_guard.set_listener(None)
    piece = "b" * 50  # WhitespaceSplit runs first: the Split sees one word at a time
    expected = (SLOW[0], "pre_tokenizer.pretokenizers[1].pattern", str(path), len(piece),
                regex_guard.text_digest(piece))
    assert heard == [("start", *expected), ("end", *expected)]


def test_a_text_that_was_stopped_from_outside_fails_at_once(tmp_path):
    """After the page ended a hanging match, a fresh Python refuses that pattern on that
    text at once (named as at run time) and still runs it on other texts."""
    path = _write(tmp_path, PLACES["inverted_split"][0](SLOW[0]))
    tokenizer = subword_lab.load(path)
    regex_guard.refuse_input(SLOW[0], regex_guard.text_digest(TEXT), 1.5)
    results = []
    heard = []
    regex_guard.set_listener(lambda *args: heard.append(args))

    def run():  # a thread: no signals, as in the page
        for text in (TEXT, "a" * 20 + "b"):
            try:
                results.append(tokenizer.encode(text).ids)
            except SubwordLabError as error:
                results.append(error)
    try:
        worker = threading.Thread(target=run, daemon=True)  # never keeps pytest alive
        worker.start()
        worker.join(30)
    finally:
        regex_guard._known_slow.clear()
        regex_guard.set_listener(None)
    # the page hears which text was refused (to say so in its own words), before the error
    assert heard[0] == ("refused", SLOW[0], "pre_tokenizer.pattern", str(path), len(TEXT),
                        regex_guard.text_digest(TEXT))
    refused, other = results
    assert isinstance(refused, regex_guard.RegexTooSlow)
    _assert_named(refused, path, "pre_tokenizer.pattern", SLOW[0])
    assert "1.5 s" in str(refused)
    assert other == subword_lab.load(path).encode("a" * 20 + "b").ids


def test_text_digest_is_stable_and_takes_lone_surrogates():
    assert regex_guard.text_digest("abc") == regex_guard.text_digest("abc")
    assert regex_guard.text_digest("abc") != regex_guard.text_digest("abd")
    assert regex_guard.text_digest("\ud800x").startswith("2:")


@pytest.mark.parametrize("kind", ["wall-clock", "CPU"])
def test_an_outer_timer_survives(tmp_path, kind):
    """A host program's own timer still fires after a guarded match: a wall-clock one is
    left alone, a CPU-time one (the kind the guard uses) is re-armed with what was left."""
    import signal
    sig, timer = {"wall-clock": (signal.SIGALRM, signal.ITIMER_REAL),
                  "CPU": (signal.SIGPROF, signal.ITIMER_PROF)}[kind]
    fired = []
    previous = signal.signal(sig, lambda *a: fired.append(1))
    try:
        signal.setitimer(timer, 1.5)
        guarded = regex_guard.compile_user(SLOW[0], "onig", "pattern")
        with pytest.raises(regex_guard.RegexTooSlow):
            guarded.findall(TEXT)
        assert signal.getitimer(timer)[0] > 0 or fired, "the outer timer was disarmed"
        # Wait in this process's CPU time, which is what a CPU-time timer counts: on a busy
        # machine five seconds of wall-clock time gave it well under the 1.5 s it needed.
        # (The wall-clock cap only keeps a broken timer from hanging the run.)
        cpu_deadline, cap = time.process_time() + 3, time.monotonic() + 300
        while not fired and time.process_time() < cpu_deadline and time.monotonic() < cap:
            sum(range(10_000))  # busy: a CPU-time timer runs only while we compute
        assert fired == [1]
    finally:
        signal.setitimer(timer, 0)
        signal.signal(sig, previous)

"""GPT-2's byte-level table and split patterns against tokenizers and tiktoken."""
from __future__ import annotations

import base64
import unicodedata

import pytest
import tiktoken
import tokenizers
from tiktoken_ext import openai_public
from tokenizers import decoders as hf_decoders
from tokenizers import pre_tokenizers as hf_pre

from subword_lab.core.tables import byte_level
from subword_lab.core.regex import translate as unicode_regex
from subword_lab.core.errors import SubwordLabError

# Text that exercises what the patterns treat specially: contractions (ASCII and
# typographic), runs of spaces before words, tabs, newlines, control characters
# that Python calls spaces but Unicode does not (\x1c-\x1f), odd Unicode spaces,
# marks, joiners, emoji sequences, scripts without spaces, digits of many kinds.
SAMPLE = [
    "Hello, world! It's a test: we'll see, they've gone, I'm here, you'd know, she's 'right'.",
    "Don\u2019t stop \u2014 it\u2019s \u201cquoted\u201d and \u2018single\u2019 ... O'Neil's 'S 'LL 'Ve",
    "Apostrophes: 's 't 're 've 'm 'll 'd 'S 'T 'RE \u2019s \u2019ll ''s ' 'x",
    "'s at start, and end's",
    "Fran\u00e7ais: l'\u00e9t\u00e9 \u00e0 Paris co\u00fbte 12,50 \u20ac; na\u00efve caf\u00e9.",
    "\u0420\u0443\u0441\u0441\u043a\u0438\u0439: \u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440! 2024",
    "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac: \u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03ba\u03cc\u03c3\u03bc\u03b5",
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629: \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 \u0661\u0662\u0663",
    "\u05e2\u05d1\u05e8\u05d9\u05ea: \u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd, \u05d0\u05b1\u05dc\u05b9\u05d4\u05b4\u05d9\u05dd",
    "\u0939\u093f\u0928\u094d\u0926\u0940: \u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e \u0967\u0968\u0969",
    "\u0e44\u0e17\u0e22: \u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e0a\u0e32\u0e27\u0e42\u0e25\u0e01 \u0e51\u0e52\u0e53",
    "\u4e2d\u6587\uff1a\u4f60\u597d\uff0c\u4e16\u754c\uff01\u6211\u7231\u5317\u4eac\u3002\uff11\uff12\uff13",
    "\u65e5\u672c\u8a9e\uff1a\u3053\u3093\u306b\u3061\u306f\u4e16\u754c\u3001\u30ab\u30bf\u30ab\u30ca\u3001\uff8a\uff9d\uff76\uff78\u3002",
    "\ud55c\uad6d\uc5b4: \uc548\ub155\ud558\uc138\uc694 \uc138\uacc4 \u3131\u3134\u3137",
    "\u10e5\u10d0\u10e0\u10d7\u10e3\u10da\u10d8 \u0540\u0561\u0575\u0565\u0580\u0565\u0576 \u12a0\u121b\u122d\u129b \u1369\u136a",
    "Emoji: \U0001f44b\U0001f3fd \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 "
    "\U0001f3f3\ufe0f\u200d\U0001f308 \u2764\ufe0f \U0001f1ef\U0001f1f5 \U0001f600\U0001f600",
    "Combining: e\u0301 a\u0308 n\u0303 o\u0302\u0323 Z\u0351\u0352\u0357 \u0301alone",
    "Zero width: a\u200bb c\u200cd e\u200df \u2060g \ufeffh \u00adsoft",
    "Tabs\tand\t\ttabs \t mixed \t\t",
    "   leading and trailing spaces   ",
    "runs    of     spaces      here",
    "line\nbreaks\r\nand\rreturns\n\n\nend\n",
    "odd spaces:\u00a0nbsp\u2003em\u3000ideo\u2028ls\u2029ps\u0085nel\x0bvt\x0cff",
    "controls: \x1c\x1d\x1e\x1f\x00\x01\x7f end \x1c word",
    "def f(x):\n    return x ** 2  # comment\n\tif x != 0: print(f'{x:>10}')",
    "const url = 'https://example.com/path?q=1&b=2#frag'; // see mailto:someone@example.org",
    "Numbers: 3.14159 1,000,000 42nd 0xFF 1e-9 \u00bd \u00b2 \u00b3 \u216b \u2466 \U0001d7d9\U0001d7da 1234567",
    "Math: \u2200x\u2208\u211d, x\u00b2 \u2265 0; \u2211\u1d62 a\u1d62 \u2260 \u221e \u00b1 \u221a2",
    "snake_case __init__ camelCase kebab-case \u24b6\u24d1 \U0001f130 \uff21\uff22\uff23\uff0c",
    "!!! ??? ... --- ___ *** ### @@@ $$$ %%% ^^^ &&& ((( ))) [[[ ]]] {{{ }}} <<< >>> ||| \\\\ ///",
    "", " ", "  ", "\t", "\n", "a", "'", "'s",
]


@pytest.fixture(scope="module")
def texts(botchan_lines, multilingual_lines):
    lines = botchan_lines + multilingual_lines + SAMPLE
    return lines + ["\n".join(SAMPLE), "\n".join(multilingual_lines)]


@pytest.fixture(scope="module")
def gpt2_ranks(gpt2_tiktoken):
    ranks = {}
    for line in gpt2_tiktoken.read_text(encoding="utf-8").splitlines():
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _tiktoken_pattern(name):
    """The pattern exactly as tiktoken defines it, without downloading its ranks."""
    saved = (openai_public.load_tiktoken_bpe, openai_public.data_gym_to_mergeable_bpe_ranks)
    openai_public.load_tiktoken_bpe = lambda *a, **k: {}
    openai_public.data_gym_to_mergeable_bpe_ranks = lambda *a, **k: {}
    try:
        return getattr(openai_public, name)()["pat_str"]
    finally:
        openai_public.load_tiktoken_bpe, openai_public.data_gym_to_mergeable_bpe_ranks = saved


# --- the byte table ------------------------------------------------------------

def test_byte_table_matches_tokenizers_alphabet():
    ours = byte_level.alphabet()
    assert len(set(ours)) == 256
    assert set(ours) == set(hf_pre.ByteLevel.alphabet())
    assert byte_level.bytes_to_unicode()[ord(" ")] == "\u0120"


def test_every_byte_round_trips_through_the_decoder():
    # HF's ByteLevel decoder turns the byte characters back into bytes: it is
    # the oracle for which character stands for which byte.
    decoder = hf_decoders.ByteLevel()
    for b, ch in byte_level.bytes_to_unicode().items():
        if b < 0x80:
            assert decoder.decode([ch]) == chr(b)
        assert byte_level.decode_to_bytes(ch) == bytes([b])
        assert byte_level.encode_bytes(bytes([b])) == ch
    every = bytes(range(256))
    assert byte_level.encode_bytes(every * 2) == "".join(byte_level.alphabet()) * 2
    assert byte_level.decode_to_bytes(byte_level.encode_bytes(every)) == every


def test_encode_text_matches_tokenizers(texts):
    hf = hf_pre.ByteLevel(add_prefix_space=False, use_regex=False)
    for text in texts[:: max(1, len(texts) // 500)] + SAMPLE:
        expected = "".join(piece for piece, _ in hf.pre_tokenize_str(text))
        assert byte_level.encode_text(text) == expected
        assert byte_level.decode_to_bytes(byte_level.encode_text(text)) == text.encode("utf-8")


def test_decode_to_bytes_rejects_foreign_characters():
    assert byte_level.decode_to_bytes("a\u4e2d") is None


# --- the GPT-2 split -------------------------------------------------------------

def test_gpt2_split_matches_tokenizers_on_every_line(texts):
    hf = hf_pre.ByteLevel(add_prefix_space=False, use_regex=True)
    mismatches = []
    for text in texts:
        ours = [byte_level.encode_text(p) for p in byte_level.split_gpt2(text)]
        if ours != [p for p, _ in hf.pre_tokenize_str(text)]:
            mismatches.append(text)
    assert mismatches == []
    assert len(texts) > 4000


def _assigned(start, stop):
    return [chr(c) for c in range(start, stop) if unicodedata.category(chr(c)) not in ("Cn", "Cs")]


@pytest.mark.parametrize("sep", ["", " ", "a", "1", "'"])
def test_gpt2_split_matches_tokenizers_on_every_assigned_code_point(sep):
    # Every character this Python's Unicode assigns, next to letters, digits,
    # spaces and apostrophes: the classes \p{L}, \p{N}, \s agree with Oniguruma's.
    text = sep.join(_assigned(0, 0x110000))
    hf = hf_pre.ByteLevel(add_prefix_space=False, use_regex=True)
    ours = [byte_level.encode_text(p) for p in byte_level.split_gpt2(text)]
    assert ours == [p for p, _ in hf.pre_tokenize_str(text)]


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_tiktoken_patterns_are_tiktokens(name):
    assert byte_level.TIKTOKEN_PATTERNS[name] == _tiktoken_pattern(name)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_tiktoken_split_gives_tiktokens_ids(name, texts, gpt2_ranks):
    # BPE never merges across pieces, so encoding our pieces one by one with
    # tiktoken's own BPE gives tiktoken's ids only if our pieces are its pieces.
    # (gpt2's ranks serve every pattern: the split does not depend on them.)
    enc = tiktoken.Encoding(name, pat_str=_tiktoken_pattern(name),
                            mergeable_ranks=gpt2_ranks, special_tokens={})
    rx = byte_level.tiktoken_regex(name)
    extra = ["a\n\n b  \n  c   ", "x  \n", "123456789 1234", "  \r\n\r\n  x", "a/b//\n/"]
    mismatches = []
    for text in texts + extra:
        ours = [i for piece in rx.findall(text)
                for i in enc._encode_single_piece(piece.encode("utf-8"))]
        if ours != enc.encode_ordinary(text):
            mismatches.append(text)
    assert mismatches == []


# --- the regex translator -----------------------------------------------------------

REGEXES = [
    r"\s+", r"\S+", r"\w+", r"\W+", r"\d+", r"\D", r"\p{L}+", r"\P{L}+", r"\p{Lu}\p{Ll}*",
    r"\p{P}", r"\p{S}+", r"\p{M}+", r"\p{Z}", r"\pN+", r"\PN", r"[\p{L}&&\p{Lu}]+", r"[^\p{L}\s]+",
    r"[a-z]+", r"[[:punct:]]+", r"(?i:hello|'s)", r"\p{N}{1,3}", r"\p{N}{2,3}+",
    r" ?[^\s\p{L}\p{N}]+[\r\n]*", r"\s*[\r\n]+", r"[0-9]+$", r"^\s+", r"(?:ab|a)c?",
    r"[\x{4e00}-\x{9fff}]+", r"\u00e9", r"\.", r"[.,;]", r"\b\w", r"[一-龥぀-ゟ゠-ヿ]+",
    r"(?i)s+", r"a(?i)b|c", r"(?<n>x)\k<n>", r"\p{Letter}+", r"\p{Decimal_Number}+",
]


@pytest.mark.parametrize("pattern", REGEXES)
def test_split_regex_matches_oniguruma(pattern, texts):
    """Translated patterns find what HF's Split (Oniguruma) finds."""
    hf = hf_pre.Split(tokenizers.Regex(pattern), "isolated")
    rx = unicode_regex.compile(pattern, "onig")
    probe = texts[::7] + SAMPLE + ["HELLO hello 'S 'ſ Kk \u212a", "xx xax ab abc aac\nBBb"]
    for text in probe:
        expected = [span for _, span in hf.pre_tokenize_str(text)]
        ours = _isolated_spans(rx, text)
        assert ours == expected, text


def _isolated_spans(rx, text):
    spans, prev = [], 0
    for m in rx.finditer(text):
        if m.start() > prev:
            spans.append((prev, m.start()))
        if m.end() > m.start():
            spans.append(m.span())
        prev = m.end()
    if prev < len(text):
        spans.append((prev, len(text)))
    return spans


CLASSES = [
    r"\w", r"\W", r"\s", r"\d", r"\h", r"[\w\d]", r"[^\w]", r"\p{L}", r"\p{N}", r"\p{P}",
    r"\p{S}", r"\p{M}", r"\p{C}", r"\p{Lo}", r"\p{Sk}", r"\P{Ll}", r"[^\s\p{L}\p{N}]",
    r"[[:punct:]]", r"[[:word:]]", r"[[:space:]]", r"[[:upper:]]", r"[[:digit:]]",
    r"[[:print:]]", r"[[:graph:]]", r"[[:cntrl:]]", r"[[:blank:]]", r"[[:^digit:]]",
]


@pytest.fixture(scope="module")
def every_assigned_char():
    return "".join(_assigned(0, 0x110000))


@pytest.mark.parametrize("pattern", CLASSES)
def test_classes_match_oniguruma_on_every_assigned_code_point(pattern, every_assigned_char):
    text = every_assigned_char
    kept = set()
    for piece, _ in hf_pre.Split(tokenizers.Regex(pattern), "removed").pre_tokenize_str(text):
        kept.update(piece)
    rx = unicode_regex.compile(pattern, "onig")
    ours = {c for c in text if rx.match(c)}
    assert ours == set(text) - kept


@pytest.mark.parametrize("pattern", [r"[a-", r"\p{Foo}", r"(ab", r"ab)", r"\q", r"(?U)a", r"\x{zz}",
                                     r"[[:alpha:]]"])
def test_bad_regex_raises_subwordlab_error(pattern):
    with pytest.raises(SubwordLabError) as info:
        unicode_regex.compile(pattern, "onig")
    assert info.value.field == "pattern"


def test_white_space_is_unicode_not_python():
    rx = unicode_regex.compile(r"\s", "fancy")
    assert not rx.match("\x1c") and "\x1c".isspace()
    assert rx.match("\x85") and rx.match("\u3000") and not rx.match("\u200b")


def test_category_tables_cover_every_code_point_once():
    table = unicode_regex._category_ranges()
    covered = sorted(r for ranges in table.values() for r in ranges)
    nxt = 0
    for lo, hi in covered:
        assert lo == nxt
        nxt = hi + 1
    assert nxt == 0x110000


def test_category_tables_equal_a_scan_of_every_code_point():
    """The planes left out of the scan (never assigned, private use) hold what unicodedata says."""
    import itertools
    import unicodedata
    scanned = {}
    for cat, run in itertools.groupby(range(0x110000), key=lambda cp: unicodedata.category(chr(cp))):
        scanned.setdefault(cat, []).extend((cp, cp) for cp in run)
    expected = {cat: unicode_regex.normalize(ranges) for cat, ranges in scanned.items()}
    assert unicode_regex._category_ranges() == expected

""".tiktoken files: tiktoken's "base64 rank" lines, made a byte-level BPE with tiktoken's ids."""
from __future__ import annotations

import base64
import binascii
import itertools
import re
from pathlib import Path

from .. import decoders, models, normalizers, pre_tokenizers
from ..added_vocabulary import AddedToken
from ..core.tables import byte_level
from ..core.regex import guard as regex_guard
from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from . import known_encodings
from .files import check_options, read_bytes, with_path

__all__ = ["load_tiktoken", "read_tiktoken", "build_tiktoken", "KNOWN_ENCODINGS"]

# Every encoding name `pattern=` knows (io/known_encodings.py), aliases included.
KNOWN_ENCODINGS = known_encodings.KNOWN_ENCODINGS


_PLAIN_LINES = re.compile(rb"(?:[A-Za-z0-9+/=]++ [0-9]++\n)*+")  # the usual layout
_MAX_RANK = 2 ** 32  # tiktoken's core keeps ranks as 32-bit unsigned integers


def read_tiktoken(path: Path) -> dict:
    """token bytes -> rank, accepting exactly the lines tiktoken's `load_tiktoken_bpe`
    accepts (and refusing, with the line, what it or tiktoken's core refuses).

    As tiktoken does: the file is bytes, split at \\n, \\r or \\r\\n; empty lines
    are skipped; each other line is two fields split at ASCII whitespace; the
    token is decoded by `base64.b64decode` (non-validating: "=" is the empty token
    Whisper's multilingual file has at 50256); the rank by `int` on bytes (ASCII
    digits, an optional sign, underscores). A token given twice keeps its last rank.
    tiktoken's core then refuses ranks outside 0..2^32-1 and two tokens sharing a rank.
    """
    data = read_bytes(path)
    if not data.strip():
        raise SubwordLabError("empty file (expected 'base64-token rank' lines)", path=path)
    ranks = _read_fast(data)
    if ranks is None:
        ranks = _read_checked(path, data)
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        # tiktoken loads such a file but fails on the first text that needs the byte.
        raise SubwordLabError(f"{len(missing)} single bytes have no rank (first: "
                              f"{missing[0]}); byte-level BPE needs all 256", path=path,
                              field="ranks")
    return ranks


def _read_fast(data: bytes):
    """The ranks of a well-formed file, in tiktoken's own way (one comprehension);
    None when anything is wrong, for _read_checked to find the line and say why."""
    # Whole-file C-level passes: with two fields on every line, the file's fields
    # alternate token, rank (base64.b64decode of bytes is binascii.a2b_base64). Every
    # published file is "token rank\n" lines, which one regex pass proves (17 ms for
    # o200k's 200,000 lines, where splitting each line to count its fields took 58).
    if _PLAIN_LINES.fullmatch(data) is None and \
            set(map(len, map(bytes.split, filter(None, data.splitlines())))) != {2}:
        return None
    fields = data.split()
    try:
        ranks = dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))
    except (ValueError, binascii.Error):
        return None
    values = ranks.values()
    if not ranks or min(values) < 0 or max(values) >= _MAX_RANK \
            or len(set(values)) != len(ranks):
        return None
    return ranks


def _read_checked(path, data: bytes) -> dict:
    """Line by line, to refuse with the line number what tiktoken would refuse."""
    ranks, line_of = {}, {}
    for n, line in enumerate(data.splitlines(), 1):
        if not line:
            continue
        fields = line.split()
        if len(fields) != 2:
            raise SubwordLabError(f"expected 'base64-token rank', got {_show(line)}",
                                  path=path, field=f"line {n}")
        token_text, rank_text = fields
        try:
            token = base64.b64decode(token_text)
        except binascii.Error as exc:
            raise SubwordLabError(f"{_show(token_text)} is not base64 ({exc})", path=path,
                                  field=f"line {n}") from None
        try:
            rank = int(rank_text)
        except ValueError:
            raise SubwordLabError(f"expected a whole-number rank in ASCII digits, got "
                                  f"{_show(rank_text)}", path=path, field=f"line {n}") from None
        ranks[token] = rank
        line_of[token] = n
    # Only the ranks that stay reach tiktoken's core (a token given again replaces
    # its earlier rank), so these checks come after the last line.
    for token, rank in ranks.items():
        if not 0 <= rank < _MAX_RANK:
            raise SubwordLabError(f"the rank {rank} is outside 0..{_MAX_RANK - 1} "
                                  "(tiktoken keeps ranks as 32-bit unsigned integers)",
                                  path=path, field=f"line {line_of[token]}")
    if len(set(ranks.values())) != len(ranks):
        _refuse_shared_rank(path, ranks, line_of)
    return ranks


def _show(raw: bytes) -> str:
    text = raw[:60].decode("utf-8", errors="backslashreplace")
    return repr(text + ("..." if len(raw) > 60 else ""))


def _refuse_shared_rank(path, ranks, line_of):
    first = {}
    for token, rank in ranks.items():
        if rank in first:
            lines = sorted((line_of[first[rank]], line_of[token]))
            raise SubwordLabError(f"the rank {rank} is given to two tokens (lines {lines[0]} "
                                  f"and {lines[1]}); tiktoken refuses shared ranks",
                                  path=path, field=f"line {lines[1]}")
        first[rank] = token


_TIKTOKEN_OPTIONS = {"pattern", "special_tokens", "name"}


def load_tiktoken(path, **options) -> Tokenizer:
    """A .tiktoken file (or tiktoken ranks under another name, as Llama's
    tokenizer.model) as byte-level BPE with tiktoken's ids.

    pattern=: the name of a known encoding (see io/known_encodings.py: "cl100k_base",
    "llama3", "qwen", ...) or a regex. By default the pattern of the encoding the file
    is recognised as (by name or by its ranks), else GPT-2's. special_tokens=:
    {token: id}; by default those of that encoding, else "<|endoftext|>" just past
    the last rank (GPT-2's convention). `name=` is an older spelling of `pattern=`.

    The tokenizer's `rules` says which were chosen and why. Special-token text in
    the input is read as plain text by default (`encode_special_tokens` is on), as
    tiktoken's `encode_ordinary` reads it; `encode(..., special_tokens="recognise")`
    matches them.
    """
    path = Path(path)
    if path.is_dir():
        from .detect import detect_folder  # the folder's one file of ranks, by content
        path = detect_folder(path)[1]
    check_options(path, options, _TIKTOKEN_OPTIONS)
    ranks = read_tiktoken(path)
    rules = _rules(path, ranks, options.get("pattern") or options.get("name"),
                   options.get("special_tokens"))
    tok = with_path(path, lambda: build_tiktoken(ranks, rules["pattern"],
                                                 rules["special_tokens"], label=path))
    if rules["normalizer"] == "NFC":
        tok.normalizer = normalizers.NFC()
    tok.rules = rules
    return tok


def _rules(path, ranks, pattern, specials):
    """Which pattern and special tokens the file gets, and sentences saying why."""
    if pattern is not None and not isinstance(pattern, str):
        raise SubwordLabError("expected an encoding name or a regex", path=path,
                              field="pattern")
    found = known_encodings.recognise(path.name, ranks)
    chosen = known_encodings.by_name(pattern) if pattern else found
    # pattern_origin says the same as pattern_source in one word, for the page's languages
    if pattern and chosen is None:
        regex, pattern_source, origin = pattern, "your pattern", "given"
    elif chosen is None:
        regex, pattern_source, origin = (known_encodings.GPT2_DEFAULT_PATTERN,
                                         known_encodings.GPT2_DEFAULT, "default")
    elif chosen is found:
        regex, pattern_source, origin = chosen.pattern, f"known encoding {chosen.name}", "recognised"
    else:
        regex, pattern_source, origin = (chosen.pattern,
                                         f"the pattern of {chosen.name}, as chosen", "chosen")
    if specials is None:
        specials, specials_source = _default_specials(ranks, found, chosen)
    else:
        specials_source = "as given"
    if not isinstance(specials, dict) or not all(
            isinstance(k, str) and isinstance(v, int) for k, v in specials.items()):
        raise SubwordLabError("expected a {token: id} mapping", path=path,
                              field="special_tokens")
    used = set(ranks.values())
    for token, i in specials.items():
        if i in used:
            raise SubwordLabError(f"the id {i} of {token!r} is already a rank of the file",
                                  path=path, field="special_tokens")
    return {"format": "tiktoken",
            "encoding": found.name if found else None,
            "encoding_title": found.title if found else None,
            "source": found.source if found else None,
            "pattern": regex, "pattern_name": chosen.name if chosen else None,
            # the library's own step before splitting (Qwen puts text in NFC)
            "normalizer": (found or chosen).normalizer if (found or chosen) else None,
            "pattern_source": pattern_source, "pattern_origin": origin,
            "special_tokens": dict(specials), "special_tokens_source": specials_source,
            "special_tokens_default": "as_text",
            "known_patterns": [e.name for e in known_encodings.ENCODINGS]}


def _default_specials(ranks, found, chosen):
    """The special tokens of the recognised encoding; else those of the chosen one if
    the file has as many ranks as that encoding's; else GPT-2's convention."""
    used = set(ranks.values())
    candidates = [found] if found is not None else []
    if chosen is not None and chosen is not found and any(
            print_.split("-")[0] == str(len(ranks)) for print_ in chosen.fingerprints):
        candidates.append(chosen)
    for encoding in candidates:
        specials = known_encodings.special_tokens_of(encoding, len(ranks))
        if not set(specials.values()) & used:
            return specials, f"those of {encoding.name} ({encoding.source})"
    return ({"<|endoftext|>": max(used) + 1},
            "<|endoftext|> just past the last rank (GPT-2's convention)")


def build_tiktoken(ranks, pattern, specials, label=None) -> Tokenizer:
    """Byte-level BPE over tiktoken ranks ({token bytes: id}) with a split pattern and
    {special token: id}; errors of a guarded pattern name the file `label`."""
    tok = _tiktoken(ranks, pattern, specials)
    for step in getattr(tok.pre_tokenizer, "pretokenizers", ()):
        if label is not None and isinstance(getattr(step, "_compiled", None),
                                            regex_guard.GuardedRegex):
            step._compiled.label(label)  # its errors name the file and "pattern"
    return tok


def _tiktoken(ranks, pattern, specials):
    # Byte-level text of every token in one pass: joining them decodes the whole
    # vocabulary with a single Latin-1 decode + translate, then it is cut back up.
    tokens = list(ranks)
    lengths = list(map(len, tokens))
    text = byte_level.encode_bytes(b"".join(tokens))
    cuts = list(itertools.accumulate(lengths, initial=0))
    chars = list(map(text.__getitem__, map(slice, cuts, cuts[1:])))
    vocab = dict(zip(chars, ranks.values()))
    # Rank mode: the pair whose concatenation has the lowest rank merges first,
    # exactly tiktoken's rule, with no merge list to build. The ranks are the
    # vocabulary before the special tokens join it, so that no merge makes one.
    token_ranks = dict(vocab)
    for token, i in specials.items():
        vocab.setdefault(token, i)
    # ignore_merges: tiktoken takes a piece that is itself a token as it is.
    bpe = models.BPE.from_ranks(vocab, token_ranks, ignore_merges=True)
    tok = Tokenizer(bpe)
    tok.pre_tokenizer = _tiktoken_pre_tokenizer(pattern)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True) for t in specials])
    # The lab's default for tiktoken files: special-token text is plain text, as
    # tiktoken's encode_ordinary and encode(disallowed_special=()) read it (tiktoken's
    # encode() would raise instead). encode(special_tokens="recognise") matches them.
    tok.encode_special_tokens = True
    return tok


def _tiktoken_pre_tokenizer(pattern):
    if pattern in (byte_level.TIKTOKEN_PATTERNS["gpt2"], byte_level.GPT2_PATTERN):
        # GPT-2's pattern is the ByteLevel pre-tokenizer's own.
        return pre_tokenizers.from_dict({"type": "ByteLevel", "add_prefix_space": False,
                                         "trim_offsets": True, "use_regex": True})
    # tiktoken's engine is fancy-regex, not Oniguruma: `\p{N}{1,3}+` is possessive
    # there (digit runs split in threes) and `$` ends the text.
    try:
        split = pre_tokenizers.Split(pre_tokenizers.Regex(pattern), "Isolated", False,
                                     flavor="fancy")
    except SubwordLabError as exc:
        raise SubwordLabError(exc.reason, field="pattern") from None
    if isinstance(split._compiled, regex_guard.GuardedRegex):  # linear patterns stay plain
        split._compiled.label(field="pattern")
    return pre_tokenizers.Sequence([split, pre_tokenizers.ByteLevel(False, True, False)])

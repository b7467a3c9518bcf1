"""`load(path, **options)`: open any tokenizer file people have, as a `Tokenizer`.

Formats, recognised by name and then by content:
  tokenizer.json             Hugging Face's own format, read as it is
  vocab.txt                  a BERT WordPiece vocabulary (HF's BertWordPieceTokenizer)
  vocab.json + merges.txt    GPT-2 style byte-level BPE (either file, or their folder)
  *.tiktoken                 tiktoken's "base64 rank" lines, made a byte-level BPE
  *.model                    a sentencepiece model (Unigram or BPE)

Components are built through each module's `from_dict` (the tokenizer.json form),
so what we build is exactly what a saved tokenizer.json would describe.
Every problem raises SubwordLabError naming the file, the field and what was wrong.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

from ..core import byte_level
from .. import decoders, models, normalizers, pre_tokenizers, processors
from ..added_vocabulary import AddedToken
from ..core.errors import SubwordLabError
from .sentencepiece_model import read_model
from ..tokenizer import Tokenizer

__all__ = ["load", "load_bert_vocab", "load_bpe_files", "load_tiktoken",
           "load_sentencepiece", "tiktoken_merges"]

_SUPPORTED = ("tokenizer.json, vocab.txt, vocab.json + merges.txt, .tiktoken, "
              "or a sentencepiece .model")


def load(path, **options) -> Tokenizer:
    """Open `path` (a file or a folder holding one) as a Tokenizer.

    `format=` forces one of "tokenizer.json", "vocab.txt", "bpe", "tiktoken",
    "sentencepiece"; the other options belong to the format (see each loader).
    """
    path = Path(path)
    kind = options.pop("format", None) or _detect(path)
    loader = _LOADERS.get(kind)
    if loader is None:
        raise SubwordLabError(f"unknown format {kind!r} (known: {', '.join(_LOADERS)})",
                              path=path, field="format")
    return loader(path, **options)


def _detect(path: Path) -> str:
    if path.is_dir():
        return _detect_folder(path)
    if not path.exists():
        raise SubwordLabError("no such file", path=path)
    name = path.name.lower()
    if name == "merges.txt" or name.endswith(".merges.txt"):
        return "bpe"
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "bpe" if _is_vocab_json(path) else "tokenizer.json"
    by_suffix = {".txt": "vocab.txt", ".tiktoken": "tiktoken", ".model": "sentencepiece"}
    if suffix in by_suffix:
        return by_suffix[suffix]
    raise SubwordLabError(f"unknown file type {path.suffix or '(no extension)'!r}: "
                          f"expected {_SUPPORTED}", path=path)


def _detect_folder(folder: Path) -> str:
    for name, kind in (("tokenizer.json", "tokenizer.json"), ("merges.txt", "bpe"),
                       ("vocab.txt", "vocab.txt")):
        if (folder / name).is_file():
            return kind
    for pattern, kind in (("*.tiktoken", "tiktoken"), ("*.model", "sentencepiece")):
        found = sorted(folder.glob(pattern))
        if len(found) == 1:
            return kind
    raise SubwordLabError(f"no tokenizer file found in this folder (expected {_SUPPORTED})",
                          path=folder)


def _is_vocab_json(path: Path) -> bool:
    """vocab.json is a flat token -> id object; tokenizer.json has a "model"."""
    if path.name.lower() == "tokenizer.json":
        return False
    if path.name.lower().endswith("vocab.json"):
        return True
    data = _read_json(path)
    return isinstance(data, dict) and "model" not in data and bool(data) and all(
        isinstance(v, int) for v in data.values())


def _check_options(path, options, allowed):
    for key in options:
        if key not in allowed:
            raise SubwordLabError(f"unknown option (this format takes: "
                                  f"{', '.join(sorted(allowed)) or 'none'})",
                                  path=path, field=key)


# -- file reading helpers --------------------------------------------------------

def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SubwordLabError(f"cannot read: {exc.strerror}", path=path) from None


def _read_text(path: Path, what: str) -> str:
    data = _read_bytes(path)
    if not data.strip():
        raise SubwordLabError(f"empty file (expected {what})", path=path)
    nul = data.find(b"\x00")
    if nul >= 0:
        raise SubwordLabError(f"binary data, not a text file (expected {what})", path=path,
                              field=f"byte {nul}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SubwordLabError(f"not UTF-8 text (expected {what})", path=path,
                              field=f"byte {exc.start}") from None


def _read_json(path: Path):
    text = _read_text(path, "JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SubwordLabError(f"not valid JSON ({exc.msg})", path=path,
                              field=f"line {exc.lineno} column {exc.colno}") from None


def _with_path(path, build):
    """Run `build()`; component errors that lack a file get this file's name."""
    try:
        return build()
    except SubwordLabError as exc:
        if exc.path is None:
            raise SubwordLabError(exc.reason, path=path, field=exc.field) from None
        raise


# -- tokenizer.json --------------------------------------------------------------

def load_tokenizer_json(path, **options) -> Tokenizer:
    path = Path(path)
    if path.is_dir():
        path = path / "tokenizer.json"
    _check_options(path, options, ())
    data = _read_json(path)
    if not isinstance(data, dict):
        raise SubwordLabError(f"expected a JSON object, got {type(data).__name__}",
                              path=path)
    if "model" not in data:
        raise SubwordLabError('missing field "model" (is this a tokenizer.json?)',
                              path=path, field="model")
    return _with_path(path, lambda: Tokenizer.from_dict(data, path))


# -- BERT vocab.txt --------------------------------------------------------------

_BERT_OPTIONS = {"lowercase", "strip_accents", "clean_text", "handle_chinese_chars",
                 "unk_token", "sep_token", "cls_token", "pad_token", "mask_token",
                 "wordpieces_prefix", "max_input_chars_per_word"}


def read_vocab_txt(path: Path) -> dict:
    """One token per line, id = line number; trailing whitespace is not part of it
    (HF trims it); a repeated token keeps its last line, as HF's map insert does."""
    text = _read_text(path, "a vocab.txt, one token per line")
    vocab = {}
    for i, line in enumerate(text.split("\n")[:-1] if text.endswith("\n")
                             else text.split("\n")):
        vocab[line.rstrip()] = i
    return vocab


def load_bert_vocab(path, **options) -> Tokenizer:
    """A BERT vocab.txt as HF's BertWordPieceTokenizer builds it (lowercase by default)."""
    path = Path(path)
    if path.is_dir():
        path = path / "vocab.txt"
    _check_options(path, options, _BERT_OPTIONS)
    vocab = read_vocab_txt(path)
    o = {"unk_token": "[UNK]", "sep_token": "[SEP]", "cls_token": "[CLS]",
         "pad_token": "[PAD]", "mask_token": "[MASK]", "wordpieces_prefix": "##", **options}
    unk = o["unk_token"]
    if unk not in vocab:
        raise SubwordLabError(f"the unknown token {unk!r} is not in the vocabulary",
                              path=path, field="unk_token")
    return _with_path(path, lambda: _bert(vocab, o))


def _bert(vocab, o):
    tok = Tokenizer(models.WordPiece(vocab, unk_token=o["unk_token"],
                                     max_input_chars_per_word=o.get("max_input_chars_per_word", 100),
                                     continuing_subword_prefix=o["wordpieces_prefix"]))
    specials = [o[k] for k in ("pad_token", "unk_token", "cls_token", "sep_token",
                               "mask_token") if o[k] in vocab]
    tok.add_special_tokens(specials)
    tok.normalizer = normalizers.from_dict({
        "type": "BertNormalizer", "clean_text": o.get("clean_text", True),
        "handle_chinese_chars": o.get("handle_chinese_chars", True),
        "strip_accents": o.get("strip_accents"), "lowercase": o.get("lowercase", True)})
    tok.pre_tokenizer = pre_tokenizers.from_dict({"type": "BertPreTokenizer"})
    sep, cls = o["sep_token"], o["cls_token"]
    if sep in vocab and cls in vocab:
        tok.post_processor = processors.from_dict({
            "type": "BertProcessing", "sep": [sep, vocab[sep]], "cls": [cls, vocab[cls]]})
    tok.decoder = decoders.WordPiece(prefix=o["wordpieces_prefix"])
    return tok


# -- vocab.json + merges.txt -----------------------------------------------------

_BPE_OPTIONS = {"add_prefix_space", "trim_offsets", "unk_token", "vocab", "merges"}


def _bpe_pair(path: Path, options):
    """Find both files from whichever one (or the folder) was given."""
    folder = path if path.is_dir() else path.parent
    vocab = Path(options.pop("vocab", None) or (path if path.suffix.lower() == ".json"
                                                and path.is_file() else folder / "vocab.json"))
    merges = Path(options.pop("merges", None) or (path if path.suffix.lower() == ".txt"
                                                  and path.is_file() else folder / "merges.txt"))
    for p, other in ((vocab, "vocab.json"), (merges, "merges.txt")):
        if not p.is_file():
            raise SubwordLabError(f"{other} not found: byte-level BPE needs vocab.json "
                                  "and merges.txt side by side", path=p)
    return vocab, merges


def read_merges_txt(path: Path) -> list:
    text = _read_text(path, "merges.txt, one 'left right' pair per line")
    merges = []
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line or (n == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise SubwordLabError(f"expected two tokens separated by one space, got {line!r}",
                                  path=path, field=f"line {n}")
        merges.append((parts[0], parts[1]))
    return merges


def load_bpe_files(path, **options) -> Tokenizer:
    """GPT-2 style byte-level BPE, built as HF's ByteLevelBPETokenizer builds it
    (options add_prefix_space=False, trim_offsets=False, unk_token=None)."""
    path = Path(path)
    _check_options(path, options, _BPE_OPTIONS)
    options = dict(options)
    vocab_path, merges_path = _bpe_pair(path, options)
    vocab = _read_json(vocab_path)
    if not isinstance(vocab, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in vocab.items()):
        raise SubwordLabError("expected an object of token -> integer id", path=vocab_path,
                              field="vocab")
    merges = read_merges_txt(merges_path)
    for n, (a, b) in enumerate(merges):
        for token in (a, b, a + b):
            if token not in vocab:
                raise SubwordLabError(f"{token!r} (from merge {a!r} {b!r}) is not in "
                                      f"{vocab_path.name}", path=merges_path,
                                      field=f"merge {n + 1}")
    prefix_space = options.get("add_prefix_space", False)
    trim = options.get("trim_offsets", False)

    def build():
        tok = Tokenizer(models.BPE(vocab, merges, unk_token=options.get("unk_token")))
        tok.pre_tokenizer = pre_tokenizers.from_dict({
            "type": "ByteLevel", "add_prefix_space": prefix_space, "trim_offsets": True,
            "use_regex": True})
        # As HF's ByteLevelBPETokenizer: the post-processor keeps its default
        # add_prefix_space=True, which spares a first token's single leading space.
        tok.post_processor = processors.from_dict({
            "type": "ByteLevel", "add_prefix_space": True, "trim_offsets": trim,
            "use_regex": True})
        tok.decoder = decoders.ByteLevel()
        specials = [t for t in vocab if t.startswith("<|") and t.endswith("|>")]
        if specials:
            tok.add_special_tokens(specials)
        return tok
    return _with_path(merges_path, build)


# -- .tiktoken -------------------------------------------------------------------

# The special tokens of tiktoken's own encodings (its openai_public.py lists them).
_TIKTOKEN_SPECIALS = {
    "gpt2": {"<|endoftext|>": 50256}, "r50k_base": {"<|endoftext|>": 50256},
    "p50k_base": {"<|endoftext|>": 50256},
    "p50k_edit": {"<|endoftext|>": 50256, "<|fim_prefix|>": 50281,
                  "<|fim_middle|>": 50282, "<|fim_suffix|>": 50283},
    "cl100k_base": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258,
                    "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
                    "<|endofprompt|>": 100276},
    "o200k_base": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
}


def read_tiktoken(path: Path) -> dict:
    """token bytes -> rank, from "base64 rank" lines (tiktoken's load_tiktoken_bpe)."""
    text = _read_text(path, "a .tiktoken file of 'base64 rank' lines")
    ranks, seen = {}, {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[1].isdigit():
            raise SubwordLabError(f"expected 'base64-token rank', got {line[:60]!r}",
                                  path=path, field=f"line {n}")
        try:
            token = base64.b64decode(parts[0], validate=True)
        except ValueError:
            raise SubwordLabError(f"{parts[0][:40]!r} is not base64", path=path,
                                  field=f"line {n}") from None
        rank = int(parts[1])
        if rank in seen:
            raise SubwordLabError(f"rank {rank} already given on line {seen[rank]}",
                                  path=path, field=f"line {n}")
        if not token:
            raise SubwordLabError("empty token", path=path, field=f"line {n}")
        seen[rank] = n
        ranks[token] = rank
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise SubwordLabError(f"{len(missing)} single bytes have no rank (first: "
                              f"{missing[0]}); byte-level BPE needs all 256", path=path,
                              field="ranks")
    return ranks


def tiktoken_merges(ranks: dict, chars=None) -> list:
    """Merges that make HF-style BPE reproduce tiktoken's rank-based merging.

    tiktoken merges, at each step, the adjacent pair whose concatenation has the
    lowest rank (leftmost on a tie). So every split (left, right) of a token into
    two ranked tokens is a merge, and its priority is the rank of the token it makes.
    Returned as (left, right, product rank) in byte-level characters, sorted by rank.
    `chars` (token bytes -> byte-level text) saves encoding every token again.
    """
    # A comprehension rather than nested loops with append: ~100,000 merges for
    # GPT-2, and this runs at every load.
    merges = [(rank, ranks[left], left, right)
              for token, rank in ranks.items() for cut in range(1, len(token))
              if (left := token[:cut]) in ranks and (right := token[cut:]) in ranks]
    merges.sort()
    if chars is None:
        chars = {token: byte_level.encode_bytes(token) for token in ranks}
    return [(chars[left], chars[right], rank) for rank, _, left, right in merges]


def _rank_by_product(bpe, merges) -> None:
    """Give every merge the rank of the token it produces.

    A token reachable by several splits must have one priority, so that between two
    such merges the leftmost wins, as in tiktoken and sentencepiece (a merge list
    alone would rank them apart). The BPE model keeps its merges as
    (left id, right id) -> (rank, new id); we set the ranks there.
    """
    bpe._build_merges([(a, b) for a, b, _ in merges], [rank for _, _, rank in merges])
    bpe.clear_cache()


_TIKTOKEN_OPTIONS = {"pattern", "special_tokens", "name"}


def load_tiktoken(path, **options) -> Tokenizer:
    """A .tiktoken file as byte-level BPE with tiktoken's ids.

    pattern=: a tiktoken encoding name ("gpt2", "cl100k_base", ...) or a regex;
    GPT-2's by default. special_tokens=: {token: id}; by default those of the named
    encoding, else "<|endoftext|>" just past the last rank (GPT-2's convention).
    """
    path = Path(path)
    if path.is_dir():
        path = next(iter(sorted(path.glob("*.tiktoken"))))
    _check_options(path, options, _TIKTOKEN_OPTIONS)
    ranks = read_tiktoken(path)
    pattern = options.get("pattern") or options.get("name") or "gpt2"
    specials = options.get("special_tokens")
    if specials is None:
        specials = _TIKTOKEN_SPECIALS.get(pattern, {"<|endoftext|>": max(ranks.values()) + 1})
    if not isinstance(specials, dict):
        raise SubwordLabError("expected a {token: id} mapping", path=path,
                              field="special_tokens")
    return _with_path(path, lambda: _tiktoken(ranks, pattern, specials))


def _tiktoken(ranks, pattern, specials):
    enc = byte_level.encode_bytes
    chars = {token: enc(token) for token in ranks}
    vocab = {chars[token]: rank for token, rank in ranks.items()}
    merges = tiktoken_merges(ranks, chars)
    for token, i in specials.items():
        vocab.setdefault(token, i)
    # ignore_merges: tiktoken takes a piece that is itself a token as it is. The
    # merges are built once, with their product ranks (_rank_by_product).
    bpe = models.BPE(vocab, None, ignore_merges=True)
    _rank_by_product(bpe, merges)
    tok = Tokenizer(bpe)
    tok.pre_tokenizer = _tiktoken_pre_tokenizer(pattern)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True) for t in specials])
    return tok


def _tiktoken_pre_tokenizer(pattern):
    if pattern in ("gpt2", "r50k_base", "p50k_base", "p50k_edit"):
        # GPT-2's pattern is the ByteLevel pre-tokenizer's own.
        return pre_tokenizers.from_dict({"type": "ByteLevel", "add_prefix_space": False,
                                         "trim_offsets": True, "use_regex": True})
    regex = byte_level.TIKTOKEN_PATTERNS.get(pattern, pattern)
    return pre_tokenizers.from_dict({"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": regex}, "behavior": "Isolated",
         "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
         "use_regex": False}]})


# -- sentencepiece .model --------------------------------------------------------

_SPM_OPTIONS = {"add_bos", "add_eos"}
_SPACE = "\u2581"


def load_sentencepiece(path, **options) -> Tokenizer:
    """A sentencepiece model, built to give the ids and pieces sentencepiece gives.

    Normalizer: the precompiled charsmap, then sentencepiece's whitespace rules
    (runs of spaces collapse, leading and trailing ones go); Metaspace adds the
    dummy prefix and turns spaces into "▁". Unknown, control and byte pieces become
    special tokens. add_bos / add_eos add a template post-processor.
    """
    path = Path(path)
    if path.is_dir():
        path = next(iter(sorted(path.glob("*.model"))))
    _check_options(path, options, _SPM_OPTIONS)
    proto = read_model(path)
    trainer, norm = proto.trainer_spec, proto.normalizer_spec
    if trainer.model_type_name not in ("UNIGRAM", "BPE"):
        raise SubwordLabError(f"{trainer.model_type_name} models are not supported "
                              "(only UNIGRAM and BPE)", path=path,
                              field="trainer_spec.model_type")
    if trainer.treat_whitespace_as_suffix:
        raise SubwordLabError("whitespace as a suffix is not supported", path=path,
                              field="trainer_spec.treat_whitespace_as_suffix")
    if not norm.escape_whitespaces:
        raise SubwordLabError("models that keep spaces unescaped are not supported",
                              path=path, field="normalizer_spec.escape_whitespaces")
    return _with_path(path, lambda: _sentencepiece(proto, options))


def _sentencepiece(proto, options):
    trainer, norm = proto.trainer_spec, proto.normalizer_spec
    pieces = proto.pieces
    if trainer.model_type_name == "UNIGRAM":
        model = models.Unigram([(p.piece, p.score) for p in pieces], unk_id=trainer.unk_id,
                               byte_fallback=trainer.byte_fallback)
    else:
        model = _spm_bpe(pieces, trainer)
    tok = Tokenizer(model)
    has_user = any(p.type == 4 for p in pieces)
    tok.normalizer = _spm_normalizer(norm, has_user)
    # With user-defined symbols the prefix cannot be in the normalizer (HF normalizes
    # an added token's own text too, and "x" would become "▁x"): Metaspace adds it
    # to the split that starts the text.
    prefix = "first" if has_user and norm.add_dummy_prefix else "never"
    tok.pre_tokenizer = pre_tokenizers.from_dict({
        "type": "Metaspace", "replacement": _SPACE, "prepend_scheme": prefix,
        "split": bool(trainer.split_by_whitespace)})
    tok.decoder = _spm_decoder(trainer, "always" if norm.add_dummy_prefix else "never")
    # Types: UNKNOWN 2, CONTROL 3, USER_DEFINED 4.
    special = [AddedToken(p.piece, special=True) for p in pieces if p.type in (2, 3)]
    user = [AddedToken(p.piece, special=False, normalized=True)
            for p in pieces if p.type == 4]
    tok.add_special_tokens(special)
    if user:
        tok.add_tokens(user)
    _spm_post_processor(tok, pieces, trainer, options)
    return tok


def _spm_bpe(pieces, trainer):
    """sentencepiece's BPE merges the adjacent pair whose concatenation is the
    best-scoring piece (leftmost on a tie): HF BPE with every split of every piece
    as a merge, ranked by that piece's score."""
    vocab = {p.piece: i for i, p in enumerate(pieces)}
    mergeable = {p.piece: p.score for p in pieces if p.type in (1, 4, 5)}
    scores = sorted(set(mergeable.values()), reverse=True)
    rank_of_score = {s: r for r, s in enumerate(scores)}
    found = []
    for piece, score in mergeable.items():
        for cut in range(1, len(piece)):
            left, right = piece[:cut], piece[cut:]
            if left in vocab and right in vocab:
                found.append((rank_of_score[score], vocab[left], left, right))
    found.sort()
    merges = [(left, right, rank) for rank, _, left, right in found]
    bpe = _SentencePieceBPE(vocab, None,
                            unk_token=pieces[trainer.unk_id].piece, fuse_unk=True,
                            byte_fallback=trainer.byte_fallback)
    _rank_by_product(bpe, merges)
    return bpe


class _SentencePieceBPE(models.BPE):
    """BPE whose unknown tokens read as the text they stand for, as sentencepiece's
    pieces do (HF's BPE names them "<unk>"). It saves as a plain BPE."""

    def tokenize(self, sequence, on_event=None):
        tokens = super().tokenize(sequence, on_event)
        unk = self.vocab.get(self.unk_token)
        if unk is None or all(t.id != unk for t in tokens):
            return tokens
        return [t._replace(value=sequence[t.offsets[0]:t.offsets[1]]) if t.id == unk else t
                for t in tokens]


def _spm_normalizer(norm, user_symbols):
    steps = []
    if norm.precompiled_charsmap:
        # sentencepiece's own way of applying the charsmap (longest rule at each
        # position), which differs from HF's grapheme-wise way on some input.
        steps.append(normalizers.Precompiled(norm.precompiled_charsmap, mode="sentencepiece"))
    if norm.remove_extra_whitespaces:
        # Collapse runs of spaces, then drop a leading and a trailing one. Only " "
        # counts (sentencepiece's rule, after the charsmap); a trailing "▁" typed in
        # the text goes too, as sentencepiece strips the escaped form. The lookarounds
        # [\s\S] mean start / end of text in both Python re and Oniguruma.
        steps.append(normalizers.from_dict(
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}))
        steps.append(normalizers.from_dict(
            {"type": "Replace", "pattern": {"Regex": "(?<![\\s\\S]) |[ \u2581]+(?![\\s\\S])"},
             "content": ""}))
    if norm.add_dummy_prefix and not user_symbols:
        # The dummy prefix is part of the normalized text (not the pre-tokenizer's
        # job), so it is there once, before the first piece, however added tokens
        # or removed characters (a BOM) cut the text.
        steps.append(normalizers.from_dict({"type": "Prepend", "prepend": _SPACE}))
    return normalizers.Sequence(steps)


def _spm_decoder(trainer, scheme):
    if trainer.byte_fallback:
        steps = [decoders.Replace(_SPACE, " "), decoders.ByteFallback(), decoders.Fuse()]
        if scheme != "never":
            steps.append(decoders.Strip(" ", 1, 0))
        return decoders.Sequence(steps)
    return decoders.Metaspace(_SPACE, scheme, True)


def _spm_post_processor(tok, pieces, trainer, options):
    add_bos, add_eos = options.get("add_bos", False), options.get("add_eos", False)
    if not (add_bos or add_eos):
        return
    ends, specials = [], []
    for wanted, key in ((add_bos, "bos_id"), (add_eos, "eos_id")):
        i = getattr(trainer, key)
        if wanted:
            if i < 0:
                raise SubwordLabError("the model has no such piece", field=key)
            ends.append(pieces[i].piece)
            specials.append({"id": pieces[i].piece, "ids": [i],
                             "tokens": [pieces[i].piece]})
    bos = ends[:1] if add_bos else []
    eos = ends[-1:] if add_eos else []

    def seq(name, type_id):
        return {"Sequence": {"id": name, "type_id": type_id}}

    def special(token):
        return {"SpecialToken": {"id": token, "type_id": 0}}
    single = [special(t) for t in bos] + [seq("A", 0)] + [special(t) for t in eos]
    pair = single + [special(t) for t in bos] + [seq("B", 1)] + [special(t) for t in eos]
    tok.post_processor = processors.from_dict({
        "type": "TemplateProcessing", "single": single, "pair": pair,
        "special_tokens": {s["id"]: s for s in specials}})


_LOADERS = {
    "tokenizer.json": load_tokenizer_json,
    "vocab.txt": load_bert_vocab,
    "bpe": load_bpe_files,
    "tiktoken": load_tiktoken,
    "sentencepiece": load_sentencepiece,
}

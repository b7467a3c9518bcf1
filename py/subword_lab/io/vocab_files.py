"""Vocabulary files: a BERT vocab.txt (WordPiece), and GPT-2's vocab.json + merges.txt
(byte-level BPE), each built as the matching `tokenizers` implementation builds it."""
from __future__ import annotations

from pathlib import Path

from .. import decoders, models, normalizers, pre_tokenizers, processors
from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .detect import find_pair
from .files import check_options, read_json, read_text, with_path

__all__ = ["load_bert_vocab", "load_bpe_files", "read_merges_txt", "read_vocab_txt"]


_BERT_OPTIONS = {"lowercase", "strip_accents", "clean_text", "handle_chinese_chars",
                 "unk_token", "sep_token", "cls_token", "pad_token", "mask_token",
                 "wordpieces_prefix", "max_input_chars_per_word"}


def read_vocab_txt(path: Path) -> dict:
    """One token per line, id = line number; trailing whitespace is not part of it
    (HF trims it); a repeated token keeps its last line, as HF's map insert does."""
    text = read_text(path, "a vocab.txt, one token per line")
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
    check_options(path, options, _BERT_OPTIONS)
    vocab = read_vocab_txt(path)
    o = {"unk_token": "[UNK]", "sep_token": "[SEP]", "cls_token": "[CLS]",
         "pad_token": "[PAD]", "mask_token": "[MASK]", "wordpieces_prefix": "##", **options}
    unk = o["unk_token"]
    if unk not in vocab:
        raise SubwordLabError(f"the unknown token {unk!r} is not in the vocabulary",
                              path=path, field="unk_token")
    return with_path(path, lambda: _bert(vocab, o))


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
    """Find both files from whichever one (or the folder) was given: vocab.json +
    merges.txt, or GPT-2's original names for them, encoder.json + vocab.bpe."""
    folder = path if path.is_dir() else path.parent
    given_vocab, given_merges = options.pop("vocab", None), options.pop("merges", None)
    near_vocab, near_merges = find_pair(folder)
    is_json = path.is_file() and path.suffix.lower() == ".json"
    vocab = Path(given_vocab) if given_vocab else (
        path if is_json else near_vocab or folder / "vocab.json")
    merges = Path(given_merges) if given_merges else (
        path if path.is_file() and not is_json else near_merges or folder / "merges.txt")
    for p, other in ((vocab, "vocab.json not found (nor encoder.json)"),
                     (merges, "merges.txt not found (nor vocab.bpe)")):
        if not p.is_file():
            raise SubwordLabError(f"{other}: byte-level BPE needs the vocabulary and the "
                                  "merges side by side (or vocab= / merges=)", path=p)
    return vocab, merges


def read_merges_txt(path: Path) -> list:
    text = read_text(path, "merges.txt, one 'left right' pair per line")
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
    check_options(path, options, _BPE_OPTIONS)
    options = dict(options)
    vocab_path, merges_path = _bpe_pair(path, options)
    vocab = read_json(vocab_path)
    if not isinstance(vocab, dict):
        raise SubwordLabError("expected an object of token -> integer id", path=vocab_path,
                              field="vocab")
    for token, i in vocab.items():
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < 2 ** 32:
            raise SubwordLabError(f"expected an id from 0 to 4294967295, got {i!r}",
                                  path=vocab_path, field=f"vocab[{token!r}]")
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
    return with_path(merges_path, build)

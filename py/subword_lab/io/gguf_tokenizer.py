"""GGUF model files opened as a Tokenizer that tokenizes exactly as llama.cpp does.

`load_gguf(path)` reads the header only (io/gguf.py), builds llama.cpp's view of the
vocabulary (llama_cpp/vocab.py) and wraps it in a `GGUFTokenizer`: a `Tokenizer` whose
model holds the vocabulary and merges (so the views, `id_to_token`, `get_vocab` and
`save` work as for any file) and whose encode and decode are llama.cpp's own
`llama_tokenize` / `llama_detokenize`:

- special tokens: `special_tokens="recognise"` (the default) is llama.cpp's
  parse_special=true; `"as_text"` is parse_special=false, where control tokens'
  text is plain text but user-defined tokens are still matched (as llama.cpp does);
- `add_special_tokens=True` adds BOS / EOS as the file says (add_bos_token,
  add_eos_token, or llama.cpp's default for the model kind);
- `decode(ids, skip_special_tokens=True)` leaves out control tokens' text, as
  llama.cpp's detokenize with unparse_special=false.

`tok.rules` says what the file asks for and where llama.cpp departs from the
model's original tokenizer.json.
"""
from __future__ import annotations

from pathlib import Path

from .. import models, processors
from ..added_vocabulary import AddedToken
from ..core.errors import SubwordLabError
from ..encoding import Encoding
from ..tokenizer import Tokenizer
from ..llama_cpp import events as gguf_events
from .files import check_options, with_path
from .gguf import read_gguf
from ..llama_cpp.attrs import CONTROL, TYPE_NAMES, UNKNOWN, USER_DEFINED
from ..llama_cpp.pre_kinds import NOTES
from ..llama_cpp.vocab import GGUFVocab

__all__ = ["load_gguf", "build_gguf", "GGUFTokenizer", "gguf_summary"]


def load_gguf(path, **options) -> Tokenizer:
    """The tokenizer of a GGUF model file (only its header is read)."""
    path = Path(path)
    check_options(path, options, set())
    header = read_gguf(path)
    return with_path(path, lambda: build_gguf(header.metadata, path))


def build_gguf(metadata, path=None) -> "GGUFTokenizer":
    """The tokenizer a GGUF metadata dict describes."""
    vocab = GGUFVocab(metadata, path)
    tok = GGUFTokenizer(vocab)
    tok.rules = _rules(vocab, metadata)
    _post_processor(tok, vocab)
    tok.chat_template, tok.special_tokens_map = _chat(vocab, metadata)
    return tok


def _chat(vocab, metadata):
    """The file's chat template (`tokenizer.chat_template`) and the named special tokens
    it sees (bos_token, eos_token... from the ids llama.cpp reads)."""
    template = metadata.get("tokenizer.chat_template")
    names = {"bos": "bos_token", "eos": "eos_token", "unk": "unk_token", "sep": "sep_token",
             "pad": "pad_token", "cls": "cls_token", "mask": "mask_token"}
    tokens = {names[k]: vocab.tokens[v] for k, v in vocab.specials.items()
              if k in names and isinstance(v, int) and 0 <= v < len(vocab.tokens)}
    return (template if isinstance(template, str) else None), (tokens or None)


class GGUFTokenizer(Tokenizer):
    """A Tokenizer whose encode and decode are llama.cpp's (see the module doc)."""

    def __init__(self, vocab):
        self._pending_added = None
        ids = {}
        for i, t in enumerate(vocab.tokens):
            ids.setdefault(t, i)
        # vocab.ranks keeps llama.cpp's first rank of each pair, in rank order
        merges = [pair for pair in vocab.ranks
                  if pair[0] in ids and pair[1] in ids and pair[0] + pair[1] in ids]
        super().__init__(models.BPE(ids, merges, byte_fallback=vocab.kind == "SPM"))
        self.gguf = vocab
        self._pending_added = vocab
        self._source = None

    @property
    def added_vocabulary(self):
        pending = self._pending_added
        if pending is not None:  # registered when first asked for (thousands on some files)
            self._pending_added = None
            special, user = [], []
            for i in pending.special_cache:
                attr = pending.attrs[i]
                if attr & (CONTROL | UNKNOWN):
                    special.append(AddedToken(pending.tokens[i], special=True))
                elif attr & USER_DEFINED:
                    user.append(AddedToken(pending.tokens[i], special=False,
                                           normalized=False))
            if special:
                self.add_special_tokens(special)
            if user:
                self.add_tokens(user)
        return self._added_vocabulary

    @added_vocabulary.setter
    def added_vocabulary(self, value):
        self._added_vocabulary = value

    def _encode_text(self, text, type_id, word_index, on_event):
        parse_special = not self.added_vocabulary.encode_special_tokens
        if on_event is not None:
            on_event({"type": "input", "sequence": type_id, "text": text})
            gguf_events.emit(self.gguf, text, parse_special, type_id, on_event)
        ids, starts, ends = self.gguf.encode(text, parse_special)
        words = [0 if word_index is None else word_index] * len(ids)
        tokens = self.gguf.tokens
        return Encoding.compact(ids, type_id, starts, ends, words,
                                lambda got: [tokens[i] for i in got])

    def decode(self, ids, skip_special_tokens=True):
        """llama.cpp's detokenize: with skip_special_tokens, control tokens read as
        nothing; bytes that are not UTF-8 read as U+FFFD."""
        try:
            data = self.gguf.decode_bytes(list(ids), special=not skip_special_tokens)
        except SubwordLabError as exc:
            raise self._named(exc) from None
        return data.decode("utf-8", "replace")

    def decode_batch(self, sequences, skip_special_tokens=True):
        return [self.decode(ids, skip_special_tokens) for ids in sequences]


def _post_processor(tok, vocab):
    # llama.cpp: BOS / EOS as the file says; BERT's WordPiece always [CLS] ... [SEP]
    bos = vocab.add_bos or vocab.kind == "WPM"
    eos_name = "sep" if vocab.kind == "WPM" else "eos"
    eos = vocab.kind == "WPM" or vocab.add_eos
    ends = []
    if bos:
        ends.append(("bos", vocab.specials["bos"]))
    if eos:
        ends.append(("eos", vocab.specials[eos_name]))
    if not ends:
        return
    names = {which: f"{vocab.tokens[i]}" for which, i in ends}

    def special(which):
        return {"SpecialToken": {"id": names[which], "type_id": 0}}
    head = [special("bos")] if bos else []
    tail = [special("eos")] if eos else []
    single = head + [{"Sequence": {"id": "A", "type_id": 0}}] + tail
    pair = single + head + [{"Sequence": {"id": "B", "type_id": 1}}] + tail
    tok.post_processor = processors.from_dict({
        "type": "TemplateProcessing", "single": single, "pair": pair,
        "special_tokens": {names[w]: {"id": names[w], "ids": [i], "tokens": [names[w]]}
                           for w, i in ends}})


def _rules(vocab, meta):
    """What tok.rules says of the file. Each note is kept twice: its English text
    (`notes`, for the library and the CLI) and its key with the values it names
    (`note_keys`, which the page writes in its own language)."""
    notes = []

    def note(key, text, **values):
        notes.append((text, {"key": key, **values}))

    pre = vocab.pre or "default"
    if vocab.kind == "BPE" and vocab.model == "gpt2":
        note("split", "Words are split as llama.cpp splits them for the pre-tokenizer "
             f"{pre!r}, which differs from the model's own regex on some text (non-ASCII "
             "spaces, letters llama.cpp's tables class otherwise); the tokens are "
             "llama.cpp's.", pre=pre)
        if vocab.pre in NOTES:
            key, text = NOTES[vocab.pre]
            note(key, text)
    if vocab.kind == "SPM":
        note("spm", "SentencePiece-style BPE by scores, as llama.cpp runs it: no "
             "normalization but spaces as U+2581 and a space before the text and after "
             "each special token.")
    marked = [vocab.tokens[i] for i in vocab.special_cache
              if vocab.attrs[i] & CONTROL and vocab.types[i] != 3]
    if marked:
        said = (f"{len(marked)} tokens the file calls normal or user-defined are control "
                f"tokens to llama.cpp, recognised by their text (first: {marked[0]!r})."
                if len(marked) > 1 else "1 token the file calls normal or user-defined is a "
                f"control token to llama.cpp, recognised by its text: {marked[0]!r}.")
        note("control", said, n=len(marked), first=marked[0])
    return {"format": "gguf", "model": vocab.model, "kind": vocab.kind,
            "pre_tokenizer": vocab.pre, "name": meta.get("general.name"),
            "architecture": meta.get("general.architecture"),
            "add_bos": vocab.add_bos, "add_eos": vocab.add_eos,
            "add_space_prefix": vocab.add_space_prefix,
            "special_ids": {k: v for k, v in vocab.specials.items() if v is not None},
            "special_tokens": {vocab.tokens[v]: v for v in vocab.specials.values()
                               if v is not None},
            "special_tokens_default": "recognise",
            "chat_template": "tokenizer.chat_template" in meta,
            "notes": [text for text, _ in notes], "note_keys": [key for _, key in notes]}


def gguf_summary(header) -> dict:
    """What `subword-lab info` prints for a GGUF file: the header, the model's name and
    architecture, the tokenizer's kind, size and special tokens (no tensor is read)."""
    meta = header.metadata
    tokens = meta.get("tokenizer.ggml.tokens")
    types = meta.get("tokenizer.ggml.token_type") or []
    counts = {}
    for t in types if isinstance(types, list) else []:
        name = TYPE_NAMES.get(t, "undefined")
        counts[name] = counts.get(name, 0) + 1
    specials = {}
    for key, value in meta.items():
        if key.startswith("tokenizer.ggml.") and key.endswith("_token_id"):
            name = key[len("tokenizer.ggml."):-len("_token_id")]
            text = tokens[value] if isinstance(tokens, list) and isinstance(
                value, int) and 0 <= value < len(tokens) else None
            specials[name] = {"id": value, "token": text}
    return {
        "format": f"GGUF v{header.version}",
        "file_size": header.file_size, "header_bytes": header.header_bytes,
        "tensor_count": header.tensor_count, "metadata_keys": len(meta),
        "name": meta.get("general.name"), "architecture": meta.get("general.architecture"),
        "tokenizer": meta.get("tokenizer.ggml.model"),
        "pre_tokenizer": meta.get("tokenizer.ggml.pre"),
        "vocab_size": len(tokens) if isinstance(tokens, list) else None,
        "merges": len(meta.get("tokenizer.ggml.merges") or []),
        "token_types": counts, "special_tokens": specials,
        "add_bos_token": meta.get("tokenizer.ggml.add_bos_token"),
        "add_eos_token": meta.get("tokenizer.ggml.add_eos_token"),
        "chat_template": isinstance(meta.get("tokenizer.chat_template"), str),
    }

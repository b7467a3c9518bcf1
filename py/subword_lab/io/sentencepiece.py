"""sentencepiece .model files (Unigram or BPE), built to give sentencepiece's ids and pieces."""
from __future__ import annotations

import contextlib
from operator import itemgetter
from pathlib import Path

from .. import decoders, normalizers, pre_tokenizers, processors
from ..added_vocabulary import AddedToken
from ..core.errors import SubwordLabError
from ..core.normalized import PreTokenizedString
from ..encoding import Encoding
from ..tokenizer import Tokenizer, _normalize_event, _pre_tokenize_event
from .files import check_options, with_path
from .sentencepiece_encode import CONTROL, UNKNOWN, USER_DEFINED, SpmNormalizer, decode_pieces
from .sentencepiece_models import SentencePieceBPE, SentencePieceUnigram
from .sentencepiece_model import read_model

__all__ = ["load_sentencepiece", "SentencePieceTokenizer"]


_SPM_OPTIONS = {"add_bos", "add_eos"}
_first, _second, _minus_one = itemgetter(0), itemgetter(1), (-1).__add__
_SPACE = "\u2581"


def load_sentencepiece(path, **options) -> Tokenizer:
    """A sentencepiece model that encodes and decodes exactly as sentencepiece does.

    Encoding runs sentencepiece's own steps (sentencepiece_encode.py): its
    normalizer on the whole text, then its Unigram or BPE encoder on the whole
    normalized text. The Tokenizer also carries the nearest Hugging Face pipeline
    (charsmap, whitespace Replace steps, Metaspace, added tokens), which is what
    `to_str` / `save` write. add_bos / add_eos add a template post-processor.
    """
    path = Path(path)
    if path.is_dir():
        path = next(iter(sorted(path.glob("*.model"))))
    check_options(path, options, _SPM_OPTIONS)
    proto = read_model(path)
    trainer = proto.trainer_spec
    if trainer.model_type_name not in ("UNIGRAM", "BPE"):
        raise SubwordLabError(f"{trainer.model_type_name} models are not supported "
                              "(only UNIGRAM and BPE)", path=path,
                              field="trainer_spec.model_type")
    return with_path(path, lambda: _sentencepiece(proto, options))


def _sentencepiece(proto, options):
    trainer, norm = proto.trainer_spec, proto.normalizer_spec
    pieces = proto.pieces
    if trainer.model_type_name == "UNIGRAM":
        model = SentencePieceUnigram(pieces, trainer.unk_id, trainer.byte_fallback)
    else:
        model = SentencePieceBPE(pieces, trainer.unk_id, trainer.byte_fallback)
    tok = SentencePieceTokenizer(model, proto)
    user_symbols = pieces.texts_of(USER_DEFINED)
    tok.normalizer = _spm_normalizer(norm, bool(user_symbols))
    charsmap = tok.normalizer.normalizers[0] if norm.precompiled_charsmap else None
    tok.spm_normalizer = SpmNormalizer(charsmap, norm, user_symbols,
                                       suffix=trainer.treat_whitespace_as_suffix)
    # With user-defined symbols the prefix cannot be in the normalizer (HF normalizes
    # an added token's own text too, and "x" would become "▁x"): Metaspace adds it
    # to the split that starts the text.
    prefix = "first" if user_symbols and norm.add_dummy_prefix else "never"
    tok.pre_tokenizer = pre_tokenizers.from_dict({
        "type": "Metaspace", "replacement": _SPACE, "prepend_scheme": prefix,
        "split": bool(trainer.split_by_whitespace)})
    tok.decoder = _spm_decoder(trainer, "always" if norm.add_dummy_prefix else "never")
    # Registered when first asked for (thousands on some files; encode and decode
    # never look at them): unknown and control pieces as special tokens, then
    # user-defined ones as normalized tokens.
    tok._pending_added = (pieces, user_symbols)
    _spm_post_processor(tok, pieces, trainer, options)
    return tok


class SentencePieceTokenizer(Tokenizer):
    """A Tokenizer whose encode and decode are sentencepiece's own.

    Text is normalized whole by sentencepiece's rules and the model sees it whole
    (no word splitting, as sentencepiece encodes). Added tokens are not looked for
    in the text: user-defined pieces are found by the model (as sentencepiece
    does), and control, unknown and byte pieces only come from ids, so "<s>"
    typed in the text is plain text. The added tokens stay registered for
    decoding, `id_to_token` and the tokenizer.json this saves."""

    def __init__(self, model, proto):
        self._pending_added = None
        super().__init__(model)
        self.spm_normalizer = None
        self._types = proto.pieces.types
        self._norm_spec = proto.normalizer_spec
        self._unk_surface = proto.trainer_spec.unk_surface

    @property
    def added_vocabulary(self):
        pending = self._pending_added
        if pending is not None:
            self._pending_added = None
            pieces, user = pending
            special = pieces.texts_of(UNKNOWN, CONTROL)
            self.add_special_tokens([AddedToken(t, special=True) for t in special])
            if user:
                self.add_tokens([AddedToken(t, special=False, normalized=True) for t in user])
        return self._added_vocabulary

    @added_vocabulary.setter
    def added_vocabulary(self, value):
        self._added_vocabulary = value

    def _special_tokens_mode(self, special_tokens, split_special_tokens):
        # Added tokens are never looked for in the text: no mode to set, unless asked.
        if special_tokens is None and split_special_tokens is None:
            return contextlib.nullcontext()
        return super()._special_tokens_mode(special_tokens, split_special_tokens)

    def _encode_text(self, text, type_id, word_index, on_event):
        if on_event is None:
            return self._encode_columns(text, type_id, word_index)
        on_event({"type": "input", "sequence": type_id, "text": text})
        ns = self.spm_normalizer.normalize_str(text)
        pts = PreTokenizedString(ns)
        if not ns.normalized:
            pts.splits = []
        on_event(_normalize_event(ns, type_id))
        on_event(_pre_tokenize_event(pts, type_id))
        return self._tokenize(pts, type_id, word_index, on_event)

    def _encode_columns(self, text, type_id, word_index):
        """The same Encoding as the traced path, from the model's columns: offsets
        mapped back through the normalizer's alignment in whole-list operations,
        and no per-token object but the strings (offsets are made when read)."""
        ns = self.spm_normalizer.normalize_str(text)
        s = ns.normalized
        columns = getattr(self._model, "encode_columns", None)
        if columns is not None:
            ids, values, starts, ends = columns(s)
        else:
            toks = self._model.tokenize(s) if s else []
            ids, values = [t[0] for t in toks], [t[1] for t in toks]
            starts, ends = [t[2][0] for t in toks], [t[2][1] for t in toks]
        align, shift = ns._align, ns.original_shift
        if align is not None:  # a token's span starts where its first char came from
            starts = list(map(_first, map(align.__getitem__, starts)))
            ends = list(map(_second, map(align.__getitem__, map(_minus_one, ends))))
        if shift:
            starts = [a + shift for a in starts]
            ends = [b + shift for b in ends]
        words = [0 if word_index is None else word_index] * len(ids)
        return Encoding.compact(ids, type_id, starts, ends, words, lambda _ids: values)

    def decode(self, ids, skip_special_tokens=True):
        """sentencepiece's decode: an unknown id reads as the unk surface (" ⁇ "),
        control ids vanish (with skip_special_tokens=False they show as their
        piece), byte pieces join into UTF-8."""
        types, pieces, kinds = self._types, [], []
        for id_ in ids:
            if 0 <= id_ < len(types):
                pieces.append(self._model.id_to_token(id_))
                kinds.append(types[id_])
        return decode_pieces(pieces, kinds, self._norm_spec, self._unk_surface,
                             keep_control=not skip_special_tokens)


def _spm_normalizer(norm, user_symbols):
    steps = []
    if norm.precompiled_charsmap:
        # sentencepiece's own way of applying the charsmap (longest rule at each
        # position), which differs from HF's grapheme-wise way on some input.
        charsmap = normalizers.Precompiled(norm.precompiled_charsmap, mode="sentencepiece")
        charsmap.charsmap.check_like_sentencepiece()
        steps.append(charsmap)
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

"""sentencepiece .model files (Unigram or BPE), built to give sentencepiece's ids and pieces."""
from __future__ import annotations

from pathlib import Path

from .. import decoders, normalizers, pre_tokenizers, processors
from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .files import check_options, with_path
from ..sentencepiece.normalizer import SpmNormalizer
from ..sentencepiece.pieces import USER_DEFINED
from ..sentencepiece.bpe import SentencePieceBPE
from ..sentencepiece.unigram import SentencePieceUnigram
from ..sentencepiece.tokenizer import SentencePieceTokenizer
from .sentencepiece_model import read_model

__all__ = ["load_sentencepiece", "SentencePieceTokenizer"]  # the class: sentencepiece/tokenizer.py


_SPM_OPTIONS = {"add_bos", "add_eos"}
_SPACE = "\u2581"


def load_sentencepiece(path, **options) -> Tokenizer:
    """A sentencepiece model that encodes and decodes exactly as sentencepiece does.

    Encoding runs sentencepiece's own steps (sentencepiece/normalizer.py): its
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

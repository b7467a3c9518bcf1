"""sentencepiece .model files (Unigram or BPE), built to give sentencepiece's ids and pieces."""
from __future__ import annotations

from pathlib import Path

from .. import decoders, models, normalizers, pre_tokenizers, processors
from ..added_vocabulary import AddedToken
from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer
from .files import check_options, with_path
from .ranked_merges import rank_by_product
from .sentencepiece_model import read_model

__all__ = ["load_sentencepiece"]


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
    check_options(path, options, _SPM_OPTIONS)
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
    return with_path(path, lambda: _sentencepiece(proto, options))


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
    rank_by_product(bpe, merges)
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

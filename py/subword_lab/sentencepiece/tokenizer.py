"""The Tokenizer whose encode and decode are sentencepiece's own (built from a .model
file by io/sentencepiece.py): the whole text normalized by sentencepiece's rules, the
model run on it whole, ids decoded by sentencepiece's Decode.
"""
from __future__ import annotations

import contextlib
from operator import itemgetter

from ..added_vocabulary import AddedToken
from ..core.normalized import PreTokenizedString
from ..encoding import Encoding
from ..pipeline.counting import added_at_ends
from ..pipeline.events import normalize_event, pre_tokenize_event
from ..tokenizer import Tokenizer
from .counting import count_unigram
from .decoder import decode_pieces
from .normalizer import alignment
from .pieces import CONTROL, UNKNOWN
from .unigram import SentencePieceUnigram

__all__ = ["SentencePieceTokenizer"]

_first, _second, _minus_one = itemgetter(0), itemgetter(1), (-1).__add__


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
        on_event(normalize_event(ns, type_id))
        on_event(pre_tokenize_event(pts, type_id))
        return self._tokenize(pts, type_id, word_index, on_event)

    def _encode_columns(self, text, type_id, word_index):
        """The same Encoding as the traced path, from the model's columns, with no
        per-token object but the strings: offsets are mapped back through the
        normalizer's alignment, in whole-list operations, when first read."""
        s, parts = self.spm_normalizer.normalize_parts(text) if text else ("", None)
        columns = getattr(self._model, "encode_columns", None)
        if columns is not None:
            ids, values, starts, ends = columns(s)
        else:
            toks = self._model.tokenize(s) if s else []
            ids, values = [t[0] for t in toks], [t[1] for t in toks]
            starts, ends = [t[2][0] for t in toks], [t[2][1] for t in toks]
        return Encoding.lazy(ids, type_id, lambda _ids: values,
                             (_offsets, parts, starts, ends),
                             (_words, 0 if word_index is None else word_index, len(ids)))

    def _count(self, text, add_special_tokens):
        """Unigram models without user-defined pieces are counted word by word
        (counting.py); anything else through the encode."""
        model = self._model
        extra = added_at_ends(self.post_processor)
        if (type(model) is SentencePieceUnigram and extra is not None
                and self._truncation is None and self._padding is None):
            n = count_unigram(model, self.spm_normalizer.normalize_text(text))
            if n is not None:
                return n + (extra if add_special_tokens else 0)
        return super()._count(text, add_special_tokens)

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


def _offsets(parts, starts, ends) -> list:
    """(start, end) in the input of each token, from its span in the normalized
    text: it starts where its first char came from and ends where its last did."""
    if not starts:
        return []
    align = alignment(parts)
    return list(zip(map(_first, map(align.__getitem__, starts)),
                    map(_second, map(align.__getitem__, map(_minus_one, ends)))))


def _words(index, count) -> list:
    return [index] * count

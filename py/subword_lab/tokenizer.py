"""`Tokenizer`: the whole pipeline, as Hugging Face `tokenizers` runs it.

    text -> added tokens split out -> normalizer -> pre-tokenizer -> model
         -> truncation -> post-processor -> padding -> Encoding

plus `decode`, the tokenizer.json format in and out, and training entry points.
Offsets are character offsets into the input, as the HF Python binding returns.
"""
from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .pipeline import byte_level_encode as _byte_level_path
from .pipeline import counting as _counting
from . import decoders as _decoders
from . import models as _models
from . import normalizers as _normalizers
from . import pre_tokenizers as _pre_tokenizers
from . import processors as _processors
from .added_vocabulary import AddedToken, AddedVocabulary
from .encoding import Encoding
from .pipeline.events import (added_tokens_event, final_event, normalize_event, piece_event,
                              pre_tokenize_event)
from .pipeline.json_fields import check_count, component, component_dict
from .pipeline.training_words import training_words
from .pipeline.truncation import (DIRECTIONS, STRATEGIES, longest_first, padding_from_json,
                                  padding_to_json, truncation_from_json, truncation_to_json)
from .core.regex import guard as regex_guard
from .core.errors import SubwordLabError
from .core.safe_files import atomic_write, check_file_kind, read_text
from .core.gc_pause import gc_paused
from .core.json_checks.schema import check_tokenizer, loads_strict
from .core.normalized import PreTokenizedString, Split, Token

__all__ = ["Tokenizer", "AddedToken", "Encoding", "special_tokens_as_text"]

# special_tokens= values: True = special-token text is encoded as ordinary text.
_SPECIAL_MODES = {"recognise": False, "recognize": False, "as_text": True, "as-text": True}


def special_tokens_as_text(special_tokens: str | None = None,
                           split_special_tokens: bool | None = None) -> bool | None:
    """The `encode_special_tokens` value a call asks for, or None for the default."""
    if special_tokens is not None and special_tokens not in _SPECIAL_MODES:
        raise SubwordLabError(f"expected 'recognise' or 'as_text', got {special_tokens!r}",
                              field="special_tokens")
    wanted = None if special_tokens is None else _SPECIAL_MODES[special_tokens]
    if split_special_tokens is not None:
        split = bool(split_special_tokens)
        if wanted is not None and wanted != split:
            raise SubwordLabError("special_tokens and split_special_tokens disagree",
                                  field="split_special_tokens")
        wanted = split
    return wanted

# Padding adds at most this many tokens to an encoding: far beyond any model's
# context, far below what would exhaust memory (a length of 10^9 in a file).
MAX_PADDING = 1 << 22

# What the public methods take: an event listener (docs/events.md); one input to
# encode (a text, or a list of words when is_pretokenized), or a pair of them.
OnEvent = Callable[[dict[str, Any]], Any]
InputSequence = str | Sequence[str]
EncodeInput = InputSequence | tuple[InputSequence, InputSequence] | list[InputSequence]


class Tokenizer:
    """A tokenizer: a model plus optional normalizer, pre-tokenizer, post-processor
    and decoder, with added tokens, truncation and padding (HF's `Tokenizer`)."""

    # The file it was read from, if any: errors at encode time name it too.
    _source: str | None = None
    # Read from the tokenizer_config.json beside the file (io/chat_config.py): the Jinja
    # chat template (text, or a dict of named ones) and the named special tokens it sees.
    chat_template: str | dict | None = None
    special_tokens_map: dict | None = None

    def __init__(self, model: Any) -> None:
        self._model = model
        self._normalizer: Any = None
        self.pre_tokenizer: Any = None
        self.post_processor: Any = None
        self.decoder: Any = None
        self.added_vocabulary = AddedVocabulary()
        self._truncation: dict[str, Any] | None = None
        self._padding: dict[str, Any] | None = None
        # What the loader chose for a file and why (io/loaders.py); None when built here.
        self.rules: Any = None

    # -- components ---------------------------------------------------------------

    @property
    def model(self) -> Any:
        return self._model

    @model.setter
    def model(self, model: Any) -> None:
        self._model = model

    @property
    def normalizer(self) -> Any:
        return self._normalizer

    @normalizer.setter
    def normalizer(self, normalizer: Any) -> None:
        # normalized added tokens are matched in normalized text: re-normalize them
        self._normalizer = normalizer
        self.added_vocabulary.refresh_normalized(normalizer)

    @property
    def encode_special_tokens(self) -> bool:
        return self.added_vocabulary.encode_special_tokens

    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None:
        self.added_vocabulary.encode_special_tokens = bool(value)

    # -- vocabulary -----------------------------------------------------------------

    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]:
        vocab = self._model.get_vocab()
        if with_added_tokens:
            vocab.update(self.added_vocabulary.tokens_map)
        return vocab

    def get_added_tokens_decoder(self) -> dict[int, AddedToken]:
        return self.added_vocabulary.get_added_tokens_decoder()

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        size = self._model.get_vocab_size()
        if with_added_tokens:
            added = self.added_vocabulary.tokens_map
            size += sum(1 for t in added if self._model.token_to_id(t) is None)
        return size

    def token_to_id(self, token: str) -> int | None:
        return self.added_vocabulary.token_to_id(token, self._model)

    def id_to_token(self, id: int) -> str | None:
        token = self.added_vocabulary.simple_id_to_token(id)
        return self._model.id_to_token(id) if token is None else token

    def add_tokens(self, tokens: Iterable[str | AddedToken]) -> int:
        """Add ordinary tokens (str or AddedToken); returns how many are new."""
        tokens = [AddedToken(t, special=False) if isinstance(t, str) else t for t in tokens]
        return self.added_vocabulary.add_tokens(tokens, self._model, self._normalizer)

    def add_special_tokens(self, tokens: Iterable[str | AddedToken]) -> int:
        """Add special tokens: never split, skipped by decode(skip_special_tokens=True)."""
        marked = []
        for t in tokens:
            if isinstance(t, str):
                marked.append(AddedToken(t, special=True))
            else:
                t.special = True
                marked.append(t)
        return self.added_vocabulary.add_tokens(marked, self._model, self._normalizer)

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        proc = self.post_processor
        return 0 if proc is None else proc.num_special_tokens_to_add(is_pair)

    # -- truncation and padding ------------------------------------------------------

    def enable_truncation(self, max_length: int, stride: int = 0,
                          strategy: str = "longest_first", direction: str = "right") -> None:
        check_count(max_length, "truncation.max_length")
        check_count(stride, "truncation.stride")
        if strategy not in STRATEGIES:
            raise SubwordLabError(f"unknown strategy {strategy!r}: use longest_first, "
                                  "only_first or only_second", field="truncation.strategy")
        if direction not in DIRECTIONS:
            raise SubwordLabError(f"unknown direction {direction!r}: use left or right",
                                  field="truncation.direction")
        effective = max_length - self.num_special_tokens_to_add(False)
        if effective < stride:
            raise SubwordLabError(
                f"stride {stride} is greater than the effective max length {effective} "
                f"(= {max_length} - {self.num_special_tokens_to_add(False)} special tokens)",
                field="truncation.stride")
        self._truncation = {"max_length": int(max_length), "stride": int(stride),
                            "strategy": strategy, "direction": direction}

    def no_truncation(self) -> None:
        self._truncation = None

    @property
    def truncation(self) -> dict[str, Any] | None:
        return None if self._truncation is None else dict(self._truncation)

    def enable_padding(self, direction: str = "right", pad_id: int = 0, pad_type_id: int = 0,
                       pad_token: str = "[PAD]", length: int | None = None,
                       pad_to_multiple_of: int | None = None) -> None:
        if direction not in DIRECTIONS:
            raise SubwordLabError(f"unknown direction {direction!r}: use left or right",
                                  field="padding.direction")
        for name, value in (("length", length), ("pad_to_multiple_of", pad_to_multiple_of)):
            if value is not None:
                check_count(value, f"padding.{name}")
        for name, value in (("pad_id", pad_id), ("pad_type_id", pad_type_id)):
            check_count(value, f"padding.{name}", 2 ** 32)
        self._padding = {"length": length, "pad_to_multiple_of": pad_to_multiple_of,
                         "pad_id": int(pad_id), "pad_token": str(pad_token),
                         "pad_type_id": int(pad_type_id), "direction": direction}

    def no_padding(self) -> None:
        self._padding = None

    @property
    def padding(self) -> dict[str, Any] | None:
        return None if self._padding is None else dict(self._padding)

    # -- encoding ---------------------------------------------------------------------

    def encode(self, sequence: InputSequence, pair: InputSequence | None = None,
               is_pretokenized: bool = False, add_special_tokens: bool = True,
               on_event: OnEvent | None = None, *, special_tokens: str | None = None,
               split_special_tokens: bool | None = None) -> Encoding:
        """Encode one text (or a pair); `on_event` receives the steps (docs/events.md).

        Special tokens written in the text: `special_tokens="recognise"` matches them
        (tokenizers' default), `"as_text"` encodes them as ordinary text (tiktoken's
        encode_ordinary; tokenizers' `encode_special_tokens = True`), None keeps the
        tokenizer's own `encode_special_tokens`. `split_special_tokens=` is the same
        choice under transformers' name (True = as text).
        """
        try:
            if special_tokens is None and split_special_tokens is None:
                # the tokenizer's own setting: no mode to set and restore (a line of
                # text costs a few microseconds, the context manager about one)
                return self._encode(sequence, pair, is_pretokenized, add_special_tokens, on_event)
            with self._special_tokens_mode(special_tokens, split_special_tokens):
                return self._encode(sequence, pair, is_pretokenized, add_special_tokens, on_event)
        except SubwordLabError as exc:
            raise self._named(exc) from None

    def count(self, sequence: str, add_special_tokens: bool = True, *,
              special_tokens: str | None = None,
              split_special_tokens: bool | None = None) -> int:
        """How many tokens `encode(sequence, add_special_tokens=...)` gives (padding and
        truncation included), without building the Encoding when the pipeline allows:
        the text is split as encode splits it and each piece's count is cached
        (pipeline/counting.py). `special_tokens` as in encode."""
        if type(sequence) is not str:
            raise TypeError("count takes one text (a str), "
                            f"got {type(sequence).__name__}")
        try:
            with self._special_tokens_mode(special_tokens, split_special_tokens):
                return self._count(sequence, add_special_tokens)
        except SubwordLabError as exc:
            raise self._named(exc) from None

    def _count(self, text, add_special_tokens):
        n = None
        if type(self)._encode_text is Tokenizer._encode_text:  # our pipeline, not a subclass's
            n = _counting.count(self, text, add_special_tokens)
        if n is None:
            n = len(self._encode(text, None, False, add_special_tokens, None).ids)
        return n

    def _named(self, exc):
        """The error, naming the file this tokenizer came from if it does not yet."""
        if exc.path is not None or self._source is None:
            return exc
        return SubwordLabError(exc.reason, self._source, exc.field)

    def _encode(self, sequence, pair, is_pretokenized, add_special_tokens, on_event):
        encoding = self._encode_sequence(sequence, 0, is_pretokenized, on_event)
        pair_encoding = None
        if pair is not None:
            pair_encoding = self._encode_sequence(pair, 1, is_pretokenized, on_event)
        result = self.post_process(encoding, pair_encoding, add_special_tokens)
        if on_event is not None:
            on_event(final_event(result))
        return result

    def encode_batch(self, input: Iterable[EncodeInput], is_pretokenized: bool = False,
                     add_special_tokens: bool = True, *, special_tokens: str | None = None,
                     split_special_tokens: bool | None = None) -> list[Encoding]:
        """Encode many inputs (str or (a, b) pairs); batch padding pads to the longest."""
        try:
            with self._special_tokens_mode(special_tokens, split_special_tokens):
                return self._encode_batch(input, is_pretokenized, add_special_tokens)
        except SubwordLabError as exc:
            raise self._named(exc) from None

    def _encode_batch(self, inputs, is_pretokenized, add_special_tokens, blank=False):
        out = []
        for item in inputs:
            if hasattr(item, "tolist"):  # a row of a numpy array
                item = item.tolist()
            if isinstance(item, (tuple, list)) and not is_pretokenized:
                out.append(self._encode_unpadded(item[0], item[1], False,
                                                 add_special_tokens, blank))
            elif is_pretokenized and _is_word_lists_pair(item):
                out.append(self._encode_unpadded(item[0], item[1], True,
                                                 add_special_tokens, blank))
            else:
                out.append(self._encode_unpadded(item, None, is_pretokenized,
                                                 add_special_tokens, blank))
        if self._padding is not None:
            self._pad(out)
        return out

    @contextlib.contextmanager
    def _special_tokens_mode(self, special_tokens, split_special_tokens):
        """Set `encode_special_tokens` for one call, as asked, and put it back."""
        as_text = special_tokens_as_text(special_tokens, split_special_tokens)
        added = self.added_vocabulary
        saved = added.encode_special_tokens
        if as_text is not None:
            added.encode_special_tokens = as_text
        try:
            yield
        finally:
            added.encode_special_tokens = saved

    def _encode_unpadded(self, sequence, pair, is_pretokenized, add_special_tokens, blank=False):
        """One input of a batch, not padded yet; `blank`: its text's tokens without their
        strings, offsets and words (encode_batch_fast)."""
        encoding = self._encode_sequence(sequence, 0, is_pretokenized, None)
        pair_encoding = None
        if pair is not None:
            pair_encoding = self._encode_sequence(pair, 1, is_pretokenized, None)
        if blank:
            for part in (encoding, pair_encoding):
                if part is not None:
                    part._blank_text_columns()
        return self._post_process(encoding, pair_encoding, add_special_tokens)

    def _encode_sequence(self, sequence, type_id, is_pretokenized, on_event):
        if type(sequence) is str and not is_pretokenized:  # the usual case, checked first
            return self._encode_text(sequence, type_id, None, on_event)
        if hasattr(sequence, "tolist"):  # a numpy array of str, as HF accepts
            sequence = sequence.tolist()
        if not is_pretokenized:
            if not isinstance(sequence, str):
                raise TypeError("TextInputSequence must be str: expected a str to encode, "
                                f"got {type(sequence).__name__}")
            return self._encode_text(sequence, type_id, None, on_event)
        if isinstance(sequence, str):
            raise TypeError("PreTokenizedInputSequence must be Union[List[str], Tuple[str]]: "
                            "is_pretokenized=True expects a list of words, not a str")
        # each word is encoded on its own: offsets are relative to the word, and
        # the word id is the word's index in the list
        merged = Encoding()
        for index, word in enumerate(sequence):
            merged.merge_with(self._encode_text(word, type_id, index, on_event), False)
        return merged

    def _encode_text(self, text, type_id, word_index, on_event):
        if on_event is None:
            # Byte-level BPE without events: straight from regex matches to arrays.
            fast = _byte_level_path.plan(self)
            if fast is not None:
                encoding = _byte_level_path.encode(self, fast, text, type_id, word_index)
                if encoding is not None:
                    return encoding
        if on_event is not None:
            on_event({"type": "input", "sequence": type_id, "text": text})
        pts = self._extract_and_normalize(text, type_id, on_event)
        if self.pre_tokenizer is not None:
            self.pre_tokenizer.pre_tokenize(pts)
        if on_event is not None:
            on_event(pre_tokenize_event(pts, type_id))
        return self._tokenize(pts, type_id, word_index, on_event)

    def _extract_and_normalize(self, text, type_id, on_event):
        """Split out added tokens (raw ones, then normalized ones) and normalize the
        rest, as HF's AddedVocabulary::extract_and_normalize does."""
        added = self.added_vocabulary
        normalizer = self._normalizer
        pts = PreTokenizedString(text)
        if added.has_raw:
            pts.splits = _split_added(pts.splits, added, False)
        if on_event is not None and len(added):
            on_event(added_tokens_event(pts, type_id, added, "original"))
        new_splits = []
        for split in pts.splits:
            if split.tokens is not None:
                new_splits.append(split)
                continue
            ns = split.normalized
            if normalizer is not None:
                normalizer.normalize(ns)
                if on_event is not None:
                    on_event(normalize_event(ns, type_id))
            if added.has_normalized:
                new_splits.extend(_split_added([Split(ns, None)], added, True))
            elif ns.normalized:
                new_splits.append(split)
        pts.splits = new_splits
        if on_event is not None and added.has_normalized:
            on_event(added_tokens_event(pts, type_id, added, "normalized"))
        return pts

    def _tokenize(self, pts, type_id, word_index, on_event):
        """Run the model on every piece without tokens and build the Encoding."""
        tokenize = self._model.tokenize
        ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        words: list[int | None] = []
        add_id, add_token, add_offsets, add_word = (ids.append, tokens.append,
                                                    offsets.append, words.append)
        for index, split in enumerate(pts.splits):
            ns = split.normalized
            toks = split.tokens
            if toks is None:
                if on_event is None:
                    toks = tokenize(ns.normalized)
                else:
                    on_event(piece_event(ns, index, type_id))
                    toks = tokenize(ns.normalized, on_event=on_event)
                split.tokens = toks
            word = index if word_index is None else word_index
            if getattr(ns, "_align", False) is None:
                # identity alignment: a normalized span is the original span, shifted
                shift = ns.original_shift
                for id_, value, (start, end) in toks:
                    add_id(id_)
                    add_token(value)
                    add_offsets((start + shift, end + shift))
                    add_word(word)
            else:
                convert = ns.convert_offsets
                for id_, value, (start, end) in toks:
                    add_id(id_)
                    add_token(value)
                    add_offsets(convert(start, end))
                    add_word(word)
        n = len(ids)
        return Encoding(ids, [type_id] * n, tokens, words, offsets, [0] * n, [1] * n)

    # -- post-processing --------------------------------------------------------------

    def post_process(self, encoding: Encoding, pair: Encoding | None = None,
                     add_special_tokens: bool = True) -> Encoding:
        """Truncate, add the special tokens, pad (HF's Tokenizer.post_process)."""
        final = self._post_process(encoding, pair, add_special_tokens)
        if self._padding is not None:
            self._pad([final])
        return final

    def _post_process(self, encoding, pair, add_special_tokens):
        if self._truncation is not None:
            encoding, pair = self._truncate(encoding, pair, add_special_tokens)
        if self.post_processor is not None:
            return self.post_processor.process(encoding, pair, add_special_tokens)
        if pair is None:
            return encoding
        encoding.set_sequence_id(0)
        pair.set_sequence_id(1)
        merged = Encoding()
        merged.merge_with(encoding, False)
        merged.merge_with(pair, False)
        return merged

    def _truncate(self, encoding, pair, add_special_tokens):
        params = self._truncation
        assert params is not None  # called only with truncation on
        max_length = params["max_length"]
        n_added = self.num_special_tokens_to_add(pair is not None)
        if add_special_tokens and n_added > 0:
            if n_added > max_length:
                # HF subtracts in unsigned arithmetic: the length wraps around to
                # a huge number and nothing is truncated; do the same
                return encoding, pair
            max_length -= n_added
        stride, direction = params["stride"], params["direction"]
        if max_length == 0:
            encoding.truncate(0, stride, direction)
            if pair is not None:
                pair.truncate(0, stride, direction)
            return encoding, pair
        total = len(encoding.ids) + (len(pair.ids) if pair is not None else 0)
        if total <= max_length:
            return encoding, pair
        to_remove = total - max_length
        strategy = params["strategy"]
        if strategy == "longest_first":
            if pair is None:
                encoding.truncate(max_length, stride, direction)
            else:
                n1, n2 = longest_first(len(encoding.ids), len(pair.ids), max_length)
                encoding.truncate(n1, stride, direction)
                pair.truncate(n2, stride, direction)
            return encoding, pair
        if strategy == "only_first":
            target = encoding
        elif pair is None:
            raise SubwordLabError("truncation strategy only_second needs a pair",
                                  field="truncation.strategy")
        else:
            target = pair
        if len(target.ids) <= to_remove:
            raise SubwordLabError("the sequence to truncate is too short to respect "
                                  f"max_length {params['max_length']}",
                                  field="truncation.max_length")
        target.truncate(len(target.ids) - to_remove, stride, direction)
        return encoding, pair

    def _pad(self, encodings):
        params = self._padding
        assert params is not None  # called only with padding on
        length = params["length"]
        longest = max((len(e.ids) for e in encodings), default=0)
        if length is None:
            length = longest
        multiple = params["pad_to_multiple_of"]
        if multiple and length % multiple:
            length += multiple - length % multiple
        if length - longest > MAX_PADDING:
            field = "padding.length" if params["length"] else "padding.pad_to_multiple_of"
            raise SubwordLabError(
                f"padding to {length:,} tokens would add more than {MAX_PADDING:,} "
                "padding tokens; use a smaller length or pad_to_multiple_of", self._source,
                field)
        for enc in encodings:
            enc.pad(length, params["direction"], params["pad_id"], params["pad_type_id"],
                    params["pad_token"])

    # -- decoding ---------------------------------------------------------------------

    def apply_chat_template(self, messages: list, add_generation_prompt: bool = False,
                            tools: list | None = None, tokenize: bool = False,
                            chat_template: str | None = None, **kwargs: Any) -> Any:
        """A conversation as the model reads it: transformers' `apply_chat_template`.

        The text the chat template renders from `messages` (dicts with "role" and
        "content"), `tools` (JSON schemas) and any keyword argument (documents=,
        enable_thinking=, continue_final_message=...); with tokenize=True its ids, encoded
        without adding special tokens ({"input_ids", "attention_mask"} with
        return_dict=True). See chat_template.py.
        """
        from .chat_template import apply_chat_template
        return apply_chat_template(self, messages, add_generation_prompt=add_generation_prompt,
                                   tools=tools, tokenize=tokenize, chat_template=chat_template,
                                   **kwargs)

    def decode(self, ids: Iterable[int], skip_special_tokens: bool = True) -> str:
        try:
            return self._decode(ids, skip_special_tokens)
        except SubwordLabError as exc:
            raise self._named(exc) from None

    def _decode(self, ids, skip_special_tokens):
        added = self.added_vocabulary
        tokens = []
        for id_ in ids:
            token = added.simple_id_to_token(id_)
            if token is None:
                token = self._model.id_to_token(id_)
                if token is None:
                    continue
            if skip_special_tokens and token in added.special_tokens:
                continue
            tokens.append(token)
        if self.decoder is not None:
            return self.decoder.decode(tokens)
        return " ".join(tokens)

    def decode_batch(self, sequences: Iterable[Iterable[int]],
                     skip_special_tokens: bool = True) -> list[str]:
        return [self.decode(ids, skip_special_tokens) for ids in sequences]

    # -- training ---------------------------------------------------------------------

    def _training_words(self):
        """`text -> [word, ...]`: what a trainer counts, the normalized and
        pre-tokenized pieces of a text (their text only: a trainer needs no
        offsets, so none are tracked)."""
        normalizer = self._normalizer
        return training_words(self.pre_tokenizer,
                              None if normalizer is None else normalizer.normalize_str)

    def train_from_iterator(self, iterator: Iterable[str | Iterable[str]], trainer: Any = None,
                            length: int | None = None, on_event: OnEvent | None = None) -> None:
        """Train the model on an iterable of texts (or of lists of texts)."""
        if trainer is None:
            get_trainer = getattr(self._model, "get_trainer", None)
            if get_trainer is None:
                raise SubwordLabError("no trainer given and the model has no default trainer",
                                      field="trainer")
            trainer = get_trainer()

        def texts():
            for item in iterator:
                if isinstance(item, str):
                    yield item
                else:
                    yield from item

        trainer.feed(texts(), self._training_words())
        special = trainer.train(self._model, on_event=on_event)
        self.add_special_tokens(special or [])

    def train(self, files: Iterable[str | os.PathLike[str]], trainer: Any = None,
              on_event: OnEvent | None = None) -> None:
        """Train on text files, read line by line (newlines kept, as HF does);
        a missing, unreadable or non-regular file is a SubwordLabError naming it."""
        def lines():
            for name in files:
                check_file_kind(name)  # a named pipe would wait forever
                try:
                    handle = open(name, encoding="utf-8", newline="")  # keep \r\n, as HF
                except OSError as exc:
                    raise SubwordLabError(f"cannot read: {exc.strerror}", name) from None
                with handle:
                    try:
                        yield from handle
                    except UnicodeDecodeError:
                        raise SubwordLabError("not UTF-8 text", name) from None
        self.train_from_iterator(lines(), trainer, on_event=on_event)

    # -- tokenizer.json -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": "1.0",
            "truncation": truncation_to_json(self._truncation),
            "padding": padding_to_json(self._padding),
            "added_tokens": self.added_vocabulary.to_list(),
            "normalizer": component_dict(self._normalizer),
            "pre_tokenizer": component_dict(self.pre_tokenizer),
            "post_processor": component_dict(self.post_processor),
            "decoder": component_dict(self.decoder),
            "model": self._model.to_dict(),
        }

    def to_str(self, pretty: bool = False) -> str:
        if pretty:
            return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    def save(self, path: str | os.PathLike[str], pretty: bool = True) -> None:
        """Write tokenizer.json all at once: a temporary file renamed into place."""
        atomic_write(path, self.to_str(pretty))

    @classmethod
    def from_str(cls, json: str, path: str | os.PathLike[str] | None = None) -> Tokenizer:
        """Build a tokenizer from tokenizer.json text; `path` only names it in errors."""
        with gc_paused():  # core/gc_pause.py: big vocabularies make many containers
            return cls.from_dict(loads_strict(json, path), path)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], max_bytes: int | None = None) -> Tokenizer:
        """Read a tokenizer.json; `max_bytes` raises the file size cap (core.safe_files)."""
        return cls.from_str(read_text(Path(path), "tokenizer.json", max_bytes), path)

    @classmethod
    def from_buffer(cls, buffer: bytes | bytearray | memoryview,
                    path: str | os.PathLike[str] | None = None) -> Tokenizer:
        try:
            text = bytes(buffer).decode("utf-8")
        except UnicodeDecodeError:
            raise SubwordLabError("not UTF-8 text (is it a tokenizer.json?)", path) from None
        return cls.from_str(text, path)

    @classmethod
    def from_dict(cls, data: dict[str, Any], path: str | os.PathLike[str] | None = None,
                  model: Any = None) -> Tokenizer:
        """`model`: built already (a preset's pre-parsed form, io/preset_pack.py), in
        place of data["model"], whose vocabulary is then empty."""
        if not isinstance(data, dict):
            raise SubwordLabError(f"expected a JSON object, got {type(data).__name__}", path)
        check_tokenizer(data, path)
        version = data.get("version", "1.0")
        if version != "1.0":
            raise SubwordLabError(f"unknown tokenizer version {version!r} (expected '1.0')",
                                  path, "version")
        if data.get("model") is None:
            raise SubwordLabError("missing field: a tokenizer.json needs a model", path,
                                  "model")
        tok = cls(model if model is not None else
                  component(_models.from_dict, data["model"], "model", path))
        tok._normalizer = component(_normalizers.from_dict, data.get("normalizer"),
                                     "normalizer", path)
        tok.pre_tokenizer = component(_pre_tokenizers.from_dict, data.get("pre_tokenizer"),
                                       "pre_tokenizer", path)
        # Errors of user regexes at encode time name this file and the field.
        regex_guard.label(tok._normalizer, path, "normalizer")
        regex_guard.label(tok.pre_tokenizer, path, "pre_tokenizer")
        tok.post_processor = component(_processors.from_dict, data.get("post_processor"),
                                        "post_processor", path)
        tok.decoder = component(_decoders.from_dict, data.get("decoder"), "decoder", path)
        tok._truncation = truncation_from_json(data.get("truncation"), path)
        tok._padding = padding_from_json(data.get("padding"), path)
        added = data.get("added_tokens") or []
        if not isinstance(added, list):
            raise SubwordLabError("expected a list", path, "added_tokens")
        tok.added_vocabulary.add_tokens(
            [AddedToken.from_dict(d, path, i) for i, d in enumerate(added)],
            tok._model, tok._normalizer)
        if path is not None:
            tok._source = str(path)
        return tok

    def __repr__(self) -> str:  # tokenizers' style: the tokenizer.json fields
        from .core.components.reprs import hf_repr
        return hf_repr("Tokenizer", self.to_dict())

    def __str__(self) -> str:  # the same, long lists shortened
        from .core.components.reprs import hf_repr
        return hf_repr("Tokenizer", self.to_dict(), short=True)

    # -- HF conveniences (subword_lab.compat relies on them) ---------------

    def encode_batch_fast(self, input: Iterable[EncodeInput], is_pretokenized: bool = False,
                          add_special_tokens: bool = True) -> list[Encoding]:
        """encode_batch as tokenizers' faster batch gives it: the ids, masks and sequence ids
        of encode_batch, but the tokens that come from the text carry no string (""), no
        offsets ((0, 0)) and no word (None); those the post-processor or padding add keep
        theirs."""
        try:
            return self._encode_batch(input, is_pretokenized, add_special_tokens, blank=True)
        except SubwordLabError as exc:
            raise self._named(exc) from None

    async def async_encode(self, sequence: InputSequence, pair: InputSequence | None = None,
                           is_pretokenized: bool = False,
                           add_special_tokens: bool = True) -> Encoding:
        return self.encode(sequence, pair, is_pretokenized, add_special_tokens)

    async def async_encode_batch(self, input: Iterable[EncodeInput], is_pretokenized: bool = False,
                                 add_special_tokens: bool = True) -> list[Encoding]:
        return self.encode_batch(input, is_pretokenized, add_special_tokens)

    async def async_encode_batch_fast(self, input: Iterable[EncodeInput],
                                      is_pretokenized: bool = False,
                                      add_special_tokens: bool = True) -> list[Encoding]:
        return self.encode_batch_fast(input, is_pretokenized, add_special_tokens)

    async def async_decode_batch(self, sequences: Iterable[Iterable[int]],
                                 skip_special_tokens: bool = True) -> list[str]:
        return self.decode_batch(sequences, skip_special_tokens)

    @classmethod
    def from_pretrained(cls, identifier: str, revision: str = "main",
                        token: str | None = None) -> Tokenizer:
        """The tokenizer.json of a Hugging Face Hub repository, fetched through
        huggingface_hub (its cache, offline mode and token) when it is installed."""
        try:
            from huggingface_hub import hf_hub_download
        except ImportError:  # the browser: a plain HTTPS request
            return cls.from_str(_hub_text(identifier, revision, token), path=identifier)
        return cls.from_file(hf_hub_download(identifier, "tokenizer.json", revision=revision,
                                             token=token))


def _hub_text(identifier, revision, token):
    """tokenizer.json of a Hub repository, without huggingface_hub."""
    import urllib.parse
    import urllib.request

    url = (f"https://huggingface.co/{identifier}/resolve/"
           f"{urllib.parse.quote(revision, safe='')}/tokenizer.json")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                    timeout=60) as response:
            return response.read().decode("utf-8")
    except OSError as exc:
        raise SubwordLabError(f"could not download tokenizer.json of {identifier!r} "
                              f"(revision {revision!r}): {exc}") from None


def _is_word_lists_pair(item):
    """([words], [words]): a pre-tokenized pair, as a tuple or a list (HF's rule)."""
    return (isinstance(item, (list, tuple)) and len(item) == 2
            and all(isinstance(x, (list, tuple)) for x in item))


def _split_added(splits, added, normalized_tokens):
    """Cut every split without tokens at the added tokens found in its normalized text."""
    out = []
    for split in splits:
        if split.tokens is not None:
            out.append(split)
            continue
        ns = split.normalized
        pieces = added.find_matches(ns.normalized, normalized_tokens)
        if len(pieces) == 1 and pieces[0][0] is None:
            if pieces[0][2] > 0:
                # HF slices even a piece without matches: the slice's shift into
                # the input is where its normalized text starts (Metaspace's
                # prepend_scheme="first" reads it).
                out.append(Split(ns.slice(0, pieces[0][2]), None) if ns._align else split)
            continue
        for id_, start, end in pieces:
            if start == end:
                continue
            piece = ns.slice(start, end)
            if id_ is None:
                out.append(Split(piece, None))
            else:
                value = piece.normalized
                out.append(Split(piece, [Token(id_, value, (0, len(value)))]))
    return out

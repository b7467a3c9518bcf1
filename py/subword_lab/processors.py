"""Post-processors: add the model's special tokens around one or two encodings.

Mirrors `tokenizers.processors`: TemplateProcessing, BertProcessing,
RobertaProcessing, ByteLevel (offset trimming only) and Sequence, with the
same tokenizer.json form. `process()` follows HF's default flow: number the
sequences, let the processor rewrite the list of encodings, then merge them.
"""
from __future__ import annotations

from typing import overload

from .encoding import Encoding
from .core.errors import SubwordLabError
from .core.components.pickling import JsonState
from .core.components.sequences import SequenceItems, check_dict_depth

__all__ = ["PostProcessor", "TemplateProcessing", "BertProcessing", "RobertaProcessing",
           "ByteLevel", "Sequence", "from_dict"]

# GPT-2's printable stand-in for the space byte, and Rust's `char::is_whitespace`
# set (Unicode White_Space), which differs from `str.isspace` on \x1c-\x1f.
_BYTE_SPACE = "\u0120"
_WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000" + _BYTE_SPACE)


class PostProcessor(JsonState):
    """Base class: subclasses implement `process_encodings` and `to_dict`."""

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return 0

    def process(self, encoding: Encoding, pair: Encoding | None = None,
                add_special_tokens: bool = True) -> Encoding:
        encodings = [encoding] if pair is None else [encoding, pair]
        for i, enc in enumerate(encodings):
            enc.set_sequence_id(i)
            for over in enc.overflowing:
                over.set_sequence_id(i)
            enc.type_ids = [i] * len(enc.ids)
        encodings = self.process_encodings(encodings, add_special_tokens)
        return Encoding.merge(encodings, growing_offsets=False)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    def _from_dict(self, data):  # JsonState: pickled as its tokenizer.json text, as HF
        return from_dict(data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_dict()!r})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.to_dict() == other.to_dict()


def _special(tokens, ids, type_id):
    """An encoding made only of special tokens (template pieces, [CLS] ...)."""
    n = len(ids)
    return Encoding(list(ids), [type_id] * n, list(tokens), [None] * n, [(0, 0)] * n,
                    [1] * n, [1] * n)


def _wrap(enc, before, after, type_ids, seq_id, keep_first):
    """`before + enc + after` as one encoding (BertProcessing / RobertaProcessing).

    `before`/`after` are lists of (token, id); `type_ids` is None to keep the
    encoding's own type ids (the special tokens then take `keep_first`'s ids)."""
    nb, na, n = len(before), len(after), len(enc.ids)
    if type_ids is None:
        tids = [0] * nb + enc.type_ids + [keep_first] * na
    else:
        tids = [type_ids] * (nb + n + na)
    out = Encoding([i for _, i in before] + enc.ids + [i for _, i in after], tids,
                   [t for t, _ in before] + enc.tokens + [t for t, _ in after],
                   [None] * nb + enc.word_ids + [None] * na,
                   [(0, 0)] * nb + enc.offsets + [(0, 0)] * na,
                   [1] * nb + [0] * n + [1] * na, [1] * (nb + n + na))
    out.sequence_ranges = {seq_id: (nb, nb + n)}
    return out


class BertProcessing(PostProcessor):
    """`[CLS] A [SEP]` and `[CLS] A [SEP] B [SEP]`, B with type id 1."""

    def __init__(self, sep: tuple[str, int] = ("[SEP]", 102),
                 cls_token: tuple[str, int] = ("[CLS]", 101)) -> None:
        self.sep = (str(sep[0]), int(sep[1]))
        self.cls = (str(cls_token[0]), int(cls_token[1]))

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return 3 if is_pair else 2

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        if not add_special_tokens:
            return encodings
        out = []
        for i, enc in enumerate(encodings):
            if i == 0:
                wrap = lambda e: _wrap(e, [self.cls], [self.sep], None, 0, 0)  # noqa: E731  (one name for both branches)
            else:
                wrap = lambda e: _wrap(e, [], [self.sep], None, 1, 1)  # noqa: E731  (one name for both branches)
            new = wrap(enc)
            new.overflowing = [wrap(o) for o in enc.overflowing]
            out.append(new)
        return out

    def to_dict(self) -> dict:
        return {"type": "BertProcessing", "sep": list(self.sep), "cls": list(self.cls)}


class RobertaProcessing(PostProcessor):
    """`<s> A </s>` and `<s> A </s> </s> B </s>`, all type id 0, offsets trimmed."""

    def __init__(self, sep: tuple[str, int] = ("</s>", 2), cls_token: tuple[str, int] = ("<s>", 0),
                 trim_offsets: bool = True, add_prefix_space: bool = True) -> None:
        self.sep = (str(sep[0]), int(sep[1]))
        self.cls = (str(cls_token[0]), int(cls_token[1]))
        self.trim_offsets = bool(trim_offsets)
        self.add_prefix_space = bool(add_prefix_space)

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return 4 if is_pair else 2

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        if self.trim_offsets:
            for enc in encodings:
                trim_offsets(enc, self.add_prefix_space)
                for over in enc.overflowing:
                    trim_offsets(over, self.add_prefix_space)
        for enc in encodings:
            enc.type_ids = [0] * len(enc.ids)
        if not add_special_tokens:
            return encodings
        out = []
        for i, enc in enumerate(encodings):
            before = [self.cls] if i == 0 else [self.sep]
            new = _wrap(enc, before, [self.sep], 0, i, 0)
            new.overflowing = [_wrap(o, before, [self.sep], 0, i, 0) for o in enc.overflowing]
            out.append(new)
        return out

    def to_dict(self) -> dict:
        return {"type": "RobertaProcessing", "sep": list(self.sep), "cls": list(self.cls),
                "trim_offsets": self.trim_offsets, "add_prefix_space": self.add_prefix_space}


class ByteLevel(PostProcessor):
    """Trims the offsets of byte-level tokens so they exclude the spaces they carry."""

    def __init__(self, add_prefix_space: bool = True, trim_offsets: bool = True,
                 use_regex: bool = True, **_ignored: object) -> None:
        self.add_prefix_space = bool(add_prefix_space)
        self.trim_offsets = bool(trim_offsets)
        self.use_regex = bool(use_regex)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        if self.trim_offsets:
            for enc in encodings:
                trim_offsets(enc, self.add_prefix_space)
                for over in enc.overflowing:
                    trim_offsets(over, self.add_prefix_space)
        for i, enc in enumerate(encodings):
            enc.set_sequence_id(i)
        return encodings

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}


def trim_offsets(encoding: Encoding, add_prefix_space: bool) -> None:
    """Shrink each token's offsets past its leading/trailing spaces (HF process_offsets)."""
    offsets = encoding.offsets
    for i, token in enumerate(encoding.tokens):
        if not token or (token[0] not in _WHITE_SPACE and token[-1] not in _WHITE_SPACE):
            continue
        lead = len(token) - len(token.lstrip(_STRIP))
        trail = len(token) - len(token.rstrip(_STRIP))
        start, end = offsets[i]
        if lead:
            # a single leading space on the first token is the one add_prefix_space
            # put there: it has no original character to trim past
            if add_prefix_space and lead == 1 and (i == 0 or start == 0):
                lead = 0
            start = min(start + lead, end)
        if trail and end >= trail:
            end = max(end - trail, start)
        offsets[i] = (start, end)


_STRIP = "".join(sorted(_WHITE_SPACE))


class Sequence(SequenceItems, PostProcessor):
    """Runs several post-processors one after the other."""

    _ITEMS, _KIND = "processors", "processors"
    processors: list[PostProcessor]  # set by SequenceItems._set_items

    def __init__(self, processors_py: list[PostProcessor]) -> None:
        self._set_items(processors_py)

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return sum(p.num_special_tokens_to_add(is_pair) for p in self.processors)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        for proc in self.processors:
            encodings = proc.process_encodings(encodings, add_special_tokens)
        return encodings

    def to_dict(self) -> dict:
        return {"type": "Sequence", "processors": [p.to_dict() for p in self.processors]}


# -- TemplateProcessing ----------------------------------------------------------

def _parse_piece(text):
    """'$A', '$B:1', '[CLS]', '[SEP]:1', '$', '$0' -> ('seq', 'A'|'B', type) or ('tok', id, type)."""
    parts = text.split(":")
    if len(parts) > 2:
        raise SubwordLabError(f"Cannot build Piece from {text!r}: write $A, $B, $A:1 or a token", field="template")
    type_id = 0
    if len(parts) == 2:
        if not parts[1].isdigit():
            raise SubwordLabError(f"Cannot build Piece from {text!r}: write $A, $B, $A:1 or a token",
                                  field="template")
        type_id = int(parts[1])
    name = parts[0]
    if not name.startswith("$"):
        return ("tok", name, type_id)
    rest = name[1:]
    if rest in ("", "A", "a"):
        return ("seq", "A", type_id)
    if rest in ("B", "b"):
        return ("seq", "B", type_id)
    if rest.isdigit():
        # "$1" means sequence A with type id 1 (only when no ":n" overrides it)
        return ("seq", "A", type_id if len(parts) == 2 else int(rest))
    raise SubwordLabError(f"Cannot build Piece from {text!r}: write $A, $B, $A:1 or a token", field="template")


def _parse_template(template, field):
    if isinstance(template, str):
        return [_parse_piece(p) for p in template.split(" ")]
    pieces = []
    for item in template:
        if isinstance(item, str):
            pieces.append(_parse_piece(item))
        elif isinstance(item, dict) and len(item) == 1 and "Sequence" in item:
            seq = item["Sequence"]
            if seq.get("id") not in ("A", "B"):
                raise SubwordLabError(f"sequence id must be 'A' or 'B', not {seq.get('id')!r}",
                                      field=field)
            pieces.append(("seq", seq["id"], int(seq.get("type_id", 0))))
        elif isinstance(item, dict) and len(item) == 1 and "SpecialToken" in item:
            tok = item["SpecialToken"]
            if not isinstance(tok.get("id"), str):
                raise SubwordLabError("a SpecialToken piece needs a string 'id'", field=field)
            pieces.append(("tok", tok["id"], int(tok.get("type_id", 0))))
        else:
            raise SubwordLabError(f"unknown template piece {item!r}", field=field)
    return pieces


def _parse_special_tokens(special_tokens):
    """A list of (token, id) / {"id","ids","tokens"}, or the tokenizer.json dict."""
    table: dict[str, tuple[list[int], list[str]]] = {}
    if special_tokens is None:
        return table
    items = special_tokens.values() if isinstance(special_tokens, dict) else special_tokens
    for item in items:
        if isinstance(item, dict):
            name, ids, tokens = item.get("id"), item.get("ids"), item.get("tokens")
            if not isinstance(name, str) or not isinstance(ids, list) \
                    or not isinstance(tokens, list) or len(ids) != len(tokens):
                raise SubwordLabError("each special token needs 'id', and 'ids' and "
                                      "'tokens' of the same length", field="special_tokens")
            table[name] = ([int(i) for i in ids], [str(t) for t in tokens])
        else:
            a, b = item
            token, tid = (a, b) if isinstance(a, str) else (b, a)
            table[token] = ([int(tid)], [token])
    return table


class TemplateProcessing(PostProcessor):
    """Special tokens placed by a template such as `"[CLS] $A [SEP] $B:1 [SEP]:1"`."""

    def __init__(self, single: str | list | None = None, pair: str | list | None = None,
                 special_tokens: list | dict | None = None) -> None:
        self.single = _parse_template("$0" if single is None else single, "single")
        self.pair = _parse_template("$A:0 $B:1" if pair is None else pair, "pair")
        self.special_tokens = _parse_special_tokens(special_tokens)
        self._validate()
        self._added = {False: self._count(self.single), True: self._count(self.pair)}

    def _validate(self):
        seqs = {p[1] for p in self.pair if p[0] == "seq"}
        if seqs != {"A", "B"}:
            raise SubwordLabError("the pair template must use both sequences $A and $B",
                                  field="pair")
        missing = sorted({p[1] for p in self.single + self.pair
                          if p[0] == "tok" and p[1] not in self.special_tokens})
        if missing:
            raise SubwordLabError(f"Missing SpecialToken(s) with id(s) {', '.join(missing)}: "
                                  "give their ids in special_tokens", field="special_tokens")

    def _count(self, template):
        return sum(len(self.special_tokens[p[1]][0]) for p in template if p[0] == "tok")

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return self._added[bool(is_pair)]

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        template = self.pair if len(encodings) == 2 else self.single
        out = []
        for kind, name, type_id in template:
            if kind == "seq":
                index = 0 if name == "A" else 1
                enc = encodings[index]
                enc.type_ids = [type_id] * len(enc.ids)
                enc.set_sequence_id(index)
                out.append(enc.copy())
            elif add_special_tokens:
                ids, tokens = self.special_tokens[name]
                out.append(_special(tokens, ids, type_id))
        return out

    def to_dict(self) -> dict:
        def pieces(template):
            return [{"Sequence": {"id": name, "type_id": t}} if kind == "seq"
                    else {"SpecialToken": {"id": name, "type_id": t}}
                    for kind, name, t in template]
        return {"type": "TemplateProcessing", "single": pieces(self.single),
                "pair": pieces(self.pair),
                "special_tokens": {name: {"id": name, "ids": list(ids), "tokens": list(toks)}
                                   for name, (ids, toks) in sorted(self.special_tokens.items())}}


# -- tokenizer.json ----------------------------------------------------------------

def _pair(value, field):
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and isinstance(value[0], str) and isinstance(value[1], int)):
        raise SubwordLabError(f"expected [token, id], got {value!r}", field=field)
    return (value[0], value[1])


@overload
def from_dict(d: dict) -> PostProcessor: ...
@overload
def from_dict(d: None) -> None: ...
def from_dict(d: dict | None) -> PostProcessor | None:
    """Build a post-processor from its tokenizer.json object (None stays None)."""
    if d is None:
        return None
    if not isinstance(d, dict):
        raise SubwordLabError(f"expected an object, got {type(d).__name__}", field="type")
    check_dict_depth(d, "post_processor")
    kind = d.get("type")
    if kind == "TemplateProcessing":
        for key in ("single", "pair", "special_tokens"):
            if key not in d:
                raise SubwordLabError("missing field", field=key)
        return TemplateProcessing(d["single"], d["pair"], d["special_tokens"])
    if kind == "BertProcessing":
        return BertProcessing(_pair(d.get("sep"), "sep"), _pair(d.get("cls"), "cls"))
    if kind == "RobertaProcessing":
        return RobertaProcessing(_pair(d.get("sep"), "sep"), _pair(d.get("cls"), "cls"),
                                 d.get("trim_offsets", True), d.get("add_prefix_space", True))
    if kind == "ByteLevel":
        return ByteLevel(d.get("add_prefix_space", True), d.get("trim_offsets", True),
                         d.get("use_regex", True))
    if kind == "Sequence":
        procs = d.get("processors")
        if not isinstance(procs, list):
            raise SubwordLabError("expected a list", field="processors")
        return Sequence([from_dict(p) for p in procs])
    raise SubwordLabError(f"unsupported post-processor type {kind!r}", field="type")

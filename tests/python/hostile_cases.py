"""Generated hostile inputs for tests/python/test_hostile.py.

Valid components come from `tokenizers` itself (built with its constructors and
serialized), so the starting points are what the reference library writes. Each
field of each component is then replaced by values of the wrong kind, removed,
or nested too deep; the reference library decides whether the result is a valid
tokenizer.json, and we must agree with it.
"""
from __future__ import annotations

import copy
import json

# Values a field is replaced with. JSON text, because some are not valid Python
# JSON values (NaN) or lose their meaning once parsed (1e400).
BAD_VALUES = {
    "string": '"yes"', "empty string": '""', "negative": "-1", "2^32": "4294967296",
    "fraction": "1.5", "null": "null", "list": "[]", "object": "{}", "true": "true",
    "NaN": "NaN", "Infinity": "Infinity", "1e400": "1e400", "huge int": "9" * 5000,
}
# Placeholder replaced in the serialized JSON by the raw value text.
_MARK = "\u2060hostile\u2060"


def reference_components():
    """{"normalizer": [dict, ...], ...}: one valid dict per component type, from tokenizers."""
    from tokenizers import Regex, Tokenizer
    from tokenizers import decoders as D, models as M, normalizers as N
    from tokenizers import pre_tokenizers as P, processors as R

    cls_sep = (("[SEP]", 3), ("[CLS]", 2))
    built = {
        "normalizer": [N.NFC(), N.NFD(), N.NFKC(), N.NFKD(), N.Lowercase(), N.StripAccents(),
                       N.BertNormalizer(), N.Strip(), N.Prepend("▁"), N.Replace("a", "b"),
                       N.Replace(Regex("a+"), "b"), N.Sequence([N.NFC(), N.Lowercase()])],
        "pre_tokenizer": [P.ByteLevel(), P.Whitespace(), P.WhitespaceSplit(),
                          P.BertPreTokenizer(), P.Metaspace(), P.CharDelimiterSplit("x"),
                          P.Punctuation(), P.Split("a", "isolated"),
                          P.Split(Regex("a+"), "removed", True), P.Digits(True),
                          P.UnicodeScripts(), P.Sequence([P.Whitespace(), P.Digits()])],
        "post_processor": [R.BertProcessing(*cls_sep), R.RobertaProcessing(*cls_sep),
                           R.ByteLevel(),
                           R.TemplateProcessing(single="[CLS] $A [SEP]",
                                                pair="[CLS] $A [SEP] $B:1 [SEP]:1",
                                                special_tokens=[("[CLS]", 2), ("[SEP]", 3)]),
                           R.Sequence([R.ByteLevel(), R.BertProcessing(*cls_sep)])],
        "decoder": [D.ByteLevel(), D.WordPiece(), D.Metaspace(), D.BPEDecoder(), D.CTC(),
                    D.Replace("a", "b"), D.Fuse(), D.Strip("x", 1, 0), D.ByteFallback(),
                    D.Sequence([D.ByteFallback(), D.Fuse()])],
    }
    tok = Tokenizer(M.WordLevel({"a": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}, unk_token="[UNK]"))
    out = {}
    for field, components in built.items():
        out[field] = []
        for component in components:
            setattr(tok, field, component)
            out[field].append(json.loads(tok.to_str())[field])
    models = [M.BPE({"a": 0, "b": 1, "ab": 2, "<unk>": 3}, [("a", "b")], unk_token="<unk>"),
              M.WordPiece({"a": 0, "##b": 1, "[UNK]": 2}, unk_token="[UNK]"),
              M.WordLevel({"a": 0, "[UNK]": 1}, unk_token="[UNK]"),
              M.Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -2.0)], 0, False)]
    out["model"] = [json.loads(Tokenizer(m).to_str())["model"] for m in models]
    return out


def base_document(model):
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
            "normalizer": None, "pre_tokenizer": None, "post_processor": None,
            "decoder": None, "model": copy.deepcopy(model)}


def _with_raw(doc, setter, raw):
    """Serialize `doc` after `setter` put the placeholder somewhere, then splice `raw` in."""
    doc = copy.deepcopy(doc)
    setter(doc, _MARK)
    return json.dumps(doc, ensure_ascii=False).replace(json.dumps(_MARK, ensure_ascii=False), raw)


def _paths(value, prefix=()):
    """Every (path) to a scalar or container inside a component, outermost first."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "type" and not prefix:
                continue
            yield prefix + (key,)
            yield from _paths(inner, prefix + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value[:3]):  # a few entries are enough
            yield prefix + (i,)
            yield from _paths(inner, prefix + (i,))


def _set(root, path, value):
    for key in path[:-1]:
        root = root[key]
    root[path[-1]] = value


def _delete(root, path):
    for key in path[:-1]:
        root = root[key]
    del root[path[-1]]


def tokenizer_json_cases():
    """(case id, JSON text, field) for bad and borderline tokenizer.json files."""
    comps = reference_components()
    wordlevel = comps["model"][2]
    for slot, components in comps.items():
        for component in components:
            name = f"{slot}:{component['type']}"
            if slot == "model":
                doc = base_document(component)
                reach = ("model",)
            else:
                doc = base_document(wordlevel)
                doc[slot] = component
                reach = (slot,)
            yield name + ":as-is", json.dumps(doc, ensure_ascii=False), slot
            yield name + ":unknown-type", _with_raw(
                doc, lambda d, m: _set(d, reach + ("type",), m), '"Bogus"'), slot
            yield name + ":extra-field", _with_raw(
                doc, lambda d, m: _set(d, reach + ("surprise",), m), "1"), slot
            for path in _paths(component):
                where = reach + path
                label = ".".join(map(str, path))
                yield f"{name}:{label}:missing", _drop(doc, where), slot
                for bad, raw in BAD_VALUES.items():
                    yield f"{name}:{label}={bad}", _with_raw(
                        doc, lambda d, m, w=where: _set(d, w, m), raw), slot
    yield from _nesting_cases(comps)
    yield from _top_level_cases(wordlevel)


def _drop(doc, where):
    doc = copy.deepcopy(doc)
    try:
        _delete(doc, where)
    except (KeyError, IndexError):
        pass
    return json.dumps(doc, ensure_ascii=False)


_SEQUENCE_KEY = {"normalizer": "normalizers", "pre_tokenizer": "pretokenizers",
                 "decoder": "decoders", "post_processor": "processors"}
_LEAF = {"normalizer": {"type": "Lowercase"}, "pre_tokenizer": {"type": "Whitespace"},
         "decoder": {"type": "Fuse"},
         "post_processor": {"type": "ByteLevel", "add_prefix_space": True,
                            "trim_offsets": True, "use_regex": True}}


def nested(slot, depth, leaf=None):
    """JSON text of `depth` Sequences one inside the other (built as text: too deep for json)."""
    head = '{"type": "Sequence", "%s": [' % _SEQUENCE_KEY[slot]
    return head * (depth - 1) + json.dumps(leaf or _LEAF[slot]) + "]}" * (depth - 1)


def _nesting_cases(comps):
    wordlevel = comps["model"][2]
    # tokenizers' JSON reader refuses nesting of 128 levels or more; one Sequence
    # level is two JSON levels (object, list), the document itself is one.
    for slot in _SEQUENCE_KEY:
        for depth in (2, 62, 63, 64, 65, 400, 1000):
            doc = base_document(wordlevel)
            text = _with_raw(doc, lambda d, m: _set(d, (slot,), m), nested(slot, depth))
            yield f"{slot}:nested-{depth}", text, slot
    replace = {"type": "Replace", "pattern": {"String": "a"}, "content": "b"}
    for depth in (63, 64):  # JSON depth 127 and 129
        text = _with_raw(base_document(wordlevel), lambda d, m: _set(d, ("normalizer",), m),
                         nested("normalizer", depth, replace))
        yield f"normalizer:nested-replace-{depth}", text, "normalizer"
    yield "document:nested-100000", "[" * 100_000 + "]" * 100_000, None
    yield "document:nested-object-100000", '{"a":' * 100_000 + "1" + "}" * 100_000, None


def _top_level_cases(wordlevel):
    doc = base_document(wordlevel)
    yield "top:version=2.0", _with_raw(doc, lambda d, m: _set(d, ("version",), m), '"2.0"'), "version"
    yield "top:not-object", "[1, 2]", None
    yield "top:no-model", json.dumps({k: v for k, v in doc.items() if k != "model"}), "model"
    for bad, raw in BAD_VALUES.items():
        for key in ("truncation", "padding", "added_tokens"):
            yield f"top:{key}={bad}", _with_raw(doc, lambda d, m, k=key: _set(d, (k,), m), raw), key
    padding = {"strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None,
               "pad_id": 0, "pad_type_id": 0, "pad_token": "[PAD]"}
    truncation = {"direction": "Right", "max_length": 8, "strategy": "LongestFirst", "stride": 0}
    added = {"id": 1, "content": "[UNK]", "single_word": False, "lstrip": False,
             "rstrip": False, "normalized": False, "special": True}
    for key, value in (("padding", padding), ("truncation", truncation)):
        for field in value:
            for bad, raw in BAD_VALUES.items():
                inner = dict(doc, **{key: value})
                yield f"top:{key}.{field}={bad}", _with_raw(
                    inner, lambda d, m, k=key, f=field: _set(d, (k, f), m), raw), key
    for field in added:
        for bad, raw in BAD_VALUES.items():
            inner = dict(doc, added_tokens=[added])
            yield f"top:added_tokens.{field}={bad}", _with_raw(
                inner, lambda d, m, f=field: _set(d, ("added_tokens", 0, f), m), raw), "added_tokens"

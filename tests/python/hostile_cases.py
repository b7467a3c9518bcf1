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
    _ROTATION[0] = 0  # the same cases on every call
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
                for bad, raw in _some_bad_values():
                    yield f"{name}:{label}={bad}", _with_raw(
                        doc, lambda d, m, w=where: _set(d, w, m), raw), slot
    yield from _nesting_cases(comps)
    yield from _top_level_cases(wordlevel)
    yield from _named_cases(comps)


def _named_cases(comps):
    """The cases issue 13 names, whatever the rotation picked."""
    unigram, wordlevel = comps["model"][3], comps["model"][2]
    for bad in ("NaN", "Infinity", "1e400", "huge int", "string", "null"):
        yield f"named:Unigram-score={bad}", _with_raw(
            base_document(unigram), lambda d, m: _set(d, ("model", "vocab", 1, 1), m),
            BAD_VALUES[bad]), "model"
    for bad in ("negative", "2^32", "fraction", "huge int", "NaN"):
        yield f"named:WordLevel-id={bad}", _with_raw(
            base_document(wordlevel), lambda d, m: _set(d, ("model", "vocab", "a"), m),
            BAD_VALUES[bad]), "model"
    byte_level = comps["pre_tokenizer"][0]
    for slot in ("pre_tokenizer", "decoder", "post_processor"):
        doc = base_document(wordlevel)
        doc[slot] = byte_level
        yield f"named:{slot}-ByteLevel-add_prefix_space=yes", _with_raw(
            doc, lambda d, m, s=slot: _set(d, (s, "add_prefix_space"), m), '"yes"'), slot


_ROTATION = [0]


def _some_bad_values(count=5):
    """`count` of BAD_VALUES, a different few for each field, so that every kind of
    bad value meets every kind of field across the cases without trying them all."""
    items = list(BAD_VALUES.items())
    start = _ROTATION[0]
    _ROTATION[0] = (start + count) % len(items)
    return [items[(start + k) % len(items)] for k in range(count)]


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
            for bad, raw in _some_bad_values():
                inner = dict(doc, **{key: value})
                yield f"top:{key}.{field}={bad}", _with_raw(
                    inner, lambda d, m, k=key, f=field: _set(d, (k, f), m), raw), key
    for field in added:
        for bad, raw in _some_bad_values():
            inner = dict(doc, added_tokens=[added])
            yield f"top:added_tokens.{field}={bad}", _with_raw(
                inner, lambda d, m, f=field: _set(d, ("added_tokens", 0, f), m), raw), "added_tokens"


# -- tokenizer.json: where we deliberately differ from tokenizers ------------------------------

def known_difference(case_id):
    """Why we refuse a case tokenizers reads, or None (tests/python/test_hostile.py
    checks that each reason still parts us from tokenizers on some case)."""
    if case_id.endswith(":unknown-type") or ":processors.1.type" in case_id or (
            "RobertaProcessing:trim_offsets=" in case_id
            or "RobertaProcessing:add_prefix_space=" in case_id):
        return ("tokenizers guesses a component with an unknown or missing type from its "
                "fields (a RobertaProcessing with a bad flag becomes a BertProcessing); we refuse")
    if "TemplateProcessing:" in case_id:
        return ("we check at load that the template's special tokens are defined; "
                "tokenizers finds out at encode time")
    return None


# -- other files --------------------------------------------------------------------------------

def vocab_txt_cases():
    """(case id, bytes) for vocab.txt files."""
    ok = "[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\n##s\n"
    yield "plain", ok.encode()
    yield "2MB-line", (ok + "x" * 2_000_000 + "\n").encode()
    yield "many-long-lines", (ok + "".join("y" * 5000 + str(i) + "\n" for i in range(200))).encode()
    yield "no-unk", b"the\n##s\n"
    yield "only-newlines", b"\n\n\n"
    yield "nul", ok.encode() + b"a\x00b\n"
    yield "latin-1", ok.encode() + "caf\xe9\n".encode("latin-1")
    yield "bom", b"\xef\xbb\xbf" + ok.encode()
    yield "crlf", ok.replace("\n", "\r\n").encode()
    yield "duplicates", (ok * 3).encode()
    yield "lone-surrogate-escape", ok.encode() + b"\xed\xa0\x80\n"
    yield "whitespace-tokens", (ok + " \n\t\n\u3000\n").encode()


def merges_cases():
    """(case id, vocab.json text, merges.txt text) for GPT-2 style BPE files."""
    vocab = {"a": 0, "b": 1, "ab": 2, "c": 3}
    good = "#version: 0.2\na b\n"
    yield "plain", json.dumps(vocab), good
    yield "three-parts", json.dumps(vocab), "a b c\n"
    yield "one-part", json.dumps(vocab), "ab\n"
    yield "unknown-pieces", json.dumps(vocab), "x y\n"
    yield "id-negative", json.dumps(dict(vocab, c=-1)), good
    yield "id-2^32", json.dumps(dict(vocab, c=2 ** 32)), good
    yield "id-string", json.dumps(dict(vocab, c="3")), good
    yield "id-NaN", json.dumps(vocab)[:-1] + ', "d": NaN}', good
    yield "id-huge", json.dumps(vocab)[:-1] + ', "d": ' + "9" * 5000 + "}", good
    yield "vocab-list", "[1, 2]", good
    yield "vocab-nested", "[" * 5000 + "]" * 5000, good
    yield "merges-binary", json.dumps(vocab), "a b\n\x00\n"
    yield "merges-empty", json.dumps(vocab), ""


def tiktoken_cases():
    """(case id, text, helper branch or None): None = must already be refused."""
    import base64
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    good = "\n".join(lines) + "\n"
    extra = base64.b64encode(b"ab").decode()
    yield "plain", good, None
    yield "not-base64", good + "!!!! 256\n", None
    yield "duplicate-rank", good + f"{extra} 5\n", None
    yield "missing-byte", "\n".join(lines[1:]) + "\n", None
    yield "rank-superscript", good + f"{extra} \u00b2\u2075\u2076\n", None
    yield "rank-arabic-indic", good + f"{extra} \u0662\u0665\u0666\n", None
    yield "rank-1e20", good + f"{extra} 100000000000000000000\n", None
    yield "rank-2^32", good + f"{extra} 4294967296\n", None
    yield "rank-5000-digits", good + f"{extra} {'9' * 5000}\n", None
    yield "three-fields", good + f"{extra} 256 x\n", None


def _varint(n):
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number, wire, payload):
    return _varint(number << 3 | wire) + payload


def sentencepiece_model(pieces):
    """A minimal ModelProto: (piece, score, type) triples and a Unigram trainer spec."""
    import struct
    body = b""
    for piece, score, kind in pieces:
        raw = piece.encode()
        inner = (_field(1, 2, _varint(len(raw)) + raw) + _field(2, 5, struct.pack("<f", score))
                 + _field(3, 0, _varint(kind)))
        body += _field(1, 2, _varint(len(inner)) + inner)
    spec = _field(3, 0, _varint(1))  # model_type UNIGRAM
    return body + _field(2, 2, _varint(len(spec)) + spec)


def model_score_cases():
    base = [("<unk>", 0.0, 2), ("a", -1.0, 1), ("b", -2.0, 1)]
    yield "finite", sentencepiece_model(base), True
    for name, value in (("NaN", float("nan")), ("Inf", float("inf")), ("-Inf", float("-inf"))):
        yield f"score-{name}", sentencepiece_model(base[:2] + [("b", value, 1)]), False


def model_mutations(data, seed, count):
    """`count` copies of `data` with a few bytes changed, cut or repeated (deterministic)."""
    import random
    rng = random.Random(seed)
    for i in range(count):
        mutated = bytearray(data)
        how = i % 4
        if how == 0:
            for _ in range(rng.randint(1, 8)):
                mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        elif how == 1:
            mutated = mutated[: rng.randrange(1, len(mutated))]
        elif how == 2:
            start = rng.randrange(len(mutated))
            mutated[start:start] = mutated[start:start + rng.randint(1, 64)] * rng.randint(2, 50)
        else:
            pos = rng.randrange(len(mutated))
            mutated[pos:pos] = b"\xff" * rng.randint(1, 12)  # huge varints
        yield f"mutation-{seed}-{i}", bytes(mutated)


# Sizes keep every case far under the time bound; big-input speed has its own
# benchmarks (bench/).
HOSTILE_TEXTS = {
    "empty": "", "spaces": " " * 10_000, "nul": "a\x00b", "newlines": "\r\n" * 5000,
    "long-word": "x" * 10_000, "long-words": " ".join(["abcdefgh" * 20] * 500),
    "combining": "e" + "\u0301" * 20_000, "zwj-emoji": "\U0001F468\u200d\U0001F469\u200d\U0001F467" * 2000,
    "rtl": "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 " * 2000,
    "private-use": "\ue000\U000F0000" * 1000, "controls": "".join(map(chr, range(32))) * 300,
    "bom-and-nbsp": "\ufeff\u00a0\u2028\u2029" * 2000, "cjk": "\u6f22\u5b57" * 5000,
    "digits": "1234567890" * 3000, "specials-as-text": "[CLS] [SEP] <unk> [UNK]" * 1000,
    "non-characters": "\ufffe\uffff\U0010FFFF" * 1000,
}

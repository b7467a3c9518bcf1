"""The fast paths of sentencepiece .model files give what the general ones give.

Opening and encoding a .model file has lean paths (a run of pieces read by
regex passes, a Unigram lattice on one dict of float32 scores with an
array('f') rounding, a BPE merge without a heap, columns instead of Token
objects); each is checked here against the general path it stands in for and,
for encodings, against sentencepiece itself on models trained to reach the
unknown-character and byte-fallback branches.
"""
from __future__ import annotations

import random
import struct
from array import array
from pathlib import Path

import pytest
import sentencepiece as spm

import subword_lab
from hostile_cases import sentencepiece_model as sentencepiece_model_bytes
from subword_lab.io import sentencepiece_model
from subword_lab.io.sentencepiece_model import parse_model

TEXTS = ["", " ", "  a  b ", "Botchan   was\tborn", "日本語のテキストです。", "x\u0000y",
         "ｱｲｳ①②", "🤗 emoji 🤗🤗", "\u2581\u2581 lead", "tail \u2581", "<s> </s> <unk>",
         "a" * 300, "漢" * 300, "x\u0301\u0302 ß Σ"]


def _texts(botchan_lines, multilingual_lines):
    return TEXTS + botchan_lines[:150] + multilingual_lines


@pytest.fixture(scope="module")
def trained(tmp_path_factory, botchan_txt):
    """Byte-fallback models without user-defined symbols: the lean paths with
    unknown characters turned into bytes."""
    folder = tmp_path_factory.mktemp("spm_fast")
    paths = {}
    for kind in ("unigram", "bpe"):
        prefix = folder / f"bf_{kind}"
        spm.SentencePieceTrainer.train(
            input=str(botchan_txt), model_prefix=str(prefix), vocab_size=800,
            model_type=kind, byte_fallback=True, minloglevel=2)
        paths[kind] = prefix.with_suffix(".model")
    return paths


def _models(request, trained):
    return [request.getfixturevalue("botchan_unigram_model"),
            request.getfixturevalue("botchan_bpe_model"), trained["unigram"], trained["bpe"]]


def test_array_rounding_is_struct_rounding():
    rng = random.Random(11)
    slot, f32 = array("f", [0.0]), struct.Struct("<f")
    values = [rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30) for _ in range(20_000)]
    # sums of two float32 values, as the lattice makes them
    singles = [f32.unpack(f32.pack(v))[0] for v in values]
    values += [a + b for a, b in zip(singles, singles[1:])]
    for v in values:
        slot[0] = v
        assert slot[0] == f32.unpack(f32.pack(v))[0], v


def test_lean_unigram_lattice_is_the_general_one(request, trained, botchan_lines,
                                                 multilingual_lines):
    paths = [request.getfixturevalue("botchan_unigram_model"), trained["unigram"]]
    for path in paths:
        tok = subword_lab.load(path)
        model = tok.model
        assert not model._has_user
        for text in _texts(botchan_lines, multilingual_lines):
            s = tok.spm_normalizer.normalize_str(text).normalized
            if s:
                assert model.tokenize(s) == model._to_tokens(s, model._best_path(s)), text


def test_segment_paths_are_the_float32_lattice(request, trained, botchan_lines,
                                               multilingual_lines):
    """Cached word paths give the float32 lattice's cuts and path score, and leave
    to it the words where a near tie could go either way under float32 rounding
    (runs of dots: equal-score paths; long texts: large path scores round
    coarsely) and those where sentencepiece may rebase the score (past 100,000,
    in the whole book), from the path score carried over the words before."""
    long_texts = [" ".join(botchan_lines[k:k + 400]) for k in range(0, 1200, 400)]
    rng = random.Random(5)  # long words of letters: cut where no 3 chars are in a piece
    long_words = ["".join(rng.choices("etaoinshrdlucmfw", k=k)) for k in (70, 200, 300)]
    texts = _texts(botchan_lines, multilingual_lines) + long_texts + long_words + [
        "." * k for k in range(1, 70)] + [" ".join(multilingual_lines) * 3,
                                          " ".join(botchan_lines)]  # the book last
    for path in (request.getfixturevalue("botchan_unigram_model"), trained["unigram"]):
        tok = subword_lab.load(path)
        model = tok.model
        segments = model._segments
        starts_from = []
        segments._lattice = lambda s, *more: starts_from.append(more[1]) or model._cuts(
            s, *more)
        used = set()
        for text in texts:
            s = tok.spm_normalizer.normalize_str(text).normalized
            if not s:
                continue
            starts_from.clear()
            _, _, starts, ends = segments.columns(s)
            cuts, score = model._cuts(s, with_score=True)
            assert starts == cuts[:-1] and ends == cuts[1:], text[:60]
            used.add(bool(starts_from))  # the lattice ran for some word
            assert segments.path_score(s) == score, text[:60]
        assert used == {True, False}
        assert max(map(abs, starts_from)) > 90_000  # the whole book's score was rebased


def test_offsets_cover_what_each_token_reads(botchan_unigram_model, botchan_bpe_model,
                                             botchan_lines):
    """On ASCII text with single spaces (nothing for the normalizer to change but
    " " -> "▁" and the dummy prefix), each token's span of the input reads as
    its piece does: an independent check of the alignment the offsets come from
    (models without byte fallback: a byte piece does not read as its text)."""
    lines = [" ".join(line.split()) for line in botchan_lines if line.isascii()]
    for path in (botchan_unigram_model, botchan_bpe_model):
        tok = subword_lab.load(path)
        for text in filter(None, lines):
            enc = tok.encode(text)
            want = [piece.replace("\u2581", " ") for piece in enc.tokens]
            want[0] = want[0][1:] if want[0].startswith(" ") else want[0]  # dummy prefix
            assert [text[a:b] for a, b in enc.offsets] == want, text


def test_charsmap_rules_remembered_by_two_chars_match_sentencepiece(botchan_unigram_model):
    """The normalizer remembers a charsmap lookup by the two chars where it began
    when it read no further; a letter and a mark at the end of a text must not
    stand for the same two followed by a second mark (a longer rule), seen after."""
    oracle = spm.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    tok = subword_lab.load(botchan_unigram_model)
    marks = ["\u031b", "\u0308", "\u0302", "\u0300", "\u0301", "\u0303", "\u0323"]
    texts = []
    for base in "uoaeUOAE":
        for first in marks:
            for second in marks:
                texts += [base + first, f"x {base}{first}{second} y", base + first + second]
    for text in texts:
        assert tok.spm_normalizer.normalize_str(text).normalized == oracle.normalize(text), text


@pytest.mark.parametrize("delta", [2.0 ** -12, 2.0 ** -10, 2.0 ** -7])
def test_near_ties_follow_float32_rounding(tmp_path, delta):
    """"ab" scores a hair below "a" + "b": exact arithmetic takes "a", "b"; after
    a long run of "z" the path score is large enough that float32 rounds the two
    to a tie, which sentencepiece gives to "ab" (the first found). The word
    paths must see that their margin is too thin and leave the choice to the
    float32 lattice, started from the path score carried over the words before
    (many "▁z" words, each with one path)."""
    path = tmp_path / "near_tie.model"
    path.write_bytes(sentencepiece_model_bytes([
        ("<unk>", 0.0, 2), ("\u2581", -3.0, 1), ("a", -1.0, 1), ("b", -1.0, 1),
        ("ab", -2.0 - delta, 1), ("z", -20.0, 1)]))
    oracle = spm.SentencePieceProcessor(model_file=str(path))
    tok = subword_lab.load(path)
    for k in (0, 10, 100, 400, 1000, 3000, 4990, 6000):
        for text in ("z" * k + "ab", "z" * k + "ab zab" * 3, "z " * k + "ab"):
            assert tok.encode(text).ids == oracle.encode(text), (k, text[-12:])


def test_lean_bpe_merge_is_the_heap_merge(request, trained, botchan_lines, multilingual_lines):
    for path in (request.getfixturevalue("botchan_bpe_model"), trained["bpe"]):
        tok = subword_lab.load(path)
        model = tok.model
        for text in _texts(botchan_lines, multilingual_lines):
            s = tok.spm_normalizer.normalize_str(text).normalized
            for part in [s] + s.split("\u2581"):
                if part and len(part) <= 256:
                    heap = model._tokenize_part(part)
                    lean = model._merge_lean(part)
                    assert list(zip(lean[0], lean[1], zip(lean[2], lean[3]))) == \
                        [(t.id, t.value, t.offsets) for t in heap], part


def test_columns_path_is_the_traced_path(request, trained, botchan_lines, multilingual_lines):
    for path in _models(request, trained):
        tok = subword_lab.load(path)
        for text in _texts(botchan_lines, multilingual_lines):
            fast, traced = tok.encode(text), tok.encode(text, on_event=lambda e: None)
            for name in ("ids", "tokens", "offsets", "word_ids", "type_ids",
                         "attention_mask", "special_tokens_mask"):
                assert getattr(fast, name) == getattr(traced, name), (name, text)


def test_byte_fallback_models_match_sentencepiece(trained, botchan_lines, multilingual_lines):
    for path in trained.values():
        ours = subword_lab.load(path)
        oracle = spm.SentencePieceProcessor(model_file=str(path))
        for text in _texts(botchan_lines, multilingual_lines):
            enc = ours.encode(text)
            assert enc.ids == oracle.encode(text), text
            assert enc.tokens == oracle.encode(text, out_type=str), text


def _general(data):
    """The model as the general reader alone reads it (no runs read at once)."""
    saved = (sentencepiece_model.piece_run, sentencepiece_model.first_run,
             sentencepiece_model.string_run)
    sentencepiece_model.piece_run = lambda data, pos, end: ([], [], [], pos)
    sentencepiece_model.first_run = sentencepiece_model.piece_run
    sentencepiece_model.string_run = lambda data, pos, after_key, end: ([], pos)
    try:
        return parse_model(data)
    finally:
        (sentencepiece_model.piece_run, sentencepiece_model.first_run,
         sentencepiece_model.string_run) = saved


def _varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes(out + bytes([n]))


def _trainer(*symbols):
    body = b"".join(b"\xf2\x01" + bytes([len(x)]) + x for x in symbols)  # field 30
    return b"\x12" + _varint(len(body)) + body


def _record(piece, score=None, kind=None):
    body = b"\n" + _varint(len(piece)) + piece
    if score is not None:
        body += b"\x15" + struct.pack("<f", score)
    if kind is not None:
        body += b"\x18" + bytes([kind])
    return b"\n" + _varint(len(body)) + body


def _odd_shapes():
    """Pieces with and without score and type fields, a NUL, a \\x15 byte, a bad
    length byte and invalid UTF-8, each after a run of usual ones."""
    # past the first kilobyte (read record by record), so that the split sees them
    usual = b"".join(_record(f"p{i}".encode(), -i / 3, 1) for i in range(120))
    unk = _record(b"<unk>", 0.0, 2)
    return {
        "mixed fields": unk + usual + _record(b"a", -1.5) + _record(b"b", None, 1)
        + _record(b"c") + usual.replace(b"p", b"q"),
        "most without a type": unk + b"".join(_record(f"s{i}".encode(), -i / 7)
                                              for i in range(100)) + usual,
        "nul piece": unk + usual + _record(b"x\x00y", -2.0, 1) + _record(b"z", -3.0, 1),
        "control byte piece": unk + usual + _record(b"\x15", -2.0, 1) + _record(b"w", -1.0),
        "bad length": unk + usual + b"\n\x09\n\x05abc\x15\x00\x00\x00\x00",
        "not utf-8": unk + usual + _record(b"\xff\xfe", -2.0, 1),
        # what the reader's first pass splits at (score, type, next head) inside a piece
        "separator in a piece": unk + usual + _record(b"a\x15bcde\x18\x01\n\x05\n\x02", -2.0, 1)
        + usual.replace(b"p", b"r"),
        "separator bytes in a score": unk + usual + _record(b"s", struct.unpack(
            "<f", b"\x15\x00\n\x0b")[0], 1) + usual.replace(b"p", b"r"),
        "long piece in a run": unk + usual + _record(b"L" * 130, -2.0, 1)
        + _record(b"M" * 119, -2.5, 1) + usual.replace(b"p", b"r"),
        "size byte off in a run": unk + usual + b"\n\x0d\n\x03abc\x15\x00\x00\x00\x00\x18\x01"
        + usual.replace(b"p", b"r"),
        "length byte off in a run": unk + usual + b"\n\x0c\n\x02abc\x15\x00\x00\x00\x00\x18\x01"
        + usual.replace(b"p", b"r"),
        # a type byte of 128 or more (a varint cut short by the record's size) whose
        # next byte reads as the next record's key
        "type byte over 127": unk + usual + b"\n\x0a\n\x01w\x15\x00\x00\x80\xbf"
        b"\x18\x8a\x0a" + b"\n\x0a\n\x03abc\x15\x00\x00\x00\xc0" + usual.replace(b"p", b"r"),
        # a size byte of 128 or more that is the piece's length + 9
        "size byte over 127": unk + usual + b"\n\x81\n\x78" + b"x" * 120
        + b"\x15\x00\x00\x80\xbf\x18\x01" + usual.replace(b"p", b"r"),
        "widths alternating": unk + b"".join(_record(f"t{i}".encode(), -i / 5, 1 if i % 3 else None)
                                            for i in range(200)),
        "control symbols": unk + usual + _trainer(b"<a>", b"<b>", b"\xe2\x96\x81", b"<c>"),
        "control symbol not utf-8": unk + usual + _trainer(b"<a>", b"<\xff>", b"<c>"),
    }


@pytest.mark.parametrize("name", list(_odd_shapes()))
def test_piece_runs_read_as_the_general_reader(name):
    data = _odd_shapes()[name]
    try:
        expected = _general(data)
    except subword_lab.SubwordLabError as exc:
        with pytest.raises(subword_lab.SubwordLabError) as caught:
            parse_model(data)
        assert str(caught.value) == str(exc)
        return
    got = parse_model(data)
    assert (got.pieces.texts, got.pieces.scores, got.pieces.types) == \
        (expected.pieces.texts, expected.pieces.scores, expected.pieces.types)
    assert got.trainer_spec == expected.trainer_spec


def _wide_type(piece, kind):
    """A record whose type takes a varint of more than one byte."""
    body = b"\n" + bytes([len(piece)]) + piece + b"\x15" + struct.pack("<f", -1.0)
    body += b"\x18" + _varint(kind)
    return b"\n" + bytes([len(body)]) + body


def _long_run():
    return _record(b"<unk>", 0.0, 2) + b"".join(_record(f"p{i}".encode(), -i / 3, 1)
                                                 for i in range(200))


@pytest.mark.parametrize("record, field", [
    (_record(b"nan", float("nan"), 1), "pieces[201].score"),
    (_record(b"inf", float("inf"), 1), "pieces[201].score"),
    (_record(b"-inf", float("-inf"), 1), "pieces[201].score"),
    (_record(b"t7", -1.0, 7), "pieces[201].type"),
    (_record(b"t0", -1.0, 0), "pieces[201].type"),
    (_wide_type(b"t300", 300), "pieces[201].type"),
    (_record(b"p7", -1.0, 1), "pieces[201].piece"),
    (_record(b"", -1.0, 1), "pieces[201].piece"),
])
def test_load_checks_refuse_bad_pieces(record, field):
    """The whole-list checks at load (duplicates, empty pieces, types, non-finite
    scores) refuse what sentencepiece refuses, naming the piece, wherever it sits."""
    for data in (_long_run() + record, _long_run() + record + _record(b"after", -9.0, 1)):
        with pytest.raises(subword_lab.SubwordLabError) as caught:
            parse_model(data)
        assert caught.value.field == field, str(caught.value)


def test_first_run_is_read_by_one_split(request):
    """Mistral v1 leaves the type out of its NORMAL pieces, v3 has pieces that
    are a \x15 or \x18 byte: the split reads all but the last piece of each."""
    import assets  # tools/, on the path from tests/conftest.py
    from subword_lab.io._sentencepiece_pieces import split_run
    names = ["mistral.tokenizer.model.v1", "mistral.tokenizer.model.v3"]
    for name, path in assets.fetch(names, quiet=True).items():
        data = Path(path).read_bytes()
        texts, scores, types, stop = split_run(data, 0, len(data))
        expected = _general(data).pieces
        assert len(texts) == len(expected) - 1, name
        assert (texts, scores, types) == (expected.texts[:-1], expected.scores[:-1],
                                          expected.types[:-1])
        assert data[stop:].startswith(b"\n")  # the last piece's record


def test_string_runs_are_read_at_once():
    strings = [f"<ctl{i}>".encode() for i in range(300)]
    data = _odd_shapes()["mixed fields"] + _trainer(*strings[:40])
    calls = []
    saved = sentencepiece_model.string_run

    def spy(*args):
        calls.append(saved(*args))
        return calls[-1]
    sentencepiece_model.string_run = spy
    try:
        model = parse_model(data)
    finally:
        sentencepiece_model.string_run = saved
    assert model.trainer_spec.control_symbols == [s.decode() for s in strings[:40]]
    assert len(calls) == 1 and len(calls[0][0]) == 40


def test_real_files_read_as_the_general_reader(request):
    import assets  # tools/, on the path from tests/conftest.py
    paths = [request.getfixturevalue(f) for f in ("botchan_unigram_model", "botchan_bpe_model")]
    # Mistral v3: 768 control symbols in its trainer spec, pieces of every shape
    paths.append(assets.fetch(["mistral.tokenizer.model.v3"], quiet=True)[
        "mistral.tokenizer.model.v3"])
    for path in paths:
        data = Path(path).read_bytes()
        got, expected = parse_model(data), _general(data)
        assert got.pieces == expected.pieces
        assert got.trainer_spec == expected.trainer_spec


def test_added_tokens_are_registered_when_asked_for(trained):
    tok = subword_lab.load(trained["bpe"])
    oracle = spm.SentencePieceProcessor(model_file=str(trained["bpe"]))
    tok.encode("Botchan <s>")  # encoding does not need them
    specials = {i: t.content for i, t in tok.get_added_tokens_decoder().items()}
    expected = {i: oracle.id_to_piece(i) for i in range(oracle.get_piece_size())
                if oracle.is_control(i) or oracle.is_unknown(i)}
    assert specials == expected
    assert all(t.special for t in tok.get_added_tokens_decoder().values())


def test_space_neighbours_are_the_chars_next_to_an_inner_space():
    from subword_lab.sentencepiece.bpe import _space_neighbours
    space = "\u2581"
    import assets  # tools/, on the path from tests/conftest.py
    mistral = assets.fetch(["mistral.tokenizer.model.v3"], quiet=True)
    mistral = Path(mistral["mistral.tokenizer.model.v3"]).read_bytes()
    for texts in (["a\u2581\u2581b", "\u2581x", "y\u2581", "\u2581\u2581\u2581", "\n\u2581\n"],
                  ["\u2581a", "b\u2581\u2581"], ["\u2581\u2581", "c"],
                  ["q\u0000\u2581r", "s\u2581", "\u2581t"],
                  parse_model(mistral).pieces.texts):
        before = {t[k - 1] for t in texts for k in range(1, len(t)) if t[k] == space}
        after = {t[k + 1] for t in texts for k in range(len(t) - 1) if t[k] == space}
        assert _space_neighbours(texts) == (before, after)

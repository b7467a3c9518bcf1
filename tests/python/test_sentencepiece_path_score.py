"""sentencepiece Unigram on long documents: the same ids as sentencepiece, and the
best path's score as sentencepiece holds it.

sentencepiece 0.2.3 (EncodeOptimized) keeps every path score in float32 and,
once the score where the next pieces start passes 100,000 either way, subtracts
it from every score reached from there on. Without that, two paths a few
thousandths apart compare differently after some 10,000 pieces (issue 27: the
13 KB mixed document parted at token 9,940 with the Japanese test model).

sentencepiece does not report the score of its 1-best path, so `_reference`
below walks its lattice here, straight from sentencepiece's vocabulary and
scores (asked through its API) in its float32 arithmetic; its path must be
sentencepiece's own (same ids), and our score must equal its score.
"""
from __future__ import annotations

from pathlib import Path

import struct

import pytest
import sentencepiece as spm

import assets
import subword_lab

# tests/data (not `from conftest import DATA`: with every test folder collected, the
# name conftest is tests/browser's)
DATA = Path(__file__).resolve().parents[1] / "data"

UNK_PENALTY = 10.0
RESET = 100_000.0


def _f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _documents(book):
    multilingual = (DATA / "multilingual.txt").read_text(encoding="utf-8")
    return {
        "mixed-13KB": (multilingual + book)[:13_000],
        "multilingual-twice": multilingual * 2,
        "botchan-60KB": book[:60_000],
    }


def _reference(sp, text, user_defined=()):
    """(ids, score) of sentencepiece's best path through `text`, one position
    per char, unknown chars unfused."""
    pieces = {}
    for i in range(sp.get_piece_size()):
        if sp.is_unknown(i) or sp.is_control(i) or sp.is_unused(i) or sp.is_byte(i):
            continue
        piece = sp.id_to_piece(i)
        score = _f32(0.1 * (len(piece.encode()) - 1)) if piece in user_defined else sp.get_score(i)
        pieces[piece] = (i, score)
    unk = _f32(min(sc for p, (i, sc) in pieces.items() if p not in user_defined) - UNK_PENALTY)
    longest = max(map(len, pieces))
    n = len(text)
    score = [0.0] * (n + 1)
    start_of = [-1] * (n + 1)
    id_of = [-1] * (n + 1)
    frontier = 0
    for start in range(n):
        here = score[start]
        if not -RESET <= here <= RESET:
            for i in range(start, frontier + 1):
                if i == start or start_of[i] != -1:
                    score[i] = _f32(score[i] - here)
            here = 0.0
        single = False
        for end in range(start + 1, min(n, start + longest) + 1):
            hit = pieces.get(text[start:end])
            if hit is None:
                continue
            frontier = max(frontier, end)
            candidate = _f32(hit[1] + here)
            if start_of[end] == -1 or candidate > score[end]:
                score[end], start_of[end], id_of[end] = candidate, start, hit[0]
            single = single or end == start + 1
        if not single:
            frontier = max(frontier, start + 1)
            candidate = _f32(unk + here)
            if start_of[start + 1] == -1 or candidate > score[start + 1]:
                score[start + 1], start_of[start + 1], id_of[start + 1] = candidate, start, sp.unk_id()
    ids, end = [], n
    while end > 0:
        ids.append(id_of[end])
        end = start_of[end]
    ids.reverse()
    fused = [i for k, i in enumerate(ids) if not (i == sp.unk_id() and k and ids[k - 1] == i)]
    return fused, score[n]


@pytest.fixture(scope="module")
def book(botchan_txt):
    return botchan_txt.read_text(encoding="utf-8")


@pytest.mark.parametrize("model_name", ["kyoto_ja_unigram_8000.model", "botchan_en_unigram_1000.model"])
def test_whole_book_ids_match_sentencepiece(book, model_name):
    path = assets.fetch([model_name], quiet=True)[model_name]
    sp = spm.SentencePieceProcessor(model_file=str(path))
    expected = sp.encode(book)
    got = subword_lab.load(path).encode(book, add_special_tokens=False).ids
    first = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), None)
    assert got == expected, f"{len(got)} vs {len(expected)} ids, first difference at {first}"


@pytest.mark.parametrize("model_name", ["kyoto_ja_unigram_8000.model", "botchan_en_unigram_1000.model"])
@pytest.mark.parametrize("doc", ["mixed-13KB", "multilingual-twice", "botchan-60KB"])
def test_long_document_ids_and_path_score_match_sentencepiece(book, model_name, doc):
    text = _documents(book)[doc]
    path = assets.fetch([model_name], quiet=True)[model_name]
    sp = spm.SentencePieceProcessor(model_file=str(path))
    ours = subword_lab.load(path)
    expected = sp.encode(text)
    normalized = sp.normalize(text)
    reference_ids, reference_score = _reference(sp, normalized)
    assert reference_ids == expected, "the reference walk is not sentencepiece's"
    assert ours.encode(text, add_special_tokens=False).ids == expected
    assert not ours.model._has_user
    assert ours.model.best_path_score(normalized) == reference_score


def test_path_score_with_user_defined_pieces_matches_sentencepiece(tmp_path, book):
    prefix = tmp_path / "ud"
    user = ["<sep>", "Botchan"]
    spm.SentencePieceTrainer.train(
        input=str(DATA / "multilingual.txt"), model_prefix=str(prefix), vocab_size=800,
        model_type="unigram", user_defined_symbols=user, minloglevel=2)
    path = prefix.with_suffix(".model")
    sp = spm.SentencePieceProcessor(model_file=str(path))
    ours = subword_lab.load(path)
    text = (book[:20_000] + " <sep> Botchan ") * 2
    expected = sp.encode(text)
    normalized = sp.normalize(text)
    reference_ids, reference_score = _reference(sp, normalized, user)
    assert reference_ids == expected, "the reference walk is not sentencepiece's"
    assert ours.encode(text, add_special_tokens=False).ids == expected
    assert ours.model._has_user
    assert ours.model.best_path_score(normalized) == reference_score

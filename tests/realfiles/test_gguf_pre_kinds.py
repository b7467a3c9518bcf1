"""The `tokenizer.ggml.pre` kinds that llama.cpp splits with its own code or with
regexes of their own, but whose models' vocabularies are not among llama.cpp's test
files (Kimi K2, Cohere2 MoE / Tiny Aya, AFMoE, SuperBPE, whitespace, Youtu, Granite
embedding 97m, Sarvam MoE): a pinned test vocabulary is copied with its
`tokenizer.ggml.pre` (and, for the raw-text kinds, `tokenizer.ggml.model`) changed
(gguf_rewrite.py, into tmp_path), and llama.cpp through node-llama-cpp tokenizes and
detokenizes the hard inputs of tests/realfiles on that copy, in both special-token
modes. Our ids and decoded text must be equal on every input.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gguf_rewrite import rewrite
from test_gguf_parity import ORACLE, ROOT, _differences, _ids_from_events, _oracle
from test_gguf_parity import _own_specials, paths, texts

import subword_lab
from subword_lab.core.errors import SubwordLabError
from subword_lab.llama_cpp.pre_kinds import NOTES
from subword_lab.llama_cpp.unicode import WHITESPACE

__all__ = ["paths", "texts"]  # the fixtures, shared with test_gguf_parity

# kind -> the test vocabulary it is tried on, and other keys to change.
# Byte-level kinds use Llama 3's vocabulary (128k, many scripts); the kinds that
# merge raw UTF-8 use Gemma 4's (raw pieces, <0xXX> byte tokens) read as a gpt2 model.
KINDS = {
    "kimi-k2": ("ggml-vocab-llama-bpe.gguf", {}),
    "cohere2moe": ("ggml-vocab-llama-bpe.gguf", {}),
    "tiny_aya": ("ggml-vocab-qwen2.gguf", {}),
    "afmoe": ("ggml-vocab-llama-bpe.gguf", {}),
    "superbpe": ("ggml-vocab-llama-bpe.gguf", {}),
    "whitespace": ("ggml-vocab-gemma-4.gguf", {"tokenizer.ggml.model": "gpt2"}),
    "youtu": ("ggml-vocab-llama-bpe.gguf", {}),
    "granite-embed-multi-97m": ("ggml-vocab-llama-bpe.gguf", {}),
    "sarvam-moe": ("ggml-vocab-gemma-4.gguf", {"tokenizer.ggml.model": "gpt2"}),
    # Gemma 4's type: llama.cpp adds BOS whatever the file says
    "granite-embed-multi-311m": ("ggml-vocab-gemma-4.gguf", {
        "tokenizer.ggml.model": "gpt2", "tokenizer.ggml.add_bos_token": False}),
}

# Texts for the corners of these kinds that the hard inputs touch little: a
# contraction with letters after it, Bopomofo and other scripts the kinds' character
# classes name, digit runs inside words, combining marks.
EDGES = ["I'dn't say we'drive", "YOU'REally THEY'LLbe we'VEr it'Sx 'd'M", "\u3105\u3106\u3107abc \u3108 a\u3105n",
         " \u3105\u3106\u3107\u3108\u3109\u310a\u311a\u3127\u3128\u3110a",
         "\u4e2d\u6587abc\u65e5\u672c\u8a9e\u30ab\u30bf\uac00\uac01 x\u4e00y",
         "x12345y 1234567 ab123cd \u00bd\u00b2\u00b3 7\u2157",
         "\u0e44\u0e17\u0e22 \u0ea5\u0eb2\u0ea7 \u1781\u17d2\u1798\u17c2\u179a "
         "\u1019\u103c\u1014\u103a\u1019\u102c", "a\u0301b\u0301C\u0301D na\u00efve \u0301e",
         "\uff21\uff01\u2026\u201c\u5f15\u201d\u2014\uff1a\uff1b\uff0c\u3001\u301c\ufe30",
         "12,345,678.90 \u0661\u0662\u0663\u0664\u0665", "Hello\u4e16\u754cworld's", " \n\t 123"]


# llama.cpp's merge lookup asserts that neither side holds a space (find_bpe_rank), and
# the whitespace kind hands it raw runs of spaces: a run of two or more whitespace
# characters with a space in it stops the process. Those texts are left out for that
# kind (we tokenize them as llama.cpp would without the assertion).
def _blank(ch):
    """A character std::regex's \\S leaves out, as llama.cpp hands it the text."""
    return ch in " \t\n\r\f\v" or (ord(ch) > 127 and ord(ch) in WHITESPACE)


def _runs_in_llama_cpp(kind, text):
    if kind != "whitespace":
        return True
    runs = "".join(ch if _blank(ch) else "x" for ch in text).split("x")
    return not any(len(run) > 1 and " " in run for run in runs)


@pytest.mark.parametrize("kind", list(KINDS))
def test_kind_equals_llama_cpp(kind, paths, texts, tmp_path):
    name, more = KINDS[kind]
    path = rewrite(paths[name], tmp_path / f"{kind}.gguf",
                   dict(more, **{"tokenizer.ggml.pre": kind}))
    tok = subword_lab.load(path)
    assert tok.rules["pre_tokenizer"] == kind
    assert kind not in NOTES or NOTES[kind][1] in tok.rules["notes"]
    assert kind not in NOTES or {"key": NOTES[kind][0]} in tok.rules["note_keys"]
    batch = [t for t in texts + EDGES + _own_specials(tok) if _runs_in_llama_cpp(kind, t)]
    assert len(batch) >= 1000
    ref = _oracle(path, batch)
    assert (tok.gguf.add_bos, tok.gguf.add_eos) == (ref["addBos"], ref["addEos"])
    found = _differences(tok, batch, ref)
    assert not found, f"{len(found)} differences, first: {found[:3]}"
    for text in batch[:200]:  # the page's views replay the events: same tokens
        events = []
        ids = tok.encode(text, add_special_tokens=False, on_event=events.append).ids
        traced = [tok.token_to_id(t) if isinstance(t, str) else t
                  for t in _ids_from_events(events)]
        assert traced == ids, text


def _oracle_run(path, texts):
    return subprocess.run(["node", str(ORACLE)], input=json.dumps({"model": str(path),
                                                                   "texts": texts}),
                          capture_output=True, text=True, cwd=ROOT)


def test_whitespace_kind_stops_llama_cpp_on_a_space_run(paths, tmp_path):
    """What the filter above and the kind's note in tok.rules say. The assertion is in
    the merge loop whatever the vocabulary, so GPT-2's small one shows it (llama.cpp reads
    Gemma 4's, as the kind's test uses, in some 14 core-seconds)."""
    path = rewrite(paths["ggml-vocab-gpt-2.gguf"], tmp_path / "ws.gguf",
                   {"tokenizer.ggml.pre": "whitespace"})
    assert _oracle_run(path, ["a\n\nb c"]).returncode == 0
    run = _oracle_run(path, ["a \n b"])
    assert run.returncode != 0 and "GGML_ASSERT" in run.stderr
    assert not _runs_in_llama_cpp("whitespace", "a \n b")
    assert _runs_in_llama_cpp("whitespace", "a\n\nb c")


def test_a_kind_llama_cpp_does_not_know_is_refused(paths, tmp_path):
    """spark2_5 (named in issue 26) is not in the llama.cpp node-llama-cpp bundles."""
    path = rewrite(paths["ggml-vocab-llama-bpe.gguf"], tmp_path / "spark.gguf",
                   {"tokenizer.ggml.pre": "spark2_5"})
    with pytest.raises(SubwordLabError, match="unknown pre-tokenizer 'spark2_5'"):
        subword_lab.load(path)
    run = _oracle_run(path, ["a"])
    assert run.returncode != 0
    assert "unknown pre-tokenizer type: 'spark2_5'" in run.stderr


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))

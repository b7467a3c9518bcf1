"""GGUF vocabularies against llama.cpp itself (issue 26).

For each `ggml-vocab-*.gguf` that llama.cpp keeps for its tokenizer tests (pinned
in tools/assets.py, from the llama-cpp-python sdist), node-llama-cpp (pinned in
llama_oracle/package.json; its prebuilt linux-x64 llama.cpp, loaded with vocabOnly) tokenizes
the hard inputs of tests/realfiles plus texts made of the file's own special
tokens, once per file in one batch (llama_oracle/oracle.mjs), with special-token text read
as text and as special tokens, and detokenizes both id lists. Our ids and decoded
text must be equal on every input. llama.cpp's answers are kept in the cache, keyed on
the model file's bytes, the texts, the oracle's script, its package-lock.json and node's
version, and asked again when any of those changes. llama.cpp's own test vectors (.inp / .out beside
each file) must pass too.
"""
from __future__ import annotations

import atexit
import collections
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import assets
from hard_inputs import hard_inputs

import subword_lab
from subword_lab.core.errors import SubwordLabError

ROOT = Path(__file__).resolve().parents[2]
ORACLE = Path(__file__).resolve().parent / "llama_oracle" / "oracle.mjs"
VOCABS = sorted(name for name in assets.ASSETS
                if name.startswith("ggml-vocab-") and name.endswith(".gguf"))
# The kinds llama.cpp has that we do not read yet: refused by name, not guessed.
NOT_YET: dict = {}
SEPARATOR = "\n__ggml_vocab_test__\n"


_LOADED: dict = {}


def _load(path):
    """Each file loaded once for the tests of this module."""
    if path not in _LOADED:
        _LOADED[path] = subword_lab.load(path)
    return _LOADED[path]


def _node_ready():
    return shutil.which("node") and (ORACLE.parent / "node_modules" / "node-llama-cpp").is_dir()


@pytest.fixture(scope="module")
def paths():
    names = VOCABS + [n + ".inp" for n in VOCABS] + [n + ".out" for n in VOCABS]
    return assets.fetch([n for n in names if n in assets.ASSETS] + ["botchan.txt"],
                        quiet=True)


@pytest.fixture(scope="module")
def texts(paths):
    out = [text for _, text in hard_inputs(paths["botchan.txt"].read_text(encoding="utf-8"))]
    # node hands llama.cpp UTF-8: a lone surrogate becomes U+FFFD on the way
    return [t.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for t in out]


def _own_specials(tok):
    """Texts made of the file's own control and user-defined tokens."""
    vocab = tok.gguf
    picked = [vocab.tokens[i] for i in vocab.special_cache[:6] + vocab.special_cache[-6:]]
    out = []
    for k, s in enumerate(picked):
        other = picked[(k + 1) % len(picked)]
        out += [f"{s}Hello", f"Hi {s} there", f" {s}  {other}\n", f"{s}{other}x{s}"]
    return out


class _Oracle:
    """node-llama-cpp answering one request per line (oracle.mjs --serve): started on the
    first request and kept for the session, so node and llama.cpp start once per worker
    instead of once per file."""

    def __init__(self):
        self.process = None
        self.stderr = collections.deque(maxlen=200)

    def _start(self):
        if not _node_ready():
            pytest.fail("node and tests/realfiles/llama_oracle/node_modules are needed "
                        "(python3 build.py test installs them)")
        self.process = subprocess.Popen(["node", str(ORACLE), "--serve"], cwd=ROOT, text=True,
                                        encoding="utf-8", stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        threading.Thread(target=self.stderr.extend, args=(self.process.stderr,), daemon=True).start()
        atexit.register(self.close)

    def ask(self, path, texts):
        if self.process is None or self.process.poll() is not None:
            self._start()
        self.process.stdin.write(json.dumps({"model": str(path), "texts": texts}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"llama.cpp stopped: {''.join(self.stderr)[-2000:]}"
        out = json.loads(line)
        assert "error" not in out, f"{out['error']}: {''.join(self.stderr)[-2000:]}"
        return out

    def close(self):
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=60)


_ORACLE = _Oracle()
# llama.cpp's answers: the same whenever the question and llama.cpp are, so kept in the
# cache under a hash of both (a second run of the GGUF tests skips about half their time).
ANSWERS = assets.cache_dir() / "llama-oracle-answers"


@functools.cache
def _llama_cpp_itself() -> str:
    """What llama.cpp's answers depend on besides the question: the oracle's script, the
    packages it runs (package-lock.json pins each by its integrity hash) and node."""
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    parts = [ORACLE.read_bytes(), (ORACLE.parent / "package-lock.json").read_bytes(), node.encode()]
    return hashlib.sha256(b"\0".join(hashlib.sha256(p).digest() for p in parts)).hexdigest()


def _oracle(path, texts):
    """llama.cpp's ids and decoded text for `texts` on the model at `path`: from the cache
    when this model, these texts and this llama.cpp were asked before, else asked (and kept,
    written whole or not at all)."""
    question = hashlib.sha256()
    for part in (_llama_cpp_itself().encode(), Path(path).read_bytes(),
                 json.dumps(texts, ensure_ascii=False).encode("utf-8", "surrogatepass")):
        question.update(hashlib.sha256(part).digest())
    kept = ANSWERS / f"{question.hexdigest()[:40]}.json"
    try:
        return json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not asked before, or a damaged copy: ask
        pass
    answer = _ORACLE.ask(path, texts)
    ANSWERS.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(answer), encoding="utf-8")
    os.replace(partial, kept)
    return answer


def _differences(tok, texts, ref):
    found = []
    for k, text in enumerate(texts):
        for special, key, dkey in ((False, "plain", "decodePlain"),
                                   (True, "special", "decodeSpecial")):
            mode = "recognise" if special else "as_text"
            ids = tok.encode(text, add_special_tokens=False, special_tokens=mode).ids
            if ids != ref[key][k]:
                found.append((mode, "ids", text[:80], ids[:20], ref[key][k][:20]))
            decoded = tok.decode(ref[key][k], skip_special_tokens=not special)
            if decoded != ref[dkey][k]:
                found.append((mode, "decode", text[:80], decoded[:80], ref[dkey][k][:80]))
    return found


@pytest.mark.parametrize("name", VOCABS)
def test_ids_and_decode_equal_llama_cpp(name, paths, texts):
    path = paths[name]
    if name in NOT_YET:
        with pytest.raises(SubwordLabError, match=f"'{NOT_YET[name]}' is not supported"):
            subword_lab.load(path)
        return
    tok = _load(path)
    batch = texts + _own_specials(tok)
    assert len(batch) >= 1000
    ref = _oracle(path, batch)
    found = _differences(tok, batch, ref)
    assert not found, f"{len(found)} differences, first: {found[:3]}"


@pytest.mark.parametrize("name", [n for n in VOCABS
                                  if n + ".inp" in assets.ASSETS and n not in NOT_YET])
def test_llama_cpp_own_vectors(name, paths):
    inputs = paths[name + ".inp"].read_text(encoding="utf-8").split(SEPARATOR)[:-1]
    outputs = paths[name + ".out"].read_text(encoding="utf-8").split("\n")
    tok = _load(paths[name])
    assert len(inputs) > 20
    for text, line in zip(inputs, outputs):
        expected = [int(x) for x in line.split()]
        got = tok.encode(text, add_special_tokens=False, special_tokens="as_text").ids
        assert got == expected, (text, got, expected)


def test_bos_and_eos_as_the_file_says(paths):
    spm = subword_lab.load(paths["ggml-vocab-llama-spm.gguf"])  # add_bos_token true
    assert spm.encode("Hi").ids[0] == 1 and spm.encode("Hi").ids[-1] != 2
    assert spm.encode("Hi", add_special_tokens=False).ids[0] != 1
    gpt2 = subword_lab.load(paths["ggml-vocab-gpt-2.gguf"])  # no add_bos: llama.cpp's default
    assert gpt2.encode("Hi").ids == gpt2.encode("Hi", add_special_tokens=False).ids
    assert gpt2.rules["format"] == "gguf" and gpt2.rules["pre_tokenizer"] == "gpt-2"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def _ids_from_events(events):
    ids, pieces = [], None
    for event in events:
        if event["type"] == "pre_tokenize":
            pieces = event["pieces"]
            added = {i: p for i, p in enumerate(pieces) if p["added"]}
        elif event["type"] == "model_piece":
            while added and min(added) < event["index"]:
                ids.append(added.pop(min(added))["text"])
        elif event["type"] in ("bpe.done", "wordpiece.done", "unigram.done"):
            ids.extend(row[1] for row in event["tokens"])
    ids.extend(p["text"] for _, p in sorted(added.items()))
    return ids


@pytest.mark.parametrize("name", VOCABS)
def test_traced_steps_give_the_same_tokens(name, paths, texts):
    """The page's views replay the model events (`bpe.*` by rank or by score,
    `wordpiece.*`, `unigram.*`): their tokens must be the untraced encode's ids."""
    tok = _load(paths[name])
    for text in texts[:300]:
        events = []
        ids = tok.encode(text, add_special_tokens=False, on_event=events.append).ids
        traced = [tok.token_to_id(t) if isinstance(t, str) else t
                  for t in _ids_from_events(events)]
        assert traced == ids, text

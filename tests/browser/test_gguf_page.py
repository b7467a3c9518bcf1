"""A GGUF model file opened in the page (issue 26): a sparse file of several GiB (a
real vocabulary's header, then a "tensor" of zeros that takes no disk) through the
file input. The page reads the header only (File.slice, never the whole file), names
the model in the rules line, and shows llama.cpp's ids (node-llama-cpp, as the oracle
of tests/realfiles/test_gguf_parity.py)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import assets
import pytest
from english_check import english_left

from shots import shot_path

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Hello world, it's 2026! <s> Ünïcödé 中文 🙂"
SIZE = 3 << 30

# Count what the page reads of any File: the largest slice end and whole-file reads.
WATCH = """
window.__reads = { sliceEnd: 0, whole: 0 };
const slice = Blob.prototype.slice;
Blob.prototype.slice = function (start = 0, end = this.size, ...rest) {
  if (this instanceof File) window.__reads.sliceEnd = Math.max(window.__reads.sliceEnd, Math.min(end, this.size));
  return slice.call(this, start, end, ...rest);
};
const whole = Blob.prototype.arrayBuffer;
Blob.prototype.arrayBuffer = function () {
  if (this instanceof File) window.__reads.whole += 1;
  return whole.call(this);
};
"""


def _llama_cpp_ids(path, text):
    run = subprocess.run(["node", str(ROOT / "tests/realfiles/llama_oracle/oracle.mjs")],
                         input=json.dumps({"model": str(path), "texts": [text]}),
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(run.stdout)["special"][0]


def test_a_multi_gib_gguf_opens_from_its_header(app, tmp_path):
    vocab = assets.fetch(["ggml-vocab-llama-spm.gguf"], quiet=True)["ggml-vocab-llama-spm.gguf"]
    header = vocab.read_bytes()
    path = tmp_path / "llama-2-7b.Q4_K_M.gguf"
    path.write_bytes(header)
    with open(path, "r+b") as handle:
        handle.truncate(SIZE)  # sparse: no disk taken
    expected = _llama_cpp_ids(vocab, TEXT)
    assert expected[0] != 1  # no BOS in llama.cpp's call; the page adds it (add_bos_token)

    app.page.add_init_script(WATCH)
    app.open()
    app.page.get_by_test_id("file-input").set_input_files(str(path))
    app.page.locator("#opened-group option").filter(has_text=path.name).wait_for(state="attached")
    app.settled()
    app.type_text(TEXT)
    ids = app.ids()
    assert ids == [1] + expected
    app.page.get_by_test_id("settings").evaluate("details => { details.open = true; }")  # folded at first
    rules = app.page.get_by_test_id("rules-text").inner_text()
    assert "GGUF" in rules and "llama" in rules
    reads = app.page.evaluate("window.__reads")
    assert reads["whole"] == 0
    assert len(header) <= reads["sliceEnd"] <= max(len(header), 4 << 20) < SIZE
    assert app.page.get_by_test_id("error").inner_text() == ""
    app.page.screenshot(path=shot_path("gguf-open.png"))
    app.page.set_viewport_size({"width": 390, "height": 844})
    app.page.get_by_test_id("rules-text").scroll_into_view_if_needed()
    app.page.screenshot(path=shot_path("gguf-open-phone.png"))


def test_gguf_presets_tokenize_as_llama_cpp(app):
    """The catalog's GGUF presets whose licences allow shipping them (docs/presets.md)."""
    app.open()
    for preset, asset, bos in (("phi-3-gguf", "ggml-vocab-phi-3.gguf", [1]),
                               ("bge-gguf", "ggml-vocab-bert-bge.gguf", None),
                               ("falcon-gguf", "ggml-vocab-falcon.gguf", [])):
        path = assets.fetch([asset], quiet=True)[asset]
        expected = _llama_cpp_ids(path, TEXT)
        app.select(preset)
        app.type_text(TEXT)
        ids = app.ids()
        if bos is None:  # WordPiece: [CLS] ... [SEP] around the text
            assert ids[1:-1] == expected and len(ids) == len(expected) + 2, preset
        else:
            assert ids == bos + expected, preset
        assert app.page.get_by_test_id("error").inner_text() == ""
    app.page.screenshot(path=shot_path("gguf-preset.png"))


# Each language's words for the two notes Phi-3's GGUF carries (web/i18n/catalog.js):
# SentencePiece-style BPE as llama.cpp runs it, and a token the file calls normal that
# llama.cpp treats as a control token.
NOTE_WORDS = {"en": ("SentencePiece-style BPE", "control token"),
              "vi": ("BPE kiểu SentencePiece", "token điều khiển"),
              "zh": ("SentencePiece 式 BPE", "控制词元")}


@pytest.mark.parametrize("lang", list(NOTE_WORDS))
def test_where_llama_cpp_departs_the_rules_say_so_in_the_page_language(app, lang):
    """The notes a GGUF tokenizer carries (tok.rules note_keys) are in the rules line, in
    the page's language, with the values they name; no English is left in vi and zh."""
    app.open(f"?lang={lang}&tokenizer=phi-3-gguf")
    app.page.get_by_test_id("settings").evaluate("details => { details.open = true; }")
    rules = app.page.get_by_test_id("rules-text").inner_text()
    for words in NOTE_WORDS[lang]:
        assert words in rules, (lang, rules)
    assert "</s>" in rules  # the control token the note names
    if lang != "en":
        assert english_left(app.page) == []

"""subword_lab.notebook in the kernel: the widgets' synced state against the libraries the
tokenizer came from, the training widget's batches, the packed front end, and the one-line
message without anywidget. The widgets drawn in a real JupyterLab: tests/browser/test_notebook_lab.py."""
from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tokenizers as hf

from installed import require

require("anywidget")  # the notebook extra is part of the test extras

import subword_lab
from subword_lab import Tokenizer, models, pre_tokenizers
from subword_lab import notebook
from subword_lab.notebook import front_end, training_widget
from subword_lab.reference import panel as reference_panel, steps
from subword_lab.trainers import BpeTrainer, UnigramTrainer, WordPieceTrainer

from train_helpers import COURSE, reference_training

ROOT = Path(__file__).resolve().parents[2]
TEXTS = ["Hello  wörld! [SEP] unbelievably 天気", "", " \n\tx", "naïve café [MASK]"]


def encoded(widget):
    return widget.ids, widget.tokens, [tuple(o) for o in widget.offsets]


@pytest.mark.parametrize("add_special", [True, False])
def test_tokens_equal_the_tokenizers_object(bert_json, add_special):
    theirs = hf.Tokenizer.from_file(str(bert_json))
    widget = notebook.tokens(theirs, TEXTS[0], add_special_tokens=add_special)
    for text in TEXTS:
        widget.text = text  # writable: the state follows
        expected = theirs.encode(text, add_special_tokens=add_special)
        assert encoded(widget) == (expected.ids, expected.tokens, expected.offsets)
        assert widget.special == [bool(m) for m in expected.special_tokens_mask]
    assert widget.info == {"model": "WordPiece", "unk_id": theirs.token_to_id("[UNK]"), "byte_level": False}


def test_tokens_equal_a_transformers_tokenizer(botchan_lines):
    from transformers import PreTrainedTokenizerFast
    # a byte-level BPE that tokenizers itself trains, with a template adding <s>
    trained = hf.Tokenizer(hf.models.BPE())
    trained.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trained.decoder = hf.decoders.ByteLevel()
    trained.train_from_iterator(botchan_lines, hf.trainers.BpeTrainer(
        vocab_size=600, special_tokens=["<s>"], initial_alphabet=hf.pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    trained.post_processor = hf.processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 0)])
    theirs = PreTrainedTokenizerFast(tokenizer_object=trained, bos_token="<s>")
    widget = notebook.tokens(theirs, TEXTS[0])
    for text in TEXTS:
        widget.text = text
        assert widget.ids == theirs(text)["input_ids"]
        assert widget.tokens == theirs.convert_ids_to_tokens(widget.ids)
    assert widget.info["byte_level"] is True and widget.info["model"] == "BPE"


def test_tokens_from_a_path_and_the_special_tokens_choice(bert_json):
    widget = notebook.tokens(str(bert_json), "a b")
    ours = Tokenizer.from_file(str(bert_json))
    assert widget.ids == ours.encode("a b").ids
    widget.add_special_tokens = False
    assert widget.ids == ours.encode("a b", add_special_tokens=False).ids


def test_a_wrong_tokenizer_is_one_error():
    from subword_lab import SubwordLabError
    with pytest.raises(SubwordLabError, match="not int"):
        notebook.tokens(42, "x")


@pytest.mark.parametrize("fixture", ["bert_json", "botchan_unigram_model"])
def test_steps_are_the_models_events(request, fixture):
    path = request.getfixturevalue(fixture)
    ours = subword_lab.load(path)
    widget = notebook.steps(str(path), "tokenization")
    for word in ("tokenization", "naïve", "x"):
        widget.word = word  # writable: the steps follow
        events = []
        encoding = ours.encode(word, on_event=events.append, add_special_tokens=False)
        assert json.loads(json.dumps(widget.events)) == json.loads(json.dumps(events))
        assert (widget.ids, widget.tokens) == (encoding.ids, encoding.tokens)
    assert widget.info["model"] == ("WordPiece" if fixture == "bert_json" else "Unigram")



@pytest.mark.parametrize("fixture,algorithm", [("bert_json", "wordpiece"), ("gpt2_tiktoken", "bpe"),
                                               ("botchan_unigram_model", "unigram")])
def test_steps_carry_the_reference_s_code_panel(request, fixture, algorithm):
    """The widget's `code` is the plain reference run on the pieces the model saw: one
    step (function, line, variables) per model event, and those functions' source."""
    reference = importlib.import_module(f"subword_lab.reference.{algorithm}")
    path = request.getfixturevalue(fixture)
    ours = subword_lab.load(path)
    widget = notebook.steps(str(path), "tokenization")
    for word in ("tokenization", "naïve"):
        widget.word = word
        events = []
        ours.encode(word, on_event=events.append, add_special_tokens=False)
        recorder = steps.Steps()
        for piece in [e["text"] for e in events if e["type"] == "model_piece"]:
            reference.encode(ours.model, piece, on_event=recorder)
        model_events = [e for e in events if e["type"].startswith(f"{algorithm}.")]
        assert recorder.events == model_events
        assert widget.code["follows"] == "reference"
        assert widget.code["steps"] == recorder.steps
        assert sorted(s["function"] for s in widget.code["sources"]) == sorted(
            {s["function"] for s in recorder.steps})

def test_steps_refuse_what_they_cannot_draw(bert_json):
    from subword_lab import SubwordLabError
    with pytest.raises(SubwordLabError, match="at most 200"):
        notebook.steps(str(bert_json), "a" * 201)
    level = Tokenizer(models.WordLevel({"a": 0, "[UNK]": 1}, unk_token="[UNK]"))
    with pytest.raises(SubwordLabError, match="not WordLevel"):
        notebook.steps(level, "a")


def test_compare_rows_are_each_tokenizers(bert_json, botchan_unigram_model, gpt2_tiktoken):
    import sentencepiece
    import tiktoken.load
    bert = hf.Tokenizer.from_file(str(bert_json))
    spm = sentencepiece.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    ranks = tiktoken.load.load_tiktoken_bpe(str(gpt2_tiktoken))
    gpt2 = tiktoken.Encoding("gpt2", pat_str=r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""",
                             mergeable_ranks=ranks, special_tokens={"<|endoftext|>": 50256})
    widget = notebook.compare([bert, str(botchan_unigram_model), str(gpt2_tiktoken)], TEXTS[0])
    assert [r["name"] for r in widget.rows] == ["1. Tokenizer", "botchan_en_unigram_1000.model", "gpt2.tiktoken"]
    for text in TEXTS:
        widget.text = text  # writable: every row follows
        bert_row, spm_row, gpt2_row = widget.rows
        assert bert_row["ids"] == bert.encode(text).ids
        assert spm_row["ids"] == spm.encode(text)
        assert gpt2_row["ids"] == gpt2.encode_ordinary(text)
    assert [r["name"] for r in notebook.compare({"x": bert}, "a").rows] == ["x"]


def test_compare_takes_one_to_eight(bert_json):
    from subword_lab import SubwordLabError
    with pytest.raises(SubwordLabError, match="not 0"):
        notebook.compare([], "a")
    with pytest.raises(SubwordLabError, match="not 9"):
        notebook.compare([str(bert_json)] * 9, "a")


def _course_tokenizer(model, pre):
    tok = Tokenizer(model)
    tok.pre_tokenizer = pre
    return tok


@pytest.mark.parametrize("algo", ["bpe", "wordpiece", "unigram"])
def test_training_state_is_the_run(algo):
    widget = notebook.training()
    if algo == "unigram":
        tok = _course_tokenizer(models.Unigram(), pre_tokenizers.Metaspace())
        trainer = UnigramTrainer(vocab_size=40, special_tokens=["<unk>"], unk_token="<unk>")
    else:
        model = models.BPE() if algo == "bpe" else models.WordPiece(unk_token="[UNK]")
        tok = _course_tokenizer(model, pre_tokenizers.ByteLevel(add_prefix_space=False))
        trainer = (BpeTrainer if algo == "bpe" else WordPieceTrainer)(vocab_size=60, special_tokens=["[UNK]"])
    events = []
    tok.train_from_iterator(COURSE, trainer, on_event=lambda e: (events.append(e), widget(e)))
    assert widget.done and widget.algorithm == algo
    # the same events; a summary trace's merges also name the words they changed
    assert [{k: v for k, v in e.items() if not (e["type"] == "merge" and k == "words")}
            for e in widget.run_events] == events and widget.events == len(events)
    vocab = tok.get_vocab()
    assert widget.vocab == sorted(vocab, key=vocab.get)
    if algo != "unigram":
        saved = json.loads(tok.to_str())["model"]
        merges = saved.get("merges")
        if merges is not None:
            assert widget.merges == [list(m) if isinstance(m, list) else m.split(" ") for m in merges]
        assert widget.steps == sum(e["type"] == "merge" for e in events)
    # the Code panel: the reference trained again on the run's word counts and options
    # reports the same events (BPE, WordPiece); a Unigram run is followed by its events
    if algo == "unigram":
        kept = [e for e in events if e["type"] in reference_panel.UNIGRAM_EVENTS]
        assert widget.code["follows"] == "fast" and len(widget.code["steps"]) == len(kept)
        assert {s["function"] for s in widget.code["steps"]} <= {
            src["function"] for src in widget.code["sources"]}
    else:
        recorder = reference_training(algo, events)
        assert recorder.events == [e for e in events if e["type"] in reference_panel.TRAIN_EVENTS]
        assert widget.code["follows"] == "reference" and widget.code["steps"] == recorder.steps


@pytest.mark.parametrize("trainer", [BpeTrainer, WordPieceTrainer])
def test_summary_merges_name_the_words_a_full_trace_names(trainer, botchan_lines):
    """The words the widget finds for a summary trace are those the trainer's full trace lists."""
    def run(trace):
        tok = _course_tokenizer(models.BPE() if trainer is BpeTrainer else models.WordPiece(unk_token="[UNK]"),
                                pre_tokenizers.ByteLevel(add_prefix_space=False))
        widget = notebook.training()
        events = []
        tok.train_from_iterator(botchan_lines, trainer(vocab_size=1_500, special_tokens=["[UNK]"], trace=trace),
                                on_event=lambda e: (events.append(e), widget(e)))
        return events, widget
    full, _ = run("full")
    summary, widget = run("summary")
    assert all("words" not in e for e in summary if e["type"] == "merge")
    merges = [e for e in widget.run_events if e["type"] == "merge"]
    expected = [e for e in full if e["type"] == "merge"]
    assert len(merges) == len(expected) > 1_000
    assert [sorted(m["words"]) for m in merges] == [sorted(e["words"]) for e in expected]


class _Clock:
    """A clock that moves 1 ms each time it is read: batches depend on events, not on load."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.001
        return self.now


def test_training_sends_batches_and_replays(monkeypatch, botchan_lines):
    monkeypatch.setattr(training_widget.time, "monotonic", _Clock())
    widget = notebook.training()
    sent = []
    monkeypatch.setattr(widget, "send", lambda content, buffers=None: sent.append(content))
    tok = _course_tokenizer(models.BPE(), pre_tokenizers.ByteLevel(add_prefix_space=False))
    trainer = BpeTrainer(vocab_size=5_300, show_progress=False)
    tok.train_from_iterator(botchan_lines, trainer, on_event=widget)
    steps = sum(e["type"] == "merge" for e in widget.run_events)
    assert steps >= 5_000
    # one message per FLUSH_SECONDS (100 reads of the 1 ms clock), never one per event
    assert len(sent) <= len(widget.run_events) / 50 + 2
    batches = [m for m in sent if m["kind"] == "events"]
    assert [e for m in batches for e in m["events"]] == widget.run_events
    assert all(m["start"] == sum(len(b["events"]) for b in batches[:i]) for i, m in enumerate(batches))
    # a view that missed the start asks again from its first missing event
    sent.clear()
    widget._message(widget, {"kind": "replay", "from": 7}, [])
    assert [e for m in sent for e in m["events"]] == widget.run_events[7:]
    assert all(len(m["events"]) <= training_widget.REPLAY_BATCH for m in sent)
    sent.clear()
    widget._message(widget, {"kind": "hello"}, [])
    assert sent == [{"kind": "total", "total": len(widget.run_events)}]


def test_front_end_is_the_pages_modules_in_order():
    packed = front_end.modules()
    paths = [path for path, _ in packed]
    # the page's own drawing: the chips, the player and the train view's renderers
    for module in ("lib/tokens.js", "lib/player.js", "views/train/merges.js", "views/train/unigram.js"):
        assert module in paths
        source = (ROOT / "web" / module).read_text(encoding="utf-8")
        assert dict(packed)[module].count("\n") == source.count("\n")
    for i, (path, source) in enumerate(packed):
        assert "import.meta.url" not in source, path
        assert not re.search(r"""(from|import)\s*\(?\s*["']\.{1,2}/""", source), path
        for target in re.findall(r'"@sl/([^"]+)"', source):
            assert target in paths[:i], f"{path} needs {target} first"
    assert paths[-1] == front_end.ENTRY
    esm = front_end.esm()
    assert "__SUBWORD_LAB" not in esm and json.dumps(packed[0][1])[1:40] in esm


def test_without_anywidget_one_line_and_no_traceback():
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'anywidget': raise ImportError('blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "shell.run_cell('from subword_lab import notebook\\nnotebook.tokens(\"x.json\", \"hi\")')\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT / "py"), "PATH": "/usr/bin:/bin"}, timeout=120)
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    assert lines == ['SubwordLabError: subword_lab.notebook: the notebook widgets need anywidget: '
                     'pip install "subword-lab[notebook]"'], lines


def test_the_wheel_ships_the_front_end(tmp_path):
    """`build.py wheel` holds every file the widgets load: installed alone, away from the
    checkout, the package packs the same _esm; the page's wheel leaves them out."""
    import zipfile
    sys.path.insert(0, str(ROOT))
    import build
    wheel = build.build_wheel(tmp_path / "pip", notebook=True)
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
        metadata = zf.read("subword_lab-0.1.0.dist-info/METADATA").decode()
    assert 'Requires-Dist: anywidget==0.11.0; extra == "notebook"' in metadata
    probe = ("import hashlib; from subword_lab.notebook import front_end; "
             "print(front_end.web_root()); print(hashlib.sha256(front_end.esm().encode()).hexdigest())")
    run = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {probe}"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    where, digest = run.stdout.split()
    assert Path(where) == site / "subword_lab" / "notebook" / "web"
    import hashlib
    assert digest == hashlib.sha256(front_end.esm().encode()).hexdigest()
    with zipfile.ZipFile(build.build_wheel(tmp_path / "page")) as zf:
        assert not [n for n in zf.namelist() if n.startswith("subword_lab/notebook/web/")]


def test_without_the_front_end_one_error(monkeypatch, tmp_path):
    """Installed without web/ (a setuptools build, not `build.py wheel`): one line that says so."""
    monkeypatch.setattr(front_end, "_HERE", tmp_path / "a" / "b" / "c")
    with pytest.raises(notebook.MissingExtra, match="build.py wheel") as caught:
        front_end.web_root()
    assert caught.value._render_traceback_() == [f"SubwordLabError: {caught.value}"]


WHY_TEXT = "Tokenizers cut unbelievable words, naïvely!"


@pytest.mark.parametrize("add_special", [True, False])
def test_why_is_the_pages_answer_and_ends_in_the_encodes_tokens(bert_json, add_special):
    from subword_lab.web import api as webapi
    from subword_lab.web.registry import REGISTRY
    theirs = hf.Tokenizer.from_file(str(bert_json))
    widget = notebook.tokens(str(bert_json), WHY_TEXT, add_special_tokens=add_special)
    expected = theirs.encode(WHY_TEXT, add_special_tokens=add_special)
    REGISTRY.add("notebook-why", "bert", widget.tokenizer)
    answered = 0
    for index, token in enumerate(expected.tokens):
        widget.why_index = index  # what a click on chip `index` sets
        why = widget.why
        assert why["index"] == index
        if expected.special_tokens_mask[index]:  # [CLS], [SEP]: no model made them
            assert "post-processor" in why["error"] and "events" not in why
            continue
        # the stretch's tokens are the very tokens tokenizers gives there, the clicked one among them
        first = index - why["token"]
        assert why["tokens"] == expected.tokens[first:first + len(why["tokens"])]
        assert why["ids"] == expected.ids[first:first + len(why["ids"])]
        assert WHY_TEXT[why["start"]:why["end"]] == why["text"]
        assert why["events"][-1]["type"] == "wordpiece.done"
        assert [row[0] for row in why["events"][-1]["tokens"]] == why["tokens"]
        # and the page's worker gives the same steps for the same token
        if add_special:
            events = []
            page = json.loads(webapi.why_trace(json.dumps(
                {"key": "notebook-why", "text": WHY_TEXT, "index": index, "limit": None}),
                lambda e: events.append(json.loads(e))))
            assert json.loads(json.dumps(why["events"])) == events
            assert {k: page[k] for k in ("text", "word", "ids", "tokens", "token", "added")} == \
                {k: why[k] for k in ("text", "word", "ids", "tokens", "token", "added")}
        answered += 1
    assert answered == expected.special_tokens_mask.count(0) > 5
    widget.text = "x"  # a new text: no answer stands for it
    assert (widget.why_index, widget.why) == (-1, {})


def test_why_and_steps_list_unigrams_n_best_as_sentencepiece(botchan_unigram_model):
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=str(botchan_unigram_model))
    steps = notebook.steps(str(botchan_unigram_model), "unbelievable")
    tokens = notebook.tokens(str(botchan_unigram_model), "He was unbelievable")
    tokens.why_index = tokens.tokens.index("▁un")
    assert steps.tokens == sp.encode("unbelievable", out_type=str)
    for answer in (steps.nbest, tokens.why["nbest"]):
        (listed,) = answer
        assert listed["word"] == "▁unbelievable"
        assert [p["pieces"] for p in listed["paths"]] == sp.nbest_encode_as_pieces("unbelievable", 5)
        assert listed["paths"][0]["pieces"] == steps.tokens
        assert sum(p["probability"] for p in listed["paths"]) <= 1
    steps.word = "the"
    assert [p["pieces"] for p in steps.nbest[0]["paths"]] == sp.nbest_encode_as_pieces("the", 5)

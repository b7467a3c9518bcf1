"""Precompute the default animations so the page can show them before Python is ready.

    python3 tools/precompute.py OUT_DIR [PRESETS_DIR]

build.py runs this during `build` and writes dist/precomputed/ (PRESETS_DIR is the
built presets folder, dist/presets). It imports
py/subword_lab from the source tree (CPython, standard library only) and makes
exactly the calls the page makes through its worker, so what is stored is what
Python in the browser would answer:

- "corpus_info": web_train.corpus_info() (the train view's form defaults);
- "train": web_train.train(args) for each course preset and algorithm with the
  view's default options, with every event it emitted;
- "open_toy" and "trace_encode": the encode view's course toys and their default
  texts (webapi.open_toy, webapi.trace_encode, with the events);
- "encode_preset" (with PRESETS_DIR): the tokenize view's and the embedded widget's
  default text in their default preset, {result: webapi.encode(...), details:
  webapi.open_bytes(...)}, so their tokens are on screen before Python is ready.
  The texts are read from the views' own sources (SAMPLE in web/views/tokenize.js,
  DEFAULT_TEXT in web/embed-tokenize.js), so the two cannot drift apart.

index.json lists the entries as {kind, args, file}; web/precomputed.js looks a
request up by (kind, args) and fetches only the file it needs. Small payloads (the
"encode_preset" ones, and any other of a few KB) are also inlined in index.json as
`payload`: the page and the widgets need them at their first paint, one request earlier.
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

TRAIN_CORPORA = ("course-toy", "course-sentences")
ALGOS = ("bpe", "wordpiece", "unigram")
# The encode view's default text per course toy (DEFAULT_TEXT in web/views/encode.js).
ENCODE_DEFAULTS = {"wordpiece": "hugs", "bpe": "hugs", "unigram": "unhug"}
FORMAT = 1
# The views that open on a preset, their default text's constant and default preset.
PAGE_DEFAULTS = (("web/views/tokenize.js", "SAMPLE", "DEFAULT_PRESET"),
                 ("web/embed-tokenize.js", "DEFAULT_TEXT", "DEFAULT_TOKENIZER"))
TOKENIZE_LIMIT = 20000  # WINDOW_CHARS in tokenize.js, `limit` in embed-tokenize.js
# Payloads up to these sizes are inlined in index.json, saving a round trip before the
# first frame: the default tokens of each preset, and the small course runs and answers
# (the course toy's training runs are about 4 KB) that embedded widgets open with.
INLINE_BYTES = {"encode_preset": 16_000}
INLINE_SMALL = 4_500


def call(fn, args) -> dict:
    """One facade call as the worker makes it: JSON in, events collected, JSON out."""
    events = []
    result = json.loads(fn(json.dumps(args), lambda text: events.append(json.loads(text))))
    return {"result": result, "events": events}


def train_args(info: dict, corpus: str, algo: str) -> dict:
    """The arguments the train view sends for a corpus and algorithm left at its defaults."""
    entry = next(c for c in info["corpora"] if c["id"] == corpus)
    defaults = entry["defaults"][algo]
    args = {"algo": algo, "corpus": corpus, "vocab_size": defaults["vocab_size"]}
    if algo == "unigram":
        args["method"] = defaults["method"]
    else:
        args["tie_break"] = defaults["tie_break"]
    return args


def entries():
    """(kind, args, payload) for everything the page may look up."""
    from subword_lab.web import api as webapi, train as web_train

    info = json.loads(web_train.corpus_info("{}"))
    yield "corpus_info", {}, {"result": info, "events": []}
    for corpus in TRAIN_CORPORA:
        for algo in ALGOS:
            args = train_args(info, corpus, algo)
            yield "train", args, call(web_train.train, args)
    for algo, text in ENCODE_DEFAULTS.items():
        toy = {"corpus": "course-toy", "algo": algo}
        opened = call(webapi.open_toy, toy)
        yield "open_toy", toy, opened
        args = {"key": opened["result"]["key"], "text": text}
        yield "trace_encode", args, call(webapi.trace_encode, args)


def js_string(source: str, name: str) -> str:
    """The value of `const NAME = "..." + "...";` in a JavaScript source (JSON-style literals)."""
    match = re.search(rf'^const {name} = ((?:"(?:[^"\\\n]|\\.)*"\s*\+?\s*)+);', source, re.M)
    if not match:
        raise SystemExit(f"precompute: no string constant {name} found")
    return "".join(json.loads(part) for part in re.findall(r'"(?:[^"\\\n]|\\.)*"', match.group(1)))


def page_defaults() -> list[tuple[str, str]]:
    """(preset id, text) the tokenize view and the embedded widget open with."""
    found = []
    for path, text_name, preset_name in PAGE_DEFAULTS:
        source = (ROOT / path).read_text(encoding="utf-8")
        found.append((js_string(source, preset_name), js_string(source, text_name)))
    return found


def preset_entries(presets: Path):
    """The default text of each view in its default preset, as the worker answers it."""
    from subword_lab.web import api as webapi

    manifest = json.loads((presets / "presets.json").read_text(encoding="utf-8"))
    by_id = {p["id"]: p for p in manifest["presets"] if p.get("file")}
    for key, text in page_defaults():
        if key not in by_id:
            continue  # that preset is not shipped in this build: Python draws the tokens
        file = by_id[key]["file"]
        data = (presets.parent / file).read_bytes()
        details = json.loads(webapi.open_bytes(key, file.split("/")[-1], data))
        result = json.loads(webapi.encode(key, text, TOKENIZE_LIMIT))
        yield "encode_preset", {"key": key, "text": text}, {"result": result, "details": details}


def file_name(kind: str, args: dict) -> str:
    digest = hashlib.sha256(json.dumps(args, sort_keys=True).encode()).hexdigest()[:12]
    return f"{kind}-{digest}.json"


def write(out: Path, presets: Path | None = None) -> dict:
    """Write every entry and index.json into `out`; return the index.

    With `presets` (the built presets folder), the views' default tokens too."""
    out.mkdir(parents=True, exist_ok=True)
    index = {"format": FORMAT, "entries": []}
    stored = list(entries())
    if presets is not None and (presets / "presets.json").exists():
        stored += list(preset_entries(presets))
    for kind, args, payload in stored:
        name = file_name(kind, args)
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        (out / name).write_text(text, encoding="utf-8")
        entry = {"kind": kind, "args": args, "file": name}
        if len(text.encode()) <= INLINE_BYTES.get(kind, INLINE_SMALL):
            entry["payload"] = payload
        index["entries"].append(entry)
    (out / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1),
                                    encoding="utf-8")
    return index


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (1, 2):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    index = write(Path(argv[0]), Path(argv[1]) if len(argv) == 2 else None)
    print(f"[precompute] {len(index['entries'])} entries in {argv[0]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

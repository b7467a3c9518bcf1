"""Precompute the default animations so the page can show them before Python is ready.

    python3 tools/precompute.py OUT_DIR

build.py runs this during `build` and writes dist/precomputed/. It imports
py/subword_lab from the source tree (CPython, standard library only) and makes
exactly the calls the page makes through its worker, so what is stored is what
Python in the browser would answer:

- "corpus_info": web_train.corpus_info() (the train view's form defaults);
- "train": web_train.train(args) for each course preset and algorithm with the
  view's default options, with every event it emitted;
- "open_toy" and "trace_encode": the encode view's course toys and their default
  texts (webapi.open_toy, webapi.trace_encode, with the events).

index.json lists the entries as {kind, args, file}; web/precomputed.js looks a
request up by (kind, args) and fetches only the file it needs.
"""
from __future__ import annotations

import hashlib
import json
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


def file_name(kind: str, args: dict) -> str:
    digest = hashlib.sha256(json.dumps(args, sort_keys=True).encode()).hexdigest()[:12]
    return f"{kind}-{digest}.json"


def write(out: Path) -> dict:
    """Write every entry and index.json into `out`; return the index."""
    out.mkdir(parents=True, exist_ok=True)
    index = {"format": FORMAT, "entries": []}
    for kind, args, payload in entries():
        name = file_name(kind, args)
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        (out / name).write_text(text, encoding="utf-8")
        index["entries"].append({"kind": kind, "args": args, "file": name})
    (out / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1),
                                    encoding="utf-8")
    return index


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    index = write(Path(argv[0]))
    print(f"[precompute] {len(index['entries'])} entries in {argv[0]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Training for the web page: corpus presets and one `train` call that streams events.

The worker calls `train(args_json, emit)`; every trainer event (docs/events.md,
"Training") goes to `emit` as one JSON string, and the result is a JSON string
holding the trained tokenizer.json and a short summary. Cancelling is the page's
job: it runs training in a worker of its own and terminates it.

Reading a long corpus (normalizing, pre-tokenizing and counting its words) comes
before the trainer's first event and takes minutes for 20 MB in the browser, so
this facade adds one event of its own on the way: `{"type": "corpus_read",
"chars": read so far, "total": the text's length}` per megabyte read (none for a
text under a megabyte).

The course presets are configured exactly as the course trains them, so the
numbers of the Hugging Face course's tokenizer chapter come out on screen:
- BPE: GPT-2's ByteLevel without a prefix space, special `<|endoftext|>`, vocab 50;
- WordPiece: BERT's pre-tokenizer, specials [PAD] [UNK] [CLS] [SEP] [MASK], vocab 70;
- Unigram: WhitespaceSplit + Metaspace (as XLNet), the course's exact trainer, vocab 100;
- the toy corpus is given as word counts, so no pre-tokenizer touches it.
"""
from __future__ import annotations

import json
import time

from ..core.errors import SubwordLabError
from .course import TOY_WORDS

ALGOS = ("bpe", "wordpiece", "unigram")
READ_EVENT_CHARS = 1 << 20  # one corpus_read event per this many characters read
COURSE_SENTENCES = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# Per corpus and algorithm: the pre-tokenizer, special tokens and default options.
# "toy-words" means the corpus is word counts: the pre-tokenizer only matters when
# the trained tokenizer is used on new text, so it splits on whitespace and adds nothing.
PRESETS = {
    "course-toy": {
        "kind": "words",
        "bpe": {"pre": "toy-words", "specials": [], "unk": None, "vocab_size": 10,
                "tie_break": "first"},
        "wordpiece": {"pre": "toy-words", "specials": ["[UNK]"], "unk": "[UNK]",
                      "vocab_size": 11, "tie_break": "first"},
        "unigram": {"pre": "toy-words", "specials": [], "unk": None, "vocab_size": 12,
                    "method": "exact", "seed_size": 300},
    },
    "course-sentences": {
        "kind": "lines",
        "bpe": {"pre": "byte-level", "specials": ["<|endoftext|>"], "unk": None,
                "vocab_size": 50, "tie_break": "first"},
        "wordpiece": {"pre": "bert", "specials": BERT_SPECIALS, "unk": "[UNK]",
                      "vocab_size": 70, "tie_break": "first"},
        "unigram": {"pre": "xlnet", "specials": [], "unk": None, "vocab_size": 100,
                    "method": "exact", "seed_size": 300},
    },
    "botchan": {
        "kind": "text",
        # GPT-2's recipe: all 256 byte characters first, then 5,000 merges.
        "bpe": {"pre": "byte-level", "specials": ["<|endoftext|>"], "unk": None,
                "vocab_size": 5257, "tie_break": "hf", "byte_alphabet": True},
        "wordpiece": {"pre": "bert", "specials": BERT_SPECIALS, "unk": "[UNK]",
                      "vocab_size": 5000, "tie_break": "hf"},
        "unigram": {"pre": "metaspace", "specials": ["<unk>"], "unk": "<unk>",
                    "vocab_size": 1000, "method": "em"},
    },
}
# The user's own text: the same recipes as botchan, at a smaller default size.
PRESETS["custom"] = {
    "kind": "text",
    "bpe": dict(PRESETS["botchan"]["bpe"], vocab_size=1000),
    "wordpiece": dict(PRESETS["botchan"]["wordpiece"], vocab_size=1000),
    "unigram": dict(PRESETS["botchan"]["unigram"], vocab_size=500),
}


def corpus_info(args_json: str = "{}", emit=None) -> str:
    """The presets and their defaults per algorithm, for the page's form."""
    out = []
    for corpus, table in PRESETS.items():
        defaults = {}
        for algo in ALGOS:
            d = table[algo]
            defaults[algo] = {"vocab_size": d["vocab_size"], "pre_tokenizer": d["pre"],
                              "special_tokens": list(d["specials"]),
                              "tie_break": d.get("tie_break"), "method": d.get("method")}
        item = {"id": corpus, "kind": table["kind"], "defaults": defaults}
        if corpus == "course-toy":
            item["words"] = [list(w) for w in TOY_WORDS]
        if corpus == "course-sentences":
            item["lines"] = list(COURSE_SENTENCES)
        out.append(item)
    return json.dumps({"corpora": out}, ensure_ascii=False)


def _pre_tokenizer(name):
    """(pre-tokenizer, decoder) for a recipe name."""
    from .. import decoders, pre_tokenizers as pt

    if name == "byte-level":
        return pt.ByteLevel(add_prefix_space=False), decoders.ByteLevel()
    if name == "bert":
        return pt.BertPreTokenizer(), None
    if name == "xlnet":
        return pt.Sequence([pt.WhitespaceSplit(), pt.Metaspace()]), decoders.Metaspace()
    if name == "metaspace":
        return pt.Metaspace(), decoders.Metaspace()
    return pt.WhitespaceSplit(), None  # toy-words


def _options(args):
    """The recipe for (corpus, algo) with the user's choices laid over it."""
    algo = args.get("algo", "bpe")
    if algo not in ALGOS:
        raise SubwordLabError(f"unknown algorithm {algo!r}: use bpe, wordpiece or unigram",
                              field="algo")
    corpus = args.get("corpus", "course-toy")
    if corpus not in PRESETS:
        raise SubwordLabError(f"unknown corpus {corpus!r}", field="corpus")
    recipe = dict(PRESETS[corpus][algo])
    if args.get("vocab_size") not in (None, ""):
        try:
            recipe["vocab_size"] = int(args["vocab_size"])
        except (TypeError, ValueError):
            raise SubwordLabError(f"must be a whole number, got {args['vocab_size']!r}",
                                  field="vocab_size") from None
    if algo != "unigram" and args.get("tie_break"):
        recipe["tie_break"] = args["tie_break"]
    if algo == "unigram" and args.get("method"):
        recipe["method"] = args["method"]
    recipe["trace"] = args.get("trace") or ("full" if algo != "unigram" or
                                            PRESETS[corpus]["kind"] != "text" else "summary")
    return algo, corpus, recipe


def _build(algo, recipe):
    """The empty tokenizer and its trainer, as the recipe says."""
    from .. import decoders, models, pre_tokenizers, trainers
    from ..tokenizer import Tokenizer

    common = {"vocab_size": recipe["vocab_size"], "special_tokens": list(recipe["specials"]),
              "show_progress": False, "trace": recipe["trace"]}
    if algo == "bpe":
        tok = Tokenizer(models.BPE(unk_token=recipe["unk"]))
        alphabet = pre_tokenizers.ByteLevel.alphabet() if recipe.get("byte_alphabet") else ()
        trainer = trainers.BpeTrainer(tie_break=recipe["tie_break"], initial_alphabet=alphabet,
                                      **common)
    elif algo == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token=recipe["unk"]))
        trainer = trainers.WordPieceTrainer(tie_break=recipe["tie_break"], **common)
    else:
        tok = Tokenizer(models.Unigram())
        extra = {"seed_size": recipe["seed_size"]} if "seed_size" in recipe else {}
        trainer = trainers.UnigramTrainer(unk_token=recipe["unk"], method=recipe["method"],
                                          **extra, **common)
    tok.pre_tokenizer, decoder = _pre_tokenizer(recipe["pre"])
    if algo == "wordpiece":
        decoder = decoders.WordPiece()
    if decoder is not None:
        tok.decoder = decoder
    return tok, trainer


def _train_on_words(tok, trainer, words, on_event):
    """train_tokenizer's work when the corpus is word counts already."""
    trainer.feed_word_counts(words)
    special = trainer.train(tok.model, on_event=on_event)
    trained = getattr(trainer, "trained_model", None)
    if trained is not None and trained is not tok.model:
        tok.model = trained
    if special:
        tok.add_special_tokens(special)


def _lines(corpus, args):
    if corpus == "course-sentences":
        return list(COURSE_SENTENCES)
    text = args.get("text")
    if not isinstance(text, str) or not text.strip():
        raise SubwordLabError("the corpus is empty: type or drop some text first", field="text")
    return text.splitlines(keepends=True)


def _reading(lines, on_event):
    """The lines, with a corpus_read event after every READ_EVENT_CHARS characters."""
    total = sum(map(len, lines))
    done, next_event = 0, READ_EVENT_CHARS
    for line in lines:
        yield line
        done += len(line)
        if done >= next_event:
            on_event({"type": "corpus_read", "chars": done, "total": total})
            next_event = done + READ_EVENT_CHARS


def train(args_json: str, emit=None) -> str:
    """Train as the page asks and stream the events.

    args: {"algo", "corpus" (course-toy | course-sentences | botchan | custom),
    "text" (botchan's or the user's text), "vocab_size", "tie_break", "method",
    "trace"}; missing options take the corpus's defaults (corpus_info).
    Returns {"tokenizer_json", "summary"}."""
    from ..trainers.base import train_tokenizer

    args = json.loads(args_json) if isinstance(args_json, str) else dict(args_json or {})
    algo, corpus, recipe = _options(args)
    tok, trainer = _build(algo, recipe)
    steps = 0

    def on_event(event):
        nonlocal steps
        if event.get("type") in ("merge", "unigram_em", "unigram_prune", "unigram_exact_round"):
            steps += 1
        if emit is not None:
            emit(json.dumps(event, ensure_ascii=False, default=list))

    started = time.perf_counter()
    if PRESETS[corpus]["kind"] == "words":
        _train_on_words(tok, trainer, TOY_WORDS, on_event)
    else:
        train_tokenizer(tok, _reading(_lines(corpus, args), on_event), trainer,
                        on_event=on_event)
    summary = {"algo": algo, "corpus": corpus, "vocab_size": tok.get_vocab_size(),
               "steps": steps, "seconds": round(time.perf_counter() - started, 3),
               "pre_tokenizer": recipe["pre"], "special_tokens": list(recipe["specials"]),
               "tie_break": recipe.get("tie_break") if algo != "unigram" else None,
               "method": recipe.get("method") if algo == "unigram" else None,
               "requested_vocab_size": recipe["vocab_size"]}
    return json.dumps({"tokenizer_json": tok.to_str(), "summary": summary}, ensure_ascii=False)

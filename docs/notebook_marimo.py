import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # Subword Lab in marimo

    The same walk as `docs/notebook.ipynb`, as a marimo notebook: train BPE, WordPiece and
    Unigram on the four sentences of the Hugging Face course's tokenizer chapter and look at
    each run with Subword Lab's widgets. The drawing is the Subword Lab page's own code; the
    numbers come from the Python library in this notebook's kernel.

    Each widget goes through `mo.ui.anywidget(...)`, so marimo keeps its traits in step
    with the page: `tokens.widget.ids` are the ids drawn, and what you type in a tokens
    widget's box reaches the kernel, which encodes it again. Open it with
    `marimo edit docs/notebook_marimo.py` after `pip install "subword-lab[notebook]" marimo`.
    """)
    return


@app.cell
def _():
    import marimo as mo

    from subword_lab import Tokenizer, models, notebook, pre_tokenizers
    from subword_lab.trainers import BpeTrainer, UnigramTrainer, WordPieceTrainer

    corpus = [
        "This is the Hugging Face Course.",
        "This chapter is about tokenization.",
        "This section shows several tokenizer algorithms.",
        "Hopefully, you will be able to understand how they are trained and generate tokens.",
    ]
    sample = "This is about tokenization, unbelievably short words."
    return (BpeTrainer, Tokenizer, UnigramTrainer, WordPieceTrainer, corpus, mo, models, notebook,
            pre_tokenizers, sample)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## BPE

    Byte-level BPE, as in GPT-2: a space becomes `Ġ` at the front of the next word. Each
    step of training adds the pair of neighbouring tokens seen most often. In marimo a cell
    shows its output when it ends, so the widget is shown by one cell and the training runs
    in the next, which feeds it event by event (`on_event=bpe_run.widget`). Press play to
    replay the run, or drag the slider.
    """)
    return


@app.cell
def _(mo, notebook):
    bpe_run = mo.ui.anywidget(notebook.training())
    bpe_run
    return (bpe_run,)


@app.cell
def _(BpeTrainer, Tokenizer, bpe_run, corpus, models, pre_tokenizers):
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.train_from_iterator(corpus, BpeTrainer(vocab_size=50, special_tokens=["<|endoftext|>"], tie_break="first"),
                            on_event=bpe_run.widget)
    return (bpe,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    The trained tokenizer on a new sentence: one chip per token, its id below it. Point at
    a chip to light up its characters in the text (and the reverse); click one to see the
    model's steps on its word. Edit the text and the chips follow.
    """)
    return


@app.cell
def _(bpe, mo, notebook, sample):
    bpe_tokens = mo.ui.anywidget(notebook.tokens(bpe, sample))
    bpe_tokens
    return (bpe_tokens,)


@app.cell
def _(bpe, mo, notebook):
    bpe_steps = mo.ui.anywidget(notebook.steps(bpe, " tokenization"))
    bpe_steps
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## WordPiece

    The same loop with another score: a pair's count divided by the counts of its two
    parts. Pieces inside a word start with `##`.
    """)
    return


@app.cell
def _(mo, notebook):
    wordpiece_run = mo.ui.anywidget(notebook.training())
    wordpiece_run
    return (wordpiece_run,)


@app.cell
def _(Tokenizer, WordPieceTrainer, corpus, models, pre_tokenizers, wordpiece_run):
    wordpiece = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    wordpiece.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    wordpiece.train_from_iterator(
        corpus, WordPieceTrainer(vocab_size=70, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
                                 tie_break="first"),
        on_event=wordpiece_run.widget)
    return (wordpiece,)


@app.cell
def _(mo, notebook, sample, wordpiece):
    wordpiece_tokens = mo.ui.anywidget(notebook.tokens(wordpiece, sample))
    wordpiece_tokens
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Unigram

    Unigram starts from many substrings and removes, round after round, those the corpus
    misses least. Each step of the player is one round of the course's exact trainer.
    """)
    return


@app.cell
def _(mo, notebook):
    unigram_run = mo.ui.anywidget(notebook.training())
    unigram_run
    return (unigram_run,)


@app.cell
def _(Tokenizer, UnigramTrainer, corpus, models, pre_tokenizers, unigram_run):
    unigram = Tokenizer(models.Unigram())
    unigram.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace()])
    unigram.train_from_iterator(corpus, UnigramTrainer(vocab_size=100, method="exact", seed_size=300,
                                                       shrink_fraction=0.1),
                                on_event=unigram_run.widget)
    return (unigram,)


@app.cell
def _(mo, notebook, sample, unigram):
    unigram_tokens = mo.ui.anywidget(notebook.tokens(unigram, sample))
    unigram_tokens
    return


@app.cell
def _(mo, notebook, unigram):
    unigram_steps = mo.ui.anywidget(notebook.steps(unigram, "tokenization"))
    unigram_steps
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Side by side

    Trained on the same four sentences, the three cut the sample three ways.
    """)
    return


@app.cell
def _(bpe, mo, notebook, sample, unigram, wordpiece):
    side_by_side = mo.ui.anywidget(notebook.compare({"BPE": bpe, "WordPiece": wordpiece, "Unigram": unigram}, sample))
    side_by_side
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## Reading the traits back

    Because the widgets are marimo UI elements, another cell can read what they hold; this
    one lists the BPE tokens widget's tokens and ids, and runs again when you edit its text.
    """)
    return


@app.cell
def _(bpe_tokens, mo):
    mo.md(f"`{bpe_tokens.widget.text}` → " + ", ".join(
        f"`{token}` ({token_id})" for token, token_id in zip(bpe_tokens.widget.tokens, bpe_tokens.widget.ids)))
    return


if __name__ == "__main__":
    app.run()

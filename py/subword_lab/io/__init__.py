"""Reading files: `load()` for every supported format, and the sentencepiece proto reader.

Built on the pipeline (it assembles Tokenizers); nothing below imports it.
"""

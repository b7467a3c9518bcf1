"""The Hugging Face course's toy corpus: five words and their counts, used by the
training presets, the toy tokenizers of the encode views and the toy Unigram model."""
from __future__ import annotations

TOY_WORDS = [("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)]

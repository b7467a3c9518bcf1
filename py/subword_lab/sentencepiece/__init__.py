"""sentencepiece's own encoding pipeline, for tokenizers read from a .model file.

Hugging Face's pipeline (normalizer, then added tokens, then a pre-tokenizer that
splits at "▁") cannot give sentencepiece's pieces on every text: sentencepiece
normalizes the whole text at once, never splits it into words when it encodes
(`split_by_whitespace`, `split_digits`, `split_by_unicode_script` and
`split_by_number` only shape training), and its models see the whole normalized
text. So a whitespace-only piece like "▁▁▁▁" can be chosen, user-defined pieces
are kept out of the charsmap and found by the model itself, and control or
unknown piece strings typed in the text are plain text. Here: its pieces' types
(pieces.py), its normalizer (normalizer.py), its BPE and Unigram encoders (bpe.py,
unigram.py), its decoder (decoder.py), and the Tokenizer that runs them
(tokenizer.py; io/sentencepiece.py builds it from a .model file, and it still saves
as a tokenizer.json: the nearest Hugging Face pipeline).

Unigram ties: sentencepiece adds float32 scores (C++ `float`), Hugging Face
float64; a tie in one may not be a tie in the other (20 dots on sentencepiece's
botchan model). `SentencePieceUnigram` rounds every path score to float32 as
sentencepiece does; `models.Unigram` (for tokenizer.json files) keeps float64.
"""

"""sentencepiece's own encoding pipeline, for tokenizers read from a .model file
(io/sentencepiece.py): its normalizer and decoder (`normalizer`), its BPE (`bpe`) and
Unigram (`unigram`) encoders over the whole normalized text."""

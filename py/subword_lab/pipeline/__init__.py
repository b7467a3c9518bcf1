"""The Tokenizer's machinery that is not one of tokenizers' public modules: the
byte-level fast encode path (`byte_level_encode`) and pre-tokenization for training
(`training_words`)."""

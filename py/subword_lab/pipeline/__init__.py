"""The Tokenizer's machinery that is not one of tokenizers' public modules: the events
it reports (`events`), truncation and padding (`truncation`), a tokenizer.json's
top-level fields (`json_fields`), the byte-level fast encode path
(`byte_level_encode`) and the words trainers count (`training_words`)."""

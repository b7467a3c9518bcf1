"""llama.cpp's tokenizer, as a GGUF model file describes it: its vocabulary and token
attributes (`vocab`, `attrs`), its word splitting per pre-tokenizer kind (`pre_kinds`,
`pretokenize`, on its own Unicode tables `unicode`, `unicode_data`), its merge loops,
WordPiece and Unigram (`merges`, `wordpiece`, `unigram`), its detokenizer and the events
the page animates (`events`). io/gguf.py reads the file; io/gguf_tokenizer.py builds the
Tokenizer from these."""

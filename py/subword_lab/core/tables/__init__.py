"""Character tables: Unicode properties as tokenizers has them (`unicode`, generated),
GPT-2's byte<->character table (`byte_level`) and sentencepiece's precompiled charsmap
(`precompiled`)."""

"""A tokenizer.json checked as strictly as tokenizers reads it: its shapes (`schema`),
whole-list checks (`bulk`) and the C-level scan of a parsed document (`_scan`)."""

"""A tokenizer.json checked as strictly as tokenizers reads it: its shapes (`schema`),
whole-list checks (`bulk`), numbers read as serde_json reads them (`serde_numbers`)
and the C-level scan of a parsed document (`_scan`)."""

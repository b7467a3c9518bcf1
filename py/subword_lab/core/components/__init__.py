"""What pipeline components share: pickling as tokenizer.json text (`pickling`),
Sequence item access and nesting bound (`sequences`), calling user-written components
(`custom_calls`), sealed attributes (`sealed`) and tokenizers-style reprs (`reprs`)."""

"""`tokenizers.tools`: not provided (the web page is Subword Lab's visualizer)."""

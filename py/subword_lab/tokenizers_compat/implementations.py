"""`tokenizers.implementations`: ready-made pipelines (filled in below)."""
__all__ = []

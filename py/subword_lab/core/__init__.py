"""The core: errors, normalized strings with their alignments, safe files; regexes (regex/),
character tables (tables/), tokenizer.json checks (json_checks/) and what pipeline
components share (components/). Imports nothing else of ours.
"""

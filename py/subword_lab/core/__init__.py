"""The core: errors, normalized strings with their alignments, byte-level tables, regexes,
Unicode tables and sentencepiece's precompiled charsmap. Imports nothing else of ours.
"""

"""llama.cpp's token attributes (bit flags), the GGUF token types they come from, and
the token texts llama.cpp makes control tokens of whatever the file says."""
from __future__ import annotations

__all__ = ["ATTR", "TOKEN_TYPES", "TYPE_NAMES", "SPACE", "BY_TEXT", "END_OF_GENERATION"]

ATTR = {"undefined": 0, "unknown": 1, "unused": 2, "normal": 4, "control": 8,
        "user_defined": 16, "byte": 32, "normalized": 64, "lstrip": 128, "rstrip": 256}
UNKNOWN, UNUSED, NORMAL, CONTROL, USER_DEFINED, BYTE = 1, 2, 4, 8, 16, 32
LSTRIP, RSTRIP = 128, 256
TOKEN_TYPES = {0: 0, 1: NORMAL, 2: UNKNOWN, 3: CONTROL, 4: USER_DEFINED, 5: UNUSED, 6: BYTE}
TYPE_NAMES = {1: "normal", 2: "unknown", 3: "control", 4: "user-defined", 5: "unused",
              6: "byte"}

SPACE = "\u2581"  # sentencepiece's escaped space

# Token texts llama.cpp recognises when the file names no such id (first found wins
# the id; all found are made control tokens), and those that end generation.
BY_TEXT = {
    "eot": ["<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
            "<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]", "<\uff5cend\u2581of\u2581sentence\uff5c>",
            "<end_of_utterance>"],
    "eom": ["<|eom_id|>"],
    "fim_pre": ["<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<\uff5cfim\u2581begin\uff5c>",
                "<PRE>", "\u2581<PRE>", "<|code_prefix|>", "<|prefix|>"],
    "fim_suf": ["<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<\uff5cfim\u2581hole\uff5c>",
                "<SUF>", "\u2581<SUF>", "<|code_suffix|>", "<|suffix|>"],
    "fim_mid": ["<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<\uff5cfim\u2581end\uff5c>",
                "<MID>", "\u2581<MID>", "<|code_middle|>", "<|middle|>"],
    "fim_pad": ["<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"],
    "fim_rep": ["<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"],
    "fim_sep": ["<|file_sep|>"],
}
END_OF_GENERATION = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>",
    "<|calls|>", "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>",
    "[EOT]", "[EOS]", "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>",
    "<|tool_response>", "<\uff5cend\u2581of\u2581sentence\uff5c>", "[e~["}

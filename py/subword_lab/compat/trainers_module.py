"""`tokenizers.trainers` under Subword Lab: the library's trainers, with the one
default that differs.

tokenizers' UnigramTrainer has no script rule: a seed piece may mix scripts and
hold spaces (on a corpus without a pre-tokenizer it learns pieces such as " is ").
Subword Lab's UnigramTrainer follows SentencePiece by default
(split_by_unicode_script=True); under tokenizers' name it follows tokenizers.
"""
from __future__ import annotations

from ..trainers import (BpeTrainer, ParityBpeTrainer, Trainer, WordLevelTrainer,
                        WordPieceTrainer)
from ..trainers import UnigramTrainer as _UnigramTrainer

__all__ = ["BpeTrainer", "ParityBpeTrainer", "Trainer", "UnigramTrainer", "WordLevelTrainer",
           "WordPieceTrainer"]


class UnigramTrainer(_UnigramTrainer):
    __doc__ = _UnigramTrainer.__doc__

    def __init__(self, *args, split_by_unicode_script=False, **kwargs):
        super().__init__(*args, split_by_unicode_script=split_by_unicode_script, **kwargs)

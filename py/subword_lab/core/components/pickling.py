"""Pickling a pipeline component as tokenizers does: its state is its tokenizer.json text.

A component class mixes this in and says how a dict becomes a component again
(`_from_dict`, the module's own `from_dict`), so a pickle made here loads there too.
"""
from __future__ import annotations

import json

__all__ = ["JsonState"]


class JsonState:
    def _from_dict(self, data: dict):
        raise NotImplementedError

    def __getstate__(self):
        return json.dumps(self.to_dict())

    def __setstate__(self, state):
        if isinstance(state, (str, bytes)):
            state = json.loads(state)
        self.__dict__.update(self._from_dict(state).__dict__)

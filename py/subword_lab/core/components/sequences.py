"""What the pipeline's four Sequence components share (normalizers, pre-tokenizers,
decoders, post-processors): the list they run, item access as in tokenizers, and a
bound on how deeply Sequences may nest.

tokenizers cannot be handed a deeper nest than its JSON reader accepts (127 levels of
lists and objects). Objects built in Python have no such reader in front of them, and
every level costs Python stack frames when the pipeline runs, so a nest of 1,000 would
end in a RecursionError mid-encode. We refuse it where it is built instead, with words.
"""
from __future__ import annotations

from ..errors import SubwordLabError

__all__ = ["MAX_SEQUENCE_DEPTH", "MAX_DICT_DEPTH", "SequenceItems", "nesting_depth",
           "check_dict_depth"]

MAX_SEQUENCE_DEPTH = 128
# A component's dict sits one level inside tokenizer.json's object, whose reader
# (like tokenizers') takes at most 127 levels of lists and objects in all.
MAX_DICT_DEPTH = 126


class SequenceItems:
    """Mixin for a Sequence: `_ITEMS` names the list attribute, `_KIND` the module."""

    _ITEMS = ""
    _KIND = ""

    def _set_items(self, items):
        setattr(self, self._ITEMS, list(items))
        nesting_depth(self, self._KIND)

    def sequence_items(self):
        return getattr(self, self._ITEMS)

    def __getitem__(self, index):
        return self.sequence_items()[index]

    def __setitem__(self, index, item):
        items = self.sequence_items()
        old = items[index]
        items[index] = item
        try:
            nesting_depth(self, self._KIND)  # also refuses a Sequence put inside itself
        except SubwordLabError:
            items[index] = old
            raise

    def __len__(self):
        return len(self.sequence_items())


def _children(node):
    items = getattr(node, "sequence_items", None)
    return items() if callable(items) else None


def nesting_depth(component, kind: str) -> int:
    """How many Sequences deep `component` nests (0 for anything else), walked without
    recursion; shared parts are counted once and a cycle is refused."""
    depth = {}        # id -> nesting depth of a finished node
    on_path = set()   # ids of the Sequences being walked (the current node's ancestors)
    stack = [(component, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            on_path.discard(key)
            depth[key] = 1 + max((depth[id(c)] for c in _children(node)), default=0)
            continue
        if key in depth:
            continue
        if key in on_path:
            raise SubwordLabError("contains itself, so it would never finish",
                                  field=f"{kind}.Sequence")
        children = _children(node)
        if children is None:
            depth[key] = 0
            continue
        on_path.add(key)
        if len(on_path) > MAX_SEQUENCE_DEPTH:
            raise SubwordLabError(f"nested more than {MAX_SEQUENCE_DEPTH} levels deep "
                                  "(tokenizers reads at most 127 levels of nesting from "
                                  "tokenizer.json)", field=f"{kind}.Sequence")
        stack.append((node, True))
        stack.extend((child, False) for child in children)
    return depth[id(component)]



def check_dict_depth(value, field: str) -> None:
    """Refuse a component's dict (as given to from_dict) that nests more lists and
    objects than tokenizer.json may hold at its place, or that contains itself,
    before anything is built from it: walked without recursion, shared parts once."""
    height = {}       # id -> levels of lists and objects in a finished node
    on_path = set()
    stack = [(value, False)]

    def too_deep():
        return SubwordLabError(
            f"nested more than {MAX_DICT_DEPTH} levels of lists and objects deep "
            "(tokenizers reads at most 127 levels from tokenizer.json, where this "
            "object sits one level down)", field=field)

    while stack:
        node, finished = stack.pop()
        key = id(node)
        children = node.values() if isinstance(node, dict) else node
        if finished:
            on_path.discard(key)
            height[key] = 1 + max((height.get(id(c), 0) for c in children), default=0)
            continue
        if not isinstance(node, (dict, list, tuple)):
            continue
        if key in height:
            if len(on_path) + height[key] > MAX_DICT_DEPTH:
                raise too_deep()
            continue
        if key in on_path:
            raise SubwordLabError("contains itself, so it would never finish", field=field)
        on_path.add(key)
        if len(on_path) > MAX_DICT_DEPTH:
            raise too_deep()
        stack.append((node, True))
        stack.extend((child, False) for child in children)

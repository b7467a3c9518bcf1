"""Use Subword Lab under the name `tokenizers`, so code written for Hugging Face
tokenizers runs unchanged (in CPython and in the browser under Pyodide).

    import subword_lab
    subword_lab.install_as_tokenizers()
    from tokenizers import Tokenizer          # now Subword Lab's
    from tokenizers.models import BPE

This is a user of the library, in the manner of PyMySQL's `install_as_MySQLdb()`:
nothing inside subword_lab imports it. It only registers modules in sys.modules.
"""
from __future__ import annotations

import importlib
import sys

# tokenizers' module name -> ours. The top level is compat.tokenizers_module, which
# adds the few names (implementations, tools, ...) that tokenizers has and the
# library itself does not need.
MODULES = {
    "tokenizers": "subword_lab.compat.tokenizers_module",
    "tokenizers.models": "subword_lab.models",
    "tokenizers.normalizers": "subword_lab.normalizers",
    "tokenizers.pre_tokenizers": "subword_lab.pre_tokenizers",
    "tokenizers.processors": "subword_lab.processors",
    "tokenizers.decoders": "subword_lab.decoders",
    "tokenizers.trainers": "subword_lab.compat.trainers_module",
    "tokenizers.implementations": "subword_lab.compat.implementations",
    "tokenizers.tools": "subword_lab.compat.tools",
}


def install_as_tokenizers(replace: bool = True) -> None:
    """Make `import tokenizers` (and its submodules) give Subword Lab.

    With replace=False, a `tokenizers` that is already imported is left alone.
    """
    if not replace and "tokenizers" in sys.modules:
        return
    for name in list(sys.modules):
        if name == "tokenizers" or name.startswith("tokenizers."):
            del sys.modules[name]
    for alias, real in MODULES.items():
        module = importlib.import_module(real)
        sys.modules[alias] = module
        parent, _, child = alias.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)

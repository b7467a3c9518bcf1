"""The widgets' front end: the page's own ES modules from web/, packed into one anywidget `_esm`.

The drawing has one implementation, the page's. A widget's `_esm` is a small loader
(`loader.js`) holding the modules the widgets import, found by following the static and
dynamic imports of `web/notebook.js`, dependencies first. Each relative import is written
as "@sl/<path>" here; the loader turns every module into a blob: URL in that order and
puts those URLs in. `import.meta.url` becomes a made-up address under web/ (the modules
only resolve stylesheet names against it; the widget links no sheet but its own).

The files come from the installed package (`subword_lab/notebook/web/`, which
`python3 build.py wheel` fills) or, in a source checkout, from the web/ folder beside py/.
Nothing is fetched at run time.
"""
from __future__ import annotations

import hashlib
import json
import posixpath
import re
from functools import lru_cache
from pathlib import Path

from ..core.errors import SubwordLabError
from . import MissingExtra

__all__ = ["ENTRY", "SHEETS", "web_root", "modules", "esm"]

ENTRY = "notebook.js"
# The widget's stylesheets, in cascade order (palette-dark.css applies on a dark host).
SHEETS = ("palette.css", "palette-dark.css", "style.css", "textbox.css", "views/encode.css", "views/train.css",
          "views/unigram.css", "views/code.css", "notebook.css")
BASE_URL = "https://subword-lab.invalid/web/"

_HERE = Path(__file__).resolve().parent
# import ... from "./x.js", export ... from "./x.js", import "./x.js", import("./x.js")
_IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[^"']+)\2""")


def web_root() -> Path:
    """Where the web/ modules are: the package's copy, else the checkout's web/."""
    for candidate in (_HERE / "web", _HERE.parents[2] / "web"):
        if (candidate / ENTRY).is_file():
            return candidate
    raise MissingExtra("the notebook widgets' front end (web/notebook.js) is not installed: "
                       "install the wheel `python3 build.py wheel` writes", field="subword_lab.notebook")


def _strip_comments(source: str) -> str:
    """The source without // and /* */ comments, for finding imports (strings kept)."""
    return re.sub(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", "", source, flags=re.S)


@lru_cache(maxsize=1)
def modules() -> tuple[tuple[str, str], ...]:
    """(path under web/, rewritten source) of every module the widgets load, dependencies first."""
    root = web_root()
    order: list[tuple[str, str]] = []
    state: dict[str, str] = {}

    def visit(path: str) -> None:
        if state.get(path) == "done":
            return
        if state.get(path) == "open":
            raise SubwordLabError(f"import cycle through {path}", field="web")
        state[path] = "open"
        source = (root / path).read_text(encoding="utf-8")
        here = posixpath.dirname(path)
        resolve = lambda spec: posixpath.normpath(posixpath.join(here, spec))  # noqa: E731  (a one-line helper)
        targets = [resolve(m.group(3)) for m in _IMPORT.finditer(_strip_comments(source))]
        for target in targets:
            visit(target)
        rewritten = _IMPORT.sub(lambda m: f'{m.group(1)}"@sl/{resolve(m.group(3))}"', source)
        rewritten = rewritten.replace("import.meta.url", json.dumps(BASE_URL + path))
        order.append((path, rewritten))
        state[path] = "done"

    visit(ENTRY)
    return tuple(order)


@lru_cache(maxsize=1)
def esm() -> str:
    """The anywidget `_esm`: the loader with the modules and stylesheets written in."""
    root = web_root()
    sheets = [[name, (root / name).read_text(encoding="utf-8")] for name in SHEETS]
    packed = json.dumps({"modules": [list(m) for m in modules()], "sheets": sheets, "entry": ENTRY},
                        ensure_ascii=False)
    key = hashlib.sha256(packed.encode()).hexdigest()[:16]
    loader = (_HERE / "loader.js").read_text(encoding="utf-8")
    # The JSON goes in as a JS string literal (json.dumps of the text), so no "</script>"
    # or "${" in a module can break out of it.
    return (loader.replace("__SUBWORD_LAB_KEY__", json.dumps(key))
            .replace("__SUBWORD_LAB_BUNDLE__", json.dumps(packed)))

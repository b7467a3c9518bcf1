"""The static import graph of the page's JavaScript modules, for preloading.

A browser finds a module's imports only after that module has arrived, so a view
whose modules import modules arrives in as many round trips as its graph is deep
(the train view: four). Knowing the whole set at build time, the page can ask for
all of them at once. Only static imports count (`import ... from "x"`, `import "x"`,
`export ... from "x"`): a dynamic `import()` is a choice made at run time.

    python3 tools/module_graph.py web views/train.js     (prints the set, for a look)
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

# At the start of a line, as the project writes them (one statement per line or a
# brace list over several lines); comments and strings that merely mention "import"
# do not start a line with it.
STATIC = re.compile(
    r'^\s*(?:import\s*|(?:import|export)\b[^;"\'()]*?\bfrom\s*)["\'](\.{1,2}/[^"\']+)["\']', re.M)


def static_imports(path: Path) -> list[Path]:
    """The relative modules `path` imports statically, resolved against its folder."""
    source = path.read_text(encoding="utf-8")
    return [(path.parent / spec).resolve() for spec in STATIC.findall(source)]


def closure(entry: Path, root: Path) -> list[str]:
    """Every module `entry` needs before it runs (itself included), as paths relative to
    `root` in the order first met; a missing module is an error, not a silent gap."""
    seen: dict[Path, None] = {}
    stack = [entry.resolve()]
    while stack:
        path = stack.pop()
        if path in seen:
            continue
        if not path.is_file():
            raise FileNotFoundError(f"{path} is imported but does not exist")
        seen[path] = None
        stack.extend(reversed(static_imports(path)))
    return [p.relative_to(root.resolve()).as_posix() for p in seen]


if __name__ == "__main__":
    root = Path(sys.argv[1])
    print("\n".join(closure(root / sys.argv[2], root)))

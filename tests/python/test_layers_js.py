"""The front end's layers (web/): imports go one way, and no file grows past a reader.

Layers, from the bottom (docs/architecture.md, "The web front end"):

    web/i18n/            strings; imports only web/i18n/
    web/lib/             shared helpers (DOM, tokens, player, engine, ...); lib and i18n
    web/views/<name>.js  a view entry module; lib, i18n and its own folder web/views/<name>/
    web/views/<name>/    that view's renderers; lib, i18n and their own folder
    web/*.js             the pages' entry modules and the shell; anything below

The imports read are `import ... from "x"`, `import "x"`, `export ... from "x"`,
`import("x")` with a literal name, and the module names listed in a `MODULES = {...}`
table (the shell's lazy-loaded views). Plain text reading, no JavaScript parser: the
code base keeps its imports on lines of their own, which these patterns rely on.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
MAX_LINES = 400

# Files allowed over MAX_LINES, each with the reason it is still one file.
ALLOWED_LONG: dict[str, str] = {
    # "web/path.js": "why it is still one file",  (none today)
}

STATIC = re.compile(r'^\s*(?:import|export)\b[^"\'`;]*?\bfrom\s*["\']([^"\']+)["\']', re.M | re.S)
BARE = re.compile(r'^\s*import\s*["\']([^"\']+)["\']', re.M)
DYNAMIC = re.compile(r'\bimport\(\s*["\']([^"\']+)["\']\s*\)')
MODULES_TABLE = re.compile(r'\bMODULES\s*=\s*\{([^}]*)\}', re.S)
LITERAL = re.compile(r'["\'](\.{1,2}/[^"\']+\.m?js)["\']')


def strip_comments(source: str) -> str:
    """Drop /* */ blocks and whole-line // comments (a // inside a string is left alone)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return "\n".join("" if line.lstrip().startswith("//") else line for line in source.splitlines())


def specifiers(source: str) -> list[str]:
    code = strip_comments(source)
    found = STATIC.findall(code) + BARE.findall(code) + DYNAMIC.findall(code)
    for table in MODULES_TABLE.findall(code):
        found += LITERAL.findall(table)
    return found


def js_files() -> list[Path]:
    return sorted(p for p in WEB.rglob("*.js") if p.is_file())


def graph() -> dict[Path, list[Path]]:
    """Each web/ module -> the web/ modules it imports (outside names such as pyodide skipped)."""
    edges: dict[Path, list[Path]] = {}
    for path in js_files():
        targets = []
        for spec in specifiers(path.read_text(encoding="utf-8")):
            if not spec.startswith("."):
                continue
            target = (path.parent / spec).resolve()
            if target.is_relative_to(WEB.resolve()) and target.suffix == ".js" and target.exists():
                targets.append(target)
        edges[path.resolve()] = targets
    return edges


def find_cycle(edges: dict[Path, list[Path]]) -> list[Path] | None:
    """A cycle as a list of files (first == last), or None."""
    state: dict[Path, int] = {}  # 1 = on the current path, 2 = done
    stack: list[Path] = []

    def visit(node: Path) -> list[Path] | None:
        state[node] = 1
        stack.append(node)
        for nxt in edges.get(node, []):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def rel(path: Path) -> str:
    return path.resolve().relative_to(WEB.resolve()).as_posix()


def layer(path: str) -> tuple[str, str | None]:
    """(layer, view family) of a path relative to web/."""
    parts = path.split("/")
    if parts[0] in ("i18n", "lib") and len(parts) > 1:
        return parts[0], None
    if parts[0] == "views" and len(parts) == 2:
        return "view", parts[1].removesuffix(".js")
    if parts[0] == "views" and len(parts) > 2:
        return "renderer", parts[1]
    return "shell", None


def allowed(source: str, target: str) -> bool:
    kind, family = layer(source)
    to_kind, to_family = layer(target)
    if kind == "shell":
        return True
    if kind == "i18n":
        return to_kind == "i18n"
    if to_kind in ("i18n", "lib"):
        return True
    # a view or a renderer: besides lib and i18n, only its own family's folder
    return kind in ("view", "renderer") and to_kind == "renderer" and to_family == family


# ---------------------------------------------------------------- the parser itself

def test_parser_reads_every_kind_of_import():
    source = '''import { a, b } from "./one.js";
import {
  c,
} from "../two.js";
import "./three.js";
export { d } from "./four.js";
const m = await import("./five.js");
const MODULES = { x: "./views/six.js", y: "./views/seven.js" };
// import { e } from "./commented.js";
/* import "./blocked.js"; */
const url = "http://example.org/not-an-import.js";
'''
    assert specifiers(source) == ["./one.js", "../two.js", "./four.js", "./three.js", "./five.js",
                                  "./views/six.js", "./views/seven.js"]


def test_cycle_finder_finds_a_cycle_and_passes_a_tree():
    a, b, c = Path("/a.js"), Path("/b.js"), Path("/c.js")
    assert find_cycle({a: [b], b: [c], c: []}) is None
    assert find_cycle({a: [b], b: [c], c: [a]}) == [a, b, c, a]


def test_layer_rule_cases():
    assert allowed("views/encode.js", "views/encode/bpe.js")
    assert allowed("views/encode/bpe.js", "views/encode/word-steps.js")
    assert allowed("views/compare.js", "lib/tokens.js")
    assert not allowed("views/compare.js", "views/encode.js")
    assert not allowed("views/encode/bpe.js", "views/encode.js")
    assert not allowed("views/train/unigram.js", "views/encode/unigram.js")
    assert not allowed("lib/tokens.js", "views/encode.js")
    assert not allowed("i18n/page.js", "lib/dom.js")
    assert allowed("app.js", "views/tokenize.js")


# ---------------------------------------------------------------- the tree as it is

def test_every_relative_import_names_a_file():
    missing = []
    for path in js_files():
        for spec in specifiers(path.read_text(encoding="utf-8")):
            if spec.startswith(".") and not (path.parent / spec).exists() and "pyodide/" not in spec:
                missing.append(f"{rel(path)} imports {spec}")
    assert not missing, "imports of files that do not exist:\n" + "\n".join(missing)


def test_no_import_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(rel(p) for p in cycle)


def test_imports_go_down_the_layers():
    wrong = [f"{rel(src)} imports {rel(dst)}"
             for src, targets in graph().items() for dst in targets
             if not allowed(rel(src), rel(dst))]
    assert not wrong, ("imports against the layers (a view imports only web/lib, web/i18n and "
                       "its own folder):\n" + "\n".join(wrong))


@pytest.mark.parametrize("suffix", ["js", "css"])
def test_no_file_over_the_limit(suffix):
    long = {}
    for path in sorted(WEB.rglob(f"*.{suffix}")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and rel(path) not in ALLOWED_LONG:
            long[rel(path)] = lines
    assert not long, f"files over {MAX_LINES} lines (split them, or allow one in ALLOWED_LONG with a reason): {long}"


def test_allow_list_is_current():
    """An allowed file that no longer exists or has shrunk leaves the list."""
    stale = [name for name in ALLOWED_LONG
             if not (WEB / name).exists()
             or len((WEB / name).read_text(encoding="utf-8").splitlines()) <= MAX_LINES]
    assert not stale, f"ALLOWED_LONG entries no longer needed: {stale}"


def test_architecture_doc_names_every_web_file():
    """docs/architecture.md's "The web front end" names every module, sheet and page of
    web/: by its path in web/, by its file name (in its folder's entry), or by a pattern
    in backticks (`views/*.css`)."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## The web front end", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([^`\s]+)`", section))
    patterns = [name for name in named if "*" in name]
    missing = []
    for path in sorted(p for suffix in ("js", "css", "html") for p in WEB.rglob(f"*.{suffix}")):
        inside = path.relative_to(WEB).as_posix()
        if inside in named or path.name in named:
            continue
        if any(Path(inside).match(pattern) for pattern in patterns):
            continue
        missing.append(inside)
    assert not missing, f"docs/architecture.md does not name these files of web/: {missing}"

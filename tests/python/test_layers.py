"""The package's layers hold: imports go one way, no import cycles, no overlong files.

Layers, lowest first (docs/architecture.md):
  core      errors, normalized strings, regexes, Unicode and byte tables
  pipeline  the public modules named as in `tokenizers` (normalizers, models, ...)
  trainers  learning a model's vocabulary
  io        reading files into Tokenizers
  users     cli/, web/ (and any other front door): nothing in the library imports them,
            and they do not import each other.
A module may import from its own layer or any lower one. Every import counts,
those inside functions too: a lazy import is still a dependency.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "subword_lab"
RANK = {"core": 0, "pipeline": 1, "trainers": 2, "io": 3, "user": 4}
USERS = {"cli", "web", "compat"}
MAX_LINES = 400
# Files allowed over MAX_LINES, each with the reason it stays whole.
LONG_FILES = {
    "core/normalized.py": "NormalizedString's alignment primitives share one invariant "
                          "(every normalized character maps to an original span); "
                          "splitting the class would scatter it",
    "io/gguf_unicode_data.py": "generated data (tools/gen_gguf_unicode.py): llama.cpp's "
                          "Unicode tables",
    "core/unicode_regex.py": "one translator from three regex dialects to Python's re; "
                             "its tables and the parser belong together",
    "tokenizer.py": "the Tokenizer class mirrors tokenizers' API surface one to one",
    "pre_tokenizers.py": "one class per tokenizers pre-tokenizer, as tokenizers' module",
    "normalizers.py": "one class per tokenizers normalizer, as tokenizers' module",
    "decoders.py": "one class per tokenizers decoder, as tokenizers' module",
    "models/bpe.py": "BPE's encode and its merge table; the hot loop is kept in one place",
    "trainers/merging.py": "the pair-count engine of BPE/WordPiece training, hand-inlined "
                           "in its hottest loop for speed",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def layer(module: str) -> tuple[str, str]:
    """(layer, top-level unit) of a module of ours."""
    parts = module.split(".")[1:]
    top = parts[0] if parts else ""
    if top == "__main__":
        return "user", "cli"  # `python -m subword_lab` is the command line's door
    if top in USERS:
        return "user", top
    if top in ("core", "trainers", "io"):
        return top, top
    return "pipeline", top


def resolve(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The modules of ours one import statement depends on."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "subword_lab"]
    if node.level == 0:
        base = node.module or ""
        if base.split(".")[0] != "subword_lab":
            return []
    else:
        package = module.split(".")
        if not MODULES[module].name == "__init__.py":
            package = package[:-1]
        package = package[:len(package) - (node.level - 1)]
        base = ".".join(package + ([node.module] if node.module else []))
    found = []
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        found.append(candidate if candidate in MODULES else base)
    return found


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for module, path in MODULES.items():
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges.update(t for t in resolve(module, node) if t in MODULES and t != module)
        graph[module] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]):
    """One import cycle as a list of modules, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return stack[stack.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_find_cycle_sees_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles():
    # The package's __init__ only names its submodules lazily; leave it out so that
    # `from .. import models` does not read as a cycle through the package itself.
    graph = {m: {t for t in e if t != "subword_lab"} for m, e in import_graph().items()}
    assert find_cycle(graph) is None


def test_imports_go_one_way():
    wrong = []
    for module, targets in import_graph().items():
        here, unit = layer(module)
        for target in targets:
            if target == "subword_lab":
                continue
            there, other = layer(target)
            if there == "user" and other != unit:
                wrong.append(f"{module} imports {target} (a front door: nothing imports it)")
            elif RANK[there] > RANK[here]:
                wrong.append(f"{module} ({here}) imports {target} ({there}), a higher layer")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", sorted(MODULES.values()), ids=lambda p: p.name)
def test_file_length(path):
    rel = path.relative_to(PACKAGE).as_posix()
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if rel == "core/unicode_tables.py":
        return  # generated data (tools/gen_unicode_tables.py)
    assert lines <= MAX_LINES or rel in LONG_FILES, (
        f"{rel} has {lines} lines: split it, or add it to LONG_FILES with the reason")


def test_long_file_list_is_current():
    stale = [rel for rel in LONG_FILES if not (PACKAGE / rel).exists()
             or len((PACKAGE / rel).read_text(encoding="utf-8").splitlines()) <= MAX_LINES]
    assert not stale, f"no longer long (or gone), remove from LONG_FILES: {stale}"


def test_test_modules_have_unique_names():
    """The test folders are not packages, so pytest imports each test file by its base
    name: two files of one name in different folders stop the whole run at collection
    (a separate run of each folder does not show it)."""
    tests = Path(__file__).resolve().parents[1]
    seen: dict = {}
    for path in sorted(tests.rglob("*.py")):
        if "__pycache__" not in path.parts:
            seen.setdefault(path.name, []).append(str(path.relative_to(tests)))
    twice = {name: where for name, where in seen.items() if len(where) > 1 and name != "conftest.py"}
    assert not twice, twice

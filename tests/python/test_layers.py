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
Internal modules and names start with "_": only modules of the package that holds
one may import it (a package's private parts are no other package's business).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "subword_lab"
RANK = {"core": 0, "pipeline": 1, "trainers": 2, "io": 3, "user": 4}
USERS = {"cli", "web", "compat", "notebook"}
# Every other top-level module or package is pipeline-level: tokenizers' public
# modules, pipeline/ (the Tokenizer's machinery), sentencepiece/ (its own encoding
# pipeline) and reference/ (the plain reference algorithms).
MAX_LINES = 400
# Files allowed over MAX_LINES, each with the reason it stays whole.
LONG_FILES = {
    "encoding.py": "the Encoding class, one concept: its columns, views and conversions, with "
                   "the type-only declarations of its slot-backed columns (about 35 lines)",
    "reference/unigram_train.py": "Unigram training as a learner reads it: the EM trainer and "
                                  "the course's exact trainer share the lattice walk and the "
                                  "pruning loss, and the Code panel shows them from one file",
    "core/normalized.py": "NormalizedString's alignment primitives share one invariant "
                          "(every normalized character maps to an original span); "
                          "splitting the class would scatter it",
    "llama_cpp/unicode_data.py": "generated data (tools/gen_gguf_unicode.py): llama.cpp's "
                               "Unicode tables",
    "core/regex/translate.py": "one translator from three regex dialects to Python's re; "
                               "its tables and the parser belong together",
    "tokenizer.py": "the Tokenizer class alone (its events, truncation and tokenizer.json "
                    "fields are in pipeline/), mirroring tokenizers' API surface one to one",
    "pre_tokenizers.py": "one class per tokenizers pre-tokenizer, as tokenizers' module",
    "normalizers.py": "one class per tokenizers normalizer, as tokenizers' module",
    "decoders.py": "one class per tokenizers decoder, as tokenizers' module",
    "models/bpe.py": "the BPE model and its one engine, the merge table's priority queue; "
                     "the hot loop is kept in one place (rank mode: models/_rank_engine.py)",
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


def package_of(module: str) -> str:
    """The package a module of ours belongs to (a package's __init__ belongs to itself)."""
    return module if MODULES[module].name == "__init__.py" else module.rsplit(".", 1)[0]


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_owner(target: str, name: str | None):
    """The package that owns what an import takes, when it is private: the package
    holding its first "_" module, or, for a "_" name, the package of its module."""
    parts = target.split(".")
    for i, part in enumerate(parts[1:], 1):
        if is_private(part):
            return ".".join(parts[:i])
    if name is not None and is_private(name):
        return package_of(target)
    return None


def private_imports(module: str, source: str) -> list[str]:
    """Imports of another package's private modules or names, as readable lines."""
    wrong = []
    here = package_of(module)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            taken = [(a.name, None) for a in node.names if a.name.split(".")[0] == "subword_lab"]
        elif isinstance(node, ast.ImportFrom):
            taken = []
            for alias, target in zip(node.names, resolve(module, node)):
                module_itself = target.endswith("." + alias.name) and target in MODULES
                taken.append((target, None if module_itself else alias.name))
        else:
            continue
        for target, name in taken:
            owner = private_owner(target, name)
            if owner is not None and owner != here:
                what = f"{target}.{name}" if name else target
                wrong.append(f"{module} imports {what}, private to {owner}")
    return wrong


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


def test_private_import_check_sees_one():
    """The check itself: a private name or module taken from another package is
    named; the same taken from inside its own package is not."""
    outside = "from ..models.bpe import _private_helper\nfrom ..models import _long_words\n"
    assert private_imports("subword_lab.io.loaders", outside) == [
        "subword_lab.io.loaders imports subword_lab.models.bpe._private_helper, "
        "private to subword_lab.models",
        "subword_lab.io.loaders imports subword_lab.models._long_words, private to subword_lab.models"]
    inside = "from .bpe import _private_helper\nfrom . import _long_words\n"
    assert private_imports("subword_lab.models.unigram", inside) == []


def test_no_private_imports_across_packages():
    wrong = []
    for module, path in sorted(MODULES.items()):
        wrong += private_imports(module, path.read_text(encoding="utf-8"))
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", sorted(MODULES.values()), ids=lambda p: p.name)
def test_file_length(path):
    rel = path.relative_to(PACKAGE).as_posix()
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if rel == "core/tables/unicode.py":
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


def test_architecture_doc_names_every_module():
    """docs/architecture.md lists every module: by its path in the package, or, for a
    front door (cli/, web/, compat/), by its file name in that folder's row."""
    doc = (PACKAGE.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        top = rel.split("/")[0]
        if top in USERS:
            named = f"`{path.name}`" in doc and f"`{top}/`" in doc
        elif rel.endswith("/__init__.py"):
            named = f"`{rel}`" in doc or f"`{rel[:-len('__init__.py')]}`" in doc
        else:
            named = f"`{rel}`" in doc
        if not named:
            missing.append(rel)
    assert not missing, f"docs/architecture.md does not name: {missing}"

"""Every public name and parameter of tokenizers' own `.pyi` stubs exists here.

The stubs ship in the installed `tokenizers` wheel. For each public class,
function, method and property they declare, the same name must exist in Subword
Lab's module of the same role, and a method's signature must accept every call
written against the stub: the stub's positional parameters at the same places
under the same names, its keyword-only parameters under the same names, a default
wherever the stub has one, and no extra parameter without a default.
"""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import tokenizers  # in the test extra: the stubs come with it

STUBS = Path(tokenizers.__file__).parent
# tokenizers' stub file -> the module of ours that plays its role.
MODULES = {
    "__init__.pyi": "subword_lab.compat.tokenizers_module",
    "normalizers/__init__.pyi": "subword_lab.normalizers",
    "pre_tokenizers/__init__.pyi": "subword_lab.pre_tokenizers",
    "models/__init__.pyi": "subword_lab.models",
    "trainers/__init__.pyi": "subword_lab.compat.trainers_module",
    "processors/__init__.pyi": "subword_lab.processors",
    "decoders/__init__.pyi": "subword_lab.decoders",
}
# Names of the stubs that cannot apply here, each with the reason.
EXCLUDED = {
    # The stub's catch-all: a module-level __getattr__ typed as returning anything.
    "__init__.pyi:__getattr__": "the stub's catch-all for names it does not list",
    "models/__init__.pyi:Model.get_trainer": "trainers/ is a layer above models "
        "(docs/architecture.md): a model may not import its trainer; name the trainer "
        "(subword_lab.trainers.BpeTrainer, ...) instead",
    # Not built yet (issue 25's stub-parity bullet): each would be new behaviour.
    "models/__init__.pyi:Model.save": "not built: Subword Lab writes a whole tokenizer.json "
        "(Tokenizer.save), not a model's vocab.json/merges.txt files",
    "__init__.pyi:PreTokenizedString.to_encoding": "not built: an Encoding here is built "
        "by the Tokenizer from its splits and post-processor, not from a bare "
        "PreTokenizedString",
}
# Dunders whose signature is the language's, not the API's.
DUNDERS = {"__new__", "__init__", "__call__"}


def _params(args: ast.arguments, is_method: bool) -> list[tuple[str, str, bool]]:
    """(name, kind, has_default) for each parameter a caller can pass."""
    positional = [(a, "pos_only") for a in args.posonlyargs] + [(a, "pos") for a in args.args]
    defaults = [False] * (len(positional) - len(args.defaults)) + [True] * len(args.defaults)
    out = [(a.arg, kind, d) for (a, kind), d in zip(positional, defaults)]
    if is_method and out and out[0][0] in ("self", "cls"):
        out = out[1:]
    out += [(a.arg, "kw", d is not None) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.vararg:
        out.append((args.vararg.arg, "varargs", True))
    if args.kwarg:
        out.append((args.kwarg.arg, "varkw", True))
    return out


def _stub_entries():
    """Yield (stub file, class name or None, member name, what, params)."""
    for stub, _module in MODULES.items():
        tree = ast.parse((STUBS / stub).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") \
                    or isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
                yield stub, None, node.name, "function", _params(node.args, False)
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                yield stub, node.name, None, "class", None
                for item in node.body:
                    if not isinstance(item, ast.FunctionDef):
                        continue
                    if item.name.startswith("_") and item.name not in DUNDERS:
                        continue
                    decorators = {ast.unparse(d) for d in item.decorator_list}
                    if any(d.endswith((".setter", ".deleter")) for d in decorators):
                        continue
                    what = "property" if "property" in decorators else "method"
                    yield stub, node.name, item.name, what, _params(item.args, True)


def _instance_attributes(cls) -> set[str]:
    """Names a class's own code sets on its instances (self.name = ..., __slots__)."""
    names: set[str] = set()
    for klass in inspect.getmro(cls):
        names.update(getattr(klass, "__slots__", ()))
        try:
            tree = ast.parse(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return names


def _ours_params(obj) -> list[tuple[str, str, bool]] | None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    kinds = {inspect.Parameter.POSITIONAL_ONLY: "pos_only",
             inspect.Parameter.POSITIONAL_OR_KEYWORD: "pos",
             inspect.Parameter.KEYWORD_ONLY: "kw",
             inspect.Parameter.VAR_POSITIONAL: "varargs",
             inspect.Parameter.VAR_KEYWORD: "varkw"}
    return [(p.name, kinds[p.kind], p.default is not inspect.Parameter.empty
             or p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD))
            for p in sig.parameters.values()]


def _signature_problems(stub_params, ours) -> list[str]:
    """What a call written against the stub would find wrong in ours."""
    problems = []
    has_varargs = any(k == "varargs" for _, k, _ in ours)
    has_varkw = any(k == "varkw" for _, k, _ in ours)
    ours_positional = [p for p in ours if p[1] in ("pos_only", "pos")]
    by_name = {p[0]: p for p in ours}
    stub_positional = [p for p in stub_params if p[1] in ("pos_only", "pos")]
    for i, (name, kind, default) in enumerate(stub_positional):
        if i < len(ours_positional):
            o_name, o_kind, o_default = ours_positional[i]
            if kind == "pos" and o_name != name and not (o_kind == "pos_only" and has_varkw):
                problems.append(f"positional parameter {i + 1} is {o_name!r}, the stub's is {name!r}")
            if kind == "pos" and o_kind == "pos_only":
                problems.append(f"{o_name!r} is positional-only, the stub's {name!r} is not")
            if default and not o_default:
                problems.append(f"{o_name!r} has no default, the stub's {name!r} has one")
        elif not has_varargs:
            problems.append(f"the stub's positional parameter {name!r} is missing")
    for name, kind, default in stub_params:
        if kind == "kw" or kind == "pos":
            mine = by_name.get(name)
            if mine is None and not has_varkw:
                problems.append(f"the stub's keyword {name!r} is missing")
            elif kind == "kw" and mine is not None and mine[1] == "pos_only":
                problems.append(f"the stub's keyword {name!r} is positional-only here")
            elif kind == "kw" and mine is not None and default and not mine[2]:
                problems.append(f"{name!r} has no default, the stub's has one")
    stub_names = {p[0] for p in stub_params}
    for i, (name, kind, default) in enumerate(ours):
        if default or kind in ("varargs", "varkw"):
            continue
        positional_index = [p[0] for p in ours_positional].index(name) if kind != "kw" else None
        if positional_index is not None and positional_index < len(stub_positional):
            continue
        if name not in stub_names:
            problems.append(f"extra parameter {name!r} has no default")
    return problems


def _member_params(owner, member, target):
    """Our parameters for `owner.member` (found as `target`), as a caller passes them."""
    if member in ("__new__", "__init__"):
        return _ours_params(owner)
    if isinstance(target, staticmethod):
        return _ours_params(target.__func__)
    if isinstance(target, classmethod):
        return _ours_params(getattr(owner, member))
    ours = _ours_params(target)
    if ours is not None and ours and ours[0][0] in ("self", "cls"):
        ours = ours[1:]
    return ours


def stub_differences() -> list[str]:
    import importlib
    differences = []
    for stub, class_name, member, what, stub_params in _stub_entries():
        key = f"{stub}:{'.'.join(n for n in (class_name, member) if n)}"
        if key in EXCLUDED:
            continue
        module = importlib.import_module(MODULES[stub])
        owner = getattr(module, class_name or member, None)
        if owner is None:
            differences.append(f"{key}: missing")
            continue
        if what in ("class", "function") and class_name is None or what == "class":
            target = owner
        else:
            target = inspect.getattr_static(owner, member, None)
            if target is None and what == "property" and member in _instance_attributes(owner):
                continue
            if target is None:
                differences.append(f"{key}: missing")
                continue
        if what == "function" and class_name is None:
            ours = _ours_params(target)
        elif what == "method":
            ours = _member_params(owner, member, target)
        else:
            continue
        if ours is None:
            continue  # a builtin's signature cannot be read: its presence is what counts
        for problem in _signature_problems(stub_params, ours):
            differences.append(f"{key}: {problem}")
    return differences


def _stub_bases() -> dict[str, dict[str, set[str]]]:
    """For each stub file, {base class: its subclasses} as the stub declares them."""
    bases: dict[str, dict[str, set[str]]] = {}
    for stub in MODULES:
        tree = ast.parse((STUBS / stub).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    if isinstance(base, ast.Name):
                        bases.setdefault(stub, {}).setdefault(base.id, set()).add(node.name)
    return bases


def override_differences() -> list[str]:
    """Each public subclass of ours checked against the base-class stub methods it overrides.

    The stubs declare `normalize`, `pre_tokenize`, `decode`, `process`, ... once, on
    the base class; a subclass that overrides one must still accept every call written
    against the base's stub (`NFC().normalize(normalized=ns)`). A method the subclass
    inherits unchanged is the base's and was checked there.
    """
    import importlib
    declared = {(stub, cls, member) for stub, cls, member, what, _ in _stub_entries()
                if what == "method"}
    methods = [(stub, cls, member, params) for stub, cls, member, what, params in _stub_entries()
               if what == "method" and member not in DUNDERS]
    differences = []
    for stub, stub_bases in _stub_bases().items():
        module = importlib.import_module(MODULES[stub])
        for base_name in stub_bases:
            base = getattr(module, base_name, None)
            if not isinstance(base, type):
                continue  # a missing base is reported by stub_differences
            subclasses = sorted(
                (name, obj) for name, obj in vars(module).items()
                if not name.startswith("_") and isinstance(obj, type)
                and issubclass(obj, base) and obj is not base)
            for stub_of, cls_of, member, stub_params in methods:
                if (stub_of, cls_of) != (stub, base_name):
                    continue
                key = f"{stub}:{base_name}.{member}"
                if key in EXCLUDED:
                    continue
                inherited = inspect.getattr_static(base, member, None)
                for name, sub in subclasses:
                    target = inspect.getattr_static(sub, member, None)
                    if target is None or target is inherited \
                            or (stub, name, member) in declared:
                        continue  # not overridden, or checked as the stub's own entry
                    ours = _member_params(sub, member, target)
                    if ours is None:
                        continue
                    for problem in _signature_problems(stub_params, ours):
                        differences.append(f"{stub}:{name}.{member} (overrides "
                                           f"{base_name}.{member}): {problem}")
    return differences


def test_every_public_name_and_parameter_of_the_stubs_exists_here():
    differences = stub_differences()
    assert not differences, "\n".join([f"{len(differences)} differences from tokenizers' stubs:"]
                                      + differences)


def test_every_override_of_a_stub_method_accepts_the_stubs_calls():
    differences = override_differences()
    assert not differences, "\n".join(
        [f"{len(differences)} overrides differ from their base class's stub:"] + differences)


def test_a_star_import_brings_every_class_of_the_stubs():
    # tokenizers' modules have no __all__, so `from tokenizers.normalizers import *`
    # brings every public class; where ours lists __all__, it must list them too.
    import importlib
    missing = []
    for stub, class_name, _member, what, _params in _stub_entries():
        all_names = getattr(importlib.import_module(MODULES[stub]), "__all__", None)
        if what == "class" and all_names is not None and class_name not in all_names:
            missing.append(f"{stub}:{class_name} is not in {MODULES[stub]}.__all__")
    assert not missing, "\n".join(missing)


def test_the_stubs_were_read():
    # A stub file moved or renamed would otherwise pass silently.
    entries = list(_stub_entries())
    assert {e[0] for e in entries} == set(MODULES)
    assert sum(e[3] == "method" for e in entries) > 100
    # The override check has bases to follow: each stub file but the top-level and
    # trainers one declares its base class (Normalizer, PreTokenizer, Model, ...).
    bases = _stub_bases()
    assert {b for by_stub in bases.values() for b in by_stub} >= {
        "Normalizer", "PreTokenizer", "Model", "Decoder", "PostProcessor", "Trainer"}


if __name__ == "__main__":
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
    for line in stub_differences() + override_differences():
        print(line)

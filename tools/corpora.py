"""Training corpora built on the spot from text already on the machine (no download).

- `docstring_corpus()`: English prose, the docstrings of the Python standard library.
- `mixed_corpus()`: a multilingual mix. Most of it is the translated messages of
  axe-core (node_modules/axe-core/locales/*.json, installed by `build.py setup`:
  Azerbaijani, Danish, German, Greek, Spanish, Basque, French, Hebrew, Italian,
  Japanese, Korean, Norwegian, Polish, Portuguese, Russian, Swedish, Chinese);
  then tests/data/multilingual.txt (Latin, Greek, Cyrillic, Arabic, Hebrew, Indic,
  CJK, emoji), the UTF-8 CJK texts of CPython's own test suite
  (test/cjkencodings/*-utf8.txt, where the Python has them), and English from
  botchan.txt and the docstrings. The languages are interleaved line by line, so a
  prefix of the corpus is as mixed as the whole.
"""
from __future__ import annotations

import ast
import json
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AXE_LOCALES = ROOT / "node_modules" / "axe-core" / "locales"
MULTILINGUAL = ROOT / "tests" / "data" / "multilingual.txt"


def line_bytes(lines) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def docstring_corpus(min_bytes=450_000):
    """Lines of prose from the standard library's docstrings, in a fixed order."""
    lines, size = [], 0
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(stdlib.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    for line in doc.splitlines():
                        if line.strip():
                            lines.append(line)
                            size += len(line.encode("utf-8")) + 1
        if size >= min_bytes:
            break
    return lines


def _strings(value):
    """Every string inside a JSON value, in document order."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def axe_locale_lines():
    """{language: [message, ...]} from axe-core's translations (English template left out)."""
    if not AXE_LOCALES.is_dir():
        raise FileNotFoundError(f"{AXE_LOCALES} is missing: run `python3 build.py setup`")
    result = {}
    for path in sorted(AXE_LOCALES.glob("*.json")):
        if path.name.startswith("_"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        lines = [s.strip() for s in _strings(data) if s.strip() and s != data.get("lang")]
        if len(lines) > 50:
            result[path.stem] = lines
    return result


def cjk_test_lines():
    folder = Path(sysconfig.get_paths()["stdlib"]) / "test" / "cjkencodings"
    lines = []
    for path in sorted(folder.glob("*-utf8.txt")):
        lines.extend(t for t in path.read_text(encoding="utf-8").splitlines() if t.strip())
    return lines


def mixed_corpus(min_bytes=450_000, botchan_lines=None, english_share=0.25):
    """About `min_bytes` of multilingual lines (at least; the sources interleaved).

    English (botchan.txt when given, then the docstrings) makes up about
    `english_share` of the bytes; the rest is every other language's lines.
    """
    sources = list(axe_locale_lines().values())
    sources.append(MULTILINGUAL.read_text(encoding="utf-8").splitlines())
    sources.append(cjk_test_lines())
    english = list(botchan_lines or []) + docstring_corpus(int(min_bytes * english_share))
    english_budget = int(min_bytes * english_share)
    lines, size = [], 0
    cursors = [0] * len(sources)
    english_at, english_size = 0, 0
    while size < min_bytes:
        moved = False
        for k, source in enumerate(sources):
            if cursors[k] < len(source):
                line = source[cursors[k]]
                cursors[k] += 1
                lines.append(line)
                size += len(line.encode("utf-8")) + 1
                moved = True
        # English keeps pace with its share of what was added so far
        while english_at < len(english) and english_size < size * english_share:
            line = english[english_at]
            english_at += 1
            if line.strip():
                lines.append(line)
                english_size += len(line.encode("utf-8")) + 1
                size += len(line.encode("utf-8")) + 1
        if not moved and (english_at >= len(english) or english_size >= english_budget):
            break
    return lines

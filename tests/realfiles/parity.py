"""Run one case: open the file with subword_lab and with its own library, encode every
hard input with both, and keep the mismatches (ids, tokens, decode) and the timings.

    python3 tests/realfiles/parity.py [CASE ...]   # a table of results and timings
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for p in (HERE, ROOT / "py", ROOT / "tools"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import importlib

import subword_lab
from subword_lab.core.tables import byte_level

from cases import Case

ASPECTS = ("ids", "tokens", "decode")


@dataclass
class Result:
    case: str
    inputs: int = 0
    mismatches: dict = field(default_factory=lambda: {a: [] for a in ASPECTS})
    counts: dict = field(default_factory=lambda: {a: 0 for a in ASPECTS})
    load_error: str | None = None
    times: dict = field(default_factory=dict)   # load_ours, load_ref, encode_ours, encode_ref
    options: dict = field(default_factory=dict)

    def report(self, aspect: str, keep: int = 3) -> str:
        n = self.counts[aspect]
        lines = [f"{self.case}: {aspect} differ on {n} of {self.inputs} inputs"]
        for name, text, ours, ref in self.mismatches[aspect][:keep]:
            lines.append(f"  [{name}] {_short(text)!r}\n     ours {_short(ours)}\n"
                         f"     ref  {_short(ref)}")
        return "\n".join(lines)


def _short(value, limit=160):
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def library_encodings() -> set:
    """tiktoken encoding names our library knows (pattern and special tokens)."""
    names = set(getattr(byte_level, "TIKTOKEN_PATTERNS", {}))
    module = importlib.import_module("subword_lab.io.tiktoken_file")
    specials = getattr(module, "_TIKTOKEN_SPECIALS", None)
    if specials is not None:
        names &= set(specials)
    for attr in ("TIKTOKEN_ENCODINGS", "KNOWN_ENCODINGS", "ENCODINGS"):
        names |= set(getattr(module, attr, {}))
    return names


def our_options(case: Case, ref) -> dict:
    """load() options: the format where detection cannot tell yet; for tiktoken files,
    the encoding's name when our library knows it, else its pattern and special tokens
    as the reference package has them (until the library's table names them)."""
    options = dict(case.options)
    if case.format:
        options["format"] = case.format
    if case.encoding:
        if case.encoding in library_encodings():
            options["pattern"] = case.encoding
        else:
            options["pattern"] = ref.tiktoken._pat_str
            options["special_tokens"] = dict(ref.tiktoken._special_tokens)
    return options


def _our_tokens(tokens, ref_is_bytes):
    if not ref_is_bytes:
        return tokens
    return [byte_level.decode_to_bytes(t) or t.encode("utf-8") for t in tokens]


def run_case(case: Case, paths: dict, inputs: list, root: Path, keep: int = 5) -> Result:
    result = Result(case.id, inputs=len(inputs))
    t0 = time.perf_counter()
    ref = case.reference(paths, root, case.asset)
    result.times["load_ref"] = time.perf_counter() - t0
    result.options = {k: (v if k != "special_tokens" else f"{len(v)} tokens")
                      for k, v in our_options(case, ref).items()}
    t0 = time.perf_counter()
    try:
        ours = subword_lab.load(paths[case.asset], **our_options(case, ref))
    except Exception as exc:  # reported as the case's failure
        result.load_error = f"{type(exc).__name__}: {exc}"
        return result
    result.times["load_ours"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    want = [ref.encode(text) for _, text in inputs]
    result.times["encode_ref"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    # tiktoken-based references recognise special-token text (allowed_special="all");
    # the lab's default for tiktoken files reads it as text, so ask for the same. A
    # reference without special tokens in its tiktoken (mistral-common's tekken keeps
    # them outside) reads them as text, as our default does.
    mode = "recognise" if ref.tiktoken is not None and ref.tiktoken._special_tokens else None
    got = [ours.encode(text, special_tokens=mode) for _, text in inputs]
    result.times["encode_ours"] = time.perf_counter() - t0

    ref_is_bytes = ref.tiktoken is not None
    for (name, text), enc, ids in zip(inputs, got, want):
        checks = {"ids": (enc.ids, ids),
                  "tokens": (_our_tokens(enc.tokens, ref_is_bytes), list(ref.tokens(text, ids)))}
        try:
            ours_text = ours.decode(ids, skip_special_tokens=not ref.keeps_specials)
        except Exception as exc:
            ours_text = f"<{type(exc).__name__}: {exc}>"
        checks["decode"] = (ours_text, ref.decode(ids))
        for aspect, (a, b) in checks.items():
            if a != b:
                result.counts[aspect] += 1
                if len(result.mismatches[aspect]) < keep:
                    result.mismatches[aspect].append((name, text, a, b))
    return result


def main(argv):
    import tempfile

    import assets
    from cases import BY_ID, CASES, assets_needed
    from hard_inputs import hard_inputs
    chosen = [BY_ID[a] for a in argv] if argv else CASES
    paths = assets.fetch(assets_needed(chosen) + ["botchan.txt"])
    inputs = hard_inputs(paths["botchan.txt"].read_text(encoding="utf-8"))
    print(f"{len(inputs)} inputs, {sum(len(t) for _, t in inputs)} characters")
    with tempfile.TemporaryDirectory() as root:
        for case in chosen:
            r = run_case(case, paths, inputs, Path(root))
            t = r.times
            if r.load_error:
                print(f"{case.id}: LOAD ERROR {r.load_error[:200]}")
                continue
            print(f"{case.id}: load ours {t['load_ours']:.2f}s ref {t['load_ref']:.2f}s | "
                  f"encode ours {t['encode_ours']:.2f}s ref {t['encode_ref']:.2f}s | "
                  + " ".join(f"{a} {r.counts[a]}" for a in ASPECTS), flush=True)
            for a in ASPECTS:
                if r.counts[a]:
                    print(r.report(a, keep=1))


if __name__ == "__main__":
    main(sys.argv[1:])

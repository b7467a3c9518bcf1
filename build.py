#!/usr/bin/env python3
"""Subword Lab's one entry point: setup, build, wheel, serve, test, bench.

    python3 build.py setup    # node_modules (npm ci) and .venv with the test extras
    python3 build.py build    # dist/: Pyodide, our wheel, the web assets, presets
    python3 build.py wheel    # build/wheel/: the wheel to pip install, with the notebook widgets
    python3 build.py serve    # build, then serve dist/ at 127.0.0.1:8000 (PORT or --port)
    python3 build.py test     # setup, find Chromium, build, run every pytest layer
    python3 build.py bench    # setup, find Chromium, build, run bench/*.py

Standard library only: this must run on a fresh machine that has python3, node
and npm and nothing else.
"""
from __future__ import annotations

import argparse
import base64
import errno
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import tomllib
import urllib.parse
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
WEB = ROOT / "web"
VENV = ROOT / ".venv"
NODE_MODULES = ROOT / "node_modules"
PYODIDE_PKG = NODE_MODULES / "pyodide"
NODE_BIN = NODE_MODULES / ".bin"

# Everything Pyodide 314 loads at start-up (the .map files are for debuggers only). No
# micropip: the worker imports our wheel straight from its zip (web/lib/wheel.js).
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"]
# Jinja2 and MarkupSafe for the Chat view (tools/assets.py pins them).
JINJA_WHEEL = "jinja2-3.1.6-py3-none-any.whl"
CHAT_ASSETS = [JINJA_WHEEL] + [f"markupsafe-3.0.3/{name}" for name in
                               ("__init__.py", "_native.py", "LICENSE.txt")]

# The presets the page offers are tools/catalog.py's table.
# Other files the page offers (a corpus for the training views).
CORPORA = {"botchan": ("botchan.txt", "Botchan, by Natsume Sōseki (English translation)")}

# Files served compressed: build() writes NAME.gz beside each (when it saves a tenth or
# more) and the server sends it to browsers that accept gzip (docs/hosting.md).
COMPRESSED = {".html", ".js", ".mjs", ".css", ".json", ".wasm", ".txt", ".tiktoken", ".model", ".map"}

# Only our own origin, plus the WebAssembly compilation Pyodide needs. No
# frame-ancestors here: a <meta> policy may not carry it, and embedding is wanted.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
       "worker-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'")

MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    ".model": "application/octet-stream",
    ".tiktoken": "text/plain; charset=utf-8",
    ".map": "application/json",
}


def log(message: str) -> None:
    print(f"[build] {message}", file=sys.stderr, flush=True)


def run(cmd, **kwargs) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, cwd=kwargs.pop("cwd", ROOT), **kwargs)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def assets_module():
    sys.path.insert(0, str(ROOT / "tools"))
    import assets  # tools/assets.py, stdlib only
    return assets


# --------------------------------------------------------------------------- setup

def setup_node() -> None:
    """npm ci when node_modules is missing or older than the lock file."""
    stamp = NODE_MODULES / ".package-lock.json"
    lock = ROOT / "package-lock.json"
    fresh = stamp.exists() and (PYODIDE_PKG / "pyodide.mjs").exists() and (
        not lock.exists() or stamp.stat().st_mtime >= lock.stat().st_mtime)
    if fresh:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("build.py: npm is needed (install Node.js 18 or newer, which brings npm)")
    run([npm, "ci" if lock.exists() else "install", "--no-audit", "--no-fund"])


LLAMA_ORACLE = ROOT / "tests" / "realfiles" / "llama_oracle"


def setup_llama_oracle() -> None:
    """node-llama-cpp for the GGUF parity test (llama.cpp is its oracle), installed beside
    that test and without the optional GPU and other-platform builds (about 700 MB)."""
    stamp = LLAMA_ORACLE / "node_modules" / ".package-lock.json"
    lock = LLAMA_ORACLE / "package-lock.json"
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("build.py: npm is needed (install Node.js 18 or newer, which brings npm)")
    run([npm, "ci", "--omit=optional", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=LLAMA_ORACLE)


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def test_requirements() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    return list(project.get("optional-dependencies", {}).get("test", []))


def setup_venv() -> Path:
    """Create .venv if needed and install the pinned test extras when they changed."""
    python = venv_python()
    if not python.exists():
        run([sys.executable, "-m", "venv", VENV])
    requirements = test_requirements()
    stamp = VENV / ".subword-lab-requirements"
    wanted = "\n".join(requirements)
    if not stamp.exists() or stamp.read_text() != wanted:
        install_into_venv(python, requirements)
        stamp.write_text(wanted)
    return python


# The installer of the test extras (from PyPI, into .venv). pip took 63 s of one core to
# install them into a new .venv even with every file at hand (it resolves, unpacks one
# package at a time and byte-compiles every module of JupyterLab, transformers, ...); uv
# takes 3 s, and keeps what it downloaded in its own cache (~/.cache/uv, about 0.8 GB).
UV = "uv==0.13.8"


def install_into_venv(python: Path, requirements: list[str]) -> None:
    """The requirements installed into .venv by uv, or by pip where uv cannot be had."""
    uv = python.parent / ("uv.exe" if os.name == "nt" else "uv")
    try:
        if not uv.exists():
            run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q", UV])
        run([uv, "pip", "install", "-q", "--python", python, *requirements])
        return
    except (subprocess.CalledProcessError, OSError) as exc:
        log(f"uv could not install the test packages ({exc}); pip installs them instead")
    run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q", *requirements])


def setup() -> Path:
    setup_node()
    return setup_venv()


def find_chromium(python: Path) -> str:
    """A Chromium for Playwright: the env var, Playwright's own, PATH, then apt."""
    env = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    if env:
        if Path(env).exists():
            return env
        sys.exit(f"build.py: PLAYWRIGHT_CHROMIUM_EXECUTABLE={env} does not exist")
    probe = ("from playwright.sync_api import sync_playwright\n"
             "with sync_playwright() as p: print(p.chromium.executable_path)")
    try:
        own = subprocess.run([python, "-c", probe], capture_output=True, text=True,
                             timeout=120).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        own = ""
    if own and Path(own).exists():
        return own
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update"], env=env)
        # with a CJK font, so the page's Chinese is drawn (and measured) as letters, not boxes
        run(["apt-get", "install", "-y", "--no-install-recommends", "chromium", "fonts-wqy-microhei"],
            env=env)
        found = shutil.which("chromium")
        if found:
            return found
    sys.exit("build.py: no Chromium found. Install one (Debian/Ubuntu: `apt-get install "
             "chromium`), or run `.venv/bin/python -m playwright install chromium`, or set "
             "PLAYWRIGHT_CHROMIUM_EXECUTABLE to a Chromium or Chrome binary.")


# --------------------------------------------------------------------------- build

def wheel_name(version: str) -> str:
    return f"subword_lab-{version}-py3-none-any.whl"


def project_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["project"]["version"]


def notebook_front_files() -> list[tuple[str, bytes]]:
    """The web/ files the notebook widgets load (py/subword_lab/notebook/front_end.py says
    which), as the wheel holds them: under subword_lab/notebook/web/."""
    sys.path.insert(0, str(ROOT / "py"))
    from subword_lab.notebook import front_end
    names = [path for path, _ in front_end.modules()] + list(front_end.SHEETS)
    return [(f"subword_lab/notebook/web/{name}", (ROOT / "web" / name).read_bytes()) for name in names]


def extras_metadata() -> str:
    """Provides-Extra and Requires-Dist lines for the optional extras (not `test`)."""
    with open(ROOT / "pyproject.toml", "rb") as handle:
        extras = tomllib.load(handle)["project"].get("optional-dependencies", {})
    lines = []
    for name, requirements in sorted(extras.items()):
        if name != "test":
            lines.append(f"Provides-Extra: {name}\n")
            lines += [f'Requires-Dist: {r}; extra == "{name}"\n' for r in requirements]
    return "".join(lines)


def build_wheel(out_dir: Path, *, notebook: bool = False, bytecode: dict | None = None) -> Path:
    """Write our pure-Python wheel with zipfile: a wheel is a zip plus .dist-info.

    No setuptools and no network needed; the same input gives the same bytes
    (fixed timestamps, sorted names), so the file's hash is stable. The page's wheel
    (notebook=False) leaves out the notebook widgets' front end; `build.py wheel`
    (notebook=True) writes the wheel to pip install, with it and the extras.
    `bytecode` ({path of a .py: its .pyc}, from first_view_bytecode) puts each of those
    modules in the wheel as its .pyc instead of its source (and adds those without one),
    and stores every file
    uncompressed: the page fetches that wheel gzipped whole (pack_wheel).
    """
    version = project_version()
    files: list[tuple[str, bytes]] = []
    package = ROOT / "py" / "subword_lab"
    for path in sorted(package.rglob("*")):
        # Every file of the package (data tables too), never bytecode.
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".pyo"}:
            files.append((path.relative_to(ROOT / "py").as_posix(), path.read_bytes()))
    if notebook:
        files = sorted(files + notebook_front_files())
    if bytecode:
        sources = {path for path, _ in files}
        files = ([(path + "c", bytecode[path]) if path in bytecode else (path, data) for path, data in files]
                 + sorted((path + "c", pyc) for path, pyc in bytecode.items() if path not in sources))
    return write_wheel(out_dir / wheel_name(version), "subword-lab", version, files,
                       "BPE, WordPiece and Unigram tokenizers in pure Python", "Apache-2.0",
                       extras_metadata() if notebook else "",
                       zipfile.ZIP_STORED if bytecode else zipfile.ZIP_DEFLATED)


def pack_wheel(wheel: Path) -> Path:
    """The page's wheel gzipped whole, as NAME.whl.gz: what the worker downloads and
    unpacks (web/worker.js), on any host, served as it is. Gzip over the whole archive
    finds what its modules share, which a zip's file-by-file compression cannot, and the
    stored zip inside is read by Python without inflating anything: 413 KB for the
    wheel with its first view's .pyc files, where file-by-file it was 487 KB (and 401 KB
    all source). Same input, same bytes (no time stamp in the header)."""
    packed = wheel.with_name(wheel.name + ".gz")
    packed.write_bytes(gzip.compress(wheel.read_bytes(), compresslevel=9, mtime=0))
    return packed


def first_view_bytecode(wheel: Path, pyodide: Path, presets: Path) -> dict:
    """{path in the wheel of a .py: its .pyc} for the modules the page's first view runs
    (importing the worker's facade, opening the default preset, encoding its text),
    compiled by Pyodide's own Python (tools/pyodide_bytecode.mjs says how and why). Under
    Pyodide, compiling them at import time took most of "Python up" to "ready"."""
    sys.path.insert(0, str(ROOT / "tools"))
    import precompute  # tools/precompute.py: the page's default preset and text
    key, text = precompute.page_defaults()[0]
    manifest = json.loads((presets / "presets.json").read_text(encoding="utf-8"))
    files = [p["file"] for p in manifest["presets"] if p["id"] == key and p.get("file")]
    preset = presets.parent / files[0] if files else "-"
    place = re.search(r'WHEEL_DIR = "([^"]+)"', (ROOT / "web" / "lib" / "wheel.js").read_text()).group(1)
    out = wheel.with_name("bytecode.json")
    run(["node", ROOT / "tools" / "pyodide_bytecode.mjs", pyodide, wheel, preset, text, out,
         f"{place}/{wheel.name}"])
    found = {path: base64.b64decode(pyc) for path, pyc in json.loads(out.read_text()).items()}
    out.unlink()
    return found


def write_wheel(target: Path, name: str, version: str, files: list, summary: str,
                licence: str, extra_metadata: str = "", compression: int = zipfile.ZIP_DEFLATED) -> Path:
    """A pure-Python wheel of `files` ([(path in the wheel, bytes)]), byte for byte the
    same for the same input; `extra_metadata`: more METADATA lines (extras)."""
    dist_info = f"{name.replace('-', '_')}-{version}.dist-info"
    top = sorted({path.split("/")[0] for path, _ in files if "/" in path})
    files = list(files)
    metadata = (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                f"Summary: {summary}\nLicense: {licence}\nRequires-Python: >=3.11\n"
                + extra_metadata).encode()
    wheel = (b"Wheel-Version: 1.0\nGenerator: subword-lab build.py\n"
             b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files += [(f"{dist_info}/METADATA", metadata), (f"{dist_info}/WHEEL", wheel),
              (f"{dist_info}/top_level.txt", "".join(t + "\n" for t in top).encode())]
    record = io.StringIO()
    for path, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.write(f"{path},sha256={digest},{len(data)}\n")
    record.write(f"{dist_info}/RECORD,,\n")
    files.append((f"{dist_info}/RECORD", record.getvalue().encode()))
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", compression) as zf:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = compression
            zf.writestr(info, data)
    return target


def ship_chat_wheels(out: Path, paths: dict) -> list:
    """Jinja2's wheel as PyPI has it, and MarkupSafe's pure-Python modules (its C speedups
    are optional; PyPI has no wheel Pyodide can use) packed as a wheel with its licence:
    the Chat view loads both on first use (web/worker.js). Returns [{file, sha256}], or []
    when one could not be fetched (the view then says templates cannot render)."""
    if not all(name in paths for name in CHAT_ASSETS):
        return []
    shutil.copy2(paths[JINJA_WHEEL], out / JINJA_WHEEL)
    files = [(f"markupsafe/{name}", paths[f"markupsafe-3.0.3/{name}"].read_bytes())
             for name in ("__init__.py", "_native.py")]
    files.append(("markupsafe-3.0.3.dist-info/licenses/LICENSE.txt",
                  paths["markupsafe-3.0.3/LICENSE.txt"].read_bytes()))
    markupsafe = write_wheel(out / "markupsafe-3.0.3-py3-none-any.whl", "MarkupSafe", "3.0.3",
                             files, "Safely add untrusted strings to HTML/XML markup.",
                             "BSD-3-Clause")
    return [{"file": f"wheels/{p.name}", "sha256": sha256(p.read_bytes())}
            for p in (out / JINJA_WHEEL, markupsafe)]


def copy_pyodide(out: Path) -> None:
    """The Pyodide core, as its npm package ships it."""
    out.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE_PKG / name, out / name)


def copy_presets(out: Path, assets) -> dict:
    """Preset files into dist/presets (tools/catalog.py), and a manifest that says which
    are missing and why."""
    sys.path.insert(0, str(ROOT / "tools"))
    import catalog  # tools/catalog.py, stdlib only
    names = [asset for asset, _ in CORPORA.values()] + CHAT_ASSETS
    presets, paths = catalog.build(out, assets, names)
    manifest = {"presets": presets, "corpora": []}
    missing = {p["id"]: p["missing"] for p in presets if p["missing"]}
    # Listed but never shipped, by their licence (the entry says why): not a failure.
    by_design = {key for key in missing if catalog.why_missing(assets, key)}
    for key, (asset, label) in CORPORA.items():
        item = {"id": key, "label": label, "file": None, "missing": None}
        if asset in paths:
            shutil.copy2(paths[asset], out / asset)
            item["file"] = f"presets/{asset}"
            item["sha256"] = sha256(paths[asset].read_bytes())
        else:
            item["missing"] = "not fetched"
            missing[asset] = "not fetched"
        manifest["corpora"].append(item)
    (out / "presets.json").write_text(json.dumps(manifest, indent=1))
    return {"manifest": manifest, "missing": missing, "by_design": by_design, "paths": paths}


def missing_report(missing: dict, by_design: set) -> list[str]:
    """The build's lines about presets it did not ship: a warning for what could not be
    had (a download that failed), a plain note for what is left out on purpose."""
    lines = []
    for name, reason in missing.items():
        if name in by_design:
            lines.append(f"note: {name} is listed in the catalog but not shipped, as intended: "
                         f"{reason} (its entry says so; users can open their own copy)")
        else:
            lines.append(f"WARNING: {name} is not in this build: {reason}")
    return lines


def inject_csp(html: str) -> str:
    return html.replace("{{CSP}}", CSP)


def copy_web(out: Path) -> None:
    for path in sorted(WEB.rglob("*")):
        # web/notebook*.js and notebook.css are the notebook widgets' (the pip wheel carries
        # them, `build.py wheel`): the page never loads them, so its offline cache leaves them out
        if not path.is_file() or (path.parent == WEB and path.name.startswith("notebook")):
            continue
        target = out / path.relative_to(WEB)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".html":
            target.write_text(inject_csp(path.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            shutil.copy2(path, target)
    bench = ROOT / "bench"
    for path in sorted(bench.glob("bare.*")) if bench.exists() else []:
        target = out / "bench" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".html":
            target.write_text(inject_csp(path.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            shutil.copy2(path, target)


PRELOAD_MARK = "/* VIEW_MODULES: build.py writes them here */ {}"
LAZY_VIEWS = ("pipeline", "train", "encode", "compare", "chat")  # the views loaded when first shown


def preload_modules(out: Path) -> None:
    """Name every module a view needs up front, so they arrive in one round trip instead
    of one per level of imports (tools/module_graph.py): index.html gets a modulepreload
    link for each module of app.js, lib/view-modules.js the module list of each view that
    the page and the widgets import when it is first shown."""
    sys.path.insert(0, str(ROOT / "tools"))
    from module_graph import closure  # tools/module_graph.py, stdlib only
    page = out / "index.html"
    links = "\n".join(f'<link rel="modulepreload" href="{rel}">' for rel in closure(out / "app.js", out))
    html = page.read_text(encoding="utf-8")
    if '<link rel="modulepreload" href="app.js">' not in html:
        raise SystemExit("build.py: index.html lost its modulepreload link for app.js")
    page.write_text(html.replace('<link rel="modulepreload" href="app.js">', links), encoding="utf-8")
    listing = out / "lib" / "view-modules.js"
    views = {view: closure(out / "views" / f"{view}.js", out) for view in LAZY_VIEWS}
    source = listing.read_text(encoding="utf-8")
    if PRELOAD_MARK not in source:
        raise SystemExit("build.py: lib/view-modules.js lost its VIEW_MODULES mark")
    listing.write_text(source.replace(PRELOAD_MARK, json.dumps(views)), encoding="utf-8")


def service_worker_files(out: Path) -> list[str]:
    """What web/sw.js keeps for a second visit and offline use: the page and its modules,
    the Pyodide runtime and our wheel (as the worker fetches it: packed), the precomputed
    answers, presets.json. Not the preset files (web/lib/presets.js caches each one once
    it is picked), nor the sample course page and the benchmark pages."""
    build_info = json.loads((out / "build.json").read_text())
    files = [build_info["wheel_packed"]]
    # The worker downloads neither the unpacked wheel nor Pyodide's package list.
    skipped = {"sw.js", build_info["wheel"], build_info["wheel_packed"], "pyodide/pyodide-lock.json"}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        top = rel.split("/", 1)[0]
        if (not path.is_file() or rel in skipped or path.suffix in {".gz", ".map"}
                or top in {"bench", "examples"} or (top == "presets" and rel != "presets/presets.json")):
            continue
        files.append(rel)
    return files


def snapshot_key(out: Path) -> str:
    """What a memory snapshot made in the browser depends on (web/lib/snapshot.js): the
    Pyodide runtime, our wheel, and the worker code that starts them. A new
    key makes the page start fresh once and store a new snapshot."""
    digest = hashlib.sha256()
    parts = sorted(out.glob("pyodide/*")) + sorted(out.glob("wheels/*.whl")) + [
        out / "worker.js", out / "lib" / "snapshot.js", out / "lib" / "wheel.js"]
    for path in parts:
        digest.update(path.relative_to(out).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_service_worker(out: Path) -> str:
    """Fill in sw.js's file list and the build's hash (a new hash: a new cache)."""
    files = service_worker_files(out)
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + hashlib.sha256((out / rel).read_bytes()).digest())
    version = digest.hexdigest()[:16]
    source = (out / "sw.js").read_text(encoding="utf-8")
    source = source.replace("{{SW_VERSION}}", version).replace("{{SW_FILES}}", " ".join(files))
    (out / "sw.js").write_text(source, encoding="utf-8")
    return version


def compress(out: Path) -> int:
    """NAME.gz beside every text and WebAssembly file that gzip shrinks by a tenth or more.

    Same input, same bytes (no time stamp in the header); the .gz keeps the original's
    modification time, so either answers a revalidation alike. Returns the bytes saved."""
    saved = 0
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESSED:
            continue
        data = path.read_bytes()
        # The best ratio for what every first visit loads; faster for the 80 MB of presets.
        level = 6 if path.parent.name == "presets" else 9
        packed = gzip.compress(data, compresslevel=level, mtime=0)
        if len(packed) <= 0.9 * len(data):
            target = path.with_name(path.name + ".gz")
            target.write_bytes(packed)
            stat = path.stat()
            os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            saved += len(data) - len(packed)
    return saved


def build() -> Path:
    setup_node()
    assets = assets_module()
    tmp = ROOT / "dist.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    presets = copy_presets(tmp / "presets", assets)
    copy_pyodide(tmp / "pyodide")
    wheel = build_wheel(tmp / "wheels")
    wheel = build_wheel(tmp / "wheels", bytecode=first_view_bytecode(wheel, tmp / "pyodide", tmp / "presets"))
    packed = pack_wheel(wheel)
    chat_wheels = ship_chat_wheels(tmp / "wheels", presets["paths"])
    copy_web(tmp)
    preload_modules(tmp)
    # Default animations computed now, shown before Python starts (tools/precompute.py).
    run([sys.executable, ROOT / "tools" / "precompute.py", tmp / "precomputed", tmp / "presets"])
    build_info = {
        "wheel": f"wheels/{wheel.name}",
        "wheel_packed": f"wheels/{packed.name}",
        "wheel_sha256": sha256(wheel.read_bytes()),
        "chat_wheels": chat_wheels,
        "pyodide": json.loads((PYODIDE_PKG / "package.json").read_text())["version"],
        # What the worker gives loadPyodide instead of the package list (web/worker.js).
        "pyodide_lock_info": json.loads((tmp / "pyodide" / "pyodide-lock.json").read_text())["info"],
        "snapshot_key": snapshot_key(tmp),
    }
    (tmp / "build.json").write_text(json.dumps(build_info, indent=1))
    write_service_worker(tmp)
    saved = compress(tmp)
    if DIST.exists():
        shutil.rmtree(DIST)
    tmp.rename(DIST)
    for line in missing_report(presets["missing"], presets["by_design"]):
        log(line)
    log(f"built {DIST} (wheel {wheel.name}; gzip copies save {saved / 1e6:.1f} MB)")
    return DIST


# --------------------------------------------------------------------------- serve

class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right types, our CSP, and revalidation on every load; the
    gzip copy of a file (NAME.gz, written by build()) to a browser that accepts it."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    encoded = None  # the file whose .gz copy this response sends

    def parse_request(self):
        self.encoded = None
        return super().parse_request()

    def send_head(self):
        self.encoded = self.gzip_copy_of()
        return super().send_head()

    def gzip_copy_of(self):
        """The file asked for, if the browser takes gzip and a .gz copy of it exists."""
        accepted = self.headers.get("Accept-Encoding", "")
        if "gzip" not in [part.split(";")[0].strip() for part in accepted.split(",")]:
            return None
        path = super().translate_path(self.path)
        if os.path.isdir(path):
            if not urllib.parse.urlsplit(self.path).path.endswith("/"):
                return None  # the server redirects to the folder's URL first
            path = os.path.join(path, "index.html")
        return path if os.path.isfile(path + ".gz") else None

    def translate_path(self, path):
        real = super().translate_path(path)
        if self.encoded and self.encoded in (real, os.path.join(real, "index.html")):
            return self.encoded + ".gz"
        return real

    def end_headers(self):
        if self.encoded:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Referrer-Policy", "no-referrer")
        # Course pages on other origins load embed.js, the views, the worker and the
        # presets from here (docs/automation.md, Embedding). No cookies are ever set.
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def guess_type(self, path):
        if self.encoded and str(path).endswith(".gz"):
            path = str(path)[:-3]  # the type of what the copy holds: .wasm stays application/wasm
        return MIME.get(Path(str(path)).suffix.lower(), "application/octet-stream")

    def log_message(self, format, *args):  # stdlib's signature
        if os.environ.get("SUBWORD_LAB_SERVE_LOG"):
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A browser that closes a connection early (page closed mid-download) is normal.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def make_server(directory: Path = DIST, port: int = 8000, host: str = "127.0.0.1"):
    handler = functools.partial(Handler, directory=str(directory))
    server = Server((host, port), handler)
    server.daemon_threads = True
    return server


def open_server(port: int):
    """A server on `port`; if that port is busy, on the next free one (and say so)."""
    for candidate in range(port, port + 20):
        try:
            server = make_server(DIST, candidate)
        except OSError as exc:
            if exc.errno not in (errno.EADDRINUSE, errno.EACCES):
                sys.exit(f"build.py: cannot serve on port {candidate}: {exc.strerror}")
            log(f"port {candidate} is busy" + (", trying the next one" if candidate < port + 19 else ""))
            continue
        if candidate != port:
            log(f"serving on port {candidate} instead of {port} "
                f"(choose one with PORT=9000 npm start or --port 9000)")
        return server
    sys.exit(f"build.py: ports {port}-{port + 19} are all busy; choose another with "
             "PORT=9000 npm start or python3 build.py serve --port 9000")


def serve(port: int) -> None:
    build()
    server = open_server(port)
    print(f"Subword Lab: http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --------------------------------------------------------------------------- test, bench

def test_env(chromium: str) -> dict:
    env = dict(os.environ, PLAYWRIGHT_CHROMIUM_EXECUTABLE=chromium, SUBWORD_LAB_BUILT="1")
    env.pop("PYTHONPATH", None)
    return env


def check_code(python) -> int:
    """The linters and the type checkers (ruff, mypy, tsc) and the commit subjects' length
    (tools/commit_subjects.py), before any test: any finding fails the run
    (pyproject.toml and tsconfig*.json say what each checks)."""
    checks = [("ruff", [python, "-m", "ruff", "check", "py", "tests", "tools", "bench",
                        "build.py"]),
              ("mypy", [python, "-m", "mypy"]),
              ("tsc (web/)", [NODE_BIN / "tsc", "-p", "tsconfig.json"]),
              ("tsc (web/sw.js)", [NODE_BIN / "tsc", "-p", "tsconfig.sw.json"]),
              ("commit subjects", [python, ROOT / "tools" / "commit_subjects.py"])]
    for name, cmd in checks:
        log("$ " + " ".join(str(c) for c in cmd))
        if subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode:
            log(f"{name} found problems (listed above): fix them before the tests run")
            return 1
    return 0


def test(extra: list[str]) -> int:
    python = setup()
    setup_llama_oracle()
    if check_code(python):
        return 1
    chromium = find_chromium(python)
    log(f"Chromium: {chromium}")
    build()
    # tests/realfiles: today's models' tokenizer files against their own libraries. Two
    # pytest runs go side by side, each spread over pytest-xdist workers so that neither
    # leaves a core idle once the other has ended: the layers without a browser
    # (independent CPU-bound tests) on a worker per core, and the browser layer on two,
    # each with its own Chromium (one page at a time kept 1.4 cores busy: Chromium's
    # threads, Pyodide, Playwright), a test file wholly on one worker (files share a
    # server or a context).
    # The layers' longest tests (tokenizers' own suite in one test, the Pyodide runs) are
    # collected first, so they start first: last, one of them kept a core busy alone.
    cores = os.cpu_count() or 1
    runs = [("library", [p for p in ("tests/compat", "tests/pyodide", "tests/python",
                                      "tests/realfiles") if (ROOT / p).exists()],
             ["-n", str(min(cores, 8))]),
            ("browser", [p for p in ("tests/browser",) if (ROOT / p).exists()],
             ["-n", str(min(cores, 2)), "--dist", "loadfile"])]
    codes = run_side_by_side([(name, [python, "-m", "pytest", *layers, "-q", *options, *extra])
                              for name, layers, options in runs if layers], test_env(chromium))
    if all(code == 5 for code in codes):
        log("pytest collected no tests: that is a failure here")
        return 1
    return 0 if all(code in (0, 5) for code in codes) else 1


def run_side_by_side(runs: list[tuple[str, list]], env: dict) -> list[int]:
    """Start every command at once; print each line of their output as it comes, behind
    the name of its run; return their exit codes once all have ended."""
    say = threading.Lock()

    def relay(name, stream):
        for line in stream:
            with say:
                print(f"[{name}] {line.rstrip(chr(10))}", flush=True)

    started = []
    for name, cmd in runs:
        log(f"{name}: $ " + " ".join(str(c) for c in cmd))
        process = subprocess.Popen([str(c) for c in cmd], cwd=ROOT, env=dict(env, PYTHONUNBUFFERED="1"),
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, encoding="utf-8", errors="replace")
        reader = threading.Thread(target=relay, args=(name, process.stdout), daemon=True)
        reader.start()
        started.append((name, process, reader))
    codes = []
    for name, process, reader in started:
        codes.append(process.wait())
        reader.join()
        log(f"{name}: pytest ended with {codes[-1]}")
    return codes


def bench(extra: list[str]) -> int:
    python = setup()
    chromium = find_chromium(python)
    build()
    code = 0
    for script in sorted((ROOT / "bench").glob("*.py")):
        log(f"$ {script.relative_to(ROOT)}")
        result = subprocess.run([str(python), str(script), *extra], cwd=ROOT,
                                env=test_env(chromium))
        code = code or result.returncode
    return code


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["setup", "build", "wheel", "serve", "test", "bench"])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args, extra = parser.parse_known_args(argv)
    if args.command == "setup":
        python = setup()
        log(f"ready: {python}")
        return 0
    if args.command == "build":
        build()
        return 0
    if args.command == "wheel":
        log(f"wrote {build_wheel(ROOT / 'build' / 'wheel', notebook=True)}")
        return 0
    if args.command == "serve":
        serve(args.port)
        return 0
    if args.command == "test":
        return test(extra)
    return bench(extra)


if __name__ == "__main__":
    sys.exit(main())

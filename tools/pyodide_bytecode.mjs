// Byte-compile the modules the page's first view runs, with Pyodide's own Python, for
// the page's wheel (build.py). Under Pyodide, compiling our source at import time was
// most of the time from "Python is up" to "ready"; a .pyc in the wheel is only read.
//
// The modules are those `import subword_lab.web.api` brings in, and those opening the
// default preset and encoding a text with it add: the first view's work, found by
// doing it, not listed by hand. Other modules stay source (fewer bytes to download), and
// so do those whose source is read while they run (reference/: the Code panel).
//
// It also writes core/regex/_category_runs (the general categories of the code points
// as Pyodide's Python has them), which no source file holds: the first regex with
// \p{...} then reads the runs instead of scanning 300,000 code points.
//
// Usage: node tools/pyodide_bytecode.mjs PYODIDE_DIR WHEEL PRESET_FILE TEXT OUT_JSON WHEEL_PATH
//   WHEEL       the source wheel (build.py's build_wheel)
//   PRESET_FILE the default preset's file ("-" when the build has none), TEXT the view's text
//   OUT_JSON    written: {"subword_lab/x.py": "<base64 of its .pyc>", ...}
//   WHEEL_PATH  where the page puts the wheel (web/lib/wheel.js): the code's file names,
//               as a traceback would show them
//
// The .pyc files are "unchecked hash-based" (PEP 552): Python does not compare them
// with a source or a time stamp, which the wheel does not carry for them. Compiled with
// optimize=2 (no docstrings; the package has no assert and reads no __doc__) and without
// column tables (PYTHONNODEBUGRANGES), so they weigh less: a traceback keeps its lines.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheel, preset, text, out, wheelPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: resolve(pyodideDir) + "/",
  env: { PYTHONNODEBUGRANGES: "1", PYTHONDONTWRITEBYTECODE: "1" },
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
pyodide.FS.mkdirTree("/build");
pyodide.FS.writeFile("/build/source.whl", readFileSync(wheel));
if (preset !== "-") pyodide.FS.writeFile(`/build/${basename(preset)}`, readFileSync(preset));
pyodide.globals.set("preset_name", preset === "-" ? null : basename(preset));
pyodide.globals.set("wheel_path", wheelPath);
pyodide.globals.set("text", text);
const compiled = pyodide.runPython(`
import base64, importlib.util, json, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

sys.path.insert(0, "/build/source.whl")
import subword_lab.web.api as api
if preset_name:
    with open("/build/" + preset_name, "rb") as handle:
        api.open_bytes("default", preset_name, handle.read())
    api.encode("default", text, None)
first_view = {m.__spec__.origin for name, m in sys.modules.items()
              if name.split(".")[0] == "subword_lab" and getattr(m, "__spec__", None)}
found = {}
with zipfile.ZipFile("/build/source.whl") as wheel:
    for name in sorted(wheel.namelist()):
        # The reference modules stay source: the Code panel shows their lines (reference/steps.py).
        if name.startswith("subword_lab/reference/"):
            continue
        if name.endswith(".py") and f"/build/source.whl/{name}" in first_view:
            source = wheel.read(name)
            code = compile(source, f"{wheel_path}/{name}", "exec", dont_inherit=True, optimize=2)
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), False)
            found[name] = base64.b64encode(bytes(pyc)).decode()

# The general categories' runs, as core/regex/translate.py would scan them under Pyodide:
# a module of the page's wheel only, read when its Unicode version is the running one's.
import unicodedata
from subword_lab.core.regex import translate
runs = translate.scan_category_runs()
names = sorted({cat for cat, _ in runs})
table = (f"# Made by build.py (tools/pyodide_bytecode.mjs) with Pyodide's Python: see\\n"
         f"# core/regex/translate.py's _category_runs. Not in the source tree.\\n"
         f"UNIDATA_VERSION = {unicodedata.unidata_version!r}\\n"
         f"CATEGORIES = {' '.join(names)!r}\\n"
         f"KINDS = {''.join(chr(names.index(cat)) for cat, _ in runs)!r}\\n"
         f"LENGTHS = {''.join(chr(n) for _, n in runs)!r}\\n").encode()
name = "subword_lab/core/regex/_category_runs.py"
code = compile(table, f"{wheel_path}/{name}", "exec", dont_inherit=True, optimize=2)
found[name] = base64.b64encode(bytes(_code_to_hash_pyc(code, importlib.util.source_hash(table), False))).decode()
json.dumps(found)
`);
writeFileSync(out, compiled);

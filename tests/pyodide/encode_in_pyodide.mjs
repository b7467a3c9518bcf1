// Run the built wheel under Pyodide in Node, the way the page does: our wheel put on
// sys.path by dist/lib/wheel.js (the worker's own code), then encode.
// Usage: node encode_in_pyodide.mjs DIST FILE TEXT_JSON_FILE   (prints one JSON line)
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, tokenizerFile, textsFile] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const { placeWheel } = await import(pathToFileURL(join(dist, "lib", "wheel.js")).href);
const build = JSON.parse(readFileSync(join(dist, "build.json"), "utf8"));

const pyodide = await loadPyodide({ indexURL: join(dist, "pyodide") + "/", stdout: () => {}, stderr: () => {} });
placeWheel(pyodide, basename(build.wheel), readFileSync(join(dist, build.wheel)));
pyodide.FS.writeFile(`/tmp/${basename(tokenizerFile)}`, readFileSync(tokenizerFile));
pyodide.globals.set("TEXTS_JSON", readFileSync(textsFile, "utf8"));
const out = await pyodide.runPythonAsync(`
import json, sys
import subword_lab
from subword_lab.web import api as webapi
webapi.open_path("t", "/tmp/${basename(tokenizerFile)}")
results = [json.loads(webapi.encode("t", text)) for text in json.loads(TEXTS_JSON)]
json.dumps({"python": sys.version.split()[0], "platform": sys.platform,
            "module": subword_lab.__file__, "results": results})
`);
// Nothing installed through Pyodide's package loader: the page loads no package.
console.log(JSON.stringify({ ...JSON.parse(out), packages: Object.keys(pyodide.loadedPackages) }));

// Run the built wheel under Pyodide in Node, the way the page does: micropip from
// dist/ (checked against the hash in dist's lock file), then our wheel, then encode.
// Usage: node encode_in_pyodide.mjs DIST FILE TEXT_JSON_FILE   (prints one JSON line)
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, tokenizerFile, textsFile] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const build = JSON.parse(readFileSync(join(dist, "build.json"), "utf8"));

const pyodide = await loadPyodide({ indexURL: join(dist, "pyodide") + "/", stdout: () => {}, stderr: () => {} });
await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: (m) => console.error(m) });
const wheelName = basename(build.wheel);
pyodide.FS.mkdirTree("/tmp/wheels");
pyodide.FS.writeFile(`/tmp/wheels/${wheelName}`, readFileSync(join(dist, build.wheel)));
pyodide.FS.writeFile(`/tmp/${basename(tokenizerFile)}`, readFileSync(tokenizerFile));
pyodide.globals.set("TEXTS_JSON", readFileSync(textsFile, "utf8"));
const out = await pyodide.runPythonAsync(`
import json, sys, micropip
await micropip.install("emfs:/tmp/wheels/${wheelName}", deps=False)
import subword_lab
from subword_lab.web import api as webapi
webapi.open_path("t", "/tmp/${basename(tokenizerFile)}")
results = [json.loads(webapi.encode("t", text)) for text in json.loads(TEXTS_JSON)]
json.dumps({"python": sys.version.split()[0], "platform": sys.platform,
            "micropip": micropip.__version__, "module": subword_lab.__file__, "results": results})
`);
console.log(out);

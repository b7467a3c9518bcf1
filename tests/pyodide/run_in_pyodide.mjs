// Run a Python file under Pyodide in Node with the built wheel installed (micropip
// from dist/, as the page does); print what the code printed.
// Usage: node run_in_pyodide.mjs DIST CODE_FILE
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, codeFile] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const build = JSON.parse(readFileSync(join(dist, "build.json"), "utf8"));

let printed = "";
const pyodide = await loadPyodide({
  indexURL: join(dist, "pyodide") + "/",
  stdout: (line) => { printed += line + "\n"; },
  stderr: (line) => console.error(line),
});
await pyodide.loadPackage("micropip", { messageCallback: () => {}, errorCallback: (m) => console.error(m) });
const wheelName = basename(build.wheel);
pyodide.FS.mkdirTree("/tmp/wheels");
pyodide.FS.writeFile(`/tmp/wheels/${wheelName}`, readFileSync(join(dist, build.wheel)));
await pyodide.runPythonAsync(`
import micropip
await micropip.install("emfs:/tmp/wheels/${wheelName}", deps=False)
`);
pyodide.runPython(readFileSync(codeFile, "utf8"));
process.stdout.write(printed);

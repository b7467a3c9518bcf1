// Run a Python file under Pyodide in Node with the built wheel on sys.path (by
// dist/lib/wheel.js, as the page does); print what the code printed.
// Usage: node run_in_pyodide.mjs DIST CODE_FILE
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, codeFile] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const { placeWheel } = await import(pathToFileURL(join(dist, "lib", "wheel.js")).href);
const build = JSON.parse(readFileSync(join(dist, "build.json"), "utf8"));

let printed = "";
const pyodide = await loadPyodide({
  indexURL: join(dist, "pyodide") + "/",
  stdout: (line) => { printed += line + "\n"; },
  stderr: (line) => console.error(line),
});
placeWheel(pyodide, basename(build.wheel), readFileSync(join(dist, build.wheel)));
pyodide.runPython(readFileSync(codeFile, "utf8"));
process.stdout.write(printed);

// Our wheel, put where Python imports it: the worker (web/worker.js) and the Pyodide tests
// in Node (tests/pyodide/*.mjs) both call this, so they import Subword Lab the same way.
//
// A wheel is a zip file, and Python imports from a zip file on sys.path by itself
// (zipimport, which Pyodide already uses for its standard library). So nothing is
// resolved, downloaded or unpacked: the file is written once, named on sys.path, and
// each module is read from it when first imported. micropip did the same job in 1 to 2
// seconds of a first visit (loading micropip, importing it and its dependencies,
// unpacking every file); this takes a few milliseconds. Our package has no dependencies
// and no data files (it reads nothing through __file__), so a zip serves it whole.
//
// The path stays the same from build to build and visit to visit: a memory snapshot
// (web/lib/snapshot.js) holds sys.path and zipimport's index of the file, so a start from
// one writes the same bytes at the same place and imports the modules it has not yet.
export const WHEEL_DIR = "/lib/subword-lab";

// Write `bytes` (the wheel named `name`, from build.json) into Pyodide's file system and
// put it first on sys.path (where a snapshot's sys.path has it already, it stays where it
// is). Returns the path. Importing subword_lab is left to the caller.
export function placeWheel(pyodide, name, bytes) {
  if (!/^[\w.+-]+\.whl$/.test(name)) throw new Error(`not a wheel's file name: ${name}`);
  const path = `${WHEEL_DIR}/${name}`;
  pyodide.FS.mkdirTree(WHEEL_DIR);
  pyodide.FS.writeFile(path, bytes);
  pyodide.runPython(`import sys\nif "${path}" not in sys.path: sys.path.insert(0, "${path}")`);
  return path;
}

// The page downloads the wheel gzipped whole (build.json's wheel_packed, build.py's
// pack_wheel) and unpacks it here, whatever the host. A server that sends the .gz with
// Content-Encoding: gzip has the browser unpack it already: bytes that start as a zip
// does are returned as they are.
export async function unpackWheel(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const unpacked = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}

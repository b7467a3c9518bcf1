// Subword Lab's Python side: Pyodide in a module Web Worker, so the page never freezes.
//
// Protocol (see docs/automation.md):
//   page -> worker   {id, cmd, args}
//   worker -> page   {id, ok: true, result} | {id, ok: false, error: {message, kind}}
//   worker -> page   {type: "status", stage, detail?}   stages: runtime, python, install, ready, error
//   worker -> page   {type: "events", batch: [...]}      events from Python, batched
//   worker -> page   {type: "regex", phase: "start" | "refused", pattern, field, file, size, digest, key}
//                    {type: "regex", phase: "end"}   around a user regex's match Python cannot time
//                    here (core/regex/guard.py; "refused": a text the page stopped it on before)
//   worker -> page   {type: "snapshot", state: "stored", size, stored, makeMs, storeMs}
//                    | {type: "snapshot", state: "failed", reason}   after a fresh start:
//                    what became of the memory snapshot for the next one (lib/snapshot.js);
//                    the "ready" status's detail says how this one started: start "snapshot" | "fresh"
// @ts-ignore: build.py copies Pyodide into dist/pyodide/; web/ has no copy to check against
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { dropSnapshots, findSnapshot, readSnapshot, restoring, takeSnapshot, thisBuilds, writeSnapshot } from "./lib/snapshot.js";
import { placeWheel, unpackWheel } from "./lib/wheel.js";

const here = (path) => new URL(path, import.meta.url).href;
// The start's steps on the worker's timeline, "worker:<step>" (bench/bench_page.py reads them).
const mark = (step) => performance.mark(`worker:${step}`);
mark("script"); // Pyodide's script (pyodide.mjs) and ours are fetched and evaluated
const status = (stage, detail) => postMessage({ type: "status", stage, detail });

// ---- events from Python, sent in batches (every 16 ms or 500 events)
let queue = [];
let lastFlush = 0;
function flushEvents() {
  if (queue.length) postMessage({ type: "events", batch: queue });
  queue = [];
  lastFlush = performance.now();
}
// Python calls this with one JSON string per event. Python may run for a long
// time without returning, so the flush check lives here, not in a timer.
function pushEvent(json) {
  queue.push(JSON.parse(json));
  if (queue.length >= 500 || performance.now() - lastFlush >= 16) flushEvents();
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// Pyodide (314) reports a WebAssembly module that fails to start (missing, served with
// the wrong type, damaged) with two console.warn calls and then waits forever. Turn that
// report into a failed start, so the page and widgets can say so (docs/hosting.md).
function wasmFailure() {
  const warn = console.warn;
  let reported = false;
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  console.warn = (...args) => {
    if (args[0] === "wasm instantiation failed!") { reported = true; return; }
    if (!reported) { warn(...args); return; }
    const cause = args[0] && args[0].message ? args[0].message : String(args[0]);
    fail(new Error(`the Python runtime (pyodide/pyodide.asm.wasm) did not load from this site: ${cause}`));
  };
  return { failed, restore: () => { console.warn = warn; } };
}

// Pyodide's package list (pyodide-lock.json) serves loadPackage, which the worker never
// calls: an empty one with the runtime's description (build.json) spares its download.
const noPackages = (build) => ({ info: build.pyodide_lock_info, packages: {} });

async function startPyodide(build, options = {}) {
  const watch = wasmFailure();
  try {
    return await Promise.race([watch.failed, loadPyodide({
      indexURL: here("./pyodide/"),
      lockFileContents: noPackages(build),
      fsInit: () => status("python"),
      stdout: () => {},
      stderr: () => {},
      ...options,
    })]);
  } finally {
    watch.restore();
  }
}

// The stored memory snapshot (web/lib/snapshot.js): on unless the page said ?nosnapshot
// or ?nosw (the worker's name then says "nosnapshot", web/lib/engine.js), and only where
// the build names a snapshot key.
const snapshotsOn = !/\bnosnapshot\b/.test(self.name || "");
let snapshotKey = null;

let buildInfo = null; // build.json: the wheels' names and hashes

async function boot() {
  status("runtime");
  const entry = snapshotsOn ? findSnapshot().catch(() => null) : dropSnapshots().then(() => null, () => null);
  const build = await (await fetch(here("./build.json"))).json();
  mark("build");
  buildInfo = build;
  snapshotKey = snapshotsOn ? build.snapshot_key ?? null : null;
  // Our wheel downloads while the runtime downloads and starts.
  const wheelBytes = fetchBytes(here(`./${build.wheel_packed}`)).then(unpackWheel); // gzipped whole
  wheelBytes.then(() => mark("wheel"), () => {}); // awaited below; a failure is reported there
  const stored = await thisBuilds(await entry, import.meta.url, snapshotKey)
    .catch(() => dropSnapshots().then(() => null, () => null)); // unreadable: forget it
  if (stored) {
    try {
      // Read (gunzipped) while the runtime downloads and compiles: loadPyodide waits for
      // the bytes only once it has the runtime.
      const bytes = readSnapshot(stored);
      bytes.catch(() => {}); // loadPyodide awaits it; a failure ends in the catch below
      return await bootFromSnapshot(bytes, build, wheelBytes);
    } catch {
      // A snapshot that cannot be read or does not start (damaged, another runtime):
      // forget it, start fresh.
      await dropSnapshots().catch(() => {});
    }
  }
  return bootFresh(build, wheelBytes);
}

async function bootFresh(build, wheelBytes) {
  // _makeSnapshot only records how Python reaches JS globals, so the memory can be copied.
  mark("loadPyodide");
  const pyodide = await startPyodide(build, snapshotKey ? { _makeSnapshot: true } : {});
  mark("pyodide");
  status("install");
  placeWheel(pyodide, build.wheel.split("/").pop(), await wheelBytes);
  const versions = { subword_lab: imported(pyodide, build) };
  mark("imported");
  // The copy is taken now, before Python holds any JS function (the regex listener below
  // could not be written into a snapshot); it is stored once the page is idle.
  if (snapshotKey) pending = takeSnapshot(pyodide);
  mark("snapshot");
  return { ...connect(pyodide), versions: { ...versions, start: "fresh" } };
}

// Python's memory comes back from the snapshot, sys.path and Subword Lab's imported
// modules with it, but not its files: the wheel is written again at the same place
// (web/lib/wheel.js), for the modules imported later.
async function bootFromSnapshot(bytes, build, wheelBytes) {
  const restore = restoring(bytes);
  const pyodide = await startPyodide(build, restore.options);
  restore.connect(pyodide);
  status("install");
  placeWheel(pyodide, build.wheel.split("/").pop(), await wheelBytes);
  return { ...connect(pyodide), versions: { subword_lab: imported(pyodide, build), start: "snapshot" } };
}

// Import the page's facade; its version, which must be the one build.json's wheel names
// (Python imported our wheel, not some other copy of the package).
function imported(pyodide, build) {
  const webapi = pyodide.pyimport("subword_lab.web.api");
  let version;
  try {
    version = webapi.version();
  } finally {
    webapi.destroy();
  }
  if (version !== build.wheel.split("/").pop().split("-")[1]) {
    throw new Error(`Subword Lab ${version} was imported, not the wheel ${build.wheel}`);
  }
  return version;
}

function connect(pyodide) {
  const webapi = pyodide.pyimport("subword_lab.web.api");
  const guard = pyodide.pyimport("subword_lab.core.regex.guard");
  guard.set_listener(regexStep);
  guard.destroy();
  return { pyodide, webapi };
}

// ---- the snapshot of a fresh start: copied at once, stored when no command has come
// for a while (the Cache API's write then competes with nothing the reader waits for).
let pending = null; // {bytes, makeMs}
let lastCommand = 0;
let running = 0;
const IDLE_MS = 1500;

async function storeWhenIdle() {
  if (!pending) return;
  if (pending.error) return postMessage({ type: "snapshot", state: "failed", reason: pending.error });
  const idle = () => running === 0 && performance.now() - lastCommand >= IDLE_MS;
  while (!idle()) await new Promise((done) => setTimeout(done, IDLE_MS / 3));
  const { bytes, makeMs } = pending;
  pending = null;
  const start = performance.now();
  try {
    const stored = await writeSnapshot(import.meta.url, snapshotKey, bytes);
    const storeMs = performance.now() - start;
    postMessage({ type: "snapshot", state: "stored", size: bytes.length, stored, makeMs, storeMs });
  } catch (error) {
    await dropSnapshots().catch(() => {}); // quota, or no Cache API here: next start is fresh
    postMessage({ type: "snapshot", state: "failed", reason: messageOf(error) });
  }
}

// ---- user regexes: nothing can interrupt Python from inside a worker without
// SharedArrayBuffer (which plain static hosts cannot enable), so the page is told that
// a match it may have to end is starting. The message leaves before Python goes on, so
// the page hears it even if the match never returns. Python calls this only for the
// patterns that can backtrack, on texts long enough to matter.
let currentKey = null; // the tokenizer the running command works with
function regexStep(phase, pattern, field, path, size, digest) {
  if (phase !== "start" && phase !== "refused") return postMessage({ type: "regex", phase });
  const file = path ? String(path).split("/").pop() : null;
  postMessage({ type: "regex", phase, pattern, field, file, size, digest, key: currentKey });
}

const engine = boot();
engine.then(
  ({ versions }) => { mark("ready"); status("ready", versions); storeWhenIdle(); },
  (error) => status("error", { message: messageOf(error) }),
);

// ---- Jinja2 and MarkupSafe for the Chat view: loaded the first time a chat_* function
// runs (the first view never pays for them), from this site's wheels/ (build.py), each
// checked against the hash build.json gives, unpacked into a directory of their own on
// sys.path (our own package is imported from its wheel's zip: lib/wheel.js).
let chatLoad = null;
function ensureChat(pyodide) {
  if (!chatLoad) {
    chatLoad = loadChat(pyodide);
    chatLoad.catch(() => { chatLoad = null; }); // a failed load is tried again
  }
  return chatLoad;
}

async function loadChat(pyodide) {
  const wheels = buildInfo?.chat_wheels || [];
  if (!wheels.length) {
    throw new Error("SubwordLabError: chat_template: this build has no Jinja2 (see build.py's log), so chat templates cannot render");
  }
  const blobs = await Promise.all(wheels.map((w) => fetchBytes(here(`./${w.file}`))));
  pyodide.FS.mkdirTree("/tmp/chat-wheels");
  const listed = wheels.map((w, i) => {
    const path = `/tmp/chat-wheels/${w.file.split("/").pop()}`;
    pyodide.FS.writeFile(path, blobs[i]);
    return { path, sha256: w.sha256 };
  });
  pyodide.runPython(`
import hashlib, importlib, json, sys, zipfile
target = "/lib/chat-packages"
for wheel in json.loads(${JSON.stringify(JSON.stringify(listed))}):
    with open(wheel["path"], "rb") as handle:
        if hashlib.sha256(handle.read()).hexdigest() != wheel["sha256"]:
            raise ValueError(wheel["path"].split("/")[-1] + " does not match the hash build.json gives")
    zipfile.ZipFile(wheel["path"]).extractall(target)
if target not in sys.path:
    sys.path.append(target)
importlib.invalidate_caches()
import jinja2, markupsafe
`);
}

// ---- commands: each is a small function of the Python facade (subword_lab.web.api).
// Arguments and results cross as JSON strings: one conversion, no proxies to free.
const presetBytes = new Map();
const PACK = ".pack";
const commands = {
  async ping() { return "pong"; },
  // `options` (for example {pattern}) go to the loader as JSON (web/opening.py).
  // `config`: the bytes of the tokenizer_config.json shipped beside the preset (its chat template).
  async openPreset({ key, file, bytes: given, options, config }, { webapi }) {
    // The full page downloads the file itself (progress, Cache API) and sends the bytes.
    const opts = options ? JSON.stringify(options) : undefined; // JS null reaches Python as jsnull, not None
    if (!given && !presetBytes.has(file)) presetBytes.set(file, fetchBytes(here(`./${file}`)));
    const bytes = given ? new Uint8Array(given) : await presetBytes.get(file);
    const name = file.split("/").pop();
    // A big tokenizer.json's pre-parsed form (build.py), named after the file it was made from.
    const beside = config ? new Uint8Array(config) : undefined;
    if (name.endsWith(PACK)) return webapi.open_pack(key, name.slice(0, -PACK.length), bytes, opts, beside);
    if (beside) return webapi.open_bytes(key, [name, "tokenizer_config.json"], [bytes, beside], opts);
    return webapi.open_bytes(key, name, bytes, opts);
  },
  async openFile({ key, name, bytes, names, blobs, options }, { webapi }) {
    // Several files opened together arrive as names + blobs (the loader pairs them).
    const opts = options ? JSON.stringify(options) : undefined; // JS null reaches Python as jsnull, not None
    const files = names ? names.map((n, i) => [n, new Uint8Array(blobs[i])]) : [[name, new Uint8Array(bytes)]];
    for (const [fileName, data] of files) refuseDeepJson(fileName, data);
    if (names) return webapi.open_bytes(key, names, files.map(([, data]) => data), opts);
    return webapi.open_bytes(key, name, files[0][1], opts);
  },
  async encode({ key, text, limit, special }, { webapi }) {
    // special: "recognise" | "as_text", sent only when describe() offered the choice
    if (special) return webapi.encode(key, text, limit ?? null, special);
    return webapi.encode(key, text, limit ?? undefined);
  },
  async describe({ key }, { webapi }) {
    return webapi.describe(key);
  },
  async call({ name, args }, { webapi, pyodide }) {
    // Later views call other facade functions by name; events stream back in batches.
    const fn = webapi[name];
    if (typeof fn !== "function" || name.startsWith("_")) throw new Error(`no such command: ${name}`);
    if (name.startsWith("chat_")) await ensureChat(pyodide);
    try {
      return fn(JSON.stringify(args ?? {}), pushEvent);
    } finally {
      flushEvents();
    }
  },
};

// ---- a user's JSON nested thousands of levels deep: Python's json reader recurses once
// per level, and under Pyodide that overflows the browser's stack long before Python's
// own recursion check, which ends Python for good (CPython raises RecursionError). Such a
// file is refused here, before Python reads it, with the error Python gives past
// tokenizers' limit (MAX_JSON_DEPTH in py/subword_lab/core/json_checks/schema.py).
const MAX_JSON_DEPTH = 127;
const DEEPEST_READ = 1000; // Python reads this deep safely and says what is wrong itself
const [QUOTE, BACKSLASH] = [0x22, 0x5c];
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

function refuseDeepJson(name, data) {
  if (!looksLikeJson(data)) return; // a .model or .tiktoken file: brackets there mean nothing
  let depth = 0;
  let inString = false;
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPEN.has(c)) {
      if (++depth > DEEPEST_READ) throw deepError(name, data);
    } else if (CLOSE.has(c)) depth -= 1;
  }
}

// JSON starts with "{" or "[" after optional white space (and a UTF-8 byte order mark).
function looksLikeJson(data) {
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    if (i === 0 && c === 0xef && data[1] === 0xbb && data[2] === 0xbf) { i = 2; continue; }
    return OPEN.has(c);
  }
  return false;
}

// Where the nesting first goes past MAX_JSON_DEPTH, as line and column (in characters).
function deepError(name, data) {
  const text = new TextDecoder().decode(data);
  let [depth, line, column, inString, escaped] = [0, 1, 0, false, false];
  for (const ch of text) {
    column += 1;
    if (ch === "\n") { line += 1; column = 0; }
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") {
      if (++depth > MAX_JSON_DEPTH) break;
    } else if (ch === "]" || ch === "}") depth -= 1;
  }
  return new Error(`SubwordLabError: ${name}: line ${line} column ${column}: nested too deeply ` +
    `(tokenizers reads at most ${MAX_JSON_DEPTH} levels of lists and objects)`);
}

function messageOf(error) {
  return String(error && error.message ? error.message : error);
}

function errorOf(error) {
  // A Python exception arrives as a PythonError whose message ends with the
  // traceback; the last line ("SubwordLabError: file: field: what") is the story.
  const text = messageOf(error);
  const lines = text.trim().split("\n");
  const last = lines[lines.length - 1] || text;
  // Pyodide's PythonError knows the exception's class (RegexTooSlow ends in neither word).
  const type = error && typeof error.type === "string" && /^\w+$/.test(error.type) ? error.type : "(?:Error|Exception)";
  const match = new RegExp(`^([A-Za-z_.]*${type}):\\s*(.*)$`, "s").exec(last)
    || /^([A-Za-z_.]+(?:Error|Exception)):\s*(.*)$/s.exec(last);
  const found = match ? { kind: match[1].split(".").pop(), message: match[2] } : { kind: "Error", message: last };
  // The worker's own file system is no business of the reader's: a path such as
  // /tmp/subword-lab-x1y2/tokenizer.json reads as its file name.
  found.message = found.message.replace(/\/(?:tmp|home|lib)\/[^\s:'"]*\/([^\/\s:'"]+)/g, "$1");
  return found;
}

self.onmessage = async (event) => {
  const { id, cmd, args } = event.data || {};
  running += 1;
  try {
    const ready = await engine;
    const fn = commands[cmd];
    if (!fn) throw new Error(`unknown command ${cmd}`);
    currentKey = (args && (args.key ?? args.args?.key)) ?? null;
    const raw = await fn(args || {}, ready);
    const result = typeof raw === "string" ? JSON.parse(raw) : raw;
    postMessage({ id, ok: true, result });
  } catch (error) {
    postMessage({ id, ok: false, error: errorOf(error) });
  } finally {
    running -= 1;
    lastCommand = performance.now();
  }
};

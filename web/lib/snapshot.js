// The worker's Python memory, kept in this browser for the next start (issue 14).
//
// A fresh start ends with Subword Lab imported; Pyodide can copy its memory then
// (makeMemorySnapshot) and start from that copy later (loadPyodide({_loadSnapshot})),
// which skips Python's start-up and every import. The copy is made here, after
// a fresh start, so it costs no download; it is gzipped (31 MB of memory, mostly empty,
// becomes 7.3 MB) and kept in the Cache API under the build's snapshot key
// (build.json: the Pyodide runtime, our wheel and the worker that imports it).
// A snapshot of another build is never read, and storing one removes every other.
//
// Every failure here (no Cache API on an insecure origin, quota, a damaged entry) is
// "no snapshot": the worker then starts fresh, which always works.
const CACHE = "subword-lab-snapshot";
const SIZE = "x-subword-lab-size"; // the snapshot's size before gzip, checked on reading

const store = () => (typeof caches === "undefined" ? null : caches);
const entryUrl = (base, key) => new URL(`./snapshot/${key}.bin`, base).href;

// The stored snapshot (its entry, see thisBuilds and readSnapshot), or null: looked up
// while the build's description downloads, so a first visit (no snapshot cache) waits
// for nothing.
export async function findSnapshot() {
  const caches = store();
  if (!caches || !(await caches.has(CACHE))) return null;
  const cache = await caches.open(CACHE);
  const [request] = await cache.keys();
  return request ? { url: request.url, response: await cache.match(request) } : null;
}

// `entry` if it is this build's snapshot (key), else null (an older build's entry is
// dropped). Nothing is read yet: the worker starts the runtime's download meanwhile.
export async function thisBuilds(entry, base, key) {
  if (!entry) return null;
  if (entry.url !== entryUrl(base, key) || !entry.response || !entry.response.body) {
    await dropSnapshots();
    return null;
  }
  return entry;
}

// The snapshot in `entry` (from thisBuilds) as a Uint8Array. A gzip stream whose checksum
// fails ends in an error, so no damaged bytes come back as a snapshot.
export async function readSnapshot(entry) {
  const hit = entry.response;
  const bytes = new Uint8Array(await new Response(hit.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  if (String(bytes.length) !== hit.headers.get(SIZE)) throw new Error("stored snapshot has the wrong size");
  return bytes;
}

// Store `bytes` as this build's snapshot, gzipped, after removing any other build's.
// Resolves to the gzipped size (the bytes the browser keeps).
export async function writeSnapshot(base, key, bytes) {
  const caches = store();
  if (!caches) throw new Error("no Cache API here (the page is not on a secure origin)");
  await caches.delete(CACHE);
  const cache = await caches.open(CACHE);
  const packed = await gzipInSteps(bytes);
  await cache.put(entryUrl(base, key), new Response(packed, {
    headers: { "content-type": "application/octet-stream", [SIZE]: String(bytes.length) },
  }));
  return packed.size;
}

// gzip runs on the worker's thread: fed a slice at a time, with a pause after each, so a
// command the page sends meanwhile (a key typed) waits for one slice (a few ms), not for
// the whole 31 MB (over half a second when given at once).
const SLICE = 128 * 1024;
async function gzipInSteps(bytes) {
  const gzip = new CompressionStream("gzip");
  const packed = new Response(gzip.readable).blob();
  packed.catch(() => {}); // a failure is the writer's too, and reported there
  const writer = gzip.writable.getWriter();
  for (let at = 0; at < bytes.length; at += SLICE) {
    await writer.write(bytes.subarray(at, at + SLICE));
    await new Promise((done) => setTimeout(done, 0));
  }
  await writer.close();
  return packed;
}

// ---- making and loading a snapshot
//
// Pyodide writes into a snapshot the JS objects Python holds that it can name itself (JS
// globals by their path). Should Python hold the Pyodide API object or one of its
// functions (micropip did, when it installed our wheel), those are written as their name
// on the API and come back as stand-ins that forward to the new Pyodide's own, once it
// is up. Anything else makes no snapshot (Pyodide throws; nothing is stored).

// Pyodide 314 also checks that its package list (loadedPackages, which Python holds) is
// empty, as it is before any loadPackage, and a loaded snapshot starts with it empty.
// The worker loads no package (web/lib/wheel.js), but should one be in it, it is emptied
// while the copy is made and filled again after.
export function takeSnapshot(pyodide) {
  const start = performance.now();
  const loaded = pyodide.loadedPackages;
  const names = Object.entries(loaded);
  for (const [name] of names) delete loaded[name];
  try {
    const bytes = pyodide.makeMemorySnapshot({ serializer: (value) => nameOf(pyodide, value) });
    return { bytes, makeMs: performance.now() - start };
  } catch (error) {
    return { error: String(error && error.message ? error.message : error) };
  } finally {
    Object.assign(loaded, Object.fromEntries(names));
  }
}

function nameOf(pyodide, value) {
  const kind = typeof value === "function" ? "function" : "object";
  if (value === pyodide) return { on: "pyodide", key: null, kind };
  for (const [on, holder] of [["pyodide", pyodide], ["api", pyodide._api]]) {
    const key = Object.getOwnPropertyNames(holder).find((name) => {
      try { return holder[name] === value; } catch { return false; }
    });
    if (key) return { on, key, kind };
  }
  throw new Error(`Python holds a JS ${kind} that a snapshot cannot name`);
}

// The loadPyodide options that start from `bytes` (a Uint8Array, or a promise of one:
// loadPyodide fetches and compiles the runtime while it is read), and connect(pyodide) to
// call as soon as loadPyodide returns (the stand-ins forward to that Pyodide).
export function restoring(bytes) {
  let pyodide = null;
  const target = ({ on, key }) => {
    if (!pyodide) throw new Error("Pyodide is still starting from its snapshot");
    const holder = on === "api" ? pyodide._api : pyodide;
    return key === null ? holder : holder[key];
  };
  const standIn = (name) => (name.kind === "function"
    ? function forward(...args) { return target(name).apply(this, args); }
    : new Proxy({}, {
      get: (_, prop) => Reflect.get(target(name), prop),
      has: (_, prop) => Reflect.has(target(name), prop),
    }));
  return {
    options: { _loadSnapshot: bytes, _snapshotDeserializer: standIn },
    connect: (started) => { pyodide = started; },
  };
}

// Forget every stored snapshot (one that failed to start, or ?nosnapshot).
export async function dropSnapshots() {
  const caches = store();
  if (caches) await caches.delete(CACHE);
}

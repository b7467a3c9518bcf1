// The worker's Python memory, kept in this browser for the next start (issue 14).
//
// A fresh start ends with Subword Lab imported; Pyodide can copy its memory then
// (makeMemorySnapshot) and start from that copy later (loadPyodide({_loadSnapshot})),
// which skips Python's start-up and every import. The copy is made here, after
// a fresh start, so it costs no download; its pages that hold anything are kept (31 MB of
// memory, half of it pages of zeros, becomes 15 MB: packSnapshot) in the Cache API under
// the build's snapshot key (build.json: the Pyodide runtime, our wheel and the worker that
// imports it). A snapshot of another build is never read, and storing one removes every
// other.
//
// Every failure here (no Cache API on an insecure origin, quota, a damaged entry) is
// "no snapshot": the worker then starts fresh, which always works.
const CACHE = "subword-lab-snapshot";
const SIZE = "x-subword-lab-size"; // the snapshot's size in memory, checked on reading

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

// The snapshot in `entry` (from thisBuilds) as a Uint8Array; an entry that is not whole
// (unpackSnapshot's checks) ends in an error, so no damaged bytes come back as a snapshot.
export async function readSnapshot(entry) {
  const hit = entry.response;
  return unpackSnapshot(await hit.arrayBuffer(), Number(hit.headers.get(SIZE)));
}

// Store `bytes` as this build's snapshot (packSnapshot), after removing any other build's.
// Resolves to the bytes the browser keeps.
export async function writeSnapshot(base, key, bytes) {
  const caches = store();
  if (!caches) throw new Error("no Cache API here (the page is not on a secure origin)");
  await caches.delete(CACHE);
  const cache = await caches.open(CACHE);
  const packed = packSnapshot(bytes);
  await cache.put(entryUrl(base, key), new Response(packed, {
    headers: { "content-type": "application/octet-stream", [SIZE]: String(bytes.length) },
  }));
  return packed.size;
}

// ---- the stored form: the memory's pages that are not all zeros
//
// Half of Python's memory after start-up is pages of zeros, and the rest compresses only
// about 2.5 times: gzip made 31 MB into 6 MB but took 0.8-1.7 s of a core on every first
// visit and 140 ms to read back on every later one. Leaving the zero pages out takes
// milliseconds both ways, for 15 MB kept. The form (integers little-endian, uint32):
//   MAGIC (8 bytes) | size, pages, kept, checksum | a byte per page, 1 if kept |
//   the kept pages in order (the last page of the memory may be short).
// The checksum (FNV-1a over the kept pages' 32-bit words) stands in for gzip's: a damaged
// entry is refused rather than started.
const MAGIC = "SWLsnap1";
const PAGE = 4096;
const HEAD = MAGIC.length + 16;

/** @param {Uint8Array} bytes  @returns {Blob} */
export function packSnapshot(bytes) {
  const memory = bytes.byteOffset % 4 ? bytes.slice() : bytes; // word-aligned pages
  const pages = Math.ceil(memory.length / PAGE);
  const marks = new Uint8Array(pages);
  const kept = [];
  let sum = FNV_START;
  for (let p = 0; p < pages; p++) {
    const page = memory.subarray(p * PAGE, (p + 1) * PAGE);
    if (isZero(page)) continue;
    marks[p] = 1;
    kept.push(page);
    sum = checksum(sum, page);
  }
  const head = new Uint8Array(HEAD);
  head.set(new TextEncoder().encode(MAGIC));
  const numbers = new DataView(head.buffer, MAGIC.length);
  [memory.length, pages, kept.length, sum].forEach((n, i) => numbers.setUint32(4 * i, n, true));
  return new Blob([head, marks, ...kept]);
}

/** @param {ArrayBuffer} buffer  @param {number} size  @returns {Uint8Array} */
export function unpackSnapshot(buffer, size) {
  const data = new Uint8Array(buffer);
  const damaged = (why) => new Error(`stored snapshot is damaged: ${why}`);
  if (data.length < HEAD || new TextDecoder().decode(data.subarray(0, MAGIC.length)) !== MAGIC) throw damaged("not a snapshot");
  const numbers = new DataView(buffer, MAGIC.length, 16);
  const [length, pages, keptCount, sum] = [0, 1, 2, 3].map((i) => numbers.getUint32(4 * i, true));
  if (length !== size || pages !== Math.ceil(length / PAGE)) throw damaged("wrong size");
  const marks = data.subarray(HEAD, HEAD + pages);
  const memory = new Uint8Array(length);
  let at = HEAD + pages;
  let kept = 0;
  let found = FNV_START;
  for (let p = 0; p < marks.length; p++) {
    if (!marks[p]) continue;
    const page = memory.subarray(p * PAGE, (p + 1) * PAGE);
    if (at + page.length > data.length) throw damaged("cut short");
    page.set(data.subarray(at, at + page.length));
    found = checksum(found, page);
    at += page.length;
    kept++;
  }
  if (kept !== keptCount || at !== data.length) throw damaged("wrong length");
  if (found !== sum) throw damaged("checksum");
  return memory;
}

const FNV_START = 0x811c9dc5;

// A page's 32-bit words (its last bytes one at a time if the page is short of a word).
function words(page) {
  return new Uint32Array(page.buffer, page.byteOffset, page.length >> 2);
}

function isZero(page) {
  const w = words(page);
  for (let i = 0; i < w.length; i++) if (w[i] !== 0) return false;
  for (let i = w.length << 2; i < page.length; i++) if (page[i] !== 0) return false;
  return true;
}

function checksum(sum, page) {
  const w = words(page);
  let h = sum;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w[i], 0x01000193);
  for (let i = w.length << 2; i < page.length; i++) h = Math.imul(h ^ page[i], 0x01000193);
  return h >>> 0;
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

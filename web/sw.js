// Subword Lab's service worker: the page, the Pyodide runtime and our wheel kept in one
// cache per build, so that a second visit starts from this cache and the page works
// offline once it has been opened. build.py writes the file list and the build's hash
// into this file (a new build is a new file: the browser installs it and the old cache
// goes). Preset files are not here: web/lib/presets.js keeps each in its own cache the
// first time it is picked. Anything else goes to the network as usual.
//
// app.js registers it once Python is ready (the files are then in the HTTP cache, so
// filling this cache only revalidates them); ?nosw removes it (docs/hosting.md).
const VERSION = "{{SW_VERSION}}";
const FILES = "{{SW_FILES}}".split(" ");
const CACHE = `subword-lab-app-${VERSION}`;
// `self` as the service worker it is (tsconfig.sw.json checks this file with the webworker lib).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const SCOPE = new URL("./", sw.location.href).href;
const KNOWN = new Set(FILES);

sw.addEventListener("install", (event) => {
  // no-cache: each file is revalidated against the server (a 304 when the HTTP cache has it).
  const requests = FILES.map((file) => new Request(new URL(file, SCOPE), { cache: "no-cache" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)).then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  const old = (name) => name.startsWith("subword-lab-app-") && name !== CACHE;
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name))))
    .then(() => sw.clients.claim()));
});

// The file a request asks for, relative to the site ("index.html" for a page's folder),
// or null when it is not one of this build's files.
function fileOf(request) {
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return null;
  let path = request.url.slice(SCOPE.length).split(/[?#]/)[0];
  if (request.mode === "navigate" && (path === "" || path.endsWith("/"))) path += "index.html";
  return KNOWN.has(path) ? path : null;
}

sw.addEventListener("fetch", (event) => {
  const file = fileOf(event.request);
  if (!file) return;
  event.respondWith(caches.open(CACHE)
    .then((cache) => cache.match(new URL(file, SCOPE).href))
    .then((hit) => hit || fetch(event.request)));
});

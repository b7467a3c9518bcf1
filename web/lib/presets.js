// Preset files: fetched from this site only when a preset is picked, with progress, and
// kept in the browser's Cache API so that the next visit opens them without a download.
// The cache key carries the file's sha256 (presets.json), so a new build's file is a new
// entry; the bytes are checked against that hash before they are used or kept.
const CACHE_NAME = "subword-lab-presets-v1";

function cacheKey(url, sha256) {
  return `${url}?sha256=${sha256 || ""}`;
}

async function openCache() {
  try {
    return self.caches ? await caches.open(CACHE_NAME) : null;
  } catch {
    return null; // no Cache API (an insecure origin, a private window): download each time
  }
}

async function readWithProgress(response, total, onProgress) {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress({ stage: "download", received, total });
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.length; }
  return bytes;
}

async function hexDigest(bytes) {
  if (!self.crypto || !crypto.subtle) return null;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// {file, bytes, config}: a preset's file and its bytes (an ArrayBuffer); for a big
// tokenizer.json, the pre-parsed form the build made of it (`preset.pack`: file, size,
// sha256), which the worker opens much faster; `config`, the bytes of the
// tokenizer_config.json shipped beside it (`preset.config`: its chat template), else null.
// onProgress({stage, received?, total?}): "cached" (no download), then "download" as
// bytes arrive.
export async function presetBytes(preset, base, onProgress = () => {}) {
  const source = preset.pack || preset;
  const config = preset.config ? fileBytes(preset.config, base, () => {}) : null;
  return { file: source.file, bytes: await fileBytes(source, base, onProgress), config: await config };
}

async function fileBytes(preset, base, onProgress) {
  const url = new URL(preset.file, base).href;
  const key = cacheKey(url, preset.sha256);
  const cache = await openCache();
  const hit = cache && await cache.match(key);
  if (hit) {
    onProgress({ stage: "cached", received: preset.size, total: preset.size });
    return hit.arrayBuffer();
  }
  const response = await fetch(url, { credentials: "omit" });
  if (!response.ok) throw new Error(`${preset.file}: HTTP ${response.status}`);
  const total = preset.size || Number(response.headers.get("Content-Length")) || 0;
  const bytes = await readWithProgress(response, total, onProgress);
  const digest = await hexDigest(bytes);
  if (digest && preset.sha256 && digest !== preset.sha256) {
    throw new Error(`${preset.file} arrived damaged (its sha256 is not the one this build lists)`);
  }
  // Kept for the next visit without waiting for it (Response copies the bytes now):
  // writing 9-17 MB to the cache took 40-150 ms that the first paint does not need.
  if (cache) cache.put(key, new Response(bytes)).catch(() => {});
  return bytes.buffer;
}

// "1.2 MB" for the progress line.
export function megabytes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1e3))} kB`;
}

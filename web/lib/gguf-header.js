// A GGUF model file's header, read by slices: a model of many gigabytes holds its
// whole tokenizer in the metadata at its start, so the page reads only that far
// (File.slice, growing 1 MiB -> 4 -> 16 -> 64 ...) and never the tensors. The walk
// below only finds where the metadata ends; reading it is Python's job (io/gguf.py),
// which also says what is wrong with a malformed file.

const FIXED = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

export function isGguf(file, firstBytes) {
  if (firstBytes && firstBytes.length >= 4) {
    return firstBytes[0] === 0x47 && firstBytes[1] === 0x47 && firstBytes[2] === 0x55 && firstBytes[3] === 0x46;
  }
  return /\.gguf$/i.test(file.name);
}

// Where the metadata ends in `bytes` (the file's first bytes), or null when it goes
// on past them. A file that is not a sound GGUF header gives -1: hand Python what
// was read and let it say what is wrong.
export function metadataEnd(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n) => {
    if (at + n > bytes.length) throw MORE;
  };
  const u32 = () => { need(4); const v = view.getUint32(at, true); at += 4; return v; };
  const u64 = () => {
    need(8);
    const v = view.getBigUint64(at, true);
    at += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw BAD;
    return Number(v);
  };
  const skipValue = (type, depth) => {
    if (type in FIXED) { need(FIXED[type]); at += FIXED[type]; return; }
    if (type === STRING) { const n = u64(); need(n); at += n; return; }
    if (type !== ARRAY || depth > 2) throw BAD;
    const item = u32();
    const count = u64();
    if (item in FIXED) { need(count * FIXED[item]); at += count * FIXED[item]; return; }
    for (let i = 0; i < count; i++) skipValue(item, depth + 1);
  };
  try {
    if (u32() !== 0x46554747) return -1; // "GGUF"
    const version = u32();
    if (version !== 2 && version !== 3) return -1;
    u64(); // tensors
    const entries = u64();
    for (let i = 0; i < entries; i++) {
      const keyLength = u64();
      need(keyLength);
      at += keyLength;
      skipValue(u32(), 0);
    }
    return at;
  } catch (error) {
    if (error === MORE) return null;
    if (error === BAD) return -1;
    throw error;
  }
}

const MORE = Symbol("more");
const BAD = Symbol("bad");

// The header's bytes. onProgress({received, total}) while reading.
/** @param {Blob} file @param {(progress: {received: number, total: number}) => void} [onProgress] */
export async function ggufHeader(file, onProgress = () => {}) {
  let size = Math.min(file.size, 1 << 20);
  for (;;) {
    const bytes = new Uint8Array(await file.slice(0, size).arrayBuffer());
    onProgress({ received: size, total: file.size });
    const end = metadataEnd(bytes);
    if (end !== null && end >= 0) return bytes.slice(0, end);
    if (end === -1 || size >= file.size) return bytes;
    size = Math.min(file.size, size * 4);
  }
}

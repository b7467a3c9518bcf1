// A user's files as the worker's openFile request takes them, and its error made readable.
import { ggufHeader, isGguf } from "../../lib/gguf-header.js";

// The request's arguments and the buffers it transfers: each file's bytes, except that of a
// GGUF model (often gigabytes) only the header is read, by slices.
export async function openFileRequest(files, key) {
  const name = files.map((f) => f.name).join(" + ");
  const buffers = await Promise.all(files.map(async (f) => (files.length === 1 && isGguf(f)
    ? (await ggufHeader(f)).buffer : f.arrayBuffer())));
  const args = files.length === 1 ? { key, name, bytes: buffers[0] }
    : { key, names: files.map((f) => f.name), blobs: buffers };
  return { args, buffers };
}

/** "tokenizer.json: model.vocab: ..." after "Could not open tokenizer.json:" names the file once. */
export function withoutName(message, name) {
  const prefix = `${name}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

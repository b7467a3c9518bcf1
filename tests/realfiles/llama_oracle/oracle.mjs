// llama.cpp's own tokenizer, through node-llama-cpp (pinned in package.json), as the
// oracle for GGUF files. Reads {"model": path, "texts": [...]} as JSON on stdin and
// writes one JSON object (and the seconds it took to load and to tokenize): for each text, the ids with special-token text read as text
// (parse_special false) and as special tokens (true), and llama.cpp's detokenize of
// both id lists (with and without special tokens' text). No BOS/EOS is added here:
// node-llama-cpp's tokenize() calls llama_tokenize with add_special false.
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const llama = await getLlama({gpu: false, build: "never", logLevel: LlamaLogLevel.error});
const started = performance.now();
const model = await llama.loadModel({modelPath: request.model, vocabOnly: true});
const loaded = performance.now();
const out = {plain: [], special: [], decodePlain: [], decodeSpecial: [],
             bos: model.tokens.bos, eos: model.tokens.eos,
             addBos: model.tokens.shouldPrependBosToken, addEos: model.tokens.shouldAppendEosToken};
for (const text of request.texts) {
    out.plain.push(Array.from(model.tokenize(text, false)));
    out.special.push(Array.from(model.tokenize(text, true)));
}
const tokenized = performance.now();
for (let k = 0; k < request.texts.length; k++) {
    out.decodePlain.push(model.detokenize(out.plain[k], false));
    out.decodeSpecial.push(model.detokenize(out.special[k], true));
}
// wall-clock seconds, for bench/bench_gguf.py (the tests do not read them)
out.seconds = {load: (loaded - started) / 1000, tokenize: (tokenized - loaded) / 1000};
process.stdout.write(JSON.stringify(out));
await model.dispose();
await llama.dispose();

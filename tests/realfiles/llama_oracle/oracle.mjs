// llama.cpp's own tokenizer, through node-llama-cpp (pinned in package.json), as the
// oracle for GGUF files. A request is {"model": path, "texts": [...]}; the answer is one
// JSON object (and the seconds it took to load and to tokenize): for each text, the ids
// with special-token text read as text (parse_special false) and as special tokens
// (true), and llama.cpp's detokenize of both id lists (with and without special tokens'
// text). No BOS/EOS is added here: node-llama-cpp's tokenize() calls llama_tokenize with
// add_special false.
//
// `node oracle.mjs` reads one request from stdin and writes its answer to stdout.
// `node oracle.mjs --serve` reads one request per line and writes one answer per line
// ({"error": message} for a file llama.cpp does not load), so a test session starts node
// and llama.cpp once, not once per file (about a core-second each).
import {createInterface} from "node:readline";
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const llama = await getLlama({gpu: false, build: "never", logLevel: LlamaLogLevel.error});

async function answer(request) {
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
    await model.dispose();
    return out;
}

if (process.argv.includes("--serve")) {
    for await (const line of createInterface({input: process.stdin, crlfDelay: Infinity})) {
        let out;
        try {
            out = await answer(JSON.parse(line));
        } catch (error) {
            out = {error: String(error && error.message || error)};
        }
        process.stdout.write(JSON.stringify(out) + "\n");
    }
} else {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    process.stdout.write(JSON.stringify(await answer(JSON.parse(Buffer.concat(chunks).toString("utf8")))));
}
await llama.dispose();

// llama.cpp's own tokenizer, through node-llama-cpp (pinned in package.json), as the
// oracle for GGUF files. Reads {"model": path, "texts": [...]} as JSON on stdin and
// writes one JSON object: for each text, the ids with special-token text read as text
// (parse_special false) and as special tokens (true), and llama.cpp's detokenize of
// both id lists (with and without special tokens' text). No BOS/EOS is added here:
// node-llama-cpp's tokenize() calls llama_tokenize with add_special false.
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const llama = await getLlama({gpu: false, build: "never", logLevel: LlamaLogLevel.error});
const model = await llama.loadModel({modelPath: request.model, vocabOnly: true});
const out = {plain: [], special: [], decodePlain: [], decodeSpecial: [],
             bos: model.tokens.bos, eos: model.tokens.eos};
for (const text of request.texts) {
    const plain = Array.from(model.tokenize(text, false));
    const special = Array.from(model.tokenize(text, true));
    out.plain.push(plain);
    out.special.push(special);
    out.decodePlain.push(model.detokenize(plain, false));
    out.decodeSpecial.push(model.detokenize(special, true));
}
process.stdout.write(JSON.stringify(out));
await model.dispose();
await llama.dispose();

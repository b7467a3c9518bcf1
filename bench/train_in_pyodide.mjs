// Time BPE / WordPiece training under Pyodide in Node (bench_train.py --pyodide).
// Usage: node train_in_pyodide.mjs PY_DIR CORPUS_JSON SPECS_JSON [cpu]   (prints one JSON line)
// PY_DIR is py/ (the package is copied into Pyodide's file system as it is);
// CORPUS_JSON a JSON list of lines; SPECS_JSON a list of [algo, vocab_size].
// With "cpu", times are Node's CPU time (process.cpuUsage), not wall time.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [pyDir, corpusFile, specsJson, clock] = process.argv.slice(2);
const { loadPyodide } = await import(
  pathToFileURL(join(here, "..", "node_modules", "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (m) => console.error(m) });

function copyTree(src, dst) {
  pyodide.FS.mkdirTree(dst);
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    if (entry.name === "__pycache__") continue;
    const from = join(src, entry.name), to = `${dst}/${entry.name}`;
    if (entry.isDirectory()) copyTree(from, to);
    else if (entry.name.endsWith(".py")) pyodide.FS.writeFile(to, readFileSync(from));
  }
}
copyTree(join(resolve(pyDir), "subword_lab"), "/lib/py/subword_lab");
pyodide.globals.set("CORPUS_JSON", readFileSync(corpusFile, "utf8"));
pyodide.globals.set("SPECS_JSON", specsJson);
pyodide.globals.set("CPU_CLOCK", clock === "cpu");
const out = await pyodide.runPythonAsync(`
import json, sys, time
sys.path.insert(0, "/lib/py")
from subword_lab import Tokenizer, models, pre_tokenizers
from subword_lab.trainers import BpeTrainer, WordPieceTrainer
lines = json.loads(CORPUS_JSON)
if CPU_CLOCK:
    from js import process

    def clock():
        used = process.cpuUsage()
        return (used.user + used.system) / 1e6
else:
    clock = time.perf_counter
times = []
for algo, size in json.loads(SPECS_JSON):
    if algo == "bpe":
        tok = Tokenizer(models.BPE()); tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = BpeTrainer(vocab_size=size)
    else:
        tok = Tokenizer(models.WordPiece()); tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        trainer = WordPieceTrainer(vocab_size=size)
    start = clock()
    tok.train_from_iterator(lines, trainer)
    times.append(clock() - start)
json.dumps({"python": sys.version.split()[0], "times": times})
`);
console.log(out);

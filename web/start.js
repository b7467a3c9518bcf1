// The Python worker, started by a <script> of its own ahead of app.js (index.html): the
// Pyodide runtime begins to download and start while the page's other modules are still
// loading, as a bare Pyodide page starts it at once. app.js imports this engine (a module
// runs once, whichever script reaches it first).
import { Engine } from "./lib/engine.js";

export const engine = new Engine(new URL("./worker.js", import.meta.url));

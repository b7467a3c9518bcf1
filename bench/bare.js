// The baseline page: start the same Pyodide in a module worker, and say when it is up.
const worker = new Worker(new URL("./bare.worker.js", import.meta.url), { type: "module" });
worker.onmessage = () => {
  performance.mark("bare:ready");
  document.documentElement.dataset.engine = "ready";
};

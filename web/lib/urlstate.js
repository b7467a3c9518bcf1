// The page's state in its URL: read once at start, kept current with replaceState.
// Views own their keys (tokenize: text, tokenizer; later: view, algo, corpus, step).
const MAX_TEXT_IN_URL = 2000; // longer texts are not put in the address bar

const params = new URLSearchParams(location.search);
let timer = 0;

export function get(key, fallback = null) {
  return params.has(key) ? params.get(key) : fallback;
}

export function set(values) {
  for (const [key, value] of Object.entries(values)) {
    const tooLong = key === "text" && typeof value === "string" && value.length > MAX_TEXT_IN_URL;
    if (value === null || value === undefined || value === "" || tooLong) params.delete(key);
    else params.set(key, String(value));
  }
  // Coalesce bursts (typing) into one history update.
  clearTimeout(timer);
  timer = setTimeout(() => {
    const query = params.toString();
    history.replaceState(history.state, "", query ? `?${query}` : location.pathname);
  }, 150);
}

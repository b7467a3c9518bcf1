// Building DOM nodes, the one way every module does it.
//
// No innerHTML anywhere: text goes in as textContent, so what a tokenizer or a user
// typed can never become markup.

const SVG = "http://www.w3.org/2000/svg";

// <tag class=className>text</tag>; a null or undefined text leaves the node empty.
export function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null && text !== undefined) node.textContent = String(text);
  return node;
}

// An SVG element with its attributes set (values turned into strings).
export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// Skip unchanged text: rewriting it would still invalidate style and layout.
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// A stylesheet added to the document's head once. `url` is resolved by the caller
// (new URL("./x.css", import.meta.url)), so each module names its own file; the page's
// CSP allows our own files.
const loaded = new Set();
const arriving = []; // one promise per sheet added here: settled once it applies (or fails)
let sheetsElsewhere = false;
export function loadCss(url) {
  if (sheetsElsewhere) return;
  const href = String(url);
  // Once per sheet, also when the page links it itself (index.html: share.css, for its first paint).
  if (loaded.has(href) || [.../** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll("link[rel=stylesheet]"))].some((l) => l.href === href)) return;
  loaded.add(href);
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  arriving.push(new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true }); // a missing sheet must not hang a view
  }));
  document.head.append(link);
}

// Resolves once every sheet loadCss has added so far applies: a view counts as drawn
// (its settled()) only with its own styles, which a slow network can hold back.
export function sheetsApplied() {
  return Promise.all(arriving).then(() => undefined);
}

// An embedded widget links every view's sheets inside its own shadow root (embed.js):
// the views must then not add them to the host page's head, where they would style the host.
export function keepSheetsOutOfHead() { sheetsElsewhere = true; }

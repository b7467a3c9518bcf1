// embed.html: one <subword-lab> configured by the URL's parameters (the element's attribute
// names, or the app's own link names: vocab_size, tie_break), in a frame without the site's
// header. The frame tells its parent how tall it is, so the host can size the <iframe>:
//   parent <- {type: "subwordlab:height", height}   (and subwordlab:ready / subwordlab:step)
import { ATTRIBUTES } from "./embed.js";

const params = new URLSearchParams(location.search);
const widget = document.createElement("subword-lab");
for (const name of ATTRIBUTES) {
  const value = params.get(name) ?? params.get(name.replace(/-/g, "_"));
  if (value !== null) widget.setAttribute(name, value);
}
if (!widget.hasAttribute("view")) widget.setAttribute("view", "tokenize");
if (params.get("lang")) document.documentElement.lang = params.get("lang");
document.getElementById("embed-root").append(widget);

const tell = (message) => {
  if (window.parent !== window) window.parent.postMessage(message, "*");
};
let last = -1;
const measure = () => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height !== last) {
    last = height;
    tell({ type: "subwordlab:height", height });
  }
};
new ResizeObserver(measure).observe(document.documentElement);
new ResizeObserver(measure).observe(widget);
widget.addEventListener("subwordlab:ready", (e) => { measure(); tell({ type: "subwordlab:ready", detail: e.detail }); });
widget.addEventListener("subwordlab:step", (e) => tell({ type: "subwordlab:step", detail: e.detail }));
widget.addEventListener("subwordlab:error", (e) => { measure(); tell({ type: "subwordlab:error", detail: e.detail }); });

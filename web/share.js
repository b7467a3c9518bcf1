// "Copy link" and "Copy embed code" in the page's header. The link is the page's own URL
// (every view keeps its state there: view, text, tokenizer, corpus, options, step); the embed
// code is the <script> + <subword-lab> snippet for the same state (see embed.js).
import { register, t } from "./i18n/index.js";
import { el, loadCss } from "./lib/dom.js";

register({
  en: {
    "share.label": "Share", "share.link": "Copy link", "share.embed": "Copy embed code",
    "share.field": "Text to copy", "share.copiedLink": "Link copied.",
    "share.copiedEmbed": "Embed code copied: paste it into your page.",
    "share.manual": "Your browser did not allow copying: the text is selected, press Ctrl+C (⌘C) to copy it.",
  },
  vi: {
    "share.label": "Chia sẻ", "share.link": "Sao chép liên kết", "share.embed": "Sao chép mã nhúng",
    "share.field": "Nội dung để sao chép", "share.copiedLink": "Đã sao chép liên kết.",
    "share.copiedEmbed": "Đã sao chép mã nhúng: hãy dán vào trang của bạn.",
    "share.manual": "Trình duyệt không cho phép sao chép: nội dung đã được chọn, hãy nhấn Ctrl+C (⌘C).",
  },
  zh: {
    "share.label": "分享", "share.link": "复制链接", "share.embed": "复制嵌入代码",
    "share.field": "要复制的文本", "share.copiedLink": "链接已复制。",
    "share.copiedEmbed": "嵌入代码已复制：把它粘贴到你的页面中。",
    "share.manual": "浏览器不允许复制：文本已选中，请按 Ctrl+C（⌘C）复制。",
  },
});

// URL parameter -> <subword-lab> attribute
const ATTRIBUTE = {
  view: "view", text: "text", tokenizer: "tokenizer", tokenizers: "tokenizers", algo: "algo",
  corpus: "corpus", vocab_size: "vocab-size", tie_break: "tie-break", method: "method",
  step: "step", lang: "lang",
};
const URL_SETTLE_MS = 200; // urlstate.js writes the address bar 150 ms after the last change

const escapeAttr = (value) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

// The URL parameters each view reads: the address bar keeps every view's state (the
// tokenize view's tokenizer while Train is shown), and a widget gets only its own.
const VIEW_PARAMS = {
  tokenize: ["text", "tokenizer"],
  pipeline: ["text", "tokenizer", "step"],
  train: ["algo", "corpus", "vocab_size", "tie_break", "method", "step"],
  encode: ["algo", "corpus", "text", "tokenizer", "step"],
  compare: ["text", "tokenizers"],
};

export function embedCode(href, base = new URL("./", import.meta.url)) {
  const params = new URL(href).searchParams;
  const view = params.get("view") || "tokenize";
  const own = new Set([...(VIEW_PARAMS[view] || Object.keys(ATTRIBUTE)), "view", "lang"]);
  if (view === "encode") {
    // on a course toy (algo + corpus) it reads no tokenizer; on a preset, no toy
    const toy = params.get("corpus") && params.get("algo");
    if (toy) own.delete("tokenizer");
    else if (params.get("tokenizer")) for (const key of ["algo", "corpus"]) own.delete(key);
  }
  const attrs = [];
  if (!params.has("view")) attrs.push('view="tokenize"');
  for (const [key, value] of params) {
    if (ATTRIBUTE[key] && own.has(key) && value !== "") attrs.push(`${ATTRIBUTE[key]}="${escapeAttr(value)}"`);
  }
  const script = new URL("embed.js", base).href;
  return `<script type="module" src="${script}"></script>\n<subword-lab ${attrs.join(" ")}></subword-lab>`;
}

// The address bar once the views have written their latest state to it.
export function currentLink() {
  return new Promise((resolve) => setTimeout(() => resolve(location.href), URL_SETTLE_MS));
}


export function mount({ container = document.querySelector("header.site") } = {}) {
  if (!container) return null;
  loadCss(new URL("./share.css", import.meta.url));
  // index.html holds the box's place from the first paint, so filling it moves nothing.
  const box = container.querySelector(":scope > .share") || el("div", "share");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("share.label"));
  const link = el("button", "button", t("share.link"));
  link.type = "button";
  link.dataset.testid = "copy-link";
  const embed = el("button", "button", t("share.embed"));
  embed.type = "button";
  embed.dataset.testid = "copy-embed";
  const field = el("textarea", "share-text");
  field.readOnly = true;
  field.rows = 1;
  field.hidden = true;
  field.dataset.testid = "share-text";
  field.setAttribute("aria-label", t("share.field"));
  const status = el("p", "share-status");
  status.dataset.testid = "share-status";
  status.setAttribute("role", "status");
  const buttons = el("div", "share-buttons");
  buttons.append(link, embed);
  box.append(buttons, status, field);
  container.append(box);

  const copy = async (kind) => {
    const href = await currentLink();
    const text = kind === "link" ? href : embedCode(href);
    field.value = text;
    field.rows = kind === "link" ? 1 : 2;
    field.hidden = false;
    box.dataset.copied = kind;
    let copied = false;
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
        copied = true;
      }
    } catch {
      copied = false; // no permission, or not a secure context: the selected field is the fallback
    }
    status.textContent = copied ? t(kind === "link" ? "share.copiedLink" : "share.copiedEmbed") : t("share.manual");
    field.focus();
    field.select();
  };
  link.addEventListener("click", () => copy("link"));
  embed.addEventListener("click", () => copy("embed"));
  return { link, embed, field, status };
}

// The tokens as data: a Tokens / Ids switch (ids as one plain list to select or copy),
// and the tokens copied or downloaded as JSON or CSV: token, text, id, start, end, bytes.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { tokenBytes, hexBytes, shown, tokenOptions } from "../../lib/tokens.js";
import "../../i18n/tokenize.js";

const utf8 = new TextEncoder();

// One row per token of the result. `token` is the vocabulary's spelling; `text` what its
// chip shows (what it decodes to, ␣ for a space, <E5 88> for part of a character);
// `bytes` its bytes as the vocabulary holds them (a byte-level token's bytes, a <0xNN>
// token's byte, else its UTF-8).
export function tokenRows(result, info) {
  return result.ids.map((id, i) => {
    const token = result.tokens[i];
    const bytes = tokenBytes(token, { byteLevel: Boolean(info?.byte_level) && !result.special[i] })
      ?? [...utf8.encode(token)];
    const [start, end] = result.offsets[i];
    const text = shown(token, tokenOptions(info, id, { special: Boolean(result.special[i]) }));
    return { token, text, id, start, end, bytes: hexBytes(bytes) };
  });
}

const csvCell = (value) => {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function toCsv(rows) {
  const head = "token,text,id,start,end,bytes";
  return [head, ...rows.map((r) => [r.token, r.text, r.id, r.start, r.end, r.bytes].map(csvCell).join(","))]
    .join("\r\n") + "\r\n";
}

function download(name, type, text) {
  const link = el("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

// `short`: a phone's label (style.css shows one of the two); the button's name is the long one.
function button(testid, key, onClick, short = "") {
  const b = el("button", "button small", short ? "" : t(key));
  if (short) {
    b.append(el("span", "label-long", t(key)), el("span", "label-short", t(short)));
    b.setAttribute("aria-label", t(key));
    b.title = t(key);
  }
  b.type = "button";
  b.dataset.testid = testid;
  b.addEventListener("click", onClick);
  return b;
}

export class TokenExport {
  // view: the tokenize view (its result, info and current key); tokens: the chip list.
  constructor(view, tokens) {
    this.view = view;
    this.tokens = tokens;
    this.mode = "tokens";
    this.idsText = el("pre", "ids-text");
    this.idsText.dataset.testid = "ids-text";
    this.idsText.tabIndex = 0;
    this.idsText.hidden = true;
    this.status = el("span", "export-status");
    this.status.setAttribute("role", "status");
    this.bar = this.toolbar();
    tokens.before(this.bar);
    tokens.after(this.idsText);
  }

  toolbar() {
    const bar = el("div", "export-bar");
    const group = el("div", "segmented");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", t("exp.show"));
    this.switches = ["tokens", "ids"].map((mode) => {
      const b = button(`show-${mode}`, `exp.${mode}`, () => this.show(mode));
      b.setAttribute("aria-pressed", String(mode === this.mode));
      group.append(b);
      return b;
    });
    bar.append(group,
      button("copy-ids", "exp.copyIds", () => this.copyIds()),
      button("download-json", "exp.json", () => this.save("json"), "exp.jsonShort"),
      button("download-csv", "exp.csv", () => this.save("csv"), "exp.csvShort"),
      this.status);
    return bar;
  }

  show(mode) {
    this.mode = mode;
    this.switches.forEach((b, i) => b.setAttribute("aria-pressed", String(["tokens", "ids"][i] === mode)));
    this.tokens.hidden = mode === "ids";
    this.idsText.hidden = mode !== "ids";
    this.update();
  }

  // Called after every render; the ids list is only written while it is shown.
  update() {
    const result = this.view.result;
    if (this.mode === "ids") this.idsText.textContent = result ? `[${result.ids.join(", ")}]` : "[]";
  }

  rows() {
    const { result, info, current } = this.view;
    return result ? tokenRows(result, info.get(current)) : [];
  }

  async copyIds() {
    const ids = JSON.stringify(this.view.result ? this.view.result.ids : []);
    try {
      await navigator.clipboard.writeText(ids);
      this.status.textContent = t("exp.copied");
    } catch {
      this.show("ids"); // no clipboard here: show the list, ready to select
      this.status.textContent = t("exp.selectToCopy");
    }
  }

  save(kind) {
    const rows = this.rows();
    const name = `tokens-${this.view.current || "tokenizer"}.${kind}`;
    if (kind === "json") download(name, "application/json", `${JSON.stringify(rows, null, 1)}\n`);
    else download(name, "text/csv", toCsv(rows));
    this.status.textContent = t("exp.saved", { name });
  }
}

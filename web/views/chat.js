// The Chat view (?view=chat&tokenizer=KEY&chat=[…]&gen=0): a conversation written into
// one text by the tokenizer's chat template, that text with its special tokens marked,
// its tokens, and what each message costs. Python does the work (web/chat.py, through
// the worker's `call` command, which loads Jinja2 on first use); this module only draws.
import { t } from "../i18n/index.js";
import { el, loadCss } from "../lib/dom.js";
import { labelled, option, statusLine, unknownLine, tell, tellStandIn } from "../lib/controls.js";
import { tokenChip } from "../lib/tokens.js";
import { loadTokenizer } from "../lib/tokenizers.js";
import { costLine, renderedText } from "./chat/draw.js";
import "./chat/strings.js";

const ROLES = ["system", "user", "assistant", "tool"];
const DEFAULT_MESSAGES = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "What is a token?" },
  { role: "assistant", content: "A piece of text the model reads as one unit." },
];
// Presets that carry a chat template: Qwen3's tokenizer_config.json, Phi-3's GGUF file.
const DEFAULT_TOKENIZERS = ["qwen3", "phi-3-gguf"];
const CHIPS = 2000; // drawn at most
const MAX_URL_CHAT = 1500; // a longer conversation is not put in the address bar

export function createView(context) {
  return new ChatView(context);
}

class ChatView {
  constructor(context) {
    this.context = context;
    this.root = context.root;
    this.run = 0;
    this.template = null; // the user's edited template, or null for the tokenizer's own
    this.jinjaAsked = false;
    this.settledPromise = Promise.resolve();
    this.typing = null; // {promise, done, timer} while a typed change waits for a pause
    loadCss(new URL("./encode.css", import.meta.url)); // the shared control classes
    loadCss(new URL("./chat.css", import.meta.url));
    this.build();
  }

  build() {
    const head = el("header", "chat-head");
    head.append(el("h2", "", t("chat.title")), el("p", "hint", t("chat.intro")));
    this.select = el("select", "enc-select");
    this.select.dataset.testid = "chat-tokenizer";
    this.select.addEventListener("change", () => { this.template = null; tell(this.unknown, ""); this.changed(); });
    this.generation = el("input");
    this.generation.type = "checkbox";
    this.generation.dataset.testid = "chat-generation";
    this.generation.addEventListener("change", () => this.changed());
    const genLabel = el("label", "chat-check");
    genLabel.append(this.generation, el("span", "", t("chat.generation")));
    const controls = el("div", "enc-controls");
    controls.append(labelled(t("chat.tokenizer"), this.select), genLabel);

    this.list = el("ol", "chat-messages");
    this.list.dataset.testid = "chat-messages";
    const add = el("button", "button chat-add", t("chat.add"));
    add.type = "button";
    add.dataset.testid = "chat-add";
    add.addEventListener("click", () => {
      const last = this.messages().at(-1)?.role;
      this.addMessage({ role: last === "user" ? "assistant" : "user", content: "" }).content.focus();
      this.changed();
    });
    const messages = el("section", "chat-panel");
    messages.append(el("h3", "enc-h", t("chat.messages")), this.list, add);

    this.error = el("p", "chat-error");
    this.error.dataset.testid = "chat-error";
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    this.status = statusLine("chat-status");
    this.unknown = unknownLine("chat-unknown");
    this.total = el("p", "chat-total");
    this.total.dataset.testid = "chat-total";
    this.rendered = el("pre", "chat-rendered");
    this.rendered.dataset.testid = "chat-rendered";
    this.tokens = el("div", "chat-tokens");
    this.tokens.dataset.testid = "chat-tokens";
    this.tokens.setAttribute("role", "group");
    this.tokens.setAttribute("aria-label", t("chat.tokens"));
    this.output = el("section", "chat-panel chat-output");
    this.output.append(this.total, el("h3", "enc-h", t("chat.rendered")),
      el("p", "hint", t("chat.renderedNote")), this.rendered, el("h3", "enc-h", t("chat.tokens")), this.tokens);

    this.root.replaceChildren(head, controls, this.unknown, messages, this.error, this.status, this.output, this.templateEditor());
  }

  templateEditor() {
    const box = el("details", "chat-panel chat-template");
    box.dataset.testid = "chat-template-box";
    const summary = el("summary", "", t("chat.template"));
    this.source = el("p", "hint");
    this.source.dataset.testid = "chat-template-source";
    this.editor = el("textarea", "enc-text chat-template-text");
    this.editor.rows = 8;
    this.editor.spellcheck = false;
    this.editor.dataset.testid = "chat-template";
    this.editor.setAttribute("aria-label", t("chat.template"));
    const apply = el("button", "button", t("chat.apply"));
    apply.type = "button";
    apply.dataset.testid = "chat-template-apply";
    apply.addEventListener("click", () => { this.template = this.editor.value; this.load(); });
    const reset = el("button", "button", t("chat.reset"));
    reset.type = "button";
    reset.dataset.testid = "chat-template-reset";
    reset.addEventListener("click", () => { this.template = null; this.load(); });
    const buttons = el("div", "chat-buttons");
    buttons.append(apply, reset);
    box.append(summary, this.source, this.editor, buttons);
    return box;
  }

  addMessage({ role, content }) {
    const item = el("li", "chat-message");
    item.dataset.testid = "chat-message";
    const roleSelect = el("select", "enc-select chat-role");
    roleSelect.dataset.testid = "chat-role";
    roleSelect.append(...ROLES.map((r) => option(r, t(`chat.role.${r}`))));
    roleSelect.value = ROLES.includes(role) ? role : "user";
    roleSelect.setAttribute("aria-label", t("chat.role"));
    const text = el("textarea", "enc-text chat-content");
    text.rows = 2;
    text.spellcheck = false;
    text.value = content;
    text.dataset.testid = "chat-content";
    const remove = el("button", "button chat-remove", t("chat.remove"));
    remove.type = "button";
    remove.dataset.testid = "chat-remove";
    const cost = el("p", "chat-cost");
    cost.dataset.testid = "chat-message-tokens";
    const top = el("div", "chat-message-top");
    top.append(roleSelect, remove);
    item.append(top, text, cost);
    roleSelect.addEventListener("change", () => { item.dataset.role = roleSelect.value; this.changed(); });
    text.addEventListener("input", () => this.typed());
    remove.addEventListener("click", () => { item.remove(); this.number(); this.changed(); });
    item.dataset.role = roleSelect.value;
    this.list.append(item);
    this.number();
    return { item, content: text };
  }

  // Labels name each message by its place (they change when one is removed).
  number() {
    [...this.list.children].forEach((item, i) => {
      item.querySelector(".chat-content").setAttribute("aria-label", t("chat.content", { n: i + 1 }));
      item.querySelector(".chat-remove").setAttribute("aria-label", t("chat.removeLabel", { n: i + 1 }));
    });
  }

  messages() {
    return [...this.list.children].map((item) => ({
      role: item.querySelector(".chat-role").value,
      content: item.querySelector(".chat-content").value,
    }));
  }

  options() {
    const presets = (this.context.manifest.presets || []).filter((p) => p.file);
    const known = new Set(presets.map((p) => p.id));
    const opened = (this.context.tokenize.tokenizerIds?.() || []).filter((id) => !known.has(id));
    return [...presets.map((p) => option(p.id, p.label)), ...opened.map((id) => option(id, id))];
  }

  activate() {
    this.context.placePlayer(null);
    const url = this.context.urlState;
    this.select.replaceChildren(...this.options());
    const ids = [...this.select.options].map((o) => o.value);
    const current = this.context.tokenize.current;
    const userFile = current && !(this.context.manifest.presets || []).some((p) => p.id === current);
    const asked = url.get("tokenizer", null);
    const wanted = [asked, userFile ? current : null, ...DEFAULT_TOKENIZERS, current];
    this.select.value = wanted.find((id) => id && ids.includes(id)) || ids[0] || "";
    tellStandIn(this.unknown, asked, !asked || ids.includes(asked), this.select);
    this.generation.checked = url.get("gen", "1") !== "0";
    let messages = DEFAULT_MESSAGES;
    try {
      const given = JSON.parse(url.get("chat", "null"));
      if (Array.isArray(given)) messages = given.filter((m) => m && typeof m.content === "string");
    } catch { /* a damaged link: the default conversation */ }
    this.list.replaceChildren();
    for (const message of messages) this.addMessage(message);
    this.load();
  }

  deactivate() { this.run++; }

  // Typing waits for a pause before rendering; settled() waits for that render too.
  async settled() {
    while (this.typing) await this.typing.promise;
    return this.settledPromise;
  }

  typed() {
    if (!this.typing) {
      let done;
      const promise = new Promise((resolve) => { done = resolve; });
      this.typing = { promise, done, timer: 0 };
    }
    clearTimeout(this.typing.timer);
    this.typing.timer = setTimeout(() => {
      const { done } = this.typing;
      this.typing = null;
      this.changed();
      done();
    }, 250);
  }

  changed() {
    const chat = JSON.stringify(this.messages());
    this.context.urlState.set({ tokenizer: this.select.value, gen: this.generation.checked ? null : "0",
      chat: chat.length <= MAX_URL_CHAT ? chat : null });
    this.load();
  }

  say(key, params) {
    this.status.textContent = key ? t(key, params) : "";
    this.status.hidden = !key;
  }

  showError(message) {
    this.error.textContent = message ? t("chat.error", { message }) : "";
    this.error.hidden = !message;
    this.root.dataset.state = message ? "error" : "ok";
  }

  load() {
    const run = ++this.run;
    this.settledPromise = this.go(run).catch((error) => {
      if (run !== this.run) return;
      this.say(null);
      this.showError(error.message || String(error));
      this.output.hidden = true;
    });
    return this.settledPromise;
  }

  async go(run) {
    const { engine } = this.context;
    if (engine.stage !== "ready") this.say("chat.waiting");
    await engine.ready;
    if (run !== this.run) return;
    const key = this.select.value;
    const info = await loadTokenizer(this.context, key);
    if (run !== this.run) return;
    this.say(this.jinjaAsked ? "chat.loading" : "chat.loadingJinja");
    this.jinjaAsked = true;
    const args = { key, messages: this.messages(), add_generation_prompt: this.generation.checked, template: this.template };
    const result = await engine.request("call", { name: "chat_render", args });
    if (run !== this.run) return;
    this.say(null);
    this.showError(null);
    this.draw(result, info);
  }

  draw(result, info) {
    const items = [...this.list.children];
    if (!result.has_template) {
      this.source.textContent = t("chat.noTemplate");
      this.say("chat.noTemplate");
      this.output.hidden = true;
      for (const item of items) item.querySelector(".chat-cost").textContent = "";
      return;
    }
    this.source.textContent = result.custom ? t("chat.templateCustom")
      : result.format ? t("chat.templatePublished", { format: result.format })
        : t("chat.templateFrom", { source: result.source });
    if (!result.custom && document.activeElement !== this.editor) this.editor.value = result.template;
    this.output.hidden = false;
    if (!result.messages.length) {
      this.say("chat.empty");
      this.output.hidden = true;
      return;
    }
    items.forEach((item, i) => costLine(item.querySelector(".chat-cost"), result.messages[i]));
    this.total.dataset.count = String(result.total);
    this.total.dataset.generation = String(result.generation);
    this.total.textContent = t("chat.total", { n: result.total })
      + (this.generation.checked ? ` · ${t("chat.generationCost", { n: result.generation })}` : "");
    this.rendered.replaceChildren(...renderedText(result));
    const n = result.ids.length;
    const chips = [];
    for (let i = 0; i < Math.min(n, CHIPS); i++) {
      chips.push(tokenChip(result.tokens[i], result.ids[i], info, { testid: "chat-token", special: Boolean(result.special[i]) }));
    }
    if (n > CHIPS) chips.push(el("p", "hint", t("chat.more", { n: n - CHIPS })));
    this.tokens.replaceChildren(...chips);
  }
}

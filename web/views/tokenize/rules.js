// Next to the picker: the rules the open tokenizer follows (for tiktoken ranks, which
// split pattern and where it comes from) and the choice "special tokens in text:
// recognise / as text", which starts at the file's own library's default.
//
// Both come from describe()'s `rules` (web/registry.py); a library without them leaves
// this line hidden and the encode call as it was. Tiktoken ranks carry no split rules,
// so for them a third control picks a known encoding's pattern and reopens the file.
import { t } from "../../i18n/index.js";
import "../../i18n/catalog.js";

export class RulesLine {
  // Set by the view: `engine` (web/lib/engine.js) and `infos` (key -> what describe() said).
  constructor({ root, choice, text, pattern, onChange, onError }) {
    this.root = root; this.choice = choice; this.text = text; this.pattern = pattern;
    this.onChange = onChange; this.onError = onError;
    /** @type {any} */ this.engine = null; // set by the view
    /** @type {Map<string, any> | null} */ this.infos = null; // set by the view
    /** @type {Map<string, string> | null} */ this.defaults = null;
    this.chosen = new Map(); // tokenizer key -> "recognise" | "as_text" chosen by the reader
    this.key = null;
    this.choice.addEventListener("change", () => {
      if (!this.key) return;
      this.chosen.set(this.key, this.choice.value);
      this.onChange();
    });
    this.pattern.select.addEventListener("change", () => {
      if (this.key && this.pattern.select.value) this.reopen(this.key, this.pattern.select.value);
    });
  }

  // Open the same file again with a known encoding's pattern (web/lib/engine.js keeps
  // the file's bytes); on failure the tokenizer stays as it was.
  async reopen(key, name) {
    try {
      const details = await this.engine.reopenWith(key, { pattern: name });
      const info = this.infos.get(key);
      this.show(key, Object.assign(info, details, { label: info.label }));
      this.onChange();
    } catch (error) {
      this.onError(t("cat.pattern.failed", { name, message: error.message }));
      this.showPatterns(this.infos.get(key).rules); // back to the pattern in force
    }
  }

  // The pattern choice, for tiktoken ranks only: the known encodings, the one in force
  // selected (an empty first entry when the file's pattern is none of them).
  showPatterns(rules) {
    const known = rules.format === "tiktoken" ? rules.known_patterns || [] : [];
    this.pattern.root.hidden = known.length === 0;
    if (!known.length) return;
    const entries = [...(rules.pattern_name ? [] : [{ name: "", title: t("cat.pattern.other") }]), ...known];
    this.pattern.select.replaceChildren(...entries.map(({ name, title }) => {
      const option = document.createElement("option");
      option.value = name;
      // The title alone ("GPT-4o / o-series (o200k_base)", "Llama 3"): with the name before
      // it, entries were too long for a phone's list; the name is the entry's tooltip.
      option.textContent = name ? patternTitle(name, title) : title;
      if (name) option.title = name;
      return option;
    }));
    this.pattern.select.value = rules.pattern_name || "";
  }

  // The choice in force for `key`, or null when the library offers none.
  specialTokens(key) {
    return this.defaults?.get(key) ? this.chosen.get(key) || this.defaults.get(key) : null;
  }

  show(key, info) {
    this.key = key;
    const rules = info && info.rules;
    this.defaults ??= new Map();
    if (!rules || !rules.special_tokens_default) {
      this.root.hidden = true;
      return;
    }
    this.defaults.set(key, rules.special_tokens_default);
    this.root.hidden = false;
    for (const option of this.choice.options) {
      const base = t(`cat.special.${option.value}`);
      option.textContent = option.value === rules.special_tokens_default
        ? t("cat.special.default", { choice: base }) : base;
    }
    this.choice.value = this.specialTokens(key);
    this.text.textContent = describeRules(rules);
    this.showPatterns(rules);
  }
}

// A known encoding's title in the page's language where it holds words ("English-only"),
// else as Python wrote it (a model name).
function patternTitle(name, title) {
  const key = `cat.patternTitle.${name}`;
  const text = t(key);
  return text === key ? title : text;
}

// Where the split pattern comes from, in the page's language (rules.pattern_origin; the
// English sentence rules.pattern_source when an older engine sent none).
function patternSource(rules) {
  if (!rules.pattern_origin) return rules.pattern_source || "";
  return t(`cat.rules.origin.${rules.pattern_origin}`, { name: rules.pattern_name || "" });
}

function describeRules(rules) {
  const parts = [];
  if (rules.format === "tiktoken") {
    parts.push(rules.pattern_name
      ? t("cat.rules.pattern", { name: rules.pattern_name, source: patternSource(rules) })
      : t("cat.rules.custom", { source: patternSource(rules) }));
  }
  if (rules.format === "gguf") {
    parts.push(t("cat.rules.gguf", {
      name: rules.name || "?", architecture: rules.architecture || "?",
      model: rules.model, pre: rules.pre_tokenizer || t("cat.rules.ggufPreDefault"),
    }));
    if (rules.chat_template) parts.push(t("cat.rules.ggufChat"));
    // Where llama.cpp departs from the model's own tokenizer (issue 26): the notes by key,
    // in the page's language.
    for (const { key, ...values } of rules.note_keys || []) parts.push(t(`cat.rules.note.${key}`, values));
  }
  if (rules.special_tokens_count != null) {
    const first = (rules.special_tokens_first || []).slice(0, 4).join(" ");
    parts.push(t("cat.rules.specials", { n: rules.special_tokens_count, first }));
  }
  return parts.join(" ");
}

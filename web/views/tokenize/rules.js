// Next to the picker: the rules the open tokenizer follows (for tiktoken ranks, which
// split pattern and where it comes from) and the choice "special tokens in text:
// recognise / as text", which starts at the file's own library's default.
//
// Both come from describe()'s `rules` (web/registry.py); a library without them leaves
// this line hidden and the encode call as it was.
import { t } from "../../i18n/index.js";
import "../../i18n/catalog.js";

export class RulesLine {
  constructor({ root, choice, text, onChange }) {
    Object.assign(this, { root, choice, text, onChange });
    this.chosen = new Map(); // tokenizer key -> "recognise" | "as_text" chosen by the reader
    this.key = null;
    this.choice.addEventListener("change", () => {
      if (!this.key) return;
      this.chosen.set(this.key, this.choice.value);
      this.onChange();
    });
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
  }
}

function describeRules(rules) {
  const parts = [];
  if (rules.format === "tiktoken") {
    parts.push(rules.pattern_name
      ? t("cat.rules.pattern", { name: rules.pattern_name, source: rules.pattern_source || "" })
      : t("cat.rules.custom", { source: rules.pattern_source || "" }));
  }
  if (rules.special_tokens_count != null) {
    const first = (rules.special_tokens_first || []).slice(0, 4).join(" ");
    parts.push(t("cat.rules.specials", { n: rules.special_tokens_count, first }));
  }
  return parts.join(" ");
}

// The interface's languages. Every string the page shows goes through t(key, params).
//
// Each module registers its own strings in every language (register({en: {...}, vi: {...},
// zh: {...}})), so views can be written side by side without touching one shared file.
// missing() lists keys that some language lacks: a test fails on any.
export const LANGUAGES = ["en", "vi", "zh"];
const catalogs = { en: {}, vi: {}, zh: {} };

function pick() {
  const wanted = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(wanted)) return wanted;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

let current = pick();

export function lang() { return current; }

// Change the language (the embed element sets it per widget; the page from ?lang=).
export function setLang(code) {
  if (LANGUAGES.includes(code)) current = code;
  return current;
}

export function register(strings) {
  for (const [code, table] of Object.entries(strings)) {
    if (!catalogs[code]) throw new Error(`unknown language ${code}`);
    // One key, one module: a second module registering it would change the first's words.
    const twice = Object.keys(table).filter((key) => key in catalogs[code]);
    if (twice.length) throw new Error(`strings registered twice: ${twice.join(", ")}`);
    Object.assign(catalogs[code], table);
  }
}

// t("train.merged", {pair: "u g", count: 20}) -> "Merged u + g (20 times)".
// A missing key falls back to English, then to the key itself, so a gap is visible, not fatal.
// A string may have plural forms, {one: "...", other: "..."}, chosen by the number `n`.
export function t(key, params = {}, code = current) {
  const entry = catalogs[code]?.[key] ?? catalogs.en[key] ?? key;
  const text = typeof entry === "string" ? entry : pluralForm(entry, params.n, code);
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? formatValue(params[name], code) : whole);
}

const pluralRules = new Map();
function pluralForm(forms, n, code) {
  if (!pluralRules.has(code)) pluralRules.set(code, new Intl.PluralRules(locale(code)));
  return forms[pluralRules.get(code).select(Number(n))] ?? forms.other;
}

function formatValue(value, code) {
  if (typeof value === "number" && Number.isInteger(value)) return formatNumber(value, code);
  return String(value);
}

const numberFormats = new Map();
export function formatNumber(value, code = current, options = {}) {
  const id = code + JSON.stringify(options);
  if (!numberFormats.has(id)) numberFormats.set(id, new Intl.NumberFormat(locale(code), options));
  return numberFormats.get(id).format(value);
}

export function locale(code = current) {
  return { en: "en-US", vi: "vi-VN", zh: "zh-CN" }[code] || "en-US";
}

// Fill static markup: data-i18n="key" sets textContent; data-i18n-attr="aria-label:key; title:key2".
export function translate(root, code = current) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n, {}, code);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key, {}, code));
    }
  }
}

// Every string registered in one language ({key: text or plural forms}), for the tests that
// look for English left in a translated page (tests/browser/english_check.py).
export function strings(code) {
  return { ...catalogs[code] };
}

// [[language, key], ...] for every key some language lacks.
export function missing() {
  const keys = new Set(LANGUAGES.flatMap((code) => Object.keys(catalogs[code])));
  const gaps = [];
  for (const code of LANGUAGES) {
    for (const key of keys) if (!(key in catalogs[code])) gaps.push([code, key]);
  }
  return gaps;
}

// The tokenizer picker: the catalog's presets in a native <select> grouped by family (the
// automation contract's `tokenizer-select`), a filter box above it, a line of details
// (family, algorithm, vocabulary, source, licence) and the download progress.
//
// The filter box hides the entries that do not match; ↓/↑ in it move through the ones
// left and Enter picks the one selected, so the keyboard never has to leave the box.
import { t } from "../../i18n/index.js";
import { el, loadCss } from "../../lib/dom.js";
import { megabytes } from "../../lib/presets.js";
import "../../i18n/catalog.js";
import { missingText } from "../../i18n/presets.js";

const number = (n) => (n == null ? "?" : Number(n).toLocaleString("en-US"));

// The file's size; for a big tokenizer.json, also what is downloaded instead (the form
// the build pre-read, smaller and much quicker to open), which the progress bar counts.
function sizeText(preset) {
  const size = preset.size ? megabytes(preset.size) : "?";
  return preset.pack ? t("cat.packedSize", { size, download: megabytes(preset.pack.size) }) : size;
}

// "GPT-4o / o-series · o200k_base": the model family and model, so the chosen entry names
// the model and fits a closed list on a phone; its algorithm, size and the package it comes
// from are in the details line (showDetails), not here, where the package read as the maker.
export function entryText(preset) {
  if (!preset.file) return t("cat.unavailable", { name: preset.label || preset.name });
  return t("cat.entry", {
    name: preset.label || preset.name, algorithm: preset.algorithm || "", n: number(preset.vocab_size),
  });
}

// How well a filter matches an entry: 0 when every word starts a word of its names (family,
// model, id), 1 when every word is inside its names, 2 when some word is found only in the
// algorithm or source ("3" in "3.7.2"), null when some word is nowhere. Names come first,
// so "llama 3" puts Llama 3 before Llama 2.
export function matchRank(words, names, other) {
  let rank = 0;
  for (const word of words) {
    const starts = names.split(/[^\p{L}\p{N}]+/u).some((part) => part.startsWith(word))
      || names.split(/\s+/).some((part) => part.startsWith(word));
    if (starts) continue;
    if (names.includes(word)) rank = Math.max(rank, 1);
    else if (other.includes(word)) rank = 2;
    else return null;
  }
  return rank;
}

// The licence texts shipped beside a preset's file, as links, and the notice its licence
// asks to show while the model is in use ("Built with Meta Llama 3").
export function licenceParts(preset) {
  const parts = [];
  const files = preset.licence_files || [];
  if (files.length) {
    const links = el("span", "licence-files");
    links.dataset.testid = "licence-files";
    links.append(` ${t("cat.licenceTexts")} `);
    files.forEach(({ name, file }, i) => {
      const link = el("a", "", name);
      link.href = new URL(`../../${file}`, import.meta.url).href; // file is site-relative
      link.target = "_blank";
      link.rel = "noopener";
      links.append(...(i ? [", ", link] : [link]));
    });
    links.append(".");
    parts.push(links);
  }
  if (preset.notice) {
    const notice = el("strong", "preset-notice", ` ${preset.notice}`);
    notice.dataset.testid = "preset-notice";
    parts.push(notice);
  }
  return parts;
}

export class Picker {
  constructor({ select, presetsGroup, filter, details, progress, onPick }) {
    this.select = select; this.presetsGroup = presetsGroup; this.filter = filter;
    this.details = details; this.progress = progress; this.onPick = onPick;
    this.presets = new Map();
  }

  fill(presets) {
    const groups = new Map();
    for (const preset of presets) {
      const family = preset.family || t("tok.presets");
      if (!groups.has(family)) {
        const group = el("optgroup");
        group.label = family;
        group.dataset.family = family;
        groups.set(family, group);
      }
      const option = el("option", "", entryText(preset));
      option.value = preset.id;
      option.disabled = !preset.file;
      const english = preset.english || {}; // (the page's language, then English: web/i18n/presets.js)
      option.dataset.names = [family, preset.name, preset.label, preset.id, english.family, english.name]
        .filter(Boolean).join(" ").toLowerCase();
      option.dataset.search = [preset.algorithm, english.algorithm, preset.source].filter(Boolean).join(" ").toLowerCase();
      groups.get(family).append(option);
      this.presets.set(preset.id, preset);
    }
    // The families replace the old single "Presets" group, in the same place.
    this.presetsGroup.replaceWith(...groups.values());
    this.groups = [...groups.values()];
    // What the filter found, said next to it: the closed select alone shows no change.
    loadCss(new URL("./notes.css", import.meta.url));
    this.status = el("p", "filter-status");
    this.status.dataset.testid = "filter-status";
    this.status.setAttribute("role", "status");
    this.status.hidden = true;
    this.select.after(this.status);
    this.filter.addEventListener("input", () => this.applyFilter());
    this.filter.addEventListener("keydown", (event) => this.filterKey(event));
    this.select.addEventListener("change", () => this.showDetails(this.select.value));
  }

  // The entries the filter leaves, best match first (then in catalog order).
  visibleOptions() {
    const options = this.groups.flatMap((g) => [...g.children]).filter((o) => !o.hidden && !o.disabled);
    const rank = (o) => Number(o.dataset.rank || 0);
    return options.map((o, i) => [o, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([o]) => o);
  }

  applyFilter() {
    this.fresh = true;
    const words = this.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const group of this.groups) {
      let shown = 0;
      for (const option of group.children) {
        const rank = option.dataset.names === undefined ? (words.length ? null : 0)
          : matchRank(words, option.dataset.names, option.dataset.search);
        option.hidden = rank === null;
        option.dataset.rank = String(rank ?? 0);
        if (!option.hidden) shown += 1;
      }
      group.hidden = shown === 0;
    }
    const options = this.visibleOptions();
    const count = options.length;
    this.filter.setAttribute("aria-description", t("cat.matches", { n: count }));
    this.select.dataset.matches = String(count);
    this.status.hidden = !words.length;
    this.status.textContent = !words.length ? ""
      : count ? t("cat.filterBest", { n: count, best: this.presets.get(options[0].value)?.label || options[0].textContent })
        : t("cat.filterNone", { filter: this.filter.value.trim() });
  }

  filterKey(event) {
    const options = this.visibleOptions();
    if (!options.length) return;
    // Right after typing, ↓ and Enter start from the best match, not from the entry in use.
    const at = this.fresh ? -1 : options.findIndex((o) => o.value === this.select.value);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      const next = options[(Math.max(at, step > 0 ? -1 : 0) + step + options.length) % options.length];
      this.fresh = false;
      this.select.value = next.value;
      this.showDetails(next.value);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const chosen = at >= 0 ? options[at] : options[0];
      this.onPick(chosen.value);
    }
  }

  showDetails(key) {
    const preset = this.presets.get(key);
    if (!preset) {
      this.details.hidden = true;
      return;
    }
    this.details.hidden = false;
    this.details.textContent = t("cat.details", {
      family: preset.family, name: preset.name || preset.label, algorithm: preset.algorithm,
      n: number(preset.vocab_size), size: sizeText(preset),
      source: preset.source, licence: preset.licence,
    });
    this.details.append(...licenceParts(preset));
  }

  // {stage: "download"|"cached"|"opening"|"done", received, total}
  showProgress(key, { stage, received = 0, total = 0 }) {
    const preset = this.presets.get(key);
    const name = preset ? preset.name || preset.label : key;
    const bar = this.progress.querySelector("progress");
    const label = this.progress.querySelector("span");
    this.progress.hidden = stage === "done";
    this.progress.dataset.stage = stage;
    if (stage === "download") {
      bar.max = total || 1;
      bar.value = received;
      label.textContent = t("cat.downloading", { name, received: megabytes(received),
        total: total ? megabytes(total) : "?" });
    } else if (stage === "opening" || stage === "cached") {
      bar.removeAttribute("value"); // an indeterminate bar: Python is reading the file
      label.textContent = t("cat.opening", { name });
    }
  }
}

// The note for the missing presets `asked` (the same reason once, after all the presets it
// keeps out), and that presets failed to load when they did (`error`); "" for none.
export function missingNote(asked, error) {
  const notes = [];
  const byReason = new Map();
  for (const preset of asked) byReason.set(missingText(preset), [...byReason.get(missingText(preset)) || [], preset.label]);
  const why = [...byReason].map(([missing, labels]) => t("cat.why", { label: labels.join(", "), missing }));
  if (why.length) notes.push(t("cat.notShipped", { list: why.join(" ") }));
  if (error) notes.push(t("tok.presetsFailed", { error }));
  return notes.length ? [...notes, t("tok.ownFile")].join(" ") : "";
}

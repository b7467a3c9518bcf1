// The tokenizer picker: the catalog's presets in a native <select> grouped by family (the
// automation contract's `tokenizer-select`), a filter box above it, a line of details
// (family, algorithm, vocabulary, source, licence) and the download progress.
//
// The filter box hides the entries that do not match; ↓/↑ in it move through the ones
// left and Enter picks the one selected, so the keyboard never has to leave the box.
import { t } from "../../i18n/index.js";
import { el } from "../../lib/dom.js";
import { megabytes } from "../../lib/presets.js";
import "../../i18n/catalog.js";

const number = (n) => (n == null ? "?" : Number(n).toLocaleString("en-US"));

// The file's size; for a big tokenizer.json, also what is downloaded instead (the form
// the build pre-read, smaller and much quicker to open), which the progress bar counts.
function sizeText(preset) {
  const size = preset.size ? megabytes(preset.size) : "?";
  return preset.pack ? t("cat.packedSize", { size, download: megabytes(preset.pack.size) }) : size;
}

// "o200k_base · byte-level BPE · 199,998 tokens · pypi: litellm==1.109.1"
export function entryText(preset) {
  if (!preset.file) return t("cat.unavailable", { name: preset.name || preset.label });
  return t("cat.entry", {
    name: preset.name || preset.label, algorithm: preset.algorithm || "",
    n: number(preset.vocab_size), source: preset.source || "",
  });
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
      option.dataset.search = [preset.id, family, preset.name, preset.label, preset.algorithm,
        preset.source].join(" ").toLowerCase();
      groups.get(family).append(option);
      this.presets.set(preset.id, preset);
    }
    // The families replace the old single "Presets" group, in the same place.
    this.presetsGroup.replaceWith(...groups.values());
    this.groups = [...groups.values()];
    this.filter.addEventListener("input", () => this.applyFilter());
    this.filter.addEventListener("keydown", (event) => this.filterKey(event));
    this.select.addEventListener("change", () => this.showDetails(this.select.value));
  }

  visibleOptions() {
    return this.groups.flatMap((g) => [...g.children]).filter((o) => !o.hidden && !o.disabled);
  }

  applyFilter() {
    const words = this.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const group of this.groups) {
      let shown = 0;
      for (const option of group.children) {
        option.hidden = !words.every((w) => option.dataset.search.includes(w));
        if (!option.hidden) shown += 1;
      }
      group.hidden = shown === 0;
    }
    const count = this.visibleOptions().length;
    this.filter.setAttribute("aria-description", t("cat.matches", { n: count }));
    this.select.dataset.matches = String(count);
  }

  filterKey(event) {
    const options = this.visibleOptions();
    if (!options.length) return;
    const at = options.findIndex((o) => o.value === this.select.value);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      const next = options[(Math.max(at, step > 0 ? -1 : 0) + step + options.length) % options.length];
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

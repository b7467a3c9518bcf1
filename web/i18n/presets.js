// The catalog's own words in the page's language. presets.json is written in English by
// tools/catalog.py; families, model names and algorithms that hold words ("o-series",
// "legacy", "byte-level") are translated here, keyed by the English family and algorithm and
// by the preset's id. Names without words (Llama 3, cl100k_base) stay as they are.
import { register, t, lang } from "./index.js";

register({
  en: {
    "preset.family.GPT-4o / o-series": "GPT-4o / o-series",
    "preset.family.sentencepiece tests": "sentencepiece tests",
    "preset.algorithm.byte-level BPE": "byte-level BPE",
    "preset.name.whisper-multilingual": "Whisper multilingual",
    "preset.name.claude-legacy": "Claude (legacy, before Claude 3)",
    "preset.name.xlm-roberta": "XLM-R, 100 languages (multilingual-e5-small)",
    "preset.name.kyoto-unigram": "Kyoto Unigram (Japanese)",
  },
  vi: {
    "preset.family.GPT-4o / o-series": "GPT-4o / dòng o",
    "preset.family.sentencepiece tests": "mẫu sentencepiece",
    "preset.algorithm.byte-level BPE": "BPE mức byte",
    "preset.name.whisper-multilingual": "Whisper đa ngôn ngữ",
    "preset.name.claude-legacy": "Claude (bản cũ, trước Claude 3)",
    "preset.name.xlm-roberta": "XLM-R, 100 ngôn ngữ (multilingual-e5-small)",
    "preset.name.kyoto-unigram": "Kyoto Unigram (tiếng Nhật)",
  },
  zh: {
    "preset.family.GPT-4o / o-series": "GPT-4o / o 系列",
    "preset.family.sentencepiece tests": "sentencepiece 测试",
    "preset.algorithm.byte-level BPE": "字节级 BPE",
    "preset.name.whisper-multilingual": "Whisper 多语言",
    "preset.name.claude-legacy": "Claude（旧版，Claude 3 之前）",
    "preset.name.xlm-roberta": "XLM-R，100 种语言（multilingual-e5-small）",
    "preset.name.kyoto-unigram": "Kyoto Unigram（日语）",
  },
});

function word(key, fallback, code) {
  const text = t(key, {}, code);
  return text === key ? fallback : text;
}

// The manifest with each preset's family, name, label and algorithm in language `code`; the
// English ones stay in `english` (the filter box matches both).
export function localizePresets(manifest, code = lang()) {
  const presets = (manifest.presets || []).map((p) => {
    const family = word(`preset.family.${p.family}`, p.family, code);
    const name = word(`preset.name.${p.id}`, p.name, code);
    const label = p.label === p.name ? name : `${family} · ${name}`;
    const algorithm = word(`preset.algorithm.${p.algorithm}`, p.algorithm, code);
    return { ...p, family, name, label, algorithm,
      english: { family: p.family, name: p.name, label: p.label, algorithm: p.algorithm } };
  });
  return { ...manifest, presets };
}

// Why a preset is not in this build, in the page's language (the manifest's missing_reason,
// tools/catalog.py; web/i18n/catalog.js words it); its English sentence when there is no code.
export function missingText(preset) {
  const reason = preset.missing_reason;
  if (!reason || reason.code === "not-fetched" || reason.code === "not-read-yet") return preset.missing;
  return t(`cat.missing.${reason.code}`, reason);
}

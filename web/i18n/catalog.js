// The catalog picker's strings (web/views/tokenize/picker.js).
import { register } from "./index.js";

register({
  en: {
    "cat.filter": "Filter tokenizers",
    "cat.filterPlaceholder": "Filter: gpt, llama, unigram…",
    "cat.entry": "{name} · {algorithm} · {n} tokens · {source}",
    "cat.unavailable": "{name}: not in this build",
    "cat.matches": { one: "1 tokenizer matches", other: "{n} tokenizers match" },
    "cat.details": "{family}: {name}, {algorithm}, {n} tokens, {size} file, from {source}; licence: {licence}.",
    "cat.downloading": "Downloading {name}: {received} of {total}",
    "cat.opening": "Opening {name}…",
    "cat.notShipped": "Not in this build: {list}",
    "cat.why": "{label}, because {missing}",
  },
  vi: {
    "cat.filter": "Lọc bộ tách token",
    "cat.filterPlaceholder": "Lọc: gpt, llama, unigram…",
    "cat.entry": "{name} · {algorithm} · {n} token · {source}",
    "cat.unavailable": "{name}: không có trong bản dựng này",
    "cat.matches": "{n} bộ tách token khớp",
    "cat.details": "{family}: {name}, {algorithm}, {n} token, tệp {size}, từ {source}; giấy phép: {licence}.",
    "cat.downloading": "Đang tải {name}: {received} / {total}",
    "cat.opening": "Đang mở {name}…",
    "cat.notShipped": "Không có trong bản dựng này: {list}",
    "cat.why": "{label}, vì {missing}",
  },
  zh: {
    "cat.filter": "筛选分词器",
    "cat.filterPlaceholder": "筛选：gpt、llama、unigram…",
    "cat.entry": "{name} · {algorithm} · {n} 个词元 · {source}",
    "cat.unavailable": "{name}：此版本未包含",
    "cat.matches": "{n} 个分词器匹配",
    "cat.details": "{family}：{name}，{algorithm}，{n} 个词元，文件 {size}，来自 {source}；许可：{licence}。",
    "cat.downloading": "正在下载 {name}：{received} / {total}",
    "cat.opening": "正在打开 {name}…",
    "cat.notShipped": "此版本未包含：{list}",
    "cat.why": "{label}，原因：{missing}",
  },
});

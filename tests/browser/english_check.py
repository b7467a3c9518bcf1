"""English left in a translated page: a check any browser test can run on any view.

`english_left(page)` walks what the page shows a reader, in the language it is set to (vi or
zh): the text of every element that is rendered (not `hidden`, not display:none, options of
a select included: they show when it opens) and the user-facing attributes `aria-label`,
`title`, `placeholder`, `alt` and `aria-description`. It returns each string that holds an
English word, with the word.

What counts as English: a word (letters only, ASCII) that the page's English strings use
(web/i18n, read from the page: i18n/index.js `strings("en")`) and that the page's strings in
its own language never use (so "token", "Python" or "BPE", written the same in Vietnamese,
are not English), plus a short list of common English words that Python's messages and the
catalog's data may carry (COMMON). Not read, because they are data and not interface:
what the user typed (textarea, input values), tokens and vocabulary items (.tok and the
elements marked `data-data`, see DATA), code (<code>, <kbd>, <pre>) and the language picker
(each language names itself).

NAMES is the short, documented list of words that are names, not English words, though the
English strings use them: models, products, libraries and file formats. A word added there
must be a name in every language.
"""
from __future__ import annotations

import re

# Names: the same in every language (models, makers, libraries, formats, keys).
NAMES = {
    "gpt", "llama", "gemma", "mistral", "qwen", "deepseek", "claude", "whisper", "bert", "xlm",
    "roberta", "codex", "davinci", "openai", "meta", "google", "anthropic", "botchan", "kyoto",
    "wordpiece", "unigram", "bpe", "tiktoken", "sentencepiece", "tokenizers", "tokenizer",
    "json", "txt", "model", "tekken", "pyodide", "python", "apache", "mit",
    "enter", "ctrl", "esc", "tab", "shift", "home", "end", "pypi", "npm", "em", "viterbi",
    "unicode", "utf", "nfc", "nfkc", "nfd", "nfkd", "regex", "html", "url", "id", "ids",
    "cls", "sep", "unk", "pad", "mask", "endoftext", "base", "edit", "lenml", "litellm",
    "dashscope", "semantra", "davinci", "whisper", "llm", "kb", "mb",
}

# Names of several words, some of them English words: read as one name.
NAME_PHRASES = ("Mistral Large", "Hugging Face", "Llama 4 Community License", "Nomic Embed", "Gemma Terms of Use",
                "Built with (Meta) Llama", "Built with Llama")  # the last two: notices the licences want word for word

# Common English words that Python's messages and the catalog's data may carry even when no
# English interface string uses them.
COMMON = {
    "the", "and", "of", "is", "are", "in", "not", "this", "that", "from", "with", "by",
    "for", "its", "it", "or", "be", "was", "were", "has", "have", "which", "only", "no",
    "could", "cannot", "can", "will", "your", "you", "as", "at", "on", "if", "all", "any",
    "known", "encoding", "pattern", "default", "chosen", "file", "files", "legacy", "before",
    "multilingual", "japanese", "english", "test", "models", "terms", "licence", "package",
    "shipped", "missing", "error", "failed", "loading", "open", "opened", "choose", "another",
}

# Elements whose text is data (tokens, vocabulary, words of a corpus), marked by the views.
DATA = ("textarea, input, select#lang-select, [data-testid=lang-select], script, style, code, kbd, pre, "
        ".tok, .backdrop, [data-data], [data-testid=tokens], [data-testid=vocab-item], "
        "[data-testid=token], [data-testid=pair], [data-testid=word], [translate=no]")

SHOWN = """(skip) => {
  const out = [];
  const gone = (el) => { for (let e = el; e; e = e.parentElement) { if (e.hidden) return true;
      if (e.tagName !== 'OPTION' && e.tagName !== 'OPTGROUP' && getComputedStyle(e).display === 'none') return true; }
    return false; };
  const walk = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.data.trim();
      if (text && el && !el.closest(skip) && !gone(el)) out.push([text, el.tagName.toLowerCase()]);
    }
    for (const el of root.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-description], optgroup[label]')) {
      if (el.closest(skip) && !el.matches('select, input, textarea')) continue;
      if (gone(el)) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'label']) {
        const value = el.getAttribute(attr);
        if (value && value.trim() && (attr !== 'label' || el.tagName === 'OPTGROUP')) out.push([value.trim(), `${el.tagName.toLowerCase()}@${attr}`]);
      }
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document.body);
  out.push([document.title, 'title']);
  return out;
}"""

CATALOGS = """async () => {
  const i18n = await import(new URL('i18n/index.js', document.baseURI).href);
  const lang = i18n.lang();
  const flat = (table) => Object.values(table).flatMap((v) => typeof v === 'string' ? [v] : Object.values(v));
  return { lang, en: flat(i18n.strings('en')), own: flat(i18n.strings(lang)) };
}"""

WORD = re.compile(r"[^\W\d_]+")


COMPOUND = re.compile(r"[\w.]+(?:-[\w.]+)+|\w+_\w+")


def _identifier(compound: str) -> bool:
    """A hyphenated package, file or model name (llama-models, multilingual-e5-small,
    text-davinci, whisper_multilingual): it has a digit, an underscore or a part that is a
    name. "byte-level" and "English-only" are not: their words are checked."""
    if "_" in compound:
        return True
    parts = compound.lower().split("-")
    return any(ch.isdigit() for ch in compound) or any(part in NAMES for part in parts)


def _words(text: str) -> set[str]:
    text = re.sub(r"\{\w+\}", " ", text)
    for phrase in NAME_PHRASES:
        text = text.replace(phrase, " ")
    text = COMPOUND.sub(lambda m: " " if _identifier(m.group()) else m.group(), text)
    return {w.lower() for w in WORD.findall(text) if w.isascii() and len(w) > 1}


def english_vocabulary(page) -> tuple[str, set[str]]:
    """(the page's language, the words that are English in it)."""
    catalogs = page.evaluate(CATALOGS)
    english = set().union(*map(_words, catalogs["en"]))
    own = set().union(*map(_words, catalogs["own"]))
    return catalogs["lang"], ((english - own) | COMMON) - NAMES


def english_in(text: str, vocabulary: set[str]) -> set[str]:
    """The English words of `text`, by a vocabulary from english_vocabulary()."""
    return _words(text) & vocabulary


def english_left(page) -> list[tuple[str, str, str]]:
    """[(english word, the string it is in, where)] on a page set to a language other than
    English; [] on an English page."""
    lang, vocabulary = english_vocabulary(page)
    if lang == "en":
        return []
    found = []
    for text, where in page.evaluate(SHOWN, DATA):
        for word in sorted(_words(text) & vocabulary):
            found.append((word, text[:160], where))
    return found


def described(left: list[tuple[str, str, str]]) -> list[str]:
    """english_left()'s findings, one line each: the word, the string it is in, where."""
    return [f"{word!r} in {text!r} ({where})" for word, text, where in left]


# The other signs of an interface not translated, in any language: a string drawn as its bare
# key, a key with no translation, the known labels left in English, the page's own language
# not the one asked for. Every text node outside the user's text, the tokens and <code>, and
# every user-facing attribute.
VISIBLE_STRINGS = """() => {
  const out = [];
  const skip = (el) => el.closest("textarea, script, style, code, [data-testid=tokens], .backdrop");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data.trim();
    if (text && !skip(node.parentElement)) out.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const attr of ["aria-label", "title", "placeholder"]) {
      const value = el.getAttribute(attr);
      if (value && !skip(el)) out.push(value.trim());
    }
  }
  out.push(document.title);
  const narration = [...document.querySelectorAll("[data-testid=narration]")]
    .find((el) => el.getClientRects().length > 0);
  return { strings: out, lang: window.subwordLab.lang(), html: document.documentElement.lang,
           missing: window.subwordLab.missingStrings(),
           tab: document.querySelector("[data-testid=view-tab-tokenize]").textContent,
           narration: narration ? narration.textContent.trim() : null };
}"""
KEY_LIKE = re.compile(r"^[a-z]+\.[a-zA-Z.]+$")
# English labels the page shows in every view; none may survive a translation.
ENGLISH = {"Tokenize", "Pipeline", "Train", "Compare", "Encode step by step", "Play", "Step forward",
           "Python is ready", "Language", "Views"}


def untranslated(page, lang: str, player: bool = False) -> list[str]:
    """What shows that the page, asked for in `lang`, is not wholly in it (one line each);
    `player`: the view has a player, whose narration must be said. English left in a word of
    a longer string is english_left()'s to find."""
    seen = page.evaluate(VISIBLE_STRINGS)
    problems = [f"the page's language is {seen[key]!r}, not {lang!r} ({key})"
                for key in ("lang", "html") if seen[key] != lang]
    problems += [f"no translation: {key}" for key in seen["missing"]]
    problems += [f"a bare key: {s!r}" for s in seen["strings"] if KEY_LIKE.match(s)]
    if player and not seen["narration"]:
        problems.append("the player says nothing")
    if lang != "en":
        problems += [f"left in English: {s!r}" for s in sorted(ENGLISH & set(seen["strings"]))]
    if (seen["tab"] == "Tokenize") != (lang == "en"):
        problems.append(f"the Tokenize tab reads {seen['tab']!r} in {lang}")
    return problems

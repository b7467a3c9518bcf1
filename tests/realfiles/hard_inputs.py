"""Hard inputs for tokenizer parity: the texts on which tokenizers tend to differ.

`hard_inputs(botchan=None)` returns the same list every time (a seeded generator,
standard library only): short fragments of many kinds on their own, then mixes of
them, then a few documents of 5-20 KB built from tests/data/multilingual.txt and,
when given, botchan.txt. Each text is a (name, text) pair; the name says where it
came from, so a mismatch report points at the kind of input.

    python3 tests/realfiles/hard_inputs.py    # counts by kind, and a sample
"""
from __future__ import annotations

import random
from pathlib import Path

SEED = 20261123
MULTILINGUAL = Path(__file__).resolve().parent.parent / "data" / "multilingual.txt"

# Words and phrases in many scripts (our own, ordinary words and greetings).
SCRIPTS = {
    "latin-diacritics": ["Ångström façade naïve", "Dvořák Œuvre señoría", "İstanbul ığdır ŞŞ",
                         "Nguyễn Thị Ánh", "fjörður æðardúnn", "ǅemal ǈubljana ǋ"],
    "cyrillic": ["Привет, мир", "Добрый вечер ЁЖ", "Қазақ тілі ғылым", "Српски Ђорђе"],
    "greek": ["Καλημέρα κόσμε", "ΑΒΓΔ αβγδ ς", "ὁ ἄνθρωπος ᾧ"],
    "arabic": ["مرحبا بكم", "السَّلَامُ عَلَيْكُمْ", "٠١٢٣٤٥٦٧٨٩ رقم", "كتاب‌ها فارسی"],
    "hebrew": ["שלום לכולם", "בְּרֵאשִׁית", "ירושלים 2024"],
    "devanagari": ["नमस्ते दोस्तों", "क्षत्रिय ज्ञान", "१२३ हिन्दी"],
    "bengali": ["আমি বাংলায় গান গাই", "ক্ষুধা ১২৩"],
    "tamil": ["வணக்கம் உலகம்", "தமிழ் மொழி"],
    "telugu": ["నమస్కారం", "తెలుగు భాష"],
    "thai": ["สวัสดีครับ", "ภาษาไทยไม่มีช่องว่าง"],
    "khmer": ["សួស្តី ពិភពលោក", "ភាសាខ្មែរ"],
    "lao-myanmar": ["ສະບາຍດີ", "မင်္ဂလာပါ"],
    "cjk": ["你好世界", "東京都渋谷区", "中華人民共和國", "𠀀𠀁𪚥 extension B"],
    "hangul": ["안녕하세요 세계", "한국어 문장입니다", "ㄱㄴㄷ ᄀᄂᄃ"],
    "kana": ["こんにちは世界", "カタカナとひらがな", "ｶﾀｶﾅ 半角", "ゔぁゔぃ"],
    "ethiopic": ["ሰላም ለዓለም", "አማርኛ ፩፪፫"],
    "georgian": ["გამარჯობა მსოფლიო", "ქართული"],
    "armenian": ["Բարեւ աշխարհ", "հայերեն"],
    "others": ["ᏣᎳᎩ Cherokee", "ᐃᓄᒃᑎᑐᑦ Inuktitut", "ܫܠܡܐ Syriac", "ދިވެހި Thaana",
               "ꦗꦮ Javanese", "ߒߞߏ N'Ko", "ⴰⵣⵓⵍ Tifinagh", "𓀀𓁐 hieroglyphs"],
}

EMOJI = ["😀", "👍🏽", "👍🏿", "👩🏾‍💻", "👨‍👩‍👧‍👦", "🧑🏻‍🤝‍🧑🏿", "🏳️‍🌈", "🏴‍☠️",
         "🇯🇵", "🇫🇷🇩🇪", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "1️⃣", "#️⃣", "❤️", "☺︎", "🫠", "🤌🏼",
         "👁️‍🗨️", "🐈‍⬛"]

COMBINING = ["e\u0301", "a\u0300\u0323", "n\u0303o", "Z\u0351\u0325a\u0310l\u0354g\u0308o",
             "\u0301leading mark", "x\u20dd", "q\u0307\u0323\u0304", "ᄀ\u1161\u11a8",
             "\u0915\u094d\u200d\u0937", "ﷺ", "ﬁ ﬂ ﬀ", "Ⅻ ⅻ ①②", "ＡＢＣ１２３"]

WHITESPACE = [" ", "  ", "    ", "\t", "\t\t", "\u00a0", "\u3000", "\r\n", "\n", "\n\n",
              " \n ", "\u2009", "\u200b", "\u2028", "\r", " \t \u00a0 "]

CODE = [
    "def f(x):\n    return x ** 2  # square\n",
    "for i in range(10):\n\tprint(i, end='')\n",
    "class A:\n    def __init__(self):\n        self.items = []\n",
    "const add = (a, b) => a + b;\nconsole.log(add(1, 2));",
    "if (x !== undefined && y >= 0) { return `${x}-${y}`; }",
    '{"name": "tok", "ids": [1, 2, 3], "ok": true, "v": null}',
    '{\n  "nested": {"a": [1.5e-3, -2]},\n  "s": "\\u00e9\\n"\n}',
    '<div class="main"><p>Hello&nbsp;world &amp; <b>bold</b></p></div>',
    "<!DOCTYPE html>\n<html lang=\"en\">\n  <head><meta charset=\"utf-8\"></head>",
    "SELECT id, name FROM users WHERE age > 30 ORDER BY name;",
    "fn main() { let v: Vec<u8> = vec![0xff; 16]; }",
    "#include <stdio.h>\nint main(void) { return 0; }",
    "x=1;y=2;;z=x+y//comment", "    \n        indented\n\t\tmixed",
]

URLS = ["https://example.com/path?q=1&lang=en#frag", "http://localhost:8080/api/v2/items",
        "mailto:someone@example.org", "https://ja.wikipedia.org/wiki/東京",
        "ftp://files.example.net/pub/file-1.2.3.tar.gz", "www.example.co.uk/a_b-c",
        "https://example.com/%E6%9D%B1%E4%BA%AC?x=%20"]

SPECIALS = ["<s>", "</s>", "<unk>", "<pad>", "[INST]", "[/INST]", "<<SYS>>", "<|endoftext|>",
            "<|im_start|>", "<|im_end|>", "<|begin_of_text|>", "<|eot_id|>",
            "<|start_header_id|>", "[CLS]", "[SEP]", "[MASK]", "[UNK]", "<mask>",
            "<|fim_prefix|>", "<start_of_turn>", "<bos>", "<eos>",
            "<｜begin▁of▁sentence｜>", "<|startoftranscript|>", "▁", "▁▁", " ⁇ "]

ENGLISH = ["Hello world", "the quick brown fox", "It's a test.", "don't", "I'll", "we've",
           "THEY'RE", "She'S", "tokenization", "anti-disestablishmentarianism", "e.g.",
           "U.S.A.", "co-operate", "O'Neill", "rock'n'roll", "(parenthesis)", "«quoted»",
           "“smart quotes”", "it’s", "…ellipsis", "—dash–", "a/b\\c", "snake_case_name",
           "camelCaseName", "ALLCAPS", "x", "I", "A1B2C3"]


def _digits(rng: random.Random) -> str:
    n = rng.randint(1, 12)
    run = "".join(rng.choice("0123456789") for _ in range(n))
    form = rng.randrange(9)
    if form == 0:
        return run
    if form == 1:
        return "$" + run
    if form == 2:
        return f"{run}.{rng.randint(0, 99):02d}"
    if form == 3:
        return "$" + f"{int(run):,}" + f".{rng.randint(0, 99):02d}"
    if form == 4:
        return f"{int(run):,}".replace(",", ".")
    if form == 5:
        return f"{int(run):,}".replace(",", " ")
    if form == 6:
        return f"{run}%"
    if form == 7:
        return f"-{run}e{rng.randint(-9, 9)}"
    return rng.choice(["₹", "€", "£", "¥", "#", "v", "x"]) + run


def _long_word(rng: random.Random) -> str:
    kind = rng.randrange(5)
    n = rng.choice([50, 101, 200, 400])
    if kind == 0:
        return rng.choice("abcdefghijklmnopqrstuvwxyz") * n
    if kind == 1:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))
    if kind == 2:
        return "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft"
    if kind == 3:
        return "." * rng.choice([3, 7, 20, 64])
    return "".join(rng.choice("你好世界東京中文字") for _ in range(n // 4))


def fragments() -> list[tuple[str, str]]:
    """Every fragment on its own, named by kind."""
    out = []
    for script, words in SCRIPTS.items():
        out += [(f"script:{script}", w) for w in words]
    out += [("emoji", e) for e in EMOJI]
    out += [("combining", c) for c in COMBINING]
    out += [("code", c) for c in CODE]
    out += [("url", u) for u in URLS]
    out += [("special", s) for s in SPECIALS]
    out += [("english", e) for e in ENGLISH]
    return out


def _whitespace_cases() -> list[tuple[str, str]]:
    """Runs of whitespace before, inside and after words and digits."""
    out = []
    for ws in WHITESPACE:
        for word in ("indented", "2690", "東京", "[CLS] world", "<s>", "é"):
            out.append(("whitespace", ws + word))
            out.append(("whitespace", word + ws))
            out.append(("whitespace", f"a{ws}{word}{ws}b"))
    out += [("whitespace", " " * n) for n in range(1, 9)]
    out += [("whitespace", "\n" * n + "x") for n in range(1, 4)]
    out += [("whitespace", "line one\r\nline two\r\n\r\n  line four  ")]
    return out


def _special_cases() -> list[tuple[str, str]]:
    out = []
    for s in SPECIALS:
        out += [("special-in-text", f"{s}Hello"), ("special-in-text", f"Hi {s} there"),
                ("special-in-text", f"end{s}"), ("special-in-text", f" {s} ")]
    out.append(("special-in-text", "<s>[INST] What is 2+2? [/INST] 4</s>"))
    out.append(("special-in-text", "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"))
    return out


def _pieces(rng: random.Random):
    kinds = [
        lambda: rng.choice(rng.choice(list(SCRIPTS.values()))),
        lambda: rng.choice(EMOJI),
        lambda: rng.choice(COMBINING),
        lambda: _digits(rng),
        lambda: rng.choice(WHITESPACE),
        lambda: rng.choice(CODE),
        lambda: rng.choice(URLS),
        lambda: rng.choice(SPECIALS),
        lambda: rng.choice(ENGLISH),
        lambda: _long_word(rng),
    ]
    weights = [6, 2, 1, 3, 3, 1, 1, 1, 4, 1]
    return kinds, weights


def _mixes(rng: random.Random, count: int) -> list[tuple[str, str]]:
    kinds, weights = _pieces(rng)
    out = []
    for i in range(count):
        parts = [rng.choices(kinds, weights)[0]() for _ in range(rng.randint(1, 8))]
        joiner = rng.choice(["", " ", " ", " ", "\n", "  "])
        text = joiner.join(parts)
        if i % 5 == 0:
            text = rng.choice(WHITESPACE) + text
        if i % 7 == 0:
            text = text + rng.choice(WHITESPACE)
        out.append(("mix", text))
    return out


def _documents(rng: random.Random, botchan: str | None) -> list[tuple[str, str]]:
    """A few 5-20 KB documents: the multilingual sample, botchan, code and all mixed."""
    multi = MULTILINGUAL.read_text(encoding="utf-8")
    docs = [("document:multilingual", (multi + "\n") * 2)]
    if botchan:
        start = rng.randrange(0, max(1, len(botchan) - 20000))
        docs.append(("document:botchan", botchan[start:start + 15000]))
    lines = multi.splitlines()
    rng.shuffle(lines)
    code = "\n\n".join(CODE * 20)
    docs.append(("document:code", code[:12000]))
    mixed = []
    kinds, weights = _pieces(rng)
    while sum(map(len, mixed)) < 9000:
        mixed.append(rng.choice(lines) if rng.random() < 0.5 else rng.choices(kinds, weights)[0]())
    docs.append(("document:mixed", " ".join(mixed)))
    return docs


def hard_inputs(botchan: str | None = None, mixes: int = 800) -> list[tuple[str, str]]:
    """The whole list, always the same for the same arguments."""
    rng = random.Random(SEED)
    out = fragments() + _whitespace_cases() + _special_cases()
    out += [("digits", _digits(rng)) for _ in range(120)]
    out += [("digits", "7" * n) for n in range(1, 13)]
    out += [("digits", "$7357168133.99"), ("digits", " 2690"), ("digits", "3.14159265358979")]
    out += [("long-word", _long_word(rng)) for _ in range(20)]
    out += [("lines", line) for line in MULTILINGUAL.read_text(encoding="utf-8").splitlines()]
    out += _mixes(rng, mixes)
    out += _documents(rng, botchan)
    return out


if __name__ == "__main__":
    import collections
    import sys
    botchan_path = Path.home() / ".cache" / "subword-lab" / "botchan.txt"
    texts = hard_inputs(botchan_path.read_text(encoding="utf-8")
                        if botchan_path.exists() else None)
    counts = collections.Counter(name.split(":")[0] for name, _ in texts)
    print(f"{len(texts)} texts, {sum(len(t) for _, t in texts)} characters", file=sys.stderr)
    for kind, n in counts.most_common():
        print(f"  {kind}: {n}", file=sys.stderr)

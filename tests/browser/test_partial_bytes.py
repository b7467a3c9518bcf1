"""Byte-level tokens that hold part of a character are shown as their bytes, and the
tokens that make one character together are drawn joined. Checked against tiktoken:
the bytes of each GPT-2 token, and which characters they spell."""
from __future__ import annotations

import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

from shots import shot_path

TEXT = "Smart “quotes” — 東京 and 🙂 naïve café"


def gpt2(path):
    return tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                             mergeable_ranks=load_tiktoken_bpe(str(path)),
                             special_tokens={ENDOFTEXT: 50256})


def expected_chips(raw: list[bytes]):
    """Per token: the loose bytes it holds (hex, as the chip shows them), or None if it
    decodes alone; and the groups of tokens that make one character together."""
    loose, groups = [], []
    for i, data in enumerate(raw):
        try:
            data.decode("utf-8")
            loose.append(None)
        except UnicodeDecodeError:
            loose.append(data)
    # Walk the bytes: a character that starts in one token and ends in another.
    text_bytes = b"".join(raw)
    owner = [i for i, data in enumerate(raw) for _ in data]
    pos = 0
    while pos < len(text_bytes):
        lead = text_bytes[pos]
        n = 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        first, last = owner[pos], owner[pos + n - 1]
        if first != last:
            groups.append((first, last, text_bytes[pos:pos + n].decode("utf-8")))
        pos += n
    return loose, groups


def test_partial_bytes_are_shown_as_bytes_and_joined(app, gpt2_tiktoken):
    app.open("?tokenizer=gpt2")
    app.type_text(TEXT)
    enc = gpt2(gpt2_tiktoken)
    ids = enc.encode_ordinary(TEXT)
    assert app.ids() == ids
    raw = [enc.decode_single_token_bytes(i) for i in ids]
    loose, groups = expected_chips(raw)
    assert groups, "the text must hold characters cut between tokens"
    chips = app.page.locator("[data-testid=token]")
    for i, data in enumerate(loose):
        chip = chips.nth(i)
        shown = chip.locator(".t").inner_text()
        if data is None:
            assert "<" not in shown or shown.startswith("<|"), (i, shown)
            continue
        # Every byte that is not part of a whole character in this token is shown in hex.
        for b in data:
            if b >= 0x80:
                assert f"{b:02X}" in shown, (i, shown, data)
    joined = {}
    for first, last, char in groups:
        for i in range(first, last + 1):
            joined[i] = ("first" if i == first else "last" if i == last else "mid", char)
    for i in range(len(ids)):
        chip = chips.nth(i)
        want = joined.get(i)
        assert chip.get_attribute("data-joins") == (want[0] if want else None), i
        if want:
            assert want[1] in (chip.get_attribute("title") or ""), (i, want)
    # Pointing at a joined token says which character it belongs to.
    first = groups[0][0]
    chips.nth(first).hover()
    assert groups[0][2] in app.page.locator("#inspector").inner_text()
    app.page.screenshot(path=shot_path("partial-bytes.png"))

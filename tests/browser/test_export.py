"""Tokens as data: the Ids switch shows the ids as one list, and the JSON and CSV
downloads hold exactly the tokens shown (token, id, start, end, bytes), the bytes
checked against tiktoken's own token bytes."""
from __future__ import annotations

import csv
import io
import json

import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

from shots import shot_path

TEXT = "Export “these” tokens, please: 東京 2024!"


def test_ids_switch_and_downloads(app, gpt2_tiktoken):
    app.open("?tokenizer=gpt2")
    app.type_text(TEXT)
    shown = app.tokens()  # [(id, start, end, text)]
    enc = tiktoken.Encoding("gpt2-local", pat_str=r50k_pat_str,
                            mergeable_ranks=load_tiktoken_bpe(str(gpt2_tiktoken)),
                            special_tokens={ENDOFTEXT: 50256})
    ids = [t[0] for t in shown]
    assert ids == enc.encode_ordinary(TEXT)

    app.page.get_by_test_id("show-ids").click()
    assert app.page.get_by_test_id("tokens").is_hidden()
    assert json.loads(app.page.get_by_test_id("ids-text").inner_text()) == ids
    app.page.screenshot(path=shot_path("export-ids.png"))
    app.page.get_by_test_id("show-tokens").click()
    assert app.page.get_by_test_id("ids-text").is_hidden()

    with app.page.expect_download() as info:
        app.page.get_by_test_id("download-json").click()
    rows = json.loads(open(info.value.path(), encoding="utf-8").read())
    with app.page.expect_download() as info:
        app.page.get_by_test_id("download-csv").click()
    table = list(csv.DictReader(io.StringIO(open(info.value.path(), encoding="utf-8", newline="").read())))

    assert [r["id"] for r in rows] == ids
    assert [(r["start"], r["end"]) for r in rows] == [(t[1], t[2]) for t in shown]
    want_bytes = [enc.decode_single_token_bytes(i).hex(" ").upper() for i in ids]
    assert [r["bytes"] for r in rows] == want_bytes
    assert [int(r["id"]) for r in table] == ids
    assert [r["token"] for r in table] == [r["token"] for r in rows]
    assert [r["bytes"] for r in table] == want_bytes

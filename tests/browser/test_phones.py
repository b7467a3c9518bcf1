"""The page on a phone and on a desktop: no view scrolls the page sideways (a wide
diagram scrolls inside its own box), the header stays small on a phone, and touch
screens get no keyboard hints."""
from __future__ import annotations

import pytest

from shots import shot_path

VIEWS = {
    "tokenize": "?tokenizer=gpt2&text=Smart%20%E2%80%9Cquotes%E2%80%9D%20and%20a%20verylongwordthatneverends",
    "pipeline": "?view=pipeline",
    # a run of characters a model has no pieces for is one wide unknown token: it wraps
    # in its chip instead of pushing the page sideways (it did at 360 px)
    "pipeline-long-token": "?view=pipeline&tokenizer=botchan-bpe&text=%E6%9D%B1%E4%BA%AC%E3%82%BF%E3%83%AF%E3%83%BC%E3%81%B8%E8%A1%8C%E3%81%8D%E3%81%BE%E3%81%97%E3%81%9F%E3%80%82%E3%82%AC%E3%82%AE%E3%82%B0%E5%8D%8A%E8%A7%92%E3%82%AB%E3%83%8A%E3%83%A9%E3%83%BC%E3%83%A1%E3%83%B3",
    "train": "?view=train&algo=wordpiece&corpus=course-sentences&step=4",
    "train-unigram": "?view=train&algo=unigram&corpus=course-toy",
    "encode-unigram": "?view=encode&algo=unigram&text=unhugs%20hugging%20bunnies",
    "encode-bpe": "?view=encode&algo=bpe&text=unhugs%20hugging%20bunnies",
    "compare": "?view=compare",
}


def settle_view(app):
    app.page.evaluate("""async () => {
        const v = await window.subwordLab.showView(window.subwordLab.view());
        if (v && v.settled) await v.settled();
        await window.subwordLab.settled();
    }""")


# The narrowest common phone and a laptop. (A 390 px phone was a third width: it falls
# under the same breakpoints as 360 px, 40rem and 760px, with more room, for ten more loads.)
@pytest.mark.parametrize("width,height", [(360, 740), (1280, 900)])
def test_no_sideways_scroll(sized_page, site, width, height):
    page = sized_page(width, height, phone=width < 600)
    try:
        wide = {}
        for name, query in VIEWS.items():
            page.goto(f"{site}/{query}")
            page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
            page.evaluate("""async () => {
                const v = await window.subwordLab.showView(window.subwordLab.view());
                if (v && v.settled) await v.settled();
            }""")
            over = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if over > 0:
                wide[name] = over
            if width < 600:
                page.screenshot(path=shot_path(f"phone-{name}.png"), full_page=True)
        assert wide == {}, f"views wider than the screen at {width}px (extra px): {wide}"
        if width < 600:
            header = page.evaluate("() => document.querySelector('header.site').getBoundingClientRect().height")
            assert header <= 0.15 * height, f"header {header:.0f}px of {height}px"
            hints = page.locator(".player-keys")
            assert all(not h.is_visible() for h in hints.all()), "keyboard hints on a touch screen"
    finally:
        page.close()


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 900)])
def test_stop_never_covers_the_engine_line(browser, site, width, height):
    """While a request runs long the header shows Stop; on a phone its cell is one line
    high, and Stop must not be drawn over the words "Python is ready"."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=width < 600, is_mobile=width < 600)
    page = context.new_page()
    try:
        page.goto(f"{site}/?nosw")
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
        page.evaluate("""() => { window.__ended = null;
            subwordLab.encode("Stop must not cover the line. ".repeat(60000)).then(
              () => { window.__ended = "done"; }, (e) => { window.__ended = String(e && e.message || e); }); }""")
        # Stop and the ready line are measured in the same task that sees Stop drawn: read
        # in two round trips, the encode could end between them (it did on a busy machine).
        boxes = page.evaluate("""async () => {
            const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            const ready = document.querySelector(".engine-ready");
            const stop = document.getElementById("engine-stop");
            const until = performance.now() + 60000; // generous: a busy machine may start the encode late
            while (window.__ended === null && performance.now() < until) {
              if (stop.getClientRects().length) {
                return { stop: box(stop), stopShown: getComputedStyle(stop).visibility === "visible",
                         ready: box(ready), readyShown: getComputedStyle(ready).visibility === "visible" };
              }
              await new Promise((r) => setTimeout(r, 10));
            }
            return { ended: window.__ended };
        }""")
        assert "stop" in boxes, f"no Stop; the encode ended with {boxes.get('ended')!r}"
        page.screenshot(path=shot_path(f"stop-{width}.png"))
        s, r = boxes["stop"], boxes["ready"]
        assert boxes["stopShown"] and s[2] > s[0] and s[3] > s[1], f"Stop is not drawn: {boxes}"
        if width < 600:
            # a phone's cell is one line high: Stop takes the place of the ready line,
            # which is hidden meanwhile, so no word of it is drawn under Stop
            assert not boxes["readyShown"], f"the ready line {r} is drawn with Stop {s}"
        else:
            # room for both: the ready line stays, and Stop is drawn beside or under it
            assert boxes["readyShown"], "the ready line was hidden on a wide screen"
            apart = s[2] <= r[0] or r[2] <= s[0] or s[3] <= r[1] or r[3] <= s[1]
            assert apart, f"Stop {s} covers the ready line {r}"
        page.evaluate("subwordLab.cancel()")
    finally:
        context.close()


# The header's words (Python's state) against its share buttons, and its height.
HEADER = """() => {
  const box = (r) => [r.left, r.top, r.right, r.bottom];
  const words = [];
  const walker = document.createTreeWalker(document.querySelector('.engine'), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const owner = t.parentElement;
    if (!t.data.trim() || !owner.getClientRects().length || getComputedStyle(owner).visibility === 'hidden') continue;
    range.selectNodeContents(t);
    for (const r of range.getClientRects()) words.push({ text: t.data.trim(), box: box(r) });
  }
  const buttons = [...document.querySelectorAll('header.site .share button')]
    .filter((b) => b.getClientRects().length).map((b) => ({ text: b.textContent.trim(), box: box(b.getBoundingClientRect()) }));
  const over = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 1 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 1;
  const covered = words.flatMap((w) => buttons.filter((b) => over(w.box, b.box)).map((b) => `"${w.text}" under "${b.text}"`));
  return { covered, words: words.length, height: document.querySelector('header.site').getBoundingClientRect().height };
}"""


def test_header_fits_a_small_phone_in_every_language(sized_page, site):
    """At 360 px the share buttons' labels are longest in Vietnamese: they once covered
    "Python đã sẵn sàng". Now they wrap inside their buttons, Python's state keeps its
    room, and the header stays small."""
    page = sized_page(360, 740, phone=True)
    try:
        found = {}
        for lang in ("en", "vi", "zh"):
            page.goto(f"{site}/?lang={lang}")
            page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
            page.wait_for_selector("header.site .share button", state="visible")
            # settled: no request running, so no Stop in place of Python's state
            page.evaluate("async () => await window.subwordLab.settled()")
            header = page.evaluate(HEADER)
            assert header["words"] > 0, f"{lang}: Python's state is not shown"
            if header["covered"] or header["height"] > 0.15 * 740:
                found[lang] = header
        assert found == {}, found
    finally:
        page.close()

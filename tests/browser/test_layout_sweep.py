"""The layout sweep (issue 24): every view at 1280 and 360 px, in en, vi and zh, opened first
and opened from a link to another view then switched to by its tab, with a long multilingual
text and a large and a small tokenizer. On each, what a person checks by eye:

- the page does not scroll sideways;
- no two pieces of text (chips, labels, headings, cells) are drawn over each other;
- no text is cut by its box (a box that clips, scrollWidth > clientWidth or scrollHeight >
  clientHeight, and does not scroll), and no entry of a list would be cut short once chosen;
- nothing shows that belongs to another view;
- no English word is left in a Vietnamese or Chinese page (english_check.py; the user's
  text, tokens and words are data, marked so by the views), and in every language no string
  is drawn as its bare key or lacks a translation, and the player's narration is said.

One tab of the session's returning visitor (conftest.py's shared contexts); at each width,
one page load per view, which is opened first from a
link (in the three languages in turn, the other language at the other width) and checked,
then every other view's tab is clicked in turn and that view checked: so every view is
seen in every language twice at each width, opened first and switched to, reached from the
view before it at one width and the view after it at the other. (Before, each load looked
at two views: three times the loads, about a tenth of the browser tests' time, for the same
number of looks.) More checks join through CHECKS.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest

from english_check import described, english_left, untranslated

VIEWS = ["tokenize", "pipeline", "train", "encode", "compare", "chat"]
LANGS = ["en", "vi", "zh"]
WIDTHS = {1280: 900, 360: 740}  # a laptop; the narrowest common phone
LARGE, SMALL = "o200k-base", "botchan-bpe"
TEXT = (Path(__file__).resolve().parents[1] / "data" / "multilingual.txt").read_text(encoding="utf-8")

# What a person sees wrong, in the current view; each problem one short line.
LOOK = r"""(view) => {
  const problems = [];
  const say = (kind, node, detail = '') => {
    if (problems.length >= 40) return;
    const where = [];
    for (let n = node; n && n.nodeType === 1 && where.length < 4; n = n.parentElement) {
      where.unshift(n.dataset?.testid ? `[${n.dataset.testid}]` : n.className && typeof n.className === 'string'
        ? `${n.tagName.toLowerCase()}.${n.className.trim().split(/\s+/)[0]}` : n.tagName.toLowerCase());
    }
    problems.push(`${kind}: ${where.join(' > ')} ${detail}`.trim());
  };
  const shown = (node) => {
    const r = node.getBoundingClientRect();
    return node.getClientRects().length > 0 && getComputedStyle(node).visibility !== 'hidden'
      && !(r.width <= 1 && r.height <= 1) // hidden the accessible way (a label only screen readers read)
      && !node.closest('details:not([open]) > :not(summary)');
  };
  // The part of the page a node can paint in: its boxes that clip (scrolling ones too), intersected.
  const clips = new Map();
  const clipOf = (node) => {
    if (!node || node === document.body) return {left: -1e9, top: -1e9, right: 1e9, bottom: 1e9};
    if (clips.has(node)) return clips.get(node);
    let c = clipOf(node.parentElement);
    const s = getComputedStyle(node);
    if (s.overflowX !== 'visible' || s.overflowY !== 'visible' || /paint|strict|content/.test(s.contain)) {
      const r = node.getBoundingClientRect();
      c = {left: Math.max(c.left, r.left), top: Math.max(c.top, r.top), right: Math.min(c.right, r.right), bottom: Math.min(c.bottom, r.bottom)};
    }
    clips.set(node, c);
    return c;
  };
  const quiet = (node) => node.closest('[aria-hidden=true], .visually-hidden, option, select, textarea, svg title');
  const doc = document.documentElement;

  // 1. no sideways scroll
  if (doc.scrollWidth > doc.clientWidth) {
    say('page wider than the screen', doc, `${doc.scrollWidth} > ${doc.clientWidth}`);
    // the outermost boxes that reach past the right edge, to name the cause
    let named = 0;
    for (const node of document.body.querySelectorAll('*')) {
      if (named >= 3 || !shown(node)) continue;
      const r = node.getBoundingClientRect();
      if (r.right > doc.clientWidth + 1 && node.parentElement.getBoundingClientRect().right <= doc.clientWidth + 1) {
        say('  past the right edge', node, `${Math.round(r.right)}`); named++;
      }
    }
  }

  // 2. text drawn over text: the boxes of every visible text node, swept by their top
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.data.trim()) continue;
    const owner = t.parentElement;
    if (!owner || quiet(owner) || !shown(owner)) continue;
    const style = getComputedStyle(owner);
    if (style.color === 'rgba(0, 0, 0, 0)' || Number(style.opacity) === 0) continue;
    range.selectNodeContents(t);
    const c = clipOf(owner);
    for (const q of range.getClientRects()) {
      const r = {left: Math.max(q.left, c.left), top: Math.max(q.top, c.top), right: Math.min(q.right, c.right), bottom: Math.min(q.bottom, c.bottom)};
      if (r.right - r.left > 0.5 && r.bottom - r.top > 0.5) boxes.push({r, owner, text: t.data.trim().slice(0, 12)});
    }
  }
  boxes.sort((a, b) => a.r.top - b.r.top);
  const pairs = new Set();
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length && boxes[j].r.top < a.r.bottom - 3; j++) {
      const b = boxes[j];
      if (a.owner === b.owner) continue;
      const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (x > 3 && y > 3) {
        // Text over text, unless one of them is under a box of its own (a layer that covers it).
        const key = `${a.text}|${b.text}`;
        if (!pairs.has(key)) { pairs.add(key); say('text over text', b.owner, `“${a.text}” and “${b.text}”`); }
      }
    }
  }

  // 3. text cut by its box: boxes that clip (overflow hidden/clip, contain paint) but do not scroll
  for (const node of document.body.querySelectorAll('*')) {
    if (quiet(node) || !shown(node) || !node.textContent.trim()) continue;
    const s = getComputedStyle(node);
    const clipsX = ['hidden', 'clip'].includes(s.overflowX) || /paint|strict|content/.test(s.contain);
    const clipsY = ['hidden', 'clip'].includes(s.overflowY) || /paint|strict|content/.test(s.contain);
    if (s.textOverflow === 'ellipsis') continue; // cut on purpose, and says so with …
    if (clipsX && node.scrollWidth > node.clientWidth + 1) say('text cut (width)', node, `${node.scrollWidth} > ${node.clientWidth}`);
    else if (clipsY && node.scrollHeight > node.clientHeight + 1) say('text cut (height)', node, `${node.scrollHeight} > ${node.clientHeight}`);
  }
  // an entry that, once chosen, is longer than its closed list (a <select> cuts it
  // silently): every entry, since a learner may choose any of them
  const canvas = document.createElement('canvas').getContext('2d');
  for (const select of document.body.querySelectorAll('select')) {
    if (!shown(select) || select.closest('[aria-hidden=true]')) continue;
    const s = getComputedStyle(select);
    canvas.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20; // the arrow
    for (const option of select.options) {
      const text = option.textContent || '';
      if (canvas.measureText(text).width > room + 1) say('entry cut', select, `“${text.slice(0, 40)}”`);
    }
  }

  // 4. nothing of another view
  for (const section of document.querySelectorAll('main > section.view')) {
    if (section.id !== `view-${view}` && shown(section)) say('another view shows', section);
  }
  const slot = document.getElementById('player-slot');
  if (slot && shown(slot) && !slot.closest(`#view-${view}`)) say('the player shows outside its view', slot);
  for (const node of document.body.children) {
    if (!['HEADER', 'NAV', 'MAIN', 'FOOTER', 'SCRIPT'].includes(node.tagName) && shown(node)
        && !node.classList.contains('skip')) say('something over the page', node);
  }
  return problems;
}"""


def look(page, case) -> list[str]:
    return page.evaluate(LOOK, case["view"])


def english(page, case) -> list[str]:
    """English left in a translated page (tests/browser/english_check.py)."""
    return [f"English left: {line}" for line in described(english_left(page))]


def translated(page, case) -> list[str]:
    """The page wholly in its language: no bare key, no missing string, the player's
    narration said (english_check.untranslated). The sweep's links name no training step, so the
    train view shows its form and no player yet (test_i18n.py checks its narration at a
    step)."""
    return untranslated(page, case["lang"], player=case["view"] in ("pipeline", "encode"))


# Each check: (page, case) -> problems. case: {width, lang, view, first, tokenizer}.
CHECKS = [look, english, translated]


def settle(page, view):
    # The tokenize view's settings (the file's details, the special-tokens and pattern
    # lists) are opened, so they are looked at too.
    page.evaluate("""async (name) => {
        const v = await window.subwordLab.showView(name);
        const settings = document.getElementById('settings');
        if (name === 'tokenize' && settings) settings.open = true;
        await v.settled();
        await window.subwordLab.settled();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }""", view)


def link(view, lang, tokenizer):
    other = SMALL if tokenizer == LARGE else LARGE
    return (f"?lang={lang}&view={view}&tokenizer={tokenizer}&tokenizers={tokenizer},{other}"
            f"&text={quote(TEXT)}")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_layout_sweep(sized_page, site, width):
    # The session's returning visitor (the phone's at 360 px: a touch screen), whose tab
    # starts Python from the stored snapshot with its code compiled: the sweep is about
    # layouts, not first visits (test_first_paint.py and test_snapshot.py have those).
    page = sized_page(width, WIDTHS[width], phone=width < 600)
    found = {}
    w = list(WIDTHS).index(width)
    stride = 1 if w == 0 else len(VIEWS) - 1  # the tabs in order at one width, backwards at the other
    for i, first in enumerate(VIEWS):
        lang = LANGS[(i + w) % len(LANGS)]
        tokenizer = LARGE if (i + w) % 2 == 0 else SMALL
        page.goto(f"{site}/{link(first, lang, tokenizer)}")
        page.wait_for_selector("html[data-engine=ready]", state="attached", timeout=120_000)
        before = None
        for step in range(len(VIEWS)):
            view = VIEWS[(i + step * stride) % len(VIEWS)]
            if before is not None:
                page.get_by_test_id(f"view-tab-{view}").click()
            settle(page, view)
            case = {"width": width, "lang": lang, "view": view, "first": first, "tokenizer": tokenizer}
            problems = [p for check in CHECKS for p in check(page, case)]
            if problems:
                how = "opened first" if before is None else f"after {before}, opened first: {first}"
                found[f"{width}px {lang} {view} ({how}, {tokenizer})"] = problems
            before = view
    if os.environ.get("SUBWORD_LAB_SWEEP_OUT"):  # the whole list, for whoever mends them
        Path(f"{os.environ['SUBWORD_LAB_SWEEP_OUT']}-{width}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")
    assert found == {}, "\n".join(f"{case}:\n  " + "\n  ".join(p) for case, p in found.items())

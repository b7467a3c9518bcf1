"""Plain text of a licence published as a web page (the Gemma Terms of Use).

Some terms reach us only as a saved copy of their web page. Opening that page from our
site would load the publisher's scripts and fonts, so the catalog ships the page's
article as plain text instead: every word of the article, its headings and list items
on lines of their own and each link's address after its words. Standard library only.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "table", "ul", "ol",
          "section", "blockquote", "pre"}
SKIP = {"script", "style", "template", "devsite-actions", "button"}


class _Article(HTMLParser):
    """Collects the text of the page's title (h1) and of its article body."""

    def __init__(self, body_class: str):
        super().__init__(convert_charrefs=True)
        self.body_class = body_class
        self.parts: list[str] = []
        self.depth = 0       # open <div>s inside the article body; 0 = outside it
        self.in_title = False
        self.skipping = 0
        self.links: list[str | None] = []

    def _inside(self) -> bool:
        return (self.depth > 0 or self.in_title) and not self.skipping

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag in SKIP:
            self.skipping += 1
        elif tag == "h1" and "devsite-page-title" in classes:
            self.in_title = True
        elif tag == "div" and self.depth:
            self.depth += 1
        elif tag == "div" and self.body_class in classes:
            self.depth = 1
        if not self._inside():
            return
        if tag in BLOCKS or tag == "br":
            self.parts.append("\n\n" if tag in ("p", "h1", "h2", "h3", "h4") else "\n")
        if tag == "li":
            self.parts.append("- ")
        if tag == "a":
            self.links.append(attrs.get("href"))

    def handle_endtag(self, tag):
        if tag in SKIP:
            self.skipping = max(0, self.skipping - 1)
            return
        if self._inside() and tag == "a" and self.links:
            href = self.links.pop()
            if href and href.startswith("http") and href not in self.parts[-1]:
                self.parts.append(f" ({href})")
        if tag == "h1" and self.in_title:
            self.in_title = False
            self.parts.append("\n")
        elif tag == "div" and self.depth:
            self.depth -= 1
        if self._inside() and tag in BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if self._inside():
            self.parts.append(data)


def article_text(html: str, body_class: str = "devsite-article-body") -> str:
    """The page's title and article as plain text; raises ValueError when there is none."""
    parser = _Article(body_class)
    parser.feed(html)
    parser.close()
    lines = []
    for line in "".join(parser.parts).splitlines():
        lines.append(re.sub(r"[ \t\r\f\v]+", " ", line).strip())
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    if len(text) < 1000:
        raise ValueError(f"no article (class {body_class!r}) found in the page")
    return text + "\n"

"""tools/licence_text.py: a licence's web page reduced to its article's plain text."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import licence_text

BODY = "<p>Words of the agreement, long enough to count as an article.</p>" * 30


def page(article: str) -> str:
    return ("<html><head><style>p{}</style><script>track()</script></head><body>"
            "<nav>Menu Home</nav><h1 class='devsite-page-title'>The Terms"
            "<devsite-actions>share</devsite-actions></h1>"
            f"<div class='devsite-article-body clearfix'>{article}</div>"
            "<footer>Send feedback</footer></body></html>")


def test_keeps_the_title_and_the_article_and_drops_the_page_around_them():
    text = licence_text.article_text(page("<h2>Section 1</h2><div><p>Inner</p></div>" + BODY))
    assert text.startswith("The Terms\n")
    assert "Section 1" in text and "Inner" in text and "Words of the agreement" in text
    for chrome in ("Menu", "track()", "Send feedback", "share", "p{}"):
        assert chrome not in text


def test_list_items_get_lines_and_links_keep_their_address():
    text = licence_text.article_text(page(
        "<ul><li><a href='https://example.org/policy'>the policy</a></li><li>two</li></ul>"
        + BODY))
    assert "- the policy (https://example.org/policy)\n" in text
    assert "- two\n" in text


def test_a_page_without_the_article_is_an_error():
    with pytest.raises(ValueError, match="no article"):
        licence_text.article_text("<html><body><p>just a page</p></body></html>")

"""What the preload tests compare: the module lists build.py wrote, and the modules a page
fetched. test_embed.py and test_first_paint.py both check that no module of a view came a
round trip late, so both read the lists and the page's fetches the same way."""
from __future__ import annotations

import json
import re

import build


def view_modules() -> dict[str, list[str]]:
    """lib/view-modules.js's VIEW_MODULES: view name -> its modules, relative to dist/."""
    source = (build.DIST / "lib" / "view-modules.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const VIEW_MODULES = (\{.*?\});", source).group(1))


def preloaded_modules() -> set[str]:
    """The modulepreload links build.py wrote into index.html, relative to dist/."""
    html = (build.DIST / "index.html").read_text(encoding="utf-8")
    return set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))


def fetched_modules(page, origin: str) -> set[str]:
    """Our .js files the page fetched so far, relative to `origin` (Pyodide's own left out)."""
    fetched = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    return {url[len(origin) + 1:] for url in fetched
            if url.startswith(origin + "/") and url.endswith(".js") and "/pyodide/" not in url}

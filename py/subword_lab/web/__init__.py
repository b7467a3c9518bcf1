"""The browser facade: the JSON-in/JSON-out functions the page's worker calls.

A user of the library, like the CLI: nothing inside the library imports it. The
worker imports `subword_lab.web.api`.
"""

"""Waiting in a browser test for a condition the page reaches, never for a time."""
from __future__ import annotations

import time


def poll(app, condition: str, timeout: float = 30):
    """Return once the JavaScript `condition` holds (the page's CSP forbids
    wait_for_function); `timeout` only bounds how long a failure takes to say so."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if app.page.evaluate(f"() => Boolean({condition})"):
            return
        app.page.wait_for_timeout(50)
    raise AssertionError(f"not within {timeout} s: {condition}")

"""What a test file needs installed, checked at collection without importing it.

The notebook hosts (JupyterLab, Notebook 7, marimo, nbclient, anywidget) are test
packages that build.py installs: a missing one is a failed run, never a skipped test. They
are looked up, not imported: importing JupyterLab alone took 5 s, in every xdist worker that
collects the file, whether or not it runs its tests.
"""
from __future__ import annotations

import importlib.util

import pytest


def require(*modules: str) -> None:
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} not installed: python3 build.py setup installs "
                    "the test packages", pytrace=False)

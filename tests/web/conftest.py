"""What the browser tests share: a headless Chromium driven by Playwright, or a skip saying why
not.  CI installs both (``.ci/run``), and there (``CI`` set) a missing browser fails instead: CI
must run these tests, not pass by skipping them."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tools.browser import CHROMIUM_ARGS, chromium_executable


def missing(reason: str) -> None:
    """Skip, or fail under CI."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")  # not longer: Playwright runs one sync session at a time
def browser() -> Iterator[object]:
    try:
        from playwright import sync_api
    except ImportError:
        missing("Playwright is not installed (pip install playwright)")
    executable = chromium_executable()
    if executable is None:
        missing("no Chromium executable: install chromium (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()

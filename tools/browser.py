"""Running the web layer for a real browser: the Chromium to drive (headless, through
Playwright) and the app served on a free loopback port in a thread.  The browser tests and the
docs' screenshots (``python -m tools.screenshots``) use both."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

CHROMIUM_ARGS = ["--no-sandbox"]
"""CI and containers run as root, where Chromium's sandbox will not start."""


def chromium_executable() -> str | None:
    """``PLAYWRIGHT_CHROMIUM_EXECUTABLE``, else the first Chromium or Chrome on the PATH (Debian's
    ``chromium`` package: Playwright drives it without downloading a browser of its own)."""
    configured = os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    if configured:
        return configured
    return next((found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None)


@contextmanager
def served(app: FastAPI, start_seconds: float = 30) -> Iterator[str]:
    """``app`` served on a free loopback port in a thread, with the socket and the settings
    ``dice-envs serve`` uses (its limits, its JSON errors); yields its address."""
    import uvicorn  # the dice_envs.web extra: only where a server runs

    from dice_envs.web.server import listen, server_config

    listening = listen("127.0.0.1", 0)
    server = uvicorn.Server(server_config(app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + start_seconds
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{listening.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listening.close()

"""The web layer: self-contained HTML replays of played games (``web.replay``) and the local app
that plays in the browser (``dice-envs serve``).  Both show the pictures of
``dice_envs.core.picture`` and share the page look of ``assets/common.css``; nothing they serve or
write loads anything from the network.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def asset(name: str) -> str:
    """The text of ``dice_envs/web/assets/<name>`` (read through the package, so it works installed too)."""
    return resources.files(__package__).joinpath("assets").joinpath(name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside ``<script type="application/json">``: an HTML parser
    ends such a script at ``</`` + ``script`` and treats ``<!--`` specially, so both are written
    with JSON escapes that decode to the same text (cheaper than escaping every ``<`` of the SVG)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\u0021--")

"""The rules page of ``dice-envs serve`` (``/rules/<env>``): the game's environment card, the
``raw_env`` docstring (the rules in brief, its actions and its arguments), as HTML.  The docs are
not installed with the package; the card is, and the same text is ``help(env)``.

The card is the docstring's own light markup: paragraphs split by blank lines, a two-column
table of ``| name | value |`` rows, and ````code```` in double backquotes; everything else is text,
escaped.
"""

from __future__ import annotations

import html
import inspect
import re

import dice_envs

CODE = re.compile(r"``(.+?)``")


def rules_html(env_name: str, title: str) -> str:
    """The page of ``env_name``'s environment card, titled ``title``."""
    card = inspect.cleandoc(dice_envs.env_module(env_name).raw_env.__doc__ or "")
    blocks = "\n".join(_block(block) for block in card.split("\n\n") if block.strip())
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}: rules</title><link rel="icon" href="data:,"><link rel="stylesheet" href="../assets/common.css"></head>'
        f'<body><header class="topbar"><h1>{html.escape(title)}</h1><p>the rules in brief: the environment card of {env_name}</p></header>'
        f'<main class="panel rules">{blocks}<p><a href="../">Back to the game</a></p></main></body></html>'
    )


def _block(block: str) -> str:
    lines = block.strip().splitlines()
    if not all(line.startswith("|") for line in lines):
        return f"<p>{_inline(' '.join(line.strip() for line in lines))}</p>"
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|", 1)] for line in lines]
    body = "".join(f"<tr><th>{_inline(row[0])}</th><td>{_inline(row[-1])}</td></tr>" for row in rows if any(row) and not set(row[0]) <= {"-"})
    return f"<table>{body}</table>"


def _inline(text: str) -> str:
    """``text`` escaped, its ````code```` as ``<code>``."""
    return CODE.sub(lambda match: f"<code>{match[1]}</code>", html.escape(text, quote=False))

"""The modules of the two card games import one way, in the order below: each imports only
modules before it in its game's list (every import counts: function-level and type-checking ones
too), so none imports a module that imports it back.  The package ``__init__`` imports
``validation``, which installs the state's ``validate``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dice_envs

ORDER = {
    "mammoth_hunters": ("data", "state", "actions", "cards", "steps", "validation", "rules", "encoding", "rendering", "picture"),
    "age_of_craft": ("data", "state", "actions", "abilities", "validation", "rules", "encoding", "rendering", "picture"),
}
"""By game folder: its modules, lowest first."""


def imported_siblings(game: str, module: str) -> set[str]:
    """The modules of the same game folder that ``module`` imports, anywhere in its source."""
    package = f"dice_envs.{game}"
    tree = ast.parse((Path(dice_envs.__file__).parent / game / f"{module}.py").read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == package:
                names |= {alias.name for alias in node.names}
            elif node.module.startswith(package + "."):
                names.add(node.module.removeprefix(package + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            names |= {alias.name.removeprefix(package + ".").split(".")[0] for alias in node.names if alias.name.startswith(package + ".")}
    return names


@pytest.mark.parametrize("game", sorted(ORDER))
def test_every_module_imports_only_those_below_it(game: str) -> None:
    order = ORDER[game]
    folder = Path(dice_envs.__file__).parent / game
    assert {path.stem for path in folder.glob("*.py")} - {"__init__"} == set(order)
    for position, module in enumerate(order):
        above = imported_siblings(game, module) - set(order[:position])
        assert not above, f"{game}/{module}.py imports {sorted(above)}, which come after it"

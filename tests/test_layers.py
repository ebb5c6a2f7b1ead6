"""The package's layers (docs/architecture.md): each module imports only from its own layer or
the layers below it, and no modules import each other in a cycle.

Every ``import`` of every module under ``dice_envs/`` counts, at module level, inside functions
and under ``if TYPE_CHECKING:``: a lazy import is still a dependency.  ``import dice_envs.a.b``
and ``from dice_envs.a.b import name`` depend on ``dice_envs.a.b`` alone (Python runs the
packages' ``__init__`` on the way, which import only what their own layer may); ``from
dice_envs.a import b`` depends on the module ``dice_envs.a.b`` where there is one, else on
``dice_envs.a`` itself.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = "dice_envs"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE
GAMES = ("dino_hunt", "dalek_dice", "dice_age", "mammoth_hunters", "age_of_craft")

LAYERS: dict[str, int] = {"core": 0, "games": 1, "registry": 2, "agents": 3, "arena": 4, "training": 5, "web": 5, "cli": 6}
"""Each layer's height: a module may import its own layer and lower ones.  Layers of one height
(training and web) are peers that must not import each other."""
LAYER_PATTERNS: tuple[tuple[str, str], ...] = (
    ("core", rf"{PACKAGE}\.core(\..+)?"),
    ("games", rf"{PACKAGE}\.({'|'.join(GAMES)})(\..+)?"),
    ("registry", rf"{PACKAGE}|{PACKAGE}\.({'|'.join(GAMES)})_v\d+|{PACKAGE}\.game_log|{PACKAGE}\.openspiel"),
    ("agents", rf"{PACKAGE}\.agents(\..+)?"),
    ("arena", rf"{PACKAGE}\.arena(\..+)?"),
    ("training", rf"{PACKAGE}\.training(\..+)?"),
    ("web", rf"{PACKAGE}\.web(\..+)?"),
    ("cli", rf"{PACKAGE}\.cli|{PACKAGE}\.__main__"),
)
"""Which modules make up each layer (full matches of the dotted name)."""
SEARCH = f"{PACKAGE}.agents.mcts"
SEARCH_MAY_IMPORT = frozenset({f"{PACKAGE}.agents.base"})
"""The search takes a rollout agent and an evaluator: of its own package it sees only the base."""


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    path: Path
    line: int
    module_level: bool
    """Run when the importer is imported (not inside a function, not under ``TYPE_CHECKING``)."""

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT.parent)}:{self.line}"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def layer(module: str) -> str | None:
    for name, pattern in LAYER_PATTERNS:
        if re.fullmatch(pattern, module):
            return name
    return None


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_nodes(body: list[ast.stmt], module_level: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement in ``body``, and whether it runs on import of the module."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, module_level
        elif isinstance(node, ast.If) and is_type_checking(node.test):
            yield from import_nodes(node.body, False)
            yield from import_nodes(node.orelse, module_level)
        else:
            inside_function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                children = getattr(node, field, None)
                if isinstance(children, list):
                    statements = [child for child in children if isinstance(child, ast.stmt)]
                    statements += [statement for child in children if isinstance(child, (ast.ExceptHandler, ast.match_case)) for statement in child.body]
                    yield from import_nodes(statements, module_level and not inside_function)


def imported_modules(node: ast.Import | ast.ImportFrom, importer: str) -> list[str]:
    """The package's modules an import statement depends on (others: the standard library, third parties)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the importer's package
            package = importer if MODULES[importer].name == "__init__.py" else importer.rpartition(".")[0]
            anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            base = f"{anchor}.{base}" if base else anchor
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
    return sorted({name for name in names if name == PACKAGE or name.startswith(f"{PACKAGE}.")})


def read_imports() -> list[Import]:
    found = []
    for importer, path in MODULES.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node, module_level in import_nodes(tree.body, True):
            for imported in imported_modules(node, importer):
                if imported != importer:
                    found.append(Import(importer, imported, path, node.lineno, module_level))
    return found


IMPORTS = read_imports()
AREAS = ("core", *GAMES, "registry", "agents", "arena", "training", "web", "cli")
"""The checks are reported by area (a layer, or one game's folder), so that each area's
findings pass or fail on their own."""


def area(module: str) -> str | None:
    kind = layer(module)
    if kind == "games":
        return module.split(".")[1]
    return kind


def allowed(importer: str, imported: str) -> bool:
    low, high = layer(imported), layer(importer)
    assert low is not None and high is not None
    return low == high or LAYERS[low] < LAYERS[high]


def describe(found: Import) -> str:
    return f"  {found.where()}: {found.importer} ({layer(found.importer)}) -> {found.imported} ({layer(found.imported)})"


def test_every_module_has_a_layer() -> None:
    unplaced = [module for module in MODULES if layer(module) is None]
    imported = sorted({found.imported for found in IMPORTS if found.imported not in MODULES})
    if unplaced:
        pytest.fail(f"modules in no layer (add them to LAYER_PATTERNS in {Path(__file__).name}): {', '.join(unplaced)}", pytrace=False)
    if imported:
        pytest.fail(f"imports of modules that do not exist: {', '.join(imported)}", pytrace=False)


@pytest.mark.parametrize("checked", AREAS)
def test_imports_go_only_down_the_layers(checked: str) -> None:
    upward = [found for found in IMPORTS if area(found.importer) == checked and not allowed(found.importer, found.imported)]
    order = " < ".join(" = ".join(name for name in LAYERS if LAYERS[name] == height) for height in sorted(set(LAYERS.values())))
    if upward:
        pytest.fail(f"imports from a higher layer or a peer (order: {order}; layers of one height are peers):\n" + "\n".join(map(describe, upward)), pytrace=False)


def test_the_search_sees_only_the_agent_base() -> None:
    own_package = SEARCH.rpartition(".")[0]
    seen = [
        found
        for found in IMPORTS
        if found.importer == SEARCH and (found.imported == own_package or found.imported.startswith(f"{own_package}.")) and found.imported not in SEARCH_MAY_IMPORT
    ]
    if seen:
        pytest.fail(f"{SEARCH} may import, of {own_package}, only {', '.join(sorted(SEARCH_MAY_IMPORT))}; it imports:\n" + "\n".join(map(describe, seen)), pytrace=False)


def import_graph(deferred: bool) -> dict[str, set[str]]:
    """Who imports whom: at module level only, or (``deferred``) counting imports inside
    functions and under ``TYPE_CHECKING`` too."""
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for found in IMPORTS:
        if (found.module_level or deferred) and found.imported in graph:
            graph[found.importer].add(found.imported)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import each other, directly or through others (Tarjan's
    strongly connected components), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def cycle_through(group: list[str], graph: dict[str, set[str]]) -> list[str]:
    """The shortest cycle of imports from a group's first module back to it (breadth first)."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for other in sorted(graph[module] & members):
                if other == start:
                    return [*paths[module], start]
                if other not in paths:
                    paths[other] = [*paths[module], other]
                    following.append(other)
        frontier = following
    raise AssertionError(f"{group} is not a cycle")


def describe_group(group: list[str], graph: dict[str, set[str]]) -> str:
    """The modules of a group, and one cycle through them with the import behind each step."""
    steps = []
    cycle = cycle_through(group, graph)
    for importer, imported in itertools.pairwise(cycle):
        lines = [found for found in IMPORTS if found.importer == importer and found.imported == imported]
        found = min(lines, key=lambda item: (not item.module_level, item.line))
        kind = "" if found.module_level else " (inside a function or under TYPE_CHECKING)"
        steps.append(f"    {found.where()}: {importer} -> {imported}{kind}")
    return f"  {len(group)} modules import each other ({', '.join(group)}); for one:\n" + "\n".join(steps)


def cycles_in(checked: str, deferred: bool) -> str:
    """What fails an area's cycle check: each group of modules that import each other and has one of the area's modules."""
    graph = import_graph(deferred)
    groups = [group for group in import_cycles(graph) if any(area(module) == checked for module in group)]
    return "\n\n".join(describe_group(group, graph) for group in groups)


@pytest.mark.parametrize("checked", AREAS)
def test_no_import_cycles(checked: str) -> None:
    """Modules that import each other at module level work only in some import orders."""
    found = cycles_in(checked, deferred=False)
    if found:
        pytest.fail("modules that import each other at module level:\n" + found, pytrace=False)


@pytest.mark.parametrize("checked", AREAS)
def test_no_import_cycles_through_deferred_imports(checked: str) -> None:
    """An import moved into a function or under ``TYPE_CHECKING`` hides a cycle from Python, not
    from the design: the two modules still depend on each other."""
    found = cycles_in(checked, deferred=True)
    if found:
        pytest.fail("modules that import each other, counting imports inside functions and under TYPE_CHECKING:\n" + found, pytrace=False)


GAME_TEMPLATE: dict[str, int] = {
    "data": 0,
    "actions": 1,
    "state": 1,
    "cards": 2,
    "abilities": 2,
    "steps": 3,
    "validation": 4,
    "rules": 5,
    "encoding": 6,
    "rendering": 6,
    "view": 6,
    "picture": 7,
}
"""A game folder's modules, by height (design.md, "one template per game"): each imports only
modules of its folder below it, or beside it (no cycles: above).  Every game has the modules of
``TEMPLATE_REQUIRED``; the card games add their card table and Mammoth Hunters its step machine."""
TEMPLATE_REQUIRED = frozenset(GAME_TEMPLATE) - {"cards", "abilities", "steps"}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_folder_follows_the_template(game: str) -> None:
    package = f"{PACKAGE}.{game}"
    modules = {module.removeprefix(f"{package}.") for module in MODULES if module.startswith(f"{package}.")}
    missing, unknown = TEMPLATE_REQUIRED - modules, modules - set(GAME_TEMPLATE)
    assert not missing and not unknown, f"{game}: missing {sorted(missing)}, outside the template {sorted(unknown)}"
    upward = [
        found
        for found in IMPORTS
        if found.importer.startswith(f"{package}.") and found.imported.startswith(f"{package}.")
        and GAME_TEMPLATE[found.importer.removeprefix(f"{package}.")] < GAME_TEMPLATE[found.imported.removeprefix(f"{package}.")]
    ]
    if upward:
        order = " < ".join(sorted(GAME_TEMPLATE, key=GAME_TEMPLATE.__getitem__))
        pytest.fail(f"imports up the game template ({order}):\n" + "\n".join(map(describe, upward)), pytrace=False)


TRAINING = f"{PACKAGE}.training"
BACKENDS = (f"{TRAINING}.sb3", f"{TRAINING}.rllib")
SHARED_BY_BACKENDS = (f"{TRAINING}.trainer", f"{TRAINING}.opponents")


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def test_training_imports_a_backend_only_when_a_run_needs_it() -> None:
    """What every backend shares imports none; a backend does not start runs; ``runs`` imports a
    backend only inside the function that a run with that algorithm calls."""
    wrong = [
        found
        for found in IMPORTS
        if (found.importer in SHARED_BY_BACKENDS and any(inside(found.imported, backend) for backend in BACKENDS))
        or (any(inside(found.importer, backend) for backend in BACKENDS) and found.imported == f"{TRAINING}.runs")
        or (found.importer == f"{TRAINING}.runs" and found.module_level and any(inside(found.imported, backend) for backend in BACKENDS))
    ]
    if wrong:
        pytest.fail("training's backends are imported where a run does not need them:\n" + "\n".join(map(describe, wrong)), pytrace=False)

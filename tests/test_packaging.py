"""What the wheel and the sdist carry, checked from pyproject.toml and MANIFEST.in without building
(.ci/wheel_smoke.sh builds both and installs the wheel)."""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dice_envs"


def data_files() -> list[Path]:
    """The package's files that are not Python source (nor its compiled caches)."""
    return [path for path in PACKAGE.rglob("*") if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts]


def is_package_data(path: Path, package_data: dict[str, list[str]]) -> bool:
    """Whether a pattern of ``path``'s package (or a package above it) in package-data matches it."""
    for package, patterns in package_data.items():
        folder = ROOT.joinpath(*package.split("."))
        if path.is_relative_to(folder) and any(fnmatch(str(path.relative_to(folder)), pattern) for pattern in patterns):
            return True
    return False


def test_every_data_file_of_the_package_is_package_data() -> None:
    """A data file the package reads but pyproject.toml does not list would be missing from the wheel."""
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    unlisted = [str(path.relative_to(ROOT)) for path in data_files() if not is_package_data(path, package_data)]
    assert not unlisted, f"not in [tool.setuptools.package-data]: {unlisted}"
    assert not is_package_data(PACKAGE / "web" / "fonts" / "new.ttf", package_data)  # the check itself sees a missing one


def test_the_sdist_carries_what_the_tests_read() -> None:
    grafted = {line.split()[1] for line in (ROOT / "MANIFEST.in").read_text().splitlines() if line.startswith("graft ")}
    assert {"tests", "docs", "tools", "benchmarks", ".ci"} <= grafted


def test_only_dice_envs_is_packaged() -> None:
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"] == ["dice_envs*"]

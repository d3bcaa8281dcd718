"""docs/DESIGN.md's module map is the code's: made from each package's and module's
docstring by tools/module_map.py, so it never names a module that is gone nor misses a
new one."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def module_map() -> ModuleType:
    spec = importlib.util.spec_from_file_location("module_map", ROOT / "tools" / "module_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_design_holds_the_module_map_the_code_makes() -> None:
    tool = module_map()
    design = (ROOT / "docs" / "DESIGN.md").read_text()
    assert tool.BEGIN in design and tool.END in design
    assert design == tool.design_with_map(design), (
        "docs/DESIGN.md's module map is out of date: python3 tools/module_map.py --write")


def test_every_package_says_what_it_is_for() -> None:
    """A package without a docstring would stand in the map with nothing beside it."""
    mute = [str(init.relative_to(ROOT)) for init in (ROOT / "games").rglob("__init__.py")
            if "migrations" not in init.parts and not module_map().docstring(init)]
    assert not mute, mute

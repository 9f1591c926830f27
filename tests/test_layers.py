"""The packages' import arrows, checked on the source of every module.

``extractors`` is the pure library (no Scrapy, Twisted, Redis, nor any of our other packages);
``evaluation`` stands beside it and imports it, never the crawl; ``pipelines`` imports neither the
crawler (the arrows go ``crawler`` -> ``pipelines`` -> ``extractors``) nor the evaluation code.
The check reads each module's ``import`` statements with :mod:`ast`, including imports inside
functions, so a lazy import cannot slip past it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: package → top-level modules it must never import.
FORBIDDEN = {
    "extractors": {"scrapy", "twisted", "redis", "crawler", "pipelines", "evaluation"},
    "evaluation": {"scrapy", "twisted", "redis", "crawler", "pipelines"},
    "pipelines": {"crawler", "evaluation"},
}


def imported_packages(path: Path) -> set[str]:
    """Top-level names of every absolute import in a module."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_imported_packages_reads_nested_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import os.path\ndef f():\n    from scrapy.http import Request\n"
                      "from . import sibling\n", encoding="utf-8")
    assert imported_packages(module) == {"os", "scrapy"}


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_follow_the_arrows(package):
    modules = sorted((ROOT / package).rglob("*.py"))
    assert modules, f"no modules found under {package}/"
    broken = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & FORBIDDEN[package])
        for path in modules
    }
    assert {path: names for path, names in broken.items() if names} == {}


def test_only_the_cli_imports_the_evaluation_code():
    importers = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "crawler").rglob("*.py")
        if "evaluation" in imported_packages(path)
    )
    assert importers == ["crawler/cli.py", "crawler/commands/serve_bench.py"]


# The rooms of ``pipelines`` (docs/architecture.md, "The rooms"): each feature in one subpackage,
# the hall (``extract``) that routes a page between them, and the floor: modules every room may
# use, which use no room.
HALL = "extract"
ROOMS = ("archive", "lists", "redis_conn", "siblings", "sinks")
FLOOR = ("items", "reasons", "rolling", "throttled_log", "untrusted")

#: part of ``pipelines`` → the parts it may import (the floor, and its own room, always).
ALLOWED = {
    "__init__": set(),  # names the pipelines in strings (DEFAULT_PIPELINES), imports none
    HALL: {"lists", "siblings"},
    "siblings": {"redis_conn"},
    "lists": {"redis_conn"},
    "sinks": {"redis_conn"},
    "archive": set(),
    "redis_conn": set(),
    **{module: set() for module in FLOOR},
}


def pipelines_part(module: str) -> str:
    """The part of ``pipelines`` a dotted module name is in: its room, the hall, a floor module
    (``pipelines.siblings.store``: ``siblings``; ``pipelines``: ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imported_modules(path: Path) -> set[str]:
    """The dotted names of every absolute import in a module (``from a import b``: ``a.b``, as b
    may be a module), with imports inside functions and under ``TYPE_CHECKING``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_pipelines_module_is_in_a_room_the_hall_or_the_floor():
    parts = {pipelines_part(module_name(path)) for path in (ROOT / "pipelines").rglob("*.py")}
    assert parts == set(ALLOWED), "a new module: put it in a room, or add it to the floor"
    for room in ROOMS:
        assert (ROOT / "pipelines" / room / "__init__.py").is_file()


def test_rooms_import_only_the_floor_their_own_room_and_what_the_table_allows():
    """The lists room never imports the sibling room (nor the other way), the sinks and the
    archive import neither, no room imports the hall, the floor imports no room."""
    broken = {}
    for path in sorted((ROOT / "pipelines").rglob("*.py")):
        own = pipelines_part(module_name(path))
        allowed = ALLOWED[own] | set(FLOOR) | {own}
        wrong = sorted(
            name for name in imported_modules(path)
            if name.split(".")[0] == "pipelines" and pipelines_part(name) not in allowed
        )
        if wrong:
            broken[str(path.relative_to(ROOT))] = wrong
    assert broken == {}


def test_nothing_imports_the_hall_but_the_spider_and_the_crawl_bench():
    """The settings name the hall in a string (``DEFAULT_PIPELINES``); the spider imports it to
    find its record board with ``crawler.get_item_pipeline``; the crawl bench times the chain as
    the hall runs it. Nothing else may call into it."""
    importers = sorted(
        str(path.relative_to(ROOT))
        for package in ("crawler", "pipelines", "evaluation", "extractors")
        for path in (ROOT / package).rglob("*.py")
        if any(name == f"pipelines.{HALL}" or name.startswith(f"pipelines.{HALL}.")
               for name in imported_modules(path))
    )
    assert importers == ["crawler/commands/crawl_bench.py", "crawler/spiders/news.py"]


def test_the_arrow_checks_see_a_room_bypassed(tmp_path):
    """The check is able to fail: a list module importing the sibling store is caught."""
    module = tmp_path / "pipelines" / "lists" / "bad.py"
    module.parent.mkdir(parents=True)
    module.write_text("def f():\n    from pipelines.siblings.store import StoredPage\n",
                      encoding="utf-8")
    names = imported_modules(module)
    assert names == {"pipelines.siblings.store.StoredPage"}
    assert pipelines_part("pipelines") == "__init__"
    assert {pipelines_part(name) for name in names} - ALLOWED["lists"] - set(FLOOR) == {"siblings"}

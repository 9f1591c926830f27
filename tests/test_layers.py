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

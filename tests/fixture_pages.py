"""Access to the real fixture pages in tests/fixtures (sources in tests/fixtures/SOURCES.md)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def gold_lines() -> tuple[dict, ...]:
    """The ground-truth line of every fixture page, as copied from its dataset."""
    with open(FIXTURES / "gold.jsonl", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh)


def page_bytes(line: dict) -> bytes:
    return (FIXTURES / line["file"]).read_bytes()


def pages_where(**conditions) -> list[dict]:
    """Gold lines whose fields equal ``conditions`` (``page_type="article"``...)."""
    return [g for g in gold_lines() if all(g.get(k) == v for k, v in conditions.items())]


def fixture(name: str) -> dict:
    """The gold line of ``pages/<name>``."""
    return next(g for g in gold_lines() if g["file"] == f"pages/{name}")


def body_without_link_lines(gold: dict, root) -> str:
    """The gold body less its lines that start with the anchor text of a link on the page.

    Silver bodies (cx_163, cx_bbc) were scraped with the page's "related articles" list still attached
    (a headline link followed by its date); by paper 000's own definitions such a link list is not
    body text. Gold-quality bodies are returned unchanged.
    """
    if gold.get("quality") != "silver":
        return gold["body"]
    anchors = {a.text_content().strip() for a in root.iter("a")}
    anchors = tuple(a for a in anchors if len(a) >= 8)
    lines = gold["body"].splitlines()
    return "\n".join(line for line in lines if not line.strip().startswith(anchors))

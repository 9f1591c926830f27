"""Dataset loading, limits and the sibling rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.datasets import load_dataset


def write_dataset(root: Path, rows: list[dict]) -> Path:
    (root / "pages").mkdir(parents=True)
    with (root / "gold.jsonl").open("w", encoding="utf-8") as out:
        for i, row in enumerate(rows):
            row = {"id": str(i), "file": f"pages/{i:05d}.html", **row}
            (root / row["file"]).write_bytes(row.pop("html", b"<html><body>x</body></html>"))
            out.write(json.dumps(row) + "\n")
    return root


def test_not_a_dataset_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no gold.jsonl"):
        load_dataset(tmp_path)


def test_sibling_is_nearest_same_type_page_of_the_group(tmp_path):
    rows = [{"group": "a", "page_type": "article"}, {"group": "a", "page_type": "list"},
            {"group": "b", "page_type": "article"}, {"group": "a", "page_type": "article"},
            {"group": "a", "page_type": "article"}]
    ds = load_dataset(write_dataset(tmp_path / "d", rows))
    assert ds.sibling_of(ds.pages[3]).id == "4"  # distance 1 beats distance 3
    assert ds.sibling_of(ds.pages[0]).id == "3"
    assert ds.sibling_of(ds.pages[2]) is None  # alone in its group


def test_list_page_sibling_may_be_nonarticle_and_ties_go_to_the_earlier(tmp_path):
    rows = [{"group": "a", "page_type": "nonarticle"}, {"group": "a", "page_type": "list"},
            {"group": "a", "page_type": "list"}]
    ds = load_dataset(write_dataset(tmp_path / "d", rows))
    assert ds.sibling_of(ds.pages[1]).id == "0"


def test_limit_spreads_pages_and_keeps_siblings_from_all(tmp_path):
    rows = [{"group": "a", "page_type": "article"} for _ in range(10)]
    ds = load_dataset(write_dataset(tmp_path / "d", rows), limit=3)
    assert [p.id for p in ds.evaluated()] == ["0", "3", "6"]
    assert ds.sibling_of(ds.evaluated()[1]).id == "2"


def test_sections_are_what_the_gold_has(tmp_path):
    rows = [{"body": "text", "with": ["t"], "date": float("nan")}, {"title": "T"}]
    ds = load_dataset(write_dataset(tmp_path / "d", rows))
    assert ds.sections() == {"body", "snippets", "title"}

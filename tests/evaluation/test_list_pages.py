"""``python -m evaluation.list_pages`` on the pinned list pages (gerapy_listdetail, Apache-2.0;
wcxb_dev, CC-BY-4.0; tests/fixtures/eval/SOURCES.md): its per-page counts are the eval's."""

from __future__ import annotations

import json
from pathlib import Path

from evaluation import list_pages, methods
from evaluation.datasets import load_dataset
from evaluation.listmetrics import record_counts

SET = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "list_records"


def test_per_page_counts_are_those_of_the_eval_methods(tmp_path: Path, capsys) -> None:
    out = tmp_path / "pages.json"
    assert list_pages.main([str(SET), "--limit", "3", "--json", str(out)]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))
    dataset = load_dataset(SET, limit=3, only="records")
    assert [r["id"] for r in rows] == [p.gold["id"] for p in dataset.evaluated()]
    for row, page in zip(rows, dataset.evaluated()):
        sibling = dataset.sibling_of(page, ("list",))
        found = methods.run_confirmed(page.read_bytes(), page.url,
                                      sibling.read_bytes() if sibling else None)
        assert row["confirmed"] == list(record_counts(found["records"], page.gold["records"],
                                                      page.base_url())[:3])
        assert row["confirmed_by"] in ("psnt", "agreed", "one_list", "repeated", "single_page",
                                      "none")
        assert sum(s["right"] for s in row["subtrees"]) >= row["dwsie"][0]  # before dedup
        if sibling is None:
            assert row["confirmed_alone"] is None
        else:  # the list step on the page alone, as when the sibling does not come
            alone = methods.run_confirmed(page.read_bytes(), page.url, None)
            assert row["confirmed_alone"] == list(record_counts(
                alone["records"], page.gold["records"], page.base_url())[:3])
    printed = capsys.readouterr().out
    assert printed.count("right/predicted/gold psnt_fallback") == 3
    confirmed = [sum(row["confirmed"][i] for row in rows) for i in range(3)]
    assert f"total confirmed (3 pages): right/predicted/gold {'/'.join(map(str, confirmed))}" \
        in printed

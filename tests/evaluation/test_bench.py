"""``newscrawl bench`` on real pages: the chain with a sibling as the crawl gives it (parsed once
per template, kept) is timed beside the chain alone and printed."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from evaluation import benchmark
from tests.evaluation.test_datasets import write_dataset

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"


def test_bench_times_the_chain_with_a_sibling(tmp_path: Path, capsys) -> None:
    # three real cx_163 articles of one site (MIT, tests/fixtures/SOURCES.md): each has a sibling
    files = sorted(PAGES.glob("cx_163-*.html"))
    assert len(files) >= 3
    rows = [{"lang": "zh", "page_type": "article", "group": "163", "body": "x",
             "html": path.read_bytes()} for path in files]
    data = write_dataset(tmp_path / "cx", rows)
    out = tmp_path / "bench.json"
    args = argparse.Namespace(datasets=[str(data)], limit=None, no_peers=True, memory=False,
                              lcs_scaling=False, list_step=False, json=out)
    assert benchmark.run(args) == 0
    row = json.loads(out.read_text())["results"][0]
    assert row["chain_with_sibling_pages"] == len(files) == row["lcs_pairs"]
    for mode in ("auto", "always"):
        assert row[f"chain_with_sibling_{mode}_ms_median"] > 0
        assert row[f"chain_with_sibling_{mode}_over_parse"] > 1
    printed = capsys.readouterr().out
    assert "chain with a sibling (parsed once, as the crawl)" in printed
    assert "always used" in printed


def test_bench_times_the_list_fallback_on_list_pages(tmp_path: Path, capsys) -> None:
    # the pinned list pages with gold records (gerapy_listdetail, wcxb_dev; Apache-2.0, CC-BY-4.0)
    data = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "list_records"
    out = tmp_path / "bench.json"
    args = argparse.Namespace(datasets=[str(data)], limit=3, no_peers=True, memory=False,
                              lcs_scaling=False, list_step=True, json=out)
    assert benchmark.run(args) == 0
    row = json.loads(out.read_text())["results"][0]
    assert row["pages"] == 3
    assert row["confirmed_ms_median"] > row["classify_ms_median"] > 0
    assert row["single_page_ms_median"] > 0 and row["lxml_parse_ms_median"] > 0
    assert "| confirmed " in capsys.readouterr().out

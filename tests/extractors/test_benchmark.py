"""`newscrawl bench` runs on a dataset folder and reports its figures (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

from crawler.cli import main

MAIN_TEXT = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "main_text"


def test_bench_reports_chain_floor_lcs_scaling_and_memory(tmp_path, capsys):
    out = tmp_path / "bench.json"
    code = main(["bench", str(MAIN_TEXT), "--limit", "4", "--no-peers", "--memory",
                 "--lcs-scaling", "--json", str(out)])
    assert code == 0
    (row,) = json.loads(out.read_text())["results"]
    assert row["dataset"] == "main_text" and row["pages"] == 4
    assert row["chain_ms_median"] > 0 and row["lxml_parse_ms_median"] > 0
    assert set(row["steps_ms_median"]) == {"decode", "parse", "table", "attenuation", "fields",
                                           "pagetype"}
    assert row["fields_over_parse"] is not None
    assert row["lcs_pairs"] > 0 and row["lcs_nodes_median"] > 0
    assert row["lcs_pages_lxml_parse_ms_median"] > 0
    scaling = row["lcs_scaling"]
    assert sum(b["pairs"] for b in scaling) == row["lcs_pairs"]
    assert all(b["ms_median"] > 0 and b["lxml_parse_ms_median"] > 0 and b["peak_mb_max"] > 0
               and b["refused"] == 0 for b in scaling)
    assert row["peak_rss_mb_largest_page"]["rss_peak_mb"] >= row["peak_rss_mb_largest_page"][
        "rss_before_mb"]
    assert "main_text: 4 pages" in capsys.readouterr().out

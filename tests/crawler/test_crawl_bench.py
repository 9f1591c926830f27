"""`newscrawl crawl-bench` end to end on a few real pages (slow: real workers; `pytest -m slow`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.crawler.demo_helpers import newscrawl

DATA = Path(os.environ.get("NEWSCRAWL_DATA", Path.home() / ".cache" / "newsdata"))


@pytest.mark.slow
def test_crawl_bench_prints_both_figures(tmp_path: Path) -> None:
    if not (DATA / "cx_bbc" / "pages").is_dir():
        pytest.skip(f"{DATA / 'cx_bbc'} not unpacked")
    out = tmp_path / "bench.json"
    result = newscrawl("crawl-bench", "--sets", "cx_bbc", "--pages", "12", "--sites", "2",
                       "--delay", "0.05", "--json", str(out), timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    figures = json.loads(out.read_text())
    assert [r["workers"] for r in figures["workers"]] == [1, 2]
    assert all(r["pages"] == 12 + 2 and r["exit_codes"] == [0] * r["workers"]
               for r in figures["workers"])  # every article and both fronts, each run
    assert "crawl overhead over extraction alone, CPU" in result.stdout
    for row in figures["workers"]:  # what bounded each run, read over its span
        cpu = row["cpu_s"]
        assert cpu["workers"] > 0 and cpu["this"] >= 0 and cpu["redis"] >= 0
        assert cpu["machine"] >= cpu["workers"]
        assert row["worker_cpu_ms_per_page"] > 0 and row["cpu_bound_pages_per_s"] > 0
        assert row["delay_bound_pages_per_s"] == min(row["workers"] * 8, 2 * 2) / 0.05
    over = figures["overhead"]
    assert over["crawl_cpu_s"] > 0 and over["extract_cpu_s"] > 0
    assert over["crawl_cpu_total_s"] >= over["crawl_cpu_s"] and over["exit_code"] == 0

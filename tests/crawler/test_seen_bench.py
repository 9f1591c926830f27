"""`newscrawl seen-bench` end to end on a small count: it runs and prints its figures (the figures
themselves are measured by running it, not asserted here beyond their order)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.crawler.demo_helpers import newscrawl


def test_seen_bench_prints_embedded_and_redis_figures(redis_server_factory, tmp_path: Path) -> None:
    server = redis_server_factory()  # a private server: the bench flushes its database
    out = tmp_path / "seen.json"
    result = newscrawl("seen-bench", "--urls", "5000", "--redis", server.url, "--json", str(out))
    assert result.returncode == 0, result.stderr
    figures = json.loads(out.read_text())
    embedded, redis_ = figures["embedded"], figures["redis"]
    assert 8 <= embedded["projected_bytes_per_url"] < 12 < 100 < embedded["old_bytes_per_url"]
    assert redis_["dense"]["buckets_not_intset_of_2000"] == 0
    assert redis_["dense"]["bytes_per_url"] < 12 < redis_["old"]["bytes_per_url"]
    assert "at 100,000,000 URLs" in result.stdout

"""The progress line and the end summary."""

from __future__ import annotations

import doctest

import crawler.extensions.progress
from crawler.extensions.summary import build_summary, summary_text


def test_progress_docstring_examples_hold() -> None:
    result = doctest.testmod(crawler.extensions.progress)
    assert result.attempted > 0 and result.failed == 0


def test_summary_groups_stats_by_kind() -> None:
    stats = {
        "newscrawl/pages_fetched": 5,
        "newscrawl/items_written": 3,
        "newscrawl/page_type/article": 2,
        "newscrawl/page_type/list": 1,
        "newscrawl/skipped/http_404": 1,
        "newscrawl/skipped/empty": 1,
        "log_count/ERROR": 0,
        "downloader/request_count": 7,
    }
    summary = build_summary(stats, 1.5, "finished")
    assert summary["page_types"] == {"article": 2, "list": 1}
    assert summary["skipped"] == {"empty": 1, "http_404": 1}
    assert summary["requests"] == 7
    text = summary_text(summary)
    assert "pages fetched:   5" in text and "http_404 1" in text and "1.5 s (finished)" in text

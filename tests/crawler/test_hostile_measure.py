"""Measurement (slow): each hostile page alone beside three real articles, one real crawl each; the
longest reactor stall and the crawl process's peak RSS (crawler/extensions/reactor_health.py).

Run ``python -m pytest -m slow -s tests/crawler/test_hostile_measure.py``: it prints one line per
page (reactor max stall, the part of it the crawl process was busy, peak RSS, outcome) and fails
when a page stalls the reactor 1 s or more with the process busy, or raises the crawl above 500 MB
(the targets of issue 10). The busy stall is asserted, not the wall one: on a machine loaded by
other processes the OS leaves the whole process unscheduled for as long (a crawl of three real
articles alone showed 0.74 s at a load average of 13 on 2 cores).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from tests.crawler.hostile_pages import deep_nesting, gzip_bomb, many_attributes, many_links
from tests.crawler.hostile_site import ARTICLES, crawl_site, site_with
from tests.crawler.http_helpers import serve

MAX_STALL_MS = 1000
MAX_RSS_MB = 500
CASES: dict[str, tuple[Callable[[], bytes], bool]] = {
    "none (3 real articles only)": (lambda: b"", False),
    "200 000 attributes on one element": (many_attributes, False),
    "200 000 links": (many_links, False),
    "20 000 links": (partial(many_links, 20_000), False),
    "100 000 nested elements": (deep_nesting, False),
    "gzip bomb (200 MB of spaces)": (gzip_bomb, True),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_hostile_page_stall_and_memory(case: str, tmp_path: Path) -> None:
    build, gzipped = CASES[case]
    handler = site_with({"/hostile/page": build}, gzipped={"/hostile/page"} if gzipped else set())
    with serve(handler) as base:
        summary, items = crawl_site(base, tmp_path / "out")
    reactor = summary["reactor"]
    outcome = {**summary["skipped"], **{f"capped/{k}": v for k, v in summary["capped"].items()}}
    print(f"\n{case}: reactor max stall {reactor['max_stall_ms']} ms (busy "
          f"{reactor['max_busy_stall_ms']} ms), peak RSS "
          f"{reactor['peak_rss_mb']} MB, outcome {outcome or 'extracted'}, "
          f"{summary['elapsed_seconds']:.1f} s")
    kept = {item["url"].split("/", 3)[3] for item in items}
    assert {p.lstrip("/") for p in ARTICLES} <= kept
    assert reactor["max_busy_stall_ms"] < MAX_STALL_MS
    assert reactor["peak_rss_mb"] < MAX_RSS_MB

"""Embedded resume: a crawl stopped early, run again into the same --out, fetches each page once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from crawler.demo.server import DemoServer, load_site
from crawler.scheduling.resume import JOURNAL_FILE
from tests.crawler.demo_helpers import Expected, jsonl_items, newscrawl, path_of, warc_responses


@pytest.fixture(scope="module")
def demo_server():
    server = DemoServer(load_site()).start()
    yield server
    server.stop()


def _crawl(server: DemoServer, out: Path, *extra: str):
    depth = str(server.site.manifest["depth_limit"])
    result = newscrawl(
        "crawl", *server.seed_urls(), "--out", str(out), "--depth", depth, "--no-autothrottle",
        "--progress-interval", "0", "-s", "CONCURRENT_REQUESTS=2", *extra,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result


def test_a_rerun_into_the_same_out_resumes_and_fresh_starts_over(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    expected = Expected(demo_server.site)
    out = tmp_path / "out"
    _crawl(demo_server, out, "--max-pages", "8")
    first = Counter(path for path, _ in warc_responses(out))
    assert 0 < sum(first.values()) < expected.pages_fetched
    assert (out / JOURNAL_FILE).exists()

    resumed = _crawl(demo_server, out)
    assert "resumed:" in resumed.stdout
    fetched = Counter(path for path, _ in warc_responses(out))
    # robots.txt is read again by every crawl process (the WARC now holds every exchange); the
    # first crawl was stopped with requests to do, so the rerun resumes its round: not even the
    # fronts (crawler/rounds.py) are fetched again
    again = [p for p, n in fetched.items() if n > 1 and p != "/robots.txt"]
    assert again == [], "a page was fetched again"
    assert expected.item_paths <= set(fetched) - {"/robots.txt"} <= expected.requested_paths
    items = Counter(path_of(item["url"]) for item in jsonl_items(out))
    assert set(items) == expected.item_paths and max(items.values()) == 1

    _crawl(demo_server, out, "--fresh", "--max-pages", "3")
    again = Counter(path for path, _ in warc_responses(out))
    assert sum(again.values()) > sum(fetched.values())  # --fresh fetched pages again

"""A real crawl of a list page that has no sibling: the confirmed records (the default) and the
single-page PSNT fallback.

The local server serves only the first of the two real ifixit.com list pages of ``wcxb_dev``
(CC-BY-4.0, tests/fixtures/psnt/SOURCES.md) as ``/Parts?p=1``; its "next page" ``/Parts?p=2`` is
a 404 and the sibling wait is 3 s, so the pairing gives up on a sibling. Product links are answered
with real article pages (MIT fixtures, tests/fixtures/pages), as in test_list_crawl.py.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.crawler.demo_helpers import jsonl_items, newscrawl
from tests.crawler.http_helpers import PageHandler, serve
from tests.crawler.test_list_crawl import ARTICLES, LISTS, gold_paths


class AloneHandler(PageHandler):
    log: list[str] = []

    def page(self, path: str) -> bytes | None:
        self.log.append(path)
        if path == "/Parts?p=1":
            return LISTS[path]
        if path.startswith("/products/"):
            return ARTICLES[zlib.crc32(path.encode()) % len(ARTICLES)]
        return None


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve(AloneHandler) as url:
        yield url


def crawl(site: str, out: Path, *settings: str) -> tuple[dict, dict]:
    AloneHandler.log = []
    result = newscrawl(
        "crawl", f"{site}/Parts?p=1", "--out", str(out), "--no-autothrottle",
        "--progress-interval", "0", "--depth", "1",
        "-s", "CONCURRENT_REQUESTS=1", "-s", "NEWSCRAWL_SIBLING_WAIT=3",
        *[a for s in settings for a in ("-s", s)],
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (item,) = [i for i in jsonl_items(out) if i["url"].endswith("/Parts?p=1")]
    return item, json.loads((out / "summary.json").read_text())


def stored_wrappers(out: Path) -> list[Path]:
    folder = out / "wrappers"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


@pytest.mark.slow  # 14-20 s of crawling: out of the default run (CI budget)
def test_a_list_page_without_sibling_gets_the_confirmed_records(site: str, tmp_path: Path) -> None:
    # the default (NEWSCRAWL_LISTS_CONFIRMED): the records DWSIE's list nodes and a wrapper
    # induced from the page alone agree on; here the two agree on every gold record
    item, summary = crawl(site, tmp_path)
    gold = [site + p for p in gold_paths("wcxb_dev-0651.html")]
    assert [r["url"] for r in item["records"]] == gold
    extraction = item["extraction"]
    assert extraction["method"] == "confirmed" and extraction["event"] == "confirmed"
    assert "agree on" in extraction["reason"] and extraction["sibling"]["used"] is False
    assert summary["wrappers"]["confirmed"] == 1
    assert summary["wrappers"]["records_requested"] == len(gold)
    assert stored_wrappers(tmp_path) == []  # the single-page wrapper is never stored


@pytest.mark.slow  # 14-20 s of crawling: out of the default run (CI budget)
def test_a_list_page_without_sibling_gets_single_page_records(site: str, tmp_path: Path) -> None:
    item, summary = crawl(site, tmp_path, "NEWSCRAWL_LISTS_CONFIRMED=False")
    gold = [site + p for p in gold_paths("wcxb_dev-0651.html")]
    assert [r["url"] for r in item["records"]] == gold
    extraction = item["extraction"]
    assert extraction["method"] == "psnt_single" and extraction["event"] == "single_page"
    assert "not stored" in extraction["reason"] and extraction["sibling"]["used"] is False
    assert extraction["wrapper"]["induced_from"] == [item["url"]]
    assert summary["wrappers"]["single_page"] == 1
    assert not any(k.startswith("none/") for k in summary["wrappers"])
    # the records go through the record board: requested first, with the list page as referer
    assert summary["wrappers"]["records_requested"] == len(gold)
    assert set(gold_paths("wcxb_dev-0651.html")) <= set(AloneHandler.log)
    assert stored_wrappers(tmp_path) == []  # applied once, never stored


@pytest.mark.slow  # 14-20 s of crawling: out of the default run (CI budget)
def test_the_setting_off_leaves_the_page_without_records(site: str, tmp_path: Path) -> None:
    item, summary = crawl(site, tmp_path, "NEWSCRAWL_WRAPPERS_SINGLE_PAGE=False")
    assert item["records"] == [] and item["extraction"]["event"] == "none"
    assert item["extraction"]["method"] == "psnt"
    assert "single_page" not in summary["wrappers"]
    assert any(k.startswith("none/") for k in summary["wrappers"])
    assert "records_requested" not in summary["wrappers"]
    assert stored_wrappers(tmp_path) == []

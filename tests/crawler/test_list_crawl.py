"""A real crawl from a real list page to its articles through a PSNT wrapper, twice.

A local HTTP server serves the two real ifixit.com list pages of ``wcxb_dev`` (CC-BY-4.0,
tests/fixtures/psnt/SOURCES.md) as ``/Parts?p=1`` and ``/Parts?p=2``: the first page links to
``/Parts?p=2`` (its own "next page" link), so the two share a template key and the second is the
first one's sibling. The pages' product links (``/products/<slug>``, relative, so they resolve to
the local server) are answered with real article pages (MIT ``cx_bbc`` / ``cx_163`` fixtures in
tests/fixtures/pages); every other path is a 404. The server logs each request's path and Referer,
in order; one request at a time, so that order is the crawl's scheduling order.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.crawler.demo_helpers import jsonl_items, newscrawl, path_of
from tests.crawler.http_helpers import PageHandler, serve

FIXTURES = Path(__file__).parents[1] / "fixtures"
LISTS = {
    "/Parts?p=1": (FIXTURES / "psnt" / "wcxb_dev-0651.html").read_bytes(),
    "/Parts?p=2": (FIXTURES / "psnt" / "wcxb_dev-0652.html").read_bytes(),
}
ARTICLES = [
    (FIXTURES / "pages" / name).read_bytes()
    for name in ("cx_bbc-00000.html", "cx_bbc-00003.html", "cx_163-00001.html")
]


def gold_paths(name: str) -> list[str]:
    for line in (FIXTURES / "psnt" / "gold.jsonl").read_text(encoding="utf-8").splitlines():
        gold = json.loads(line)
        if gold["file"] == name:
            return [r["href"] for r in gold["records"]]
    raise LookupError(name)


class Handler(PageHandler):
    log: list[tuple[str, str | None]] = []
    slow: dict[str, float] = {}  # path -> seconds before answering

    def page(self, path: str) -> bytes | None:
        self.log.append((path, self.headers.get("Referer")))
        time.sleep(self.slow.get(path, 0))
        body = LISTS.get(path)
        if body is None and path.startswith("/products/"):
            body = ARTICLES[zlib.crc32(path.encode()) % len(ARTICLES)]
        return body


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve(Handler) as url:
        yield url


def crawl(site: str, out: Path, *settings: str) -> tuple[list[tuple[str, str | None]], dict, str]:
    Handler.log = []
    result = newscrawl(
        "crawl", f"{site}/Parts?p=1", "--out", str(out), "--no-autothrottle",
        "--progress-interval", "0", "--depth", "1",
        "-s", "CONCURRENT_REQUESTS=1", "-s", "NEWSCRAWL_SIBLING_WAIT=20",
        *[a for s in settings for a in ("-s", s)],
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return list(Handler.log), json.loads((out / "summary.json").read_text()), result.stdout


@pytest.fixture(scope="module")
def runs(site: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("list-crawl")
    first = crawl(site, out)
    items = jsonl_items(out)
    # same output folder, started over (not resumed): the stored wrappers are reloaded
    second = crawl(site, out, "NEWSCRAWL_FRESH=True")
    return {"site": site, "out": out, "first": first, "items": items, "second": second}


def test_records_are_requested_first_with_the_list_page_as_referer(runs: dict) -> None:
    site = runs["site"]
    log, summary, _ = runs["first"]
    paths = [path for path, _ in log]
    records = gold_paths("wcxb_dev-0651.html")
    assert set(records) <= set(paths)
    after_list = paths[paths.index("/Parts?p=1") + 1 :]
    assert after_list[0] == "/Parts?p=2"  # the sibling first (priority 100)
    others = [p for p in after_list[1:] if not p.startswith("/products/")]
    assert others, "the list page's other links are crawled too"
    last_record = max(after_list.index(p) for p in records)
    assert last_record < after_list.index(others[0])  # every record ahead of the other links
    referers = {path: referer for path, referer in log}
    assert all(referers[p] == f"{site}/Parts?p=1" for p in records)
    assert summary["wrappers"]["records_requested"] == len(records)


def test_news_list_items_carry_the_records(runs: dict) -> None:
    site = runs["site"]
    lists = {path_of(i["url"]) + "?" + i["url"].split("?")[1]: i
             for i in runs["items"] if i["page_type"] == "list"}
    first = lists["/Parts?p=1"]
    gold = [site + p for p in gold_paths("wcxb_dev-0651.html")]
    assert [r["url"] for r in first["records"]] == gold
    assert all(r["title"] for r in first["records"])
    extraction = first["extraction"]
    assert extraction["method"] == "psnt" and extraction["wrapper"]["key"] == first["template_key"]
    assert first["warc"]["file"] and "body" not in first
    articles = [i for i in runs["items"] if path_of(i["url"]).startswith("/products/")]
    assert articles and all(i["referer"] == f"{site}/Parts?p=1" for i in articles)
    assert all("records" not in i and i["body"] for i in articles)


def test_first_run_induces_and_the_second_reloads_the_stored_wrapper(runs: dict) -> None:
    _, first, first_text = runs["first"]
    log, second, second_text = runs["second"]
    assert first["wrappers"]["induced"] >= 1 and "reinduced" not in first["wrappers"]
    assert len(list((runs["out"] / "wrappers").glob("*.json"))) == 1
    assert "induced" not in second["wrappers"] and second["wrappers"]["applied"] == 2
    assert second["siblings"]["none/not_needed"] == 2
    assert "wrappers:        induced " in first_text
    assert "wrappers:        induced 0," in second_text


@pytest.mark.slow  # 14-20 s of crawling: out of the default run (CI budget)
def test_links_go_on_when_the_records_do_not_come_in_time(site: str, tmp_path: Path) -> None:
    # The sibling answers after 3 s; the list page waits for it (up to 20 s), but its links wait
    # only 1 s for its records, then go on at the normal priority.
    Handler.slow = {"/Parts?p=2": 3.0}
    try:
        log, summary, _ = crawl(site, tmp_path / "out", "NEWSCRAWL_RECORDS_WAIT=1")
    finally:
        Handler.slow = {}
    assert summary["wrappers"]["records_wait_timeout"] >= 1
    assert "records_requested" not in summary["wrappers"]
    paths = [path for path, _ in log]
    assert set(gold_paths("wcxb_dev-0651.html")) <= set(paths)  # crawled as ordinary links
    (first,) = [i for i in jsonl_items(tmp_path / "out") if i["url"].endswith("/Parts?p=1")]
    assert len(first["records"]) == 24  # the item itself is complete


def test_the_spider_does_not_wait_for_records_when_no_pipeline_finds_them(
        site: str, tmp_path: Path) -> None:
    # With list wrappers off the extract pipeline has no record board, so the spider (which finds
    # the board through crawler.get_item_pipeline) yields the list page's links at once. Were it
    # to wait, nobody would answer: each list page would hold its links for the full 30 s.
    started = time.monotonic()
    log, summary, _ = crawl(site, tmp_path / "out", "NEWSCRAWL_WRAPPERS_ENABLED=False",
                            "NEWSCRAWL_RECORDS_WAIT=30")
    assert time.monotonic() - started < 30
    assert "records_wait_timeout" not in summary.get("wrappers", {})
    assert set(gold_paths("wcxb_dev-0651.html")) <= {path for path, _ in log}

"""Hostile pages served to a real crawl: the crawl goes on, each page's reason is counted, and the
real pages beside them are all kept.

One crawl of a local site (tests/crawler/hostile_site.py): three real articles, and hostile pages
built from real ones (tests/crawler/hostile_pages.py): an element with 200 000 attributes, 100 000
nested elements, a gzip bomb, a list page with 200 000 more links (over the tag cap) and one with
20 000 (under it, four times the 5 000 links and records caps).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.crawler.hostile_pages import deep_nesting, gzip_bomb, many_attributes, many_links
from tests.crawler.hostile_site import ARTICLES, crawl_site, site_with
from tests.crawler.http_helpers import serve

PAGES = {
    "/hostile/attributes": many_attributes,
    "/hostile/deep": deep_nesting,
    "/hostile/bomb": partial(gzip_bomb, 50_000_000),
    "/hostile/links": partial(many_links, 20_000),
    "/hostile/links-200k": many_links,
}


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict, list, list]]:
    handler = site_with(PAGES, gzipped={"/hostile/bomb"})
    with serve(handler) as base:
        summary, items = crawl_site(base, tmp_path_factory.mktemp("hostile") / "out")
    yield summary, items, handler.requests


def _paths(items: list) -> set[str]:
    return {urlsplit(item["url"]).path for item in items}


def test_every_real_page_is_kept(crawled: tuple[dict, list, list]) -> None:
    summary, items, _ = crawled
    assert set(ARTICLES) | {"/", "/hostile/links"} == _paths(items)
    assert all(item["body"] for item in items if urlsplit(item["url"]).path in ARTICLES)
    assert summary["finish_reason"] == "finished" and summary["errors_logged"] == 0


def test_an_element_with_200000_attributes_is_skipped_with_its_reason(
    crawled: tuple[dict, list, list],
) -> None:
    assert crawled[0]["skipped"]["too_many_attributes"] == 1


def test_text_below_the_parser_depth_limit_is_never_silently_dropped(
    crawled: tuple[dict, list, list],
) -> None:
    summary, items, _ = crawled
    assert summary["skipped"]["too_deep"] == 1
    assert "/hostile/deep" not in _paths(items)  # no empty item: skipped, with its reason


def test_a_page_of_200000_links_is_skipped_with_its_reason(
    crawled: tuple[dict, list, list],
) -> None:
    assert crawled[0]["skipped"]["too_many_elements"] == 1


def test_a_gzip_bomb_counts_as_too_large(crawled: tuple[dict, list, list]) -> None:
    skipped = crawled[0]["skipped"]
    assert skipped["too_large"] == 1 and "ignored" not in skipped


def test_links_and_records_of_one_page_are_capped(crawled: tuple[dict, list, list]) -> None:
    summary, items, requests = crawled
    assert summary["capped"]["links"] == 1
    (listing,) = [i for i in items if i["url"].endswith("/hostile/links")]
    assert listing["page_type"] == "list"
    assert len(listing["records"]) == 5_000 and summary["capped"]["records"] == 1
    assert not any(path.startswith("/story/") for path in requests)  # past --depth 1


def test_the_reactor_was_never_stalled_for_a_second(crawled: tuple[dict, list, list]) -> None:
    reactor = crawled[0]["reactor"]
    assert 0 <= reactor["max_busy_stall_ms"] <= reactor["max_stall_ms"]
    assert reactor["max_busy_stall_ms"] < 1000  # the wall stall also counts other processes' load
    assert 0 < reactor["peak_rss_mb"] < 500

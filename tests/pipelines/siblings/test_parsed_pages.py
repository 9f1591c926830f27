"""The bounded cache of parsed pages (pipelines/siblings/parsed_pages.py) and extraction from a
cached sibling."""

from __future__ import annotations

import doctest
from concurrent.futures import ThreadPoolExecutor

import pipelines.siblings.parsed_pages as parsed_pages
from extractors import parse_page
from pipelines.extract import extract_page
from pipelines.siblings.parsed_pages import PageCache, body_key
from pipelines.siblings.store import StoredPage
from tests.fixture_pages import fixture, page_bytes


def test_docstring_examples() -> None:
    result = doctest.testmod(parsed_pages)
    assert result.attempted > 0 and result.failed == 0


def test_the_bound_holds_under_concurrent_puts() -> None:
    cache = PageCache(8)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda n: cache.put(n, object()), range(1000)))
    assert len(cache) == 8
    assert cache.get(999) is not None and cache.get(0) is None


def test_a_cached_sibling_gives_the_extraction_a_parse_gives() -> None:
    # two 163.com stories of one template (cx_163 fixtures, MIT): Chinese, so the sibling is used
    target, other = fixture("cx_163-00001.html"), fixture("cx_163-00003.html")
    url, other_url = "https://money.163.com/15/0723/07/a.html", "https://money.163.com/15/0723/07/b.html"
    sibling = StoredPage(other_url, page_bytes(other), "text/html")
    cache = PageCache(4)
    first = extract_page(page_bytes(target), url, "text/html", 10_000_000, sibling,
                         siblings=cache)
    assert (cache.hits, cache.misses) == (0, 1)
    again = extract_page(parse_page(page_bytes(target), url=url), url,
                         "text/html", 10_000_000, sibling, siblings=cache)
    assert (cache.hits, cache.misses) == (1, 1)
    assert first.sibling["used"] and again.sibling == first.sibling
    assert again.body == first.body and again.title == first.title
    # the same URL with other bytes is another page
    changed = StoredPage(other_url, page_bytes(other) + b" ", "text/html")
    assert body_key(changed.url, changed.body) != body_key(sibling.url, sibling.body)

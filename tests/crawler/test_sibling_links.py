"""Sibling link choice on the demo site's real article pages, and the spider's sibling requests."""

from __future__ import annotations

import doctest
from urllib.parse import urldefrag, urljoin

import lxml.html
import pytest
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

import crawler.sibling_links
from crawler.demo.server import load_site
from crawler.link_scan import scan_page
from crawler.sibling_links import choose_sibling_link, edit_distance
from crawler.spiders.news import SIBLING_FOR, SIBLING_PRIORITY, NewsSpider
from crawler.templates import template_key

BASE = "http://127.0.0.1:8000"


def test_docstring_examples() -> None:
    result = doctest.testmod(crawler.sibling_links)
    assert result.attempted > 0 and result.failed == 0


def make_spider(**settings) -> NewsSpider:
    return NewsSpider.from_crawler(get_crawler(NewsSpider, settings), start_urls=f"{BASE}/")


def response(path: str, depth: int = 1) -> HtmlResponse:
    body = load_site().replies[path].body
    request = Request(BASE + path, meta={"depth": depth})
    return HtmlResponse(
        BASE + path,
        body=body,
        request=request,
        headers={"Content-Type": "text/html; charset=utf-8"},
    )


def parsed(spider: NewsSpider, resp: HtmlResponse) -> list:
    """The spider's output for ``resp``, the link scan run here (no reactor: no worker thread)."""
    return list(spider.outputs(resp, scan_page(resp, script=spider.use_sibling == "auto")))


def article_paths() -> list[str]:
    return [e["path"] for e in load_site().manifest["entries"] if e["kind"] == "article"]


@pytest.mark.parametrize("path", article_paths())
def test_chosen_link_is_the_nearest_same_template_link(path: str) -> None:
    url = BASE + path
    links = scan_page(response(path)).links
    same = [
        link
        for link in links
        if template_key(link) == template_key(url) and urldefrag(link).url != url
    ]
    chosen = choose_sibling_link(url, links)
    if not same:
        assert chosen is None
        return
    assert chosen in same
    prefix = len(path.split("/")) - 1  # the demo's article links differ in their last segment only
    last = path.split("/")[-1]
    assert all(link.split("/")[: prefix + 2] == url.split("/")[: prefix + 2] for link in same)
    assert edit_distance(last, chosen.split("/")[-1]) == min(
        edit_distance(last, link.split("/")[-1]) for link in same
    )


def anchors(path: str) -> set[str]:
    """The page's own anchors read with lxml (not the spider's link extractor), absolute."""
    url = BASE + path
    tree = lxml.html.fromstring(load_site().replies[path].body)
    return {urldefrag(urljoin(url, href.strip())).url for href in tree.xpath("//a/@href")}


def test_exactly_the_articles_linking_to_their_template_get_a_sibling_link() -> None:
    linking = {
        path
        for path in article_paths()
        for url in [BASE + path]
        if any(
            link != url and template_key(link) == template_key(url) for link in anchors(path)
        )
    }
    assert linking, "no demo article links to its own template: this test would prove nothing"
    chosen = {
        path
        for path in article_paths()
        if choose_sibling_link(BASE + path, scan_page(response(path)).links) is not None
    }
    assert chosen == linking


def bbc_articles() -> list[str]:
    return [p for p in article_paths() if p.startswith("/news/")]


def cjk_articles() -> list[str]:
    return [p for p in article_paths() if p.startswith("/money/")]


def test_english_article_gets_no_sibling_link_nor_request_by_default() -> None:
    """Its text is not CJK: LCS denoising would not use a sibling, so none is looked for."""
    spider = make_spider()
    out = list(parsed(spider, response(bbc_articles()[0])))
    assert out[0]["kind"] == "page"  # the item first: no sibling request before it
    assert out[0]["sibling_link"] is None and out[0]["sibling_skip"] == "not_cjk"
    assert not any(isinstance(o, Request) and o.priority == SIBLING_PRIORITY for o in out)
    assert not spider.crawler.stats.get_value("newscrawl/siblings/requested")


def test_chinese_article_is_paired() -> None:
    spider = make_spider()
    out = list(parsed(spider, response(cjk_articles()[0])))
    assert out[0]["kind"] == "page" and out[0]["sibling_skip"] is None


def test_never_pairs_no_article_but_still_pairs_list_pages() -> None:
    spider = make_spider(NEWSCRAWL_USE_SIBLING="never")
    (item,) = [o for o in parsed(spider, response(cjk_articles()[0])) if isinstance(o, dict)]
    assert item["sibling_skip"] == "use_sibling=never" and item["sibling_link"] is None
    out = parsed(spider, response("/news/"))  # a section: its sibling is the other section
    assert isinstance(out[0], Request) and out[0].priority == SIBLING_PRIORITY
    assert out[1]["route"] == "list" and out[1]["sibling_skip"] is None


def test_first_article_of_a_template_requests_its_sibling_first() -> None:
    # English pages are paired only when told to (the demo's Chinese pages link to no page of
    # their own template)
    spider = make_spider(NEWSCRAWL_USE_SIBLING="always")
    first, second = bbc_articles()[:2]
    out = list(parsed(spider, response(first)))
    request, item = out[0], out[1]
    assert isinstance(request, Request) and request.priority == SIBLING_PRIORITY
    assert request.meta[SIBLING_FOR] == BASE + first
    assert item["sibling_link"] == request.url and item["sibling_for"] is None
    assert [r.url for r in out[2:]].count(request.url) == 0  # requested once
    again = list(parsed(spider, response(second)))
    assert again[0]["kind"] == "page" and again[0]["sibling_link"]  # no second request
    assert not any(r.priority == SIBLING_PRIORITY for r in again[1:])
    assert spider.crawler.stats.get_value("newscrawl/siblings/requested") == 1


def test_sibling_response_says_whom_it_is_for() -> None:
    spider = make_spider()
    path = bbc_articles()[0]
    resp = response(path)
    resp.request.meta[SIBLING_FOR] = f"{BASE}/news/other-1"
    item = next(o for o in parsed(spider, resp) if isinstance(o, dict))
    assert item["sibling_for"] == f"{BASE}/news/other-1"


def test_no_sibling_request_past_the_depth_limit() -> None:
    spider = make_spider(DEPTH_LIMIT=2, NEWSCRAWL_USE_SIBLING="always")
    out = list(parsed(spider, response(bbc_articles()[0], depth=2)))
    assert out[0]["kind"] == "page" and out[0]["sibling_link"]
    assert not spider.crawler.stats.get_value("newscrawl/siblings/requested")


def test_pairing_switched_off_marks_no_sibling_link() -> None:
    spider = make_spider(NEWSCRAWL_SIBLINGS_ENABLED=False)
    out = list(parsed(spider, response(bbc_articles()[0])))
    assert out[0]["kind"] == "page" and out[0]["sibling_link"] is None

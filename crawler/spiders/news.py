"""NewsSpider: crawl news sites from seed URLs, following same-site links, one page item per page.

Seeds come from the ``start_urls`` argument (a list, or a string of URLs separated by commas or
whitespace: ``scrapy crawl news -a start_urls=https://a.example/,https://b.example/``), from a file
(``-a seeds_file=FILE``, one URL per line, ``#`` comments) and, in distributed mode, from a Redis list
(:mod:`crawler.scheduling.idle`). Limits are Scrapy settings: ``DEPTH_LIMIT``, ``CLOSESPIDER_PAGECOUNT``.

Sibling pairing (``NEWSCRAWL_SIBLINGS_ENABLED``): every article page item carries its nearest
same-template link (``sibling_link``, :mod:`crawler.sibling_links`); for the first article of each
template key this spider sees, that link is requested first, with priority ``SIBLING_PRIORITY`` and
``meta["newscrawl_sibling_for"]`` = the article's URL (the page item of its response carries it as
``sibling_for``, so the pipeline stores it whatever its route). Links past ``DEPTH_LIMIT`` are not
requested (Scrapy's depth middleware would drop them). The pipeline side is :mod:`pipelines.pairing`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.http import Request, Response, TextResponse
from scrapy.linkextractors import LinkExtractor
from twisted.python.failure import Failure

from crawler.failures import failure_reason
from crawler.page_item import page_item, skip_reason
from crawler.routing import route
from crawler.sibling_links import choose_sibling_link

logger = logging.getLogger(__name__)

__all__ = ["SIBLING_FOR", "SIBLING_PRIORITY", "NewsSpider", "read_seeds", "site_of"]

#: Request meta key of a sibling request: the URL of the article it was requested for.
SIBLING_FOR = "newscrawl_sibling_for"
#: Priority of sibling requests: ahead of the crawl's own (0 minus depth with DEPTH_PRIORITY 1), so a
#: held article waits for one download, not for the rest of the queue.
SIBLING_PRIORITY = 100
#: The set of templates whose sibling was requested is forgotten past this size (memory bound).
MAX_TEMPLATES_REMEMBERED = 100_000


def site_of(url: str) -> str:
    """The site of a URL: host name, lower-cased, without ``www.`` (ports are ignored)."""
    return (urlsplit(url).hostname or "").lower().removeprefix("www.")


def read_seeds(text: str) -> list[str]:
    """URLs from a seeds text: separated by commas or whitespace, ``#`` starts a comment."""
    urls: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        urls += [u for u in line.replace(",", " ").split() if u]
    return urls


class NewsSpider(scrapy.Spider):
    """Crawl news sites: same-site links only, each HTML page routed as list or article."""

    name = "news"

    def __init__(
        self,
        start_urls: str | Iterable[str] | None = None,
        seeds_file: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        seeds = read_seeds(start_urls) if isinstance(start_urls, str) else list(start_urls or [])
        if seeds_file:
            seeds += read_seeds(Path(seeds_file).read_text(encoding="utf-8"))
        self.seeds: list[str] = seeds
        self.link_extractor = LinkExtractor()
        self.pair_siblings = True
        self.depth_limit = 0
        self.sibling_templates: set[str] = set()  # templates whose sibling was requested

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.pair_siblings = crawler.settings.getbool("NEWSCRAWL_SIBLINGS_ENABLED", True)
        spider.depth_limit = crawler.settings.getint("DEPTH_LIMIT")
        crawler.signals.connect(spider.on_request_dropped, signal=signals.request_dropped)
        return spider

    async def start(self) -> AsyncIterator[Request]:
        for url in self.seeds:
            yield self.request(url)

    def request(self, url: str, **kwargs: Any) -> Request:
        """A request for ``url`` handled by this spider's callback and errback."""
        return Request(url, callback=self.parse, errback=self.on_error, **kwargs)

    def count(self, key: str) -> None:
        self.crawler.stats.inc_value(f"newscrawl/{key}")

    def parse(self, response: Response) -> Iterator[dict | Request]:
        self.count("pages_fetched")
        max_bytes = self.settings.getint("NEWSCRAWL_MAX_PAGE_BYTES")
        reason = skip_reason(response, max_bytes)
        if reason is not None:
            logger.info("skipped %s: %s", response.url, reason)
            self.count(f"skipped/{reason}")
            return
        links = self.same_site_links(response)
        page_route = route(response.url, link_count=len(links))
        sibling = None
        if self.pair_siblings and page_route == "article":
            sibling = choose_sibling_link(response.url, links)
        item = page_item(response, page_route, sibling, response.meta.get(SIBLING_FOR))
        sibling_request = self.sibling_request(response, item["template_key"], sibling)
        if sibling_request is not None:
            yield sibling_request
        yield item
        for url in links:
            if sibling_request is None or url != sibling_request.url:
                yield self.request(url)

    def sibling_request(self, response: Response, key: str, link: str | None) -> Request | None:
        """The high-priority request of ``link`` for the first article of template ``key``."""
        if link is None or key in self.sibling_templates:
            return None
        if self.depth_limit and int(response.meta.get("depth", 0)) >= self.depth_limit:
            return None
        if len(self.sibling_templates) >= MAX_TEMPLATES_REMEMBERED:
            self.sibling_templates.clear()
        self.sibling_templates.add(key)
        self.count("siblings/requested")
        return self.request(link, priority=SIBLING_PRIORITY, meta={SIBLING_FOR: response.url})

    def same_site_links(self, response: Response) -> list[str]:
        """Absolute URLs of the page's links to its own site (deduplicated, in page order)."""
        if not isinstance(response, TextResponse):
            return []
        site = site_of(response.url)
        try:
            links = self.link_extractor.extract_links(response)
        except (ValueError, UnicodeError) as error:  # a body that is not really HTML
            logger.info("no links read from %s: %s", response.url, error)
            return []
        return list(dict.fromkeys(link.url for link in links if site_of(link.url) == site))

    def on_error(self, failure: Failure) -> None:
        reason = failure_reason(failure.value)
        request = failure.request if hasattr(failure, "request") else None
        logger.info("skipped %s: %s (%s)", getattr(request, "url", "?"), reason, failure.value)
        self.count(f"skipped/{reason}")

    def on_request_dropped(self, request: Request, spider: scrapy.Spider) -> None:
        """A redirect back to a URL of its own redirect chain is dropped as a duplicate: a loop."""
        if request.url in request.meta.get("redirect_urls", ()):
            logger.info("skipped %s: redirect_loop", request.url)
            self.count("skipped/redirect_loop")
        elif SIBLING_FOR in request.meta:  # already requested or fetched: it comes (came) anyway
            self.count("siblings/request_duplicate")

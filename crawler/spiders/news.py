"""NewsSpider: crawl news sites from seed URLs, following same-site links, one page item per page.

Seeds come from the ``start_urls`` argument (a list, or a string of URLs separated by commas or
whitespace: ``scrapy crawl news -a start_urls=https://a.example/,https://b.example/``), from a file
(``-a seeds_file=FILE``, one URL per line, ``#`` comments) and, in distributed mode, from a Redis list
(:mod:`crawler.scheduling.idle`). Limits are Scrapy settings: ``DEPTH_LIMIT``, ``CLOSESPIDER_PAGECOUNT``.
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

logger = logging.getLogger(__name__)

__all__ = ["NewsSpider", "read_seeds", "site_of"]


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

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
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
        yield page_item(response, route(response.url, link_count=len(links)))
        for url in links:
            yield self.request(url)

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

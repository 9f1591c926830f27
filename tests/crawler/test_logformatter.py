"""Dropped and scraped items are logged by URL, never with their raw body."""

from __future__ import annotations

from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from crawler.logformatter import NewsLogFormatter
from crawler.spiders.news import NewsSpider


def test_dropped_page_item_is_named_by_url_not_body():
    crawler = get_crawler(NewsSpider)
    spider = NewsSpider.from_crawler(crawler, start_urls="http://127.0.0.1/")
    item = {"kind": "page", "url": "http://127.0.0.1/a", "body": b"x" * 100_000}
    entry = NewsLogFormatter().dropped(item, DropItem("empty"), None, spider)
    message = entry["msg"] % entry["args"]
    assert message == "Dropped page http://127.0.0.1/a: empty"

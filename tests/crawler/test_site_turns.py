"""The shared queue hands out the sites' requests in turn within a priority (a real Redis server).

Queued in the order a crawl finds them (all of one site's articles, then the next site's), the
requests used to come back in that order, so a worker's requests all waited for the shared slots
of one site while other sites had free ones.
"""

from __future__ import annotations

import redis
from scrapy import Request
from scrapy.utils.test import get_crawler

from crawler.scheduling import distributed_settings
from crawler.scheduling.scheduler import SharedQueueScheduler
from crawler.scope import site_origin
from crawler.spiders.news import NewsSpider


def _scheduler(url: str) -> SharedQueueScheduler:
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    crawler = get_crawler(NewsSpider, distributed_settings(url))
    scheduler = SharedQueueScheduler.from_crawler(crawler)
    scheduler.open(NewsSpider.from_crawler(crawler))
    return scheduler


def test_sites_take_turns_within_a_priority_and_priorities_keep_their_order(
    redis_server: str,
) -> None:
    scheduler = _scheduler(redis_server.rsplit("/", 1)[0] + "/9")
    try:
        for site in ("http://a.example", "http://b.example:8080", "http://c.example"):
            for n in range(4):
                assert scheduler.enqueue_request(Request(f"{site}/a/{n}.html", priority=-1))
        assert scheduler.enqueue_request(Request("http://c.example/", priority=0))
        assert scheduler.enqueue_request(Request("http://a.example/sibling", priority=100))
        taken = []
        while (request := scheduler.next_request()) is not None:
            taken.append(request)
    finally:
        scheduler.close("test")
    assert [r.priority for r in taken] == [100, 0] + [-1] * 12
    sites = [site_origin(r.url) for r in taken[2:]]
    # no site twice in a row, and each site's articles in the order they were queued
    assert all(a != b for a, b in zip(sites, sites[1:], strict=False)), sites
    for site in set(sites):
        paths = [r.url.rsplit("/", 1)[1] for r in taken[2:] if site_origin(r.url) == site]
        assert paths == [f"{n}.html" for n in range(4)]

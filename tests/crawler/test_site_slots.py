"""The lease skips sites whose shared politeness slots are full (a real Redis server).

Before, the lease handed out the queue's first request whatever its site: a worker then held one of
its ``CONCURRENT_REQUESTS`` in the politeness middleware, waiting for that site's slots, while the
queue held requests for sites with free slots (the crawl bench's two-worker runs waited 45-54 times
a worker)."""

from __future__ import annotations

import asyncio
import time
import uuid

import redis
from scrapy import Request
from scrapy.utils.test import get_crawler

from crawler.downloadermiddlewares.politeness import RESERVED_META, SLOT_META, SharedPoliteness
from crawler.scheduling import distributed_settings
from crawler.scheduling.scheduler import SharedQueueScheduler
from crawler.scheduling.slots import URL_PREFIX_LUA, refusal_ms, slot_keys, url_prefix
from crawler.scope import site_origin
from crawler.spiders.news import NewsSpider

FULL = "http://full.example"
FREE = "http://free.example:8080"


def _worker(url: str, concurrency: int = 2) -> tuple[SharedQueueScheduler, SharedPoliteness]:
    """A worker's scheduler and politeness middleware (built first, as Scrapy's engine does)."""
    settings = {**distributed_settings(url), "NEWSCRAWL_SITE_CONCURRENCY": concurrency}
    crawler = get_crawler(NewsSpider, settings)
    middleware = SharedPoliteness.from_crawler(crawler)
    scheduler = SharedQueueScheduler.from_crawler(crawler)
    scheduler.open(NewsSpider.from_crawler(crawler))
    return scheduler, middleware


def _take_slot(middleware: SharedPoliteness, site: str) -> str:
    """Another worker's download of ``site`` holding one of its slots: the slot's token."""
    token = uuid.uuid4().hex
    args = [token, 2, 0, middleware.slot_ms, site, "0"]
    assert middleware._acquire(keys=list(slot_keys(site)), args=args) == 0
    return token


def test_a_worker_gets_another_sites_request_while_the_first_sites_slots_are_full(
    redis_server: str,
) -> None:
    url = redis_server.rsplit("/", 1)[0] + "/10"
    client = redis.Redis.from_url(url)
    client.flushdb()
    scheduler, middleware = _worker(url)
    _, other = _worker(url)
    full_site, free_site = site_origin(FULL), site_origin(FREE)
    try:
        for n in range(3):
            assert scheduler.enqueue_request(Request(f"{FULL}/a/{n}.html"))
        assert scheduler.enqueue_request(Request(f"{FREE}/a/0.html"))
        held = [_take_slot(other, full_site) for _ in range(2)]  # the other worker's downloads

        first = scheduler.next_request()
        assert first is not None and first.url == f"{FREE}/a/0.html"  # not the full site's
        assert client.zcard(slot_keys(free_site)[0]) == 1  # its slot reserved by the lease
        assert scheduler.next_request() is None  # the full site's requests stay queued...
        assert scheduler.has_pending_requests()  # ...and the worker knows there is work
        assert client.zcard(slot_keys(full_site)[0]) == 2  # nothing taken beyond its 2 slots

        # the reserved slot is the one the request downloads in: confirmed, not a second one
        asyncio.run(middleware.process_request(first))
        assert RESERVED_META not in first.meta
        assert first.meta[SLOT_META][0] == slot_keys(free_site)[0]
        assert client.zcard(slot_keys(free_site)[0]) == 1
        stats = scheduler.crawler.stats
        assert stats.get_value("newscrawl/politeness/reserved") == 1
        assert not stats.get_value("newscrawl/politeness/waited")

        client.zrem(slot_keys(full_site)[0], held[0])  # one download of the full site ends
        freed = scheduler.next_request()
        assert freed is not None and freed.url == f"{FULL}/a/0.html"
        assert scheduler.next_request() is None  # its 2 slots: the other's and this reservation
        assert stats.get_value("newscrawl/leases/sites_full") == 2
    finally:
        scheduler.close("test")
        client.close()


def test_a_dropped_request_gives_its_reserved_slot_back(redis_server: str) -> None:
    """A request dropped before the politeness middleware (robots.txt disallows it) frees the
    slot its lease reserved at once, not when the reservation lapses."""
    url = redis_server.rsplit("/", 1)[0] + "/10"
    client = redis.Redis.from_url(url)
    client.flushdb()
    scheduler, middleware = _worker(url)
    try:
        assert scheduler.enqueue_request(Request(f"{FREE}/a/0.html"))
        request = scheduler.next_request()
        assert request is not None and client.zcard(slot_keys(site_origin(FREE))[0]) == 1
        middleware.process_exception(request, ValueError("dropped"))
        assert client.zcard(slot_keys(site_origin(FREE))[0]) == 0
    finally:
        scheduler.close("test")
        client.close()


def test_a_robots_txt_fetch_takes_over_an_unused_reservation_of_its_site(redis_server: str) -> None:
    """The robots middleware fetches a site's robots.txt before the leased request may go: with
    the site's one slot reserved by that lease, the fetch takes the reservation over instead of
    waiting for it to lapse."""
    url = redis_server.rsplit("/", 1)[0] + "/10"
    client = redis.Redis.from_url(url)
    client.flushdb()
    scheduler, middleware = _worker(url, concurrency=1)
    try:
        assert scheduler.enqueue_request(Request(f"{FREE}/a/0.html"))
        leased = scheduler.next_request()
        assert leased is not None
        robots = Request(f"{FREE}/robots.txt")
        asyncio.run(asyncio.wait_for(middleware.process_request(robots), 2))
        assert robots.meta[SLOT_META][1] == leased.meta[RESERVED_META]
        assert client.zcard(slot_keys(site_origin(FREE))[0]) == 1  # still one request in flight
        assert scheduler.crawler.stats.get_value("newscrawl/politeness/taken_over") == 1
    finally:
        scheduler.close("test")
        client.close()


def test_the_lease_script_and_python_read_the_same_site_prefix(redis_server: str) -> None:
    client = redis.Redis.from_url(redis_server)
    members = [
        Request("HTTPS://User:pw@www.Example.com:8443/a?b=1#c").to_dict(),
        Request("http://[::1]:8080/x").to_dict(),
        Request("http://例え.jp/パス?q=値").to_dict(),
    ]
    from crawler.serializers.json_request import dumps

    raw = [dumps(m) for m in members] + [b'{"url": "http://spaced/"}', b"garbage", b'{"u":1}']
    script = f"return string.match(ARGV[1], '{URL_PREFIX_LUA}')"
    try:
        from_lua = [client.eval(script, 0, m) for m in raw]
    finally:
        client.close()
    from_python = [url_prefix(m) for m in raw]
    assert [p.decode() if p else None for p in from_lua] == from_python
    assert from_python[:3] == ["https://User:pw@www.example.com:8443", "http://[::1]:8080",
                               "http://xn--r8jz45g.jp"]  # fmt: skip
    assert from_python[3:] == [None, None, None]  # not ours: leased without a reservation


def test_a_freed_slot_waits_for_the_worker_refused_at_its_site(redis_server: str) -> None:
    """Two workers, one site with two slots and no delay. The worker whose download ends asks the
    queue at once; the worker refused for the site asks only at its next poll. The lease of the
    reverted ``crawl22`` merge handed the freed slot back to the first (it kept both slots for the
    whole of ``test_two_workers_share_one_crawl``, one run in two); now the first passes over the
    site while the refused worker holds fewer of its slots, and takes it again once the refused
    worker's note lapses (it stopped asking) or their holdings are level."""
    url = redis_server.rsplit("/", 1)[0] + "/10"
    client = redis.Redis.from_url(url)
    client.flushdb()
    first, _ = _worker(url)
    second, _ = _worker(url)
    active = slot_keys(site_origin(FREE))[0]
    try:
        for n in range(6):
            assert first.enqueue_request(Request(f"{FREE}/a/{n}.html"))
        held = [first.next_request(), first.next_request()]  # both slots, the first worker's
        assert all(held) and client.zcard(active) == 2
        assert second.next_request() is None  # refused: noted at the site
        stats = [first.crawler.stats, second.crawler.stats]
        assert stats[1].get_value("newscrawl/leases/sites_full") == 1

        client.zrem(active, held[0].meta[RESERVED_META])  # the first worker's download ends
        assert first.next_request() is None  # it passes over the slot it freed...
        assert stats[0].get_value("newscrawl/leases/yielded") == 1
        assert client.zcard(active) == 1
        taken = second.next_request()  # ...which the refused worker takes at its poll
        assert taken is not None and client.zcard(active) == 2

        # level holdings (one slot each): the worker whose download ends takes its slot again
        client.zrem(active, held[1].meta[RESERVED_META])
        again = first.next_request()
        assert again is not None and client.zcard(active) == 2
        assert stats[0].get_value("newscrawl/leases/yielded") == 1

        # a refused worker that stops asking holds a freed slot only until its note lapses
        assert second.next_request() is None  # refused again (0 free), noted
        client.zrem(active, taken.meta[RESERVED_META], again.meta[RESERVED_META])
        assert second.next_request() is not None  # it had fewer: its note is dropped
        other = f"{second.reservations.worker}:x"
        client.zadd(active, {other: 10**13})  # a download of the second's without a lease
        assert first.next_request() is None  # full now: the first worker is noted
        client.zrem(active, other)  # that download ends
        assert second.next_request() is None  # it holds more than the refused first worker
        time.sleep(refusal_ms(second.poll_s) / 1000 + 0.05)
        assert second.next_request() is not None  # the first worker's note lapsed
    finally:
        first.close("test")
        second.close("test")
        client.close()

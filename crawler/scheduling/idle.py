"""WaitForWork: keep a distributed worker alive while idle and feed it seeds from a Redis list.

On every ``spider_idle`` (the shared queue is empty and nothing is in flight here) it pops up to
``SEEDS_PER_IDLE`` seeds from the list ``NEWSCRAWL_SEEDS_KEY`` (filled by ``newscrawl seed``, each
with its round: :mod:`crawler.rounds`) and schedules them, then raises ``DontCloseSpider``. With ``NEWSCRAWL_IDLE_TIMEOUT`` > 0 the worker is let
close once it has been idle, with no page fetched and no seed found, for that many seconds. Scrapy
re-checks an idle engine about every 5 s, so the close comes up to 5 s after the timeout. A worker
is never idle while Redis is away (it waits: :mod:`pipelines.redis_conn.link` stops it after
``NEWSCRAWL_REDIS_MAX_OUTAGE``) or while any worker holds leased requests (they may come back to the
queue, see :mod:`crawler.scheduling.scheduler`).
"""

from __future__ import annotations

import json
import logging
import time

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured

from crawler.scheduling import lease_keys
from pipelines.redis_conn.link import RedisLink, redis_link
from pipelines.untrusted import UntrustedData, load_json

logger = logging.getLogger(__name__)

__all__ = ["SEEDS_PER_IDLE", "WaitForWork", "parse_seed_entry", "seed_entry"]

SEEDS_PER_IDLE = 100
MAX_SEED_BYTES = 10_000


def seed_entry(url: str, crawl_round: int) -> str:
    """The seeds-list entry ``newscrawl seed`` pushes: the URL and its round, as JSON."""
    return json.dumps({"url": url, "round": crawl_round})


def parse_seed_entry(entry: bytes | str, default_round: int) -> tuple[str, int]:
    """(URL, round) of a seeds-list entry; raises :class:`UntrustedData` for anything else.

    >>> parse_seed_entry(b'{"url": "https://a.org/", "round": 7}', 0)
    ('https://a.org/', 7)
    >>> parse_seed_entry(b"https://a.org/news/", 1700000000)
    ('https://a.org/news/', 1700000000)
    """
    text = entry.decode("utf-8", "replace") if isinstance(entry, bytes) else entry
    if not text.startswith("{"):
        if not text.startswith(("http://", "https://")) or len(text) > MAX_SEED_BYTES:
            raise UntrustedData("not a seed URL")
        return text, default_round
    data = load_json(text, max_bytes=MAX_SEED_BYTES, max_depth=2)
    url, crawl_round = (data.get("url"), data.get("round")) if isinstance(data, dict) else (0, 0)
    if not isinstance(url, str) or not isinstance(crawl_round, int) or isinstance(crawl_round, bool):
        raise UntrustedData("a seed entry needs a string url and an integer round")
    return url, crawl_round


class WaitForWork:
    """Scrapy extension: idle → pop seeds from Redis → DontCloseSpider (until the idle timeout)."""

    def __init__(
        self, crawler: Crawler, link: RedisLink, seeds_key: str, idle_timeout: float
    ) -> None:
        self.crawler = crawler
        self.link = link
        self.seeds_key = seeds_key
        self.idle_timeout = idle_timeout
        self.activity = 0
        self._seen_activity = -1
        self._idle_since = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WaitForWork:
        url = crawler.settings.get("NEWSCRAWL_REDIS_URL")
        if not url:
            raise NotConfigured  # not a distributed worker (bare: no warning logged)
        ext = cls(
            crawler,
            redis_link(crawler),
            crawler.settings.get("NEWSCRAWL_SEEDS_KEY"),
            crawler.settings.getfloat("NEWSCRAWL_IDLE_TIMEOUT"),
        )
        crawler.signals.connect(ext.on_activity, signal=signals.response_received)
        crawler.signals.connect(ext.on_idle, signal=signals.spider_idle)
        return ext

    def on_activity(self) -> None:
        self.activity += 1

    def pop_seeds(self) -> list[tuple[str, int]]:
        """Up to ``SEEDS_PER_IDLE`` seeds and their rounds: ``{"url", "round"}`` JSON entries
        (``newscrawl seed``), or plain URLs (pushed by hand: a round of their own, now). An entry
        that is neither is skipped and counted (``newscrawl/rejected/seed_entry``)."""
        popped = self.link.query(lambda c: c.lpop(self.seeds_key, SEEDS_PER_IDLE), None) or []
        seeds = []
        for entry in popped:
            try:
                seeds.append(parse_seed_entry(entry, int(time.time())))
            except UntrustedData as error:
                logger.warning("skipped a seed entry: %s: %.200r", error, entry)
                self.crawler.stats.inc_value("newscrawl/rejected/seed_entry")
        return seeds

    def _others_busy(self, spider: Spider) -> bool:
        """Redis is away, or some worker holds leased requests."""
        if not self.link.up or self.link.held:
            return True
        leases = lease_keys(self.crawler.settings, spider.name).leases
        return bool(self.link.query(lambda c: c.zcard(leases), 0))

    def on_idle(self, spider: Spider) -> None:
        now = time.monotonic()
        if self.activity != self._seen_activity or self._others_busy(spider):
            self._seen_activity, self._idle_since = self.activity, now
        seeds = self.pop_seeds()
        for url, crawl_round in seeds:
            make = getattr(spider, "seed_request", None)
            self.crawler.engine.crawl(make(url, crawl_round) if make else Request(url))
        if seeds:
            logger.info("scheduled %d seeds from %s", len(seeds), self.seeds_key)
            self._idle_since = now
            raise DontCloseSpider
        if self.idle_timeout > 0 and now - self._idle_since >= self.idle_timeout:
            logger.info(
                "shared queue empty for %.0f s: closing this worker", now - self._idle_since
            )
            return
        raise DontCloseSpider

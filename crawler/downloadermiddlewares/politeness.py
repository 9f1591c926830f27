"""SharedPoliteness: per-site concurrency and delay shared by every worker of a distributed crawl.

Scrapy's download slots and AutoThrottle see one process: two workers hit one site twice as hard.
In distributed mode this downloader middleware asks Redis before each request leaves the worker:

- at most ``NEWSCRAWL_SITE_CONCURRENCY`` (2; a sites file's ``concurrency`` for its site) requests
  of one site (:func:`crawler.scope.site_origin`)
  in flight across all workers: each holds a slot, a member of ``newscrawl:polite:<site>:active``
  (a sorted set scored by the slot's expiry, ``DOWNLOAD_TIMEOUT`` + 10 s, so a dead worker's slots
  free themselves), released when its download ends (``request_left_downloader``);
- request starts of one site at least ``NEWSCRAWL_SITE_DELAY`` seconds apart (0 by default; a sites
  file's ``delay``), or the
  site's robots.txt ``Crawl-delay`` when longer (capped at ``MAX_CRAWL_DELAY_S``): the robots.txt
  fetched by Scrapy's robots middleware passes through here, and its delay, read with Protego (the
  parser Scrapy uses), is shared in the hash ``newscrawl:polite:crawl_delay``.

One Lua script takes a slot atomically (Redis's clock, so workers' clocks need not agree) or says
how long to wait; the request waits without blocking the reactor. A request leased from the shared
queue comes with a slot its lease reserved (the lease skips sites whose slots are full, so a
worker's requests no longer wait here for one site while other sites have free slots:
:mod:`crawler.scheduling.slots`): the script confirms it, starting the site's delay, and
``process_exception`` gives back the reservation of a request dropped before it got here. While
Redis is away the check is skipped (the worker's own download slots still apply) and counted.
Embedded mode needs none of this (one process: Scrapy's slots and ``DOWNLOAD_DELAY`` do it);
``Crawl-delay`` is not applied there.

Stats: ``newscrawl/politeness/waited`` (requests that waited), ``newscrawl/politeness/wait_s``,
``newscrawl/politeness/reserved`` (requests that came with their lease's slot),
``newscrawl/politeness/taken_over`` (requests that used another's unused reservation),
``newscrawl/politeness/crawl_delay`` (robots.txt delays seen), ``newscrawl/politeness/skipped``
(Redis away).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import sleep

from pipelines.redis_conn.link import redis_link
from crawler.scheduling.slots import (
    PREFIX, TAKE_SLOT, give_back, reservations, site_pace, slot_keys,
)
from crawler.scope import site_origin
from crawler.sites import SiteBook

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["MAX_CRAWL_DELAY_S", "POLITENESS_ORDER", "RESERVED_META", "SharedPoliteness"]

logger = logging.getLogger(__name__)

#: ``DOWNLOADER_MIDDLEWARES`` order: after robots.txt (100), so a disallowed request takes no slot.
POLITENESS_ORDER = 130
#: A robots.txt ``Crawl-delay`` longer than this is taken as this (a typo of 86400 would stall a site).
MAX_CRAWL_DELAY_S = 60.0
#: Longest single wait before asking again (a slot may free at any time).
POLL_S = 0.1
SLOT_META = "newscrawl_polite_slot"
#: Meta key of a leased request: the token of the slot its lease reserved (set by the scheduler).
RESERVED_META = "newscrawl_polite_reserved"

# ARGV: token, concurrency, delay ms, slot ms, site, whether the token is a reservation to confirm
# (kept while the site's delay runs; dropped if a stricter concurrency applies since the lease)
_ACQUIRE = TAKE_SLOT + """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local concurrency, slot_ms = tonumber(ARGV[2]), tonumber(ARGV[4])
if ARGV[6] == '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    if redis.call('ZCARD', KEYS[1]) > concurrency then
      redis.call('ZREM', KEYS[1], ARGV[1])
    else
      hold_slot(KEYS[1], ARGV[1], slot_ms, slot_ms, now)
      local next_at = tonumber(redis.call('GET', KEYS[2]) or '0')
      if now < next_at then return next_at - now end
      start_delay(KEYS[2], ARGV[5], tonumber(ARGV[3]), now)
      return 0
    end
  end
end
local wait = slot_wait(KEYS[1], KEYS[2], concurrency, now)
if wait ~= 0 then return wait end
hold_slot(KEYS[1], ARGV[1], slot_ms, slot_ms, now)
start_delay(KEYS[2], ARGV[5], tonumber(ARGV[3]), now)
return 0
"""


class SharedPoliteness:
    """Take a shared per-site slot before each download; see the module docstring."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.concurrency = max(1, settings.getint("NEWSCRAWL_SITE_CONCURRENCY", 2))
        self.delay_ms = int(settings.getfloat("NEWSCRAWL_SITE_DELAY", 0.0) * 1000)
        self.slot_ms = int((settings.getfloat("DOWNLOAD_TIMEOUT", 180) + 10) * 1000)
        self.user_agent = settings.get("USER_AGENT") or "*"
        self.link = redis_link(crawler)
        self._acquire = self.link.client.register_script(_ACQUIRE)
        self.sites = SiteBook(link=self.link, crawler=crawler)  # a sites file's own pace
        self.reservations = reservations(crawler)  # the scheduler's leases may reserve slots
        self.reservations.pace = self.pace
        self.reservations.slot_ms = self.slot_ms

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.get("NEWSCRAWL_REDIS_URL"):
            raise NotConfigured("embedded mode: Scrapy's own download slots apply")
        if not crawler.settings.getbool("NEWSCRAWL_SHARED_POLITENESS", True):
            raise NotConfigured("NEWSCRAWL_SHARED_POLITENESS is off")
        middleware = cls(crawler)
        # the slot goes back when the download ends, whatever the middlewares then make of it (a
        # redirect or a retry stops the response chain before it reaches this middleware)
        crawler.signals.connect(middleware.left_downloader, signal=signals.request_left_downloader)
        return middleware

    async def process_request(self, request: Request) -> None:
        site = site_origin(request.url)
        reserved = self._reservation(request, site)
        if reserved is not None:
            self._count("reserved")
        else:  # a robots.txt fetch, a sibling: the slot a leased request of the site has not used
            reserved = self.reservations.take_over(site)
            if reserved is not None:
                self._count("taken_over")
        token = reserved or self.reservations.token()  # counted as this worker's slot
        keys = list(slot_keys(site))
        concurrency, delay_ms = self.pace(request.url)
        args = [token, concurrency, delay_ms, self.slot_ms, site, "0" if reserved is None else "1"]
        waited = 0.0
        while True:
            wait_ms = self.link.query(lambda _c: int(self._acquire(keys=keys, args=args)), None)
            if wait_ms is None:  # Redis away: go on with the worker's own slots
                self._count("skipped")
                return
            if wait_ms == 0:
                break
            pause = POLL_S if wait_ms < 0 else min(wait_ms / 1000, 5.0)
            await sleep(pause)
            waited += pause
        request.meta[SLOT_META] = (keys[0], token)
        if waited:
            self._count("waited")
            self.crawler.stats.inc_value("newscrawl/politeness/wait_s", round(waited, 2))

    def pace(self, url: str) -> tuple[int, int]:
        """The site's (requests in flight, ms between starts): its sites-file entry's, or ours."""
        return site_pace(self.sites, url, self.concurrency, self.delay_ms)

    def process_exception(self, request: Request, exception: Exception) -> None:
        """A request dropped before this middleware (robots.txt disallows it...) gives back the
        slot its lease reserved."""
        token = request.meta.pop(RESERVED_META, None)
        if token:
            give_back(self.link, self.reservations, site_origin(request.url), token)

    def _reservation(self, request: Request, site: str) -> str | None:
        """The unused reservation the request's lease made, now claimed (None: none, or another
        request of the site took it over)."""
        token = request.meta.pop(RESERVED_META, None)
        return token if token and self.reservations.claim(site, token) else None

    def process_response(self, request: Request, response: Response) -> Response:
        if urlsplit(request.url).path == "/robots.txt" and response.status == 200:
            self._share_crawl_delay(request.url, response)
        return response

    def left_downloader(self, request: Request, spider: Any = None) -> None:
        slot = request.meta.pop(SLOT_META, None)
        if slot is not None:
            self.link.query(lambda client: client.zrem(*slot), None)

    def _share_crawl_delay(self, url: str, response: Response) -> None:
        from protego import Protego

        try:
            delay = Protego.parse(response.body.decode("utf-8", "replace")).crawl_delay(
                self.user_agent
            )
        except Exception as error:  # a robots.txt Protego cannot read: no delay from it
            logger.debug("cannot read Crawl-delay of %s: %s", url, error)
            return
        if not delay:
            return
        delay_ms = int(min(float(delay), MAX_CRAWL_DELAY_S) * 1000)
        site = site_origin(url)
        self.link.query(lambda c: c.hset(f"{PREFIX}:crawl_delay", site, delay_ms), None)
        self._count("crawl_delay")
        logger.info("robots.txt of %s asks for Crawl-delay %s s: shared with every worker",
                    site, delay)  # fmt: skip

    def _count(self, key: str) -> None:
        self.crawler.stats.inc_value(f"newscrawl/politeness/{key}")

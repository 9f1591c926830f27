"""SiblingPairing: find the same-template sibling an article page is extracted against (paper 003).

Where pages wait, and why there ------------------------------- The spider
(``crawler/spiders/news.py``) marks on every article page item the page's own link with the same
template key (``sibling_link``, see ``crawler/sibling_links.py``) and, for the first article of a
template it sees, requests that link with high priority. The page item then goes through
:class:`~pipelines.archive.pipeline.WarcArchivePipeline` first (the raw page is archived before
anything waits) and reaches :class:`~pipelines.extract.ExtractPipeline`, which asks
:meth:`SiblingPairing.find`:

0. an article page the spider decided not to pair (``sibling_skip``: its text is not CJK, and LCS
   denoising, what an article's sibling is for, is used on CJK pages only, see
   :mod:`extractors.script`; or ``NEWSCRAWL_USE_SIBLING`` is ``never``) is neither stored nor
   paired: it goes on at once, with that reason (``not_cjk``), unless it was itself fetched as a
   sibling (then it is stored for the page that asked for it);
1. every article and list page (and every page fetched as a sibling) is added to the
   :class:`~pipelines.siblings.store.SiblingStore` of its template key on arrival, *then* the store
   is read: of two pages of a new template arriving together, the later one finds the other;
2. the newest stored page of the template, other than the page itself, is the sibling;
3. none stored and no same-template link on the page: go on at once without a sibling;
4. none stored yet, but a link: the page is *held* in a bounded :class:`SiblingHold` until a page of
   its template is stored (by this worker; by any worker through Redis, which a 0.5 s timer polls),
   until ``NEWSCRAWL_SIBLING_WAIT`` seconds pass, until the area is full (the oldest goes first), or
   until the crawl closes. After holding, the store is read once more, so a page stored while this
   one was on its way to the hold cannot be missed.

Why an ``await`` in ``process_item``, and what bounds it. The alternatives in Scrapy 2.19: holding in
the spider would delay the WARC record of a fetched page (a crash would lose it); handing the item on
later through ``crawler.engine.scraper.start_itemproc_async`` runs the whole pipeline chain again (a
second WARC record unless items are marked) and needs the first pass to end in ``DropItem``, which is
logged and counted as a dropped item. Awaiting keeps one pass through the chain, in order. Its costs,
read from ``scrapy/core/scraper.py`` and ``engine.py``, and their bounds:

- the held page's response stays counted in the scraper slot (``SCRAPER_SLOT_MAX_ACTIVE_SIZE``,
  5 MB; above it the engine starts no new download, which could starve the very sibling requests
  held pages wait for): the area's byte bound (default 80 % of that setting) keeps held pages alone
  below it;
- the response's request stays in the engine slot's ``inprogress`` set, so the spider never goes
  idle (nor closes as finished) while a page is held, and ``engine.close_spider_async`` (max pages,
  timeouts, Ctrl-C) first waits for those requests. Scrapy sends no signal when a close starts
  (``spider_closed`` comes after those requests ended, so after every hold), so the timer asks
  Scrapy's public API whether a sibling can still come (:func:`_engine_closing`): not when the
  crawl is stopping (``crawler.crawling``, ``engine.running`` false), nor when the engine starts no
  new request (``engine.needs_backout()``) for no reason of the downloader or the scraper and has
  no download left in flight, nor any response but the held pages' still read. It then releases
  every held page with ``CLOSED``; they are extracted and written while the sinks are still open
  (item pipelines close after the engine slot). A sibling already downloading when the close
  starts is still waited for (the engine waits for it anyway), until it is stored, and the wait's
  timeout ends every hold whatever Scrapy does.

Nothing is held forever, nothing is lost at close.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import redis
from scrapy.utils.asyncio import create_looping_call, run_in_thread
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet.defer import Deferred

from extractors import AUTO, USE_SIBLING
from pipelines.items import page_content_type
from pipelines.reasons import (CLOSED, HOLD_FULL, NO_LINK, NOT_ARTICLE, NOT_NEEDED, NOT_STORED,
                               STORE_DOWN)
from pipelines.redis_conn.clients import crawler_redis
from pipelines.siblings.hold import SiblingHold
from pipelines.siblings.store import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_PAGE_BYTES,
    DEFAULT_PER_TEMPLATE,
    DEFAULT_TTL,
    MemorySiblingStore,
    RedisSiblingStore,
    SiblingStore,
    StoredPage,
)
from pipelines.throttled_log import ThrottledLog

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["SiblingPairing", "pairing_from_crawler", "use_sibling_setting"]

logger = logging.getLogger(__name__)
_store_down_log = ThrottledLog(logger)

#: Routes whose pages are paired: articles (LCS denoising) and lists (PSNT wrapper induction).
PAIRED_ROUTES = frozenset({"article", "list"})

DEFAULT_WAIT = 30.0
#: Bounds of the holding area (see the module docstring).
DEFAULT_HOLD_MAX_PAGES = 100
#: Default byte bound = this share of SCRAPER_SLOT_MAX_ACTIVE_SIZE: any bound below the slot's keeps
#: held pages alone from making the engine back out. Measured on 30 templates x one 189 KB article
#: whose sibling answers after 3 s (16 parallel requests): with 2 MB, 20 of 30 held pages were
#: released unpaired ("holding area full"), with 4 MB (the default) 4, with no bound 0 (5.7 MB held,
#: over the slot's bound, but the siblings already downloading released the pages); 7.5 s each.
HOLD_SHARE_OF_SCRAPER_SLOT = 0.8

#: Seconds between two looks of the timer (timeouts, a closing engine, pages stored by other workers).
TICK_SECONDS = 0.5


class SiblingPairing:
    """The store, the holding area and the timer of one crawl (see the module docstring)."""

    def __init__(
        self, crawler: Crawler, store: SiblingStore, hold: SiblingHold, shared: bool
    ) -> None:
        self.crawler = crawler
        self.store = store  # called in worker threads: Redis round trips, (de)compression
        self.hold = hold
        self.shared = shared  # other workers add to the store: poll it for held templates
        self.timeout_reason = f"no sibling arrived within {hold.wait:g} s"
        self._timer: Any = None
        self._polling = False

    def stores(self, item: dict[str, Any]) -> bool:
        """Whether :meth:`find` adds ``item`` to the store (steps 0 and 1 of the module docstring):
        a page of a paired route the spider did not decline to pair (a list page is paired all the
        same), or a page fetched as another's sibling. Only such a page can be a sibling here, so
        only its parse is worth keeping among the parsed siblings (:mod:`pipelines.extract`)."""
        if item.get("sibling_for"):
            return True
        route = item.get("route")
        return route in PAIRED_ROUTES and not (item.get("sibling_skip") and route != "list")

    async def find(
        self, item: dict[str, Any], wait: bool = True
    ) -> tuple[StoredPage | None, str | None]:
        """(the sibling to extract ``item`` against, None) or (None, why there is none).

        Article and list pages are paired (a list page's sibling is what a PSNT wrapper is induced
        from); ``wait=False``: store the page and look, but never hold it (a list page whose
        template already has a wrapper).
        """
        key, url = item.get("template_key") or "", item["url"]
        is_article = item.get("route") in PAIRED_ROUTES
        if not (is_article or item.get("sibling_for")):
            return None, NOT_ARTICLE
        skip = item.get("sibling_skip")
        if skip and item.get("route") != "list":  # the spider chose not to pair it (not CJK)
            if item.get("sibling_for"):  # fetched for another page: stored for it all the same
                await self._store_quietly(key, item)
            return None, skip
        try:  # store first, then look: of two pages arriving together, the later one sees the other
            await self._store(key, item)
            sibling = await self._call(self.store.get, key, url)
        except redis.RedisError as exc:
            self._count("store_errors")
            _store_down_log.warning("sibling store unavailable for %s: %s", url, exc)
            return None, STORE_DOWN
        if not is_article:
            return None, NOT_ARTICLE
        if sibling is not None:
            return sibling, None
        if not item.get("sibling_link"):
            return None, NO_LINK
        if not wait:
            return None, NOT_NEEDED
        return await self._wait(key, url, len(item["body"]))

    async def _store_quietly(self, key: str, item: dict[str, Any]) -> None:
        try:
            await self._store(key, item)
        except redis.RedisError as exc:
            self._count("store_errors")
            _store_down_log.warning("sibling store unavailable for %s: %s", item["url"], exc)

    async def _store(self, key: str, item: dict[str, Any]) -> None:
        content_type = page_content_type(item)
        if await self._call(self.store.add, key, item["url"], item["body"], content_type):
            self._count("stored")
            self.hold.arrived(key)

    async def _wait(self, key: str, url: str, size: int) -> tuple[StoredPage | None, str | None]:
        if self._closing(reading=len(self.hold) + 1):  # this page's response is read too
            self._count("held_closed")
            return None, CLOSED
        self._count("held")
        self._start_timer()
        waiter = self.hold.hold(key, url, size)
        await self._recheck(key, url, waiter)
        reason = await maybe_deferred_to_future(waiter)
        if reason is not None:
            self._count(
                {HOLD_FULL: "held_evicted", CLOSED: "held_closed"}.get(reason, "held_timeout")
            )
            return None, reason
        try:
            sibling = await self._call(self.store.get, key, url)
        except redis.RedisError:
            self._count("store_errors")
            return None, STORE_DOWN
        self._count("held_paired")
        return (sibling, None) if sibling is not None else (None, NOT_STORED)

    async def _recheck(self, key: str, url: str, waiter: Deferred[str | None]) -> None:
        """Look once more after holding: a page stored while this one was on its way to the hold
        woke nobody (its ``arrived`` came too early)."""
        try:
            if not waiter.called and await self._call(self.store.get, key, url) is not None:
                self.hold.arrived(key)
        except redis.RedisError as exc:
            logger.debug("sibling store recheck failed: %s", exc)

    async def _call(self, func: Any, *args: Any) -> Any:
        return await run_in_thread(func, *args)

    def _count(self, key: str) -> None:
        self.crawler.stats.inc_value(f"newscrawl/siblings/{key}")

    def _start_timer(self) -> None:
        if self._timer is None:
            self._timer = create_looping_call(self._tick)
            self._timer.start(TICK_SECONDS, now=False)

    def close(self) -> None:
        """Stop the timer and release whatever is still held (normally nothing by now)."""
        self._stop_timer()
        self.hold.release_all(CLOSED)

    def _stop_timer(self) -> None:
        if self._timer is not None and self._timer.running:
            self._timer.stop()
        self._timer = None

    def _tick(self) -> None:
        """Release expired pages, or all when the engine closes; poll a shared store."""
        self.hold.expire(self.timeout_reason)
        if self._closing(reading=len(self.hold)):
            self.hold.release_all(CLOSED)
        if not len(self.hold):
            self._stop_timer()  # started again by the next held page
            return
        if self.shared and not self._polling:
            self._polling = True
            deferred_from_coro(self._poll())

    def _closing(self, reading: int) -> bool:
        try:
            return _engine_closing(self.crawler, reading)
        except Exception:  # never let the timer die: held pages rely on it
            logger.exception("cannot tell whether the engine is closing")
            return False

    async def _poll(self) -> None:
        """Wake held pages whose template another worker stored meanwhile (shared store)."""
        try:
            for key, url in self.hold.waiting():
                if await self._call(self.store.get, key, url):
                    self.hold.arrived(key)
        except redis.RedisError as exc:
            logger.debug("sibling store poll failed: %s", exc)
        finally:
            self._polling = False


def use_sibling_setting(settings: Any) -> str:
    """``NEWSCRAWL_USE_SIBLING``: which article pages are paired with a sibling and extracted
    against it, as ``extractors.extract(use_sibling=...)`` takes it: ``auto`` (default, CJK pages
    only), ``always``, ``never``. ValueError naming the setting for any other value."""
    value = str(settings.get("NEWSCRAWL_USE_SIBLING") or AUTO).strip().lower()
    if value not in USE_SIBLING:
        raise ValueError(f"NEWSCRAWL_USE_SIBLING must be one of {', '.join(USE_SIBLING)}, "
                         f"got {value!r}")
    return value


def pairing_from_crawler(crawler: Crawler) -> SiblingPairing | None:
    """The pairing of a crawl from its ``NEWSCRAWL_SIBLING*`` settings; None when disabled.

    The store is Redis (shared by all workers) when ``NEWSCRAWL_REDIS_URL`` is set, on the crawl's
    one client (:func:`pipelines.redis_conn.clients.crawler_redis`), else in memory. No network
    here: the Redis client connects on first use.
    """
    s = crawler.settings
    if not s.getbool("NEWSCRAWL_SIBLINGS_ENABLED", True):
        return None
    per_template = s.getint("NEWSCRAWL_SIBLINGS_PER_TEMPLATE", DEFAULT_PER_TEMPLATE)
    max_body = s.getint("NEWSCRAWL_SIBLING_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES)
    max_page = s.getint("NEWSCRAWL_MAX_PAGE_BYTES", DEFAULT_MAX_PAGE_BYTES)
    url = s.get("NEWSCRAWL_REDIS_URL")
    store: SiblingStore
    if url:
        client = crawler_redis(crawler)
        ttl = s.getint("NEWSCRAWL_SIBLING_TTL", DEFAULT_TTL)
        store = RedisSiblingStore(
            client, per_template, ttl, max_body, max_page_bytes=max_page,
            on_reject=lambda reason: crawler.stats.inc_value("newscrawl/rejected/sibling_entry"),
        )
    else:
        max_bytes = s.getint("NEWSCRAWL_SIBLING_STORE_MAX_BYTES", DEFAULT_MAX_BYTES)
        store = MemorySiblingStore(per_template, max_bytes, max_body, max_page)
    hold = SiblingHold(
        wait=s.getfloat("NEWSCRAWL_SIBLING_WAIT", DEFAULT_WAIT),
        max_pages=s.getint("NEWSCRAWL_SIBLING_HOLD_MAX_PAGES", DEFAULT_HOLD_MAX_PAGES),
        max_bytes=s.getint("NEWSCRAWL_SIBLING_HOLD_MAX_BYTES", 0)
        or int(HOLD_SHARE_OF_SCRAPER_SLOT * s.getint("SCRAPER_SLOT_MAX_ACTIVE_SIZE", 5_000_000)),
    )
    return SiblingPairing(crawler, store, hold, shared=bool(url))


def _engine_closing(crawler: Crawler, reading: int = 0) -> bool:
    """Whether no sibling can come any more: the crawl is stopping, or the engine closes the spider.

    Public Scrapy API only (2.19). ``engine.needs_backout()`` is true when the engine is not
    running, has no spider slot, is closing the spider, or its downloader or scraper is full; with
    neither full and no download in flight, what is left is a close. Downloads in flight may still
    bring a sibling, so a close is seen once they are done (the engine waits for them anyway); and
    so may a response downloaded but still read (its spider callback, the link scan, its item in
    the pipelines before the store): the scraper slot holds more responses than ``reading``, those
    of the held pages (each held page's response stays in ``scraper.slot.active`` while its item
    waits). Without that, a sibling whose download ended during the close was lost when the hold's
    timer ticked before its store: a 1.5 s link scan of the sibling (a temporary edit) made
    ``tests/crawler/test_sibling_crawl.py``'s late-sibling test fail every time.
    """
    try:
        engine = crawler.engine
    except RuntimeError:  # Scrapy 2.19: no engine before the crawl starts (pipeline tests)
        return False
    if engine is None:
        return False
    if not crawler.crawling or not engine.running:
        return True
    scraper_slot = engine.scraper.slot
    if scraper_slot is None:  # the spider is closed
        return True
    if engine.downloader.active or scraper_slot.needs_backout():
        return False
    if len(scraper_slot.active) + len(scraper_slot.queue) > reading:
        return False
    return engine.needs_backout()

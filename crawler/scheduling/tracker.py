"""When is a request done? LeaseTracker follows each request taken from a queue to its end.

Scrapy has no signal for "this request and everything it produced is finished" (scrapy/scrapy#7978
asks for one), so the tracker puts it together from public hooks, all in
:class:`RequestDoneMiddleware` (a spider middleware and a downloader middleware at once):

- a response: its callback's output ends (``process_spider_output``, or ``process_spider_exception``
  when the callback raised; a non-2xx response goes through the errback, whose output comes the same
  way) **and** every item it yielded has left the item pipelines (``item_scraped``,
  ``item_dropped`` or ``item_error``, which carry the response). Links the callback yielded are in
  the scheduler before its output ends;
- a failed download (timeouts, DNS, robots.txt refusals, offsite): ``process_exception`` of the
  outermost downloader middleware, i.e. no middleware retried it;
- a redirect or a retry: the new request carries the old one's meta (``Request.replace``/``copy``);
  when the scheduler accepts (or drops as a duplicate) a request holding another's token, that one
  is done: its work now lives in the new queue entry (:meth:`LeaseTracker.hand_over`).

The scheduler that leased the request then acknowledges it (``on_done``). A request whose path the
tracker does not see end (a bug, a path added in a later Scrapy) is not lost: its lease expires and
it is fetched again.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.http import Response

from pipelines.redis_conn.clients import per_crawler

logger = logging.getLogger(__name__)

__all__ = [
    "LEASE_META", "REDELIVERED_META", "LeaseTracker", "RequestDoneMiddleware", "lease_tracker",
]

#: Request meta key holding the lease token of a request taken from a queue.
LEASE_META = "newscrawl_lease"
#: Request meta key set on a request whose earlier lease expired or was released: its page may
#: have been streamed by the worker that held it (the item carries ``extraction.redelivered``).
REDELIVERED_META = "newscrawl_redelivered"


class _Lease:
    __slots__ = ("handle", "items", "output_done")

    def __init__(self, handle: Any) -> None:
        self.handle = handle
        self.items = 0
        self.output_done = False


class LeaseTracker:
    """Requests taken and not yet done, by token; ``on_done(handle, how)`` when one is done."""

    def __init__(self) -> None:
        self._held: dict[int, _Lease] = {}
        self._tokens = itertools.count(1)
        self.on_done: Callable[[Any, str], None] | None = None

    def __len__(self) -> int:
        return len(self._held)

    def take(self, request: Request, handle: Any) -> None:
        """Follow ``request`` (just taken from the queue); ``handle`` goes back in ``on_done``."""
        token = next(self._tokens)
        request.meta[LEASE_META] = token
        self._held[token] = _Lease(handle)

    def handles(self) -> list[Any]:
        return [lease.handle for lease in self._held.values()]

    def drain(self) -> list[Any]:
        """Forget every request not done; their handles (to give the leases back)."""
        handles = self.handles()
        self._held.clear()
        return handles

    def hand_over(self, token: int | None) -> None:
        """A request derived from the one of ``token`` (``request.meta.pop(LEASE_META)``) is now
        queued, or dropped as a duplicate: that one is done."""
        if token is not None:
            self._finish(token, "handed_over")

    def item_started(self, response: Response) -> None:
        lease = self._lease(response)
        if lease is not None:
            lease.items += 1

    def item_finished(self, response: Response | None) -> None:
        lease = self._lease(response)
        if lease is not None:
            lease.items -= 1
            self._maybe_done(response)

    def output_done(self, response: Response) -> None:
        lease = self._lease(response)
        if lease is not None:
            lease.output_done = True
            self._maybe_done(response)

    def failed(self, request: Request) -> None:
        token = request.meta.get(LEASE_META)
        if token is not None:
            self._finish(token, "failed")

    def _lease(self, response: Response | None) -> _Lease | None:
        if not isinstance(response, Response):
            return None
        try:
            token = response.meta.get(LEASE_META)
        except AttributeError:  # a response not tied to a request
            return None
        return self._held.get(token) if token is not None else None

    def _maybe_done(self, response: Response) -> None:
        lease = self._lease(response)
        if lease is not None and lease.output_done and lease.items <= 0:
            self._finish(response.meta[LEASE_META], "done")

    def _finish(self, token: int, how: str) -> None:
        lease = self._held.pop(token, None)
        if lease is None or self.on_done is None:
            return
        try:
            self.on_done(lease.handle, how)
        except Exception:  # an ack that cannot be sent must not break the crawl: the lease expires
            logger.exception("cannot acknowledge a finished request")


def lease_tracker(crawler: Crawler) -> LeaseTracker:
    """The tracker of ``crawler``, shared by its scheduler and :class:`RequestDoneMiddleware`."""
    return per_crawler(crawler, "lease_tracker", LeaseTracker)


class RequestDoneMiddleware:
    """Spider + downloader middleware telling the crawler's :class:`LeaseTracker` what ended.

    Install it outermost: ``SPIDER_MIDDLEWARES`` and ``DOWNLOADER_MIDDLEWARES`` at order 1 (its
    ``process_spider_output`` then sees the final output, its ``process_exception`` only
    exceptions no other middleware turned into a retry).
    """

    def __init__(self, crawler: Crawler) -> None:
        self.tracker = lease_tracker(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RequestDoneMiddleware:
        mw = cls(crawler)
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(mw.on_item_finished, signal=signal)
        return mw

    def on_item_finished(self, response: Response | None = None, **_: Any) -> None:
        self.tracker.item_finished(response)

    # spider middleware
    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Any = None
    ) -> Iterable[Any]:
        try:
            for output in result:
                self._count(response, output)
                yield output
        except Exception:
            self.tracker.output_done(response)
            raise
        self.tracker.output_done(response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Any = None
    ) -> AsyncIterator[Any]:
        try:
            async for output in result:
                self._count(response, output)
                yield output
        except Exception:
            self.tracker.output_done(response)
            raise
        self.tracker.output_done(response)

    def process_spider_exception(
        self, response: Response, exception: BaseException, spider: Any = None
    ) -> None:
        self.tracker.output_done(response)

    def _count(self, response: Response, output: Any) -> None:
        if output is not None and not isinstance(output, Request):
            self.tracker.item_started(response)

    # downloader middleware
    def process_exception(
        self, request: Request, exception: BaseException, spider: Any = None
    ) -> None:
        self.tracker.failed(request)

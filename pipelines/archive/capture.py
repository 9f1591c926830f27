"""WarcCaptureMiddleware: every HTTP exchange of the crawl goes into the WARC files as it arrives.

A downloader middleware placed after all of Scrapy's own (``CAPTURE_ORDER``), so its
``process_response`` sees each response first, as the download handler made it: before
``HttpCompressionMiddleware`` decodes the body, before ``RedirectMiddleware`` turns a 3xx into a
new request and before ``RetryMiddleware`` retries a 5xx. Everything downloaded is archived:
pages, redirects, 4xx/5xx replies, robots.txt (Scrapy's robots middleware downloads it through
the same chain), images or PDFs that the spider later skips. Responses served from Scrapy's HTTP
cache (flag ``cached``) are not new exchanges and are not archived again.

The response record's pointer ``{"file", "offset", "length"}`` is put in the request's
``meta[WARC_META]``; the page item copies it (:func:`crawler.page_item.page_item`), so a news item
points at the exact record its page came from (the last hop of a redirect chain). ``WARC-Date`` is
the instant the request was sent: the time the response headers arrived (Scrapy's
``headers_received`` signal) less ``download_latency``.

Writing runs in one thread of its own, never on the reactor: gzip-compressing a record costs about
450 ms for an 8.5 MB page (measured on the hostile 200 000-link page, which stalled the reactor
756 ms while the write ran there). One thread keeps the records in arrival order and the writer
single-threaded; ``process_response`` waits for its record, so the pointer is known before the
response goes on.

Settings: ``NEWSCRAWL_WARC_ENABLED`` (default on), ``NEWSCRAWL_WARC_DIR``,
``NEWSCRAWL_WARC_PREFIX``, ``NEWSCRAWL_WARC_MAX_BYTES``, ``NEWSCRAWL_WARC_GZIP_LEVEL`` (zlib level of
each record's gzip member, default 3; see :mod:`pipelines.archive.writer`).
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import threads
from twisted.python.threadpool import ThreadPool

from pipelines.archive.writer import DEFAULT_MAX_BYTES, DEFAULT_PREFIX, GZIP_LEVEL, WarcWriter

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response

__all__ = ["CAPTURE_ORDER", "WARC_META", "WarcCaptureMiddleware"]

logger = logging.getLogger(__name__)

#: ``DOWNLOADER_MIDDLEWARES`` order: above every built-in one (the highest, the HTTP cache, is 900).
CAPTURE_ORDER = 950
#: Request meta key of the response record's pointer ``{"file", "offset", "length"}``.
WARC_META = "newscrawl_warc"
#: Request meta key of the wall-clock time (epoch seconds) the response headers arrived.
_HEADERS_AT = "newscrawl_headers_at"
DEFAULT_DIR = "output/warc"


class WarcCaptureMiddleware:
    """Archive every downloaded response with its request (WARC/1.1, gzip, CDXJ-indexed)."""

    def __init__(self, crawler: Crawler, writer: WarcWriter) -> None:
        self.crawler = crawler
        self.writer = writer
        #: One thread: records written in the order they arrive, the writer never shared.
        self.pool = ThreadPool(minthreads=1, maxthreads=1, name="warc-writer")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_WARC_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_WARC_ENABLED is off")
        writer = WarcWriter(
            Path(settings.get("NEWSCRAWL_WARC_DIR") or DEFAULT_DIR),
            settings.get("NEWSCRAWL_WARC_PREFIX") or DEFAULT_PREFIX,
            settings.getint("NEWSCRAWL_WARC_MAX_BYTES", DEFAULT_MAX_BYTES),
            crawler.stats,
            settings.getint("NEWSCRAWL_WARC_GZIP_LEVEL", GZIP_LEVEL),
        )
        middleware = cls(crawler, writer)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(middleware.headers_received, signal=signals.headers_received)
        return middleware

    def spider_opened(self, spider: Spider) -> None:
        self.writer.open()
        self.pool.start()

    async def spider_closed(self, spider: Spider) -> None:
        if self.pool.started:  # every write queued before is done first (one thread, in order)
            await self._in_writer_thread(self.writer.close)
            self.pool.stop()
        else:
            self.writer.close()

    def _in_writer_thread(self, func: Any, *args: Any) -> Any:
        from twisted.internet import reactor  # the one Scrapy installed (importing it installs one)

        return maybe_deferred_to_future(threads.deferToThreadPool(reactor, self.pool, func, *args))

    def headers_received(self, headers: Any, body_length: int, request: Request, **_: Any) -> None:
        request.meta[_HEADERS_AT] = time.time()

    async def process_response(self, request: Request, response: Response) -> Response:
        if "cached" in response.flags:
            return response
        fetched = sent_at(request)
        request.meta.pop(_HEADERS_AT, None)  # a redirect's next hop copies the meta
        try:
            pointer = await self._in_writer_thread(
                self.writer.write_exchange, request, response, fetched
            )
        except OSError:
            logger.exception("Cannot archive %s in %s", response.url, self.writer.directory)
            self.crawler.stats.inc_value("newscrawl/errors/warc_write")
            request.meta.pop(WARC_META, None)  # not the pointer of an earlier hop
            return response
        request.meta[WARC_META] = pointer
        return response


def sent_at(request: Request) -> datetime:
    """When the request went out: headers arrival less the download latency (now if unknown)."""
    arrived = request.meta.get(_HEADERS_AT, time.time())
    latency = request.meta.get("download_latency") or 0.0
    return datetime.fromtimestamp(arrived, UTC) - timedelta(seconds=latency)

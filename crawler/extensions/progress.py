"""ProgressLine: one line on stderr every ``NEWSCRAWL_PROGRESS_INTERVAL`` seconds while crawling.

``[newscrawl] 0:01:10  120 pages fetched, 112 items written, 8 skipped, 102.9 pages/min``, with
``, 3 wrappers (2 induced, 1 re-induced), 240 records`` before the rate once list pages have been
through PSNT. An interval of 0 turns it off.
"""

from __future__ import annotations

import sys
import time
from datetime import timedelta
from typing import TextIO

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from twisted.internet import task

__all__ = ["ProgressLine", "progress_text"]


def progress_text(stats: dict, elapsed_s: float) -> str:
    """The progress line for a stats dict.

    >>> progress_text({"newscrawl/pages_fetched": 30, "newscrawl/items_written": 28,
    ...                "newscrawl/skipped/empty": 1, "newscrawl/skipped/http_404": 1}, 60.0)
    '[newscrawl] 0:01:00  30 pages fetched, 28 items written, 2 skipped, 30.0 pages/min'
    """
    fetched = stats.get("newscrawl/pages_fetched", 0)
    written = stats.get("newscrawl/items_written", 0)
    skipped = sum(v for k, v in stats.items() if k.startswith("newscrawl/skipped/"))
    rate = fetched * 60.0 / elapsed_s if elapsed_s > 0 else 0.0
    clock = str(timedelta(seconds=int(elapsed_s)))
    return (
        f"[newscrawl] {clock}  {fetched} pages fetched, {written} items written, "
        f"{skipped} skipped, {_wrappers(stats)}{rate:.1f} pages/min{_redis(stats)}"
    )


def _redis(stats: dict) -> str:
    """``", Redis outages 1, 120 writes held"`` once Redis has been away; "" before.

    >>> _redis({"newscrawl/redis/outages": 1, "newscrawl/redis/held/push": 100,
    ...         "newscrawl/redis/held/ack": 20, "newscrawl/redis/replayed/push": 100})
    ', Redis outages 1, 120 writes held, 100 replayed'
    """
    outages = stats.get("newscrawl/redis/outages", 0)
    if not outages:
        return ""
    held = sum(v for k, v in stats.items() if k.startswith("newscrawl/redis/held/"))
    replayed = sum(v for k, v in stats.items() if k.startswith("newscrawl/redis/replayed/"))
    return f", Redis outages {outages}, {held} writes held, {replayed} replayed"


def _wrappers(stats: dict) -> str:
    """``"3 wrappers (2 induced, 1 re-induced), 240 records, "``, or "" before any list page.

    >>> _wrappers({"newscrawl/wrappers/induced": 2, "newscrawl/wrappers/reinduced": 1,
    ...            "newscrawl/wrappers/applied": 9, "newscrawl/wrappers/records": 240})
    '3 wrappers (2 induced, 1 re-induced), 240 records, '
    >>> _wrappers({"newscrawl/wrappers/single_page": 2, "newscrawl/wrappers/records": 40})
    '0 wrappers (0 induced, 0 re-induced), 2 single-page, 40 records, '
    """
    induced = stats.get("newscrawl/wrappers/induced", 0)
    reinduced = stats.get("newscrawl/wrappers/reinduced", 0)
    single = stats.get("newscrawl/wrappers/single_page", 0)
    records = stats.get("newscrawl/wrappers/records", 0)
    if not any(k.startswith("newscrawl/wrappers/") for k in stats):
        return ""
    return (
        f"{induced + reinduced} wrappers ({induced} induced, {reinduced} re-induced), "
        + (f"{single} single-page, " if single else "")
        + f"{records} records, "
    )


class ProgressLine:
    """Scrapy extension printing :func:`progress_text` on stderr at a fixed interval."""

    def __init__(self, crawler: Crawler, interval: float, stream: TextIO | None = None) -> None:
        self.crawler = crawler
        self.interval = interval
        self.stream = stream
        self.started = time.monotonic()
        self.loop: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProgressLine:
        interval = crawler.settings.getfloat("NEWSCRAWL_PROGRESS_INTERVAL")
        if interval <= 0:
            raise NotConfigured  # bare: Scrapy logs a warning for NotConfigured with a message
        ext = cls(crawler, interval)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.started = time.monotonic()
        self.loop = task.LoopingCall(self.print_line)
        self.loop.start(self.interval, now=False)

    def print_line(self) -> None:
        stream = self.stream or sys.stderr
        stream.write(
            progress_text(self.crawler.stats.get_stats(), time.monotonic() - self.started) + "\n"
        )
        stream.flush()

    def spider_closed(self) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()

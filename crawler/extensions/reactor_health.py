"""ReactorHealth: how long the reactor thread was kept from running, and the peak memory.

A heartbeat (``LoopingCall`` every ``NEWSCRAWL_REACTOR_PROBE_INTERVAL`` seconds, default 0.05; 0
switches it off) measures how late each beat runs: a beat late by *t* means the reactor thread was
busy (CPU work on it, or the GIL held by a worker thread) for *t*, or that the operating system did
not run the process (a loaded machine). The largest lateness goes to
``newscrawl/reactor/max_stall_ms``; ``newscrawl/reactor/max_busy_stall_ms`` is the largest lateness
the process itself can account for: each beat's lateness bounded by the CPU time the process used
since the previous beat (a process the OS did not run used none), so it tells a stall caused by the
crawl from one caused by other processes on the machine. At close the process's peak resident memory
(:func:`peak_rss_mb`) to ``newscrawl/reactor/peak_rss_mb``; ``summary.json`` holds them
under ``"reactor"``. Hostile pages are measured with them (tests/crawler/test_hostile_measure.py).
"""

from __future__ import annotations

import logging
import resource
import sys
import time
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["ReactorHealth", "peak_rss_mb"]

logger = logging.getLogger(__name__)

#: Default beat interval: frequent enough to see a 0.1 s stall, a negligible load (20 calls/s).
DEFAULT_INTERVAL = 0.05
#: Seconds between two readings of the peak resident memory.
RSS_EVERY_S = 1.0
#: A stall at least this long is logged (with the time, to find its cause in the log).
LOG_STALL_S = 0.5


def peak_rss_mb() -> int:
    """The peak resident memory of this process in MB: ``VmHWM`` of ``/proc/self/status`` on Linux
    (``ru_maxrss`` there keeps the parent's peak across ``fork`` + ``exec``: a crawl started by a
    process of 400 MB would report 400 MB), else ``ru_maxrss`` (KB on Linux, bytes on macOS)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // (1024 * 1024) if sys.platform == "darwin" else peak // 1024


class ReactorHealth:
    """The Scrapy extension of the module docstring."""

    def __init__(self, crawler: Crawler, interval: float) -> None:
        self.crawler = crawler
        self.interval = interval
        self.max_stall = 0.0
        self.max_busy_stall = 0.0
        self.last = 0.0
        self.last_cpu = 0.0
        self.beat = task.LoopingCall(self.on_beat)
        self.rss_read_at = 0.0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        interval = crawler.settings.getfloat("NEWSCRAWL_REACTOR_PROBE_INTERVAL", DEFAULT_INTERVAL)
        if interval <= 0:
            raise NotConfigured
        ext = cls(crawler, interval)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.last, self.last_cpu = time.monotonic(), time.process_time()
        for key in ("max_stall_ms", "max_busy_stall_ms"):  # present even in a crawl of one beat
            self.crawler.stats.set_value(f"newscrawl/reactor/{key}", 0)
        self.crawler.stats.set_value("newscrawl/reactor/peak_rss_mb", peak_rss_mb())
        self.beat.start(self.interval, now=False)

    def on_beat(self) -> None:
        now, cpu = time.monotonic(), time.process_time()
        stall = now - self.last - self.interval
        busy = min(stall, cpu - self.last_cpu)
        self.last, self.last_cpu = now, cpu
        if stall >= LOG_STALL_S:
            logger.info("reactor stalled %.2f s (%.2f s of it with this process busy)", stall, busy)
        if busy > self.max_busy_stall:
            self.max_busy_stall = busy
            self.crawler.stats.set_value("newscrawl/reactor/max_busy_stall_ms", round(busy * 1e3))
        if stall > self.max_stall:
            self.max_stall = stall
            self.crawler.stats.set_value("newscrawl/reactor/max_stall_ms", round(stall * 1e3))
        # once a second (the summary is built before this extension's close): reading
        # /proc/self/status at every beat cost 3 s of a 26 s crawl's reactor time in a profile
        # (each open and read waits for the GIL the extraction threads hold)
        if now - self.rss_read_at >= RSS_EVERY_S:
            self.rss_read_at = now
            self.crawler.stats.set_value("newscrawl/reactor/peak_rss_mb", peak_rss_mb())

    def spider_closed(self) -> None:
        if self.beat.running:
            self.beat.stop()
        self.crawler.stats.set_value("newscrawl/reactor/max_stall_ms", round(self.max_stall * 1e3))
        self.crawler.stats.set_value("newscrawl/reactor/peak_rss_mb", peak_rss_mb())

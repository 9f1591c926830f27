"""PageThreads: how many threads run the crawl's work off the reactor (``NEWSCRAWL_THREADS``).

The spider's link scan (the page's one parse), the extraction, the sibling and wrapper stores'
calls and Scrapy's own ``run_in_thread`` all run in the default executor of the reactor's asyncio
loop, which asyncio sizes at ``min(32, cores + 4)`` threads: 6 on a 2-core machine. That work is
Python under one GIL, so the threads do not add up: they take turns, and each turn is a hand-off
between threads on different cores (a futex wake, a context switch, cold caches). Measured on the
crawl bench's sites (248 pages without delay, ``newscrawl crawl`` of the 8 fronts, the sites served
by another process; a quiet 2-core machine, 2026-11-27, three alternated runs each): with 6 threads
the process used 16.0-17.1 s of CPU, 2.8-3.0 s of it in the kernel, with 178 000-211 000 voluntary
context switches, in 12.5-13.4 s; with 2 threads 13.2-15.2 s (1.5-1.8 s in the kernel, 80 000-88 000
switches) in 10.1-11.8 s; with 1 thread 13.0-14.8 s in 10.1-11.8 s. Two threads keep one free for
a store call or a scan while the other extracts, and cost no wall time.

This extension replaces the loop's default executor by one of ``NEWSCRAWL_THREADS`` threads
(default 2) when the crawler is built, before any work is handed to a thread; 0 keeps asyncio's
default. Nothing changes on a crawl without the asyncio reactor (Twisted's thread pool is sized by
Scrapy's ``REACTOR_THREADPOOL_MAXSIZE``).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import is_asyncio_available

from crawler.settings import NEWSCRAWL_THREADS

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["DEFAULT_THREADS", "PageThreads"]

logger = logging.getLogger(__name__)

#: Default of ``NEWSCRAWL_THREADS`` (the settings module's).
DEFAULT_THREADS = NEWSCRAWL_THREADS


class PageThreads:
    """Size the asyncio loop's default executor at ``NEWSCRAWL_THREADS`` threads."""

    def __init__(self, executor: ThreadPoolExecutor) -> None:
        self.executor = executor

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        count = crawler.settings.getint("NEWSCRAWL_THREADS", DEFAULT_THREADS)
        if count < 0:
            raise ValueError(f"NEWSCRAWL_THREADS must be 0 or more, got {count}")
        if count == 0:
            raise NotConfigured("NEWSCRAWL_THREADS is 0: asyncio's default executor")
        try:
            asyncio_loop = is_asyncio_available()
        except RuntimeError:  # no reactor installed (a crawler built by hand): nothing to size
            asyncio_loop = False
        if not asyncio_loop:
            raise NotConfigured("the reactor is not asyncio's")
        executor = ThreadPoolExecutor(max_workers=count, thread_name_prefix="newscrawl-page")
        asyncio.get_event_loop().set_default_executor(executor)
        logger.debug("page work runs in %d threads", count)
        return cls(executor)

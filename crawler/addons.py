"""Scrapy add-ons of the project (the ``ADDONS`` setting; Scrapy's add-on convention).

:class:`FeedOutput` lets Scrapy's feed exports replace the default output folder: ``scrapy crawl
news -O items.jsonl`` writes its items to ``items.jsonl`` and nothing to ``./output``.

:class:`Distributed` turns a crawl into one worker of a shared crawl when ``NEWSCRAWL_REDIS_URL`` is
set, whichever way the crawl starts: ``newscrawl crawl/worker --redis URL`` (the CLI sets the URL)
or ``scrapy crawl news -s NEWSCRAWL_REDIS_URL=redis://...``. Without the URL it does nothing and the
crawl is embedded. ``NEWSCRAWL_REDIS_URL`` is the one Redis setting: every Redis client of a worker
is the one :func:`pipelines.redis_conn.clients.crawler_redis` builds from it (scrapy-redis's queue
and dupefilter included, so its ``REDIS_URL`` is not read; a ``REDIS_URL`` that differs is
reported).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.settings import SETTINGS_PRIORITIES

from crawler.scheduling import distributed_settings

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["Distributed", "FeedOutput"]

logger = logging.getLogger(__name__)


class Distributed:
    """With ``NEWSCRAWL_REDIS_URL`` set: the shared queue scheduler, scrapy-redis's dupefilter,
    the JSON request serializer and persistent keys (:func:`crawler.scheduling.distributed_settings`).

    Each of those settings is written at the priority the URL was given with (``-s`` on the
    command line, the project's settings...), unless the user set that very setting at a higher
    priority: the project's embedded ``SCHEDULER`` gives way, a user's explicit one does not.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        url = settings.get("NEWSCRAWL_REDIS_URL")
        other = settings.get("REDIS_URL")
        if other and other != url:
            logger.warning("REDIS_URL is not read by newscrawl: set NEWSCRAWL_REDIS_URL (--redis) "
                           "to make this crawl distributed")  # fmt: skip
        if not url:
            return
        priority = settings.getpriority("NEWSCRAWL_REDIS_URL") or 0
        wanted = distributed_settings(url, settings.getfloat("NEWSCRAWL_IDLE_TIMEOUT"))
        for name, value in wanted.items():
            current = settings.getpriority(name)
            if current is None or current < priority:
                settings.set(name, value, priority=priority)


#: newscrawl's output settings whose project default writes under ./output, and the setting that
#: switches each one's writer off when Scrapy's feed exports replace it.
OUTPUT_SETTINGS = {"NEWSCRAWL_JSONL_DIR": None, "NEWSCRAWL_WARC_DIR": "NEWSCRAWL_WARC_ENABLED"}


class FeedOutput:
    """With Scrapy feed exports (``FEEDS``: ``-o``/``-O``, or the setting) and no newscrawl output
    folder given, nothing goes to the project's default ``./output``.

    An output setting left at its project default (``NEWSCRAWL_JSONL_DIR``: the JSONL items,
    ``summary.json``, the frontier journal, the wrapper files; ``NEWSCRAWL_WARC_DIR``: the WARC
    archive) is switched off; one the user gave (``-s``, the ``newscrawl`` CLI's ``--out``, a
    spider's ``custom_settings``) is kept, and so is the writer it feeds.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        if not settings.get("FEEDS"):
            return
        project = SETTINGS_PRIORITIES["project"]
        for name, switch in OUTPUT_SETTINGS.items():
            priority = settings.getpriority(name)
            if priority is None or priority > project or not settings.get(name):
                continue  # given by the user (or already off): theirs
            settings.set(name, None, priority=priority)
            if switch and (settings.getpriority(switch) or 0) <= project:
                settings.set(switch, False, priority=project)
            logger.info("FEEDS given: %s (project default) switched off; set it to write there "
                        "too", name)  # fmt: skip

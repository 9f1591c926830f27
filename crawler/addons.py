"""Scrapy add-ons of the project (the ``ADDONS`` setting; Scrapy's add-on convention).

:class:`Distributed` turns a crawl into one worker of a shared crawl when ``NEWSCRAWL_REDIS_URL``
is set, whichever way the crawl starts: ``newscrawl crawl/worker --redis URL`` (the CLI sets the
URL) or ``scrapy crawl news -s NEWSCRAWL_REDIS_URL=redis://...``. Without the URL it does nothing
and the crawl is embedded. ``NEWSCRAWL_REDIS_URL`` is the one user-facing Redis setting: the
add-on derives scrapy-redis's ``REDIS_URL`` from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crawler.scheduling import distributed_settings

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["Distributed"]


class Distributed:
    """With ``NEWSCRAWL_REDIS_URL`` set: the shared queue scheduler, scrapy-redis's dupefilter,
    the JSON request serializer and persistent keys (:func:`crawler.scheduling.distributed_settings`).

    Each of those settings is written at the priority the URL was given with (``-s`` on the
    command line, the project's settings...), unless the user set that very setting at a higher
    priority: the project's embedded ``SCHEDULER`` gives way, a user's explicit one does not.
    """

    def update_settings(self, settings: BaseSettings) -> None:
        url = settings.get("NEWSCRAWL_REDIS_URL")
        if not url:
            return
        priority = settings.getpriority("NEWSCRAWL_REDIS_URL") or 0
        wanted = distributed_settings(url, settings.getfloat("NEWSCRAWL_IDLE_TIMEOUT"))
        for name, value in wanted.items():
            current = settings.getpriority(name)
            if current is None or current < priority:
                settings.set(name, value, priority=priority)

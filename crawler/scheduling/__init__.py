"""Distributed mode: scrapy-redis scheduling through settings, a JSON request queue, idle workers.

:func:`distributed_settings` is what ``NEWSCRAWL_REDIS_URL`` (``--redis URL``) adds to the settings, through the
``Distributed`` add-on (:mod:`crawler.addons`): scrapy-redis's scheduler
(through :class:`crawler.scheduling.scheduler.SharedQueueScheduler`) and dupefilter, the JSON request
serializer, persistent keys, and :class:`crawler.scheduling.idle.WaitForWork`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

    from crawler.scheduling.leases import LeaseKeys

__all__ = ["DUPEFILTER_KEY", "QUEUE_KEY", "distributed_settings", "lease_keys"]

QUEUE_KEY = "newscrawl:%(spider)s:requests"
DUPEFILTER_KEY = "newscrawl:%(spider)s:dupefilter"


def distributed_settings(redis_url: str, idle_timeout: float = 0.0) -> dict[str, Any]:
    """Settings that turn a crawl into one worker of a shared crawl on ``redis_url``."""
    return {
        "SCHEDULER": "crawler.scheduling.scheduler.SharedQueueScheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_QUEUE_CLASS": "scrapy_redis.queue.PriorityQueue",
        "SCHEDULER_SERIALIZER": "crawler.serializers.json_request",
        "SCHEDULER_PERSIST": True,
        "SCHEDULER_QUEUE_KEY": QUEUE_KEY,
        "SCHEDULER_DUPEFILTER_KEY": DUPEFILTER_KEY,
        "NEWSCRAWL_REDIS_URL": redis_url,
        "NEWSCRAWL_IDLE_TIMEOUT": idle_timeout,
    }


def lease_keys(settings: BaseSettings, spider_name: str) -> LeaseKeys:
    """The Redis keys of the shared queue of ``spider_name`` (queue, dupefilter, leases)."""
    from crawler.scheduling.leases import LeaseKeys

    name = {"spider": spider_name}
    queue = settings.get("SCHEDULER_QUEUE_KEY") or QUEUE_KEY
    dupefilter = settings.get("SCHEDULER_DUPEFILTER_KEY") or DUPEFILTER_KEY
    return LeaseKeys(queue % name, dupefilter % name)

"""Distributed mode: scrapy-redis scheduling through settings, a JSON request queue, idle workers.

:func:`distributed_settings` is what ``--redis URL`` adds to the settings: scrapy-redis's scheduler
(through :class:`crawler.scheduling.scheduler.SharedQueueScheduler`) and dupefilter, the JSON request
serializer, persistent keys, and :class:`crawler.scheduling.idle.WaitForWork`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DUPEFILTER_KEY", "QUEUE_KEY", "distributed_settings"]

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
        "REDIS_URL": redis_url,
        "NEWSCRAWL_REDIS_URL": redis_url,
        "NEWSCRAWL_IDLE_TIMEOUT": idle_timeout,
    }

"""SharedQueueScheduler: scrapy-redis's Scheduler that never deletes the shared queue.

Checked against scrapy-redis 0.9.1 with Scrapy 2.19: its ``Scheduler`` implements the scheduler
interface Scrapy checks (``open``/``close``/``enqueue_request``/``next_request``/
``has_pending_requests``), builds requests with ``Request.to_dict``/``request_from_dict`` and accepts a
serializer module, so it works through settings. This subclass changes two things:

- ``close()`` and ``flush()`` never touch the shared keys. scrapy-redis's ``close()`` deletes the
  request queue and the dupefilter set whenever ``SCHEDULER_PERSIST`` is false (its default), so one
  worker stopping would wipe the crawl of every other worker; here that cannot happen whatever the
  setting says. Clearing a crawl is an explicit operator action (``DEL`` the keys).
- ``enqueue_request``/``next_request`` count their stats without the ``spider`` argument, which
  Scrapy 2.19 deprecates (scrapy-redis passes it, and every worker would log the warning).
- ``next_request`` skips a queue entry the JSON serializer refuses (a request class, callback or
  field it did not write: :class:`crawler.serializers.json_request.RejectedRequest`), counting it
  under ``newscrawl/rejected/queue_entry``, instead of letting the error out into the engine.
"""

from __future__ import annotations

import logging

from scrapy import Request
from scrapy_redis.scheduler import Scheduler

from crawler.serializers.json_request import RejectedRequest

logger = logging.getLogger(__name__)

__all__ = ["SharedQueueScheduler"]

#: Rejected entries skipped in one ``next_request`` call before giving the reactor back.
MAX_REJECTED_PER_CALL = 100


class SharedQueueScheduler(Scheduler):
    """scrapy-redis scheduler whose close/flush leave the shared queue and dupefilter in place."""

    def close(self, reason: str) -> None:
        logger.info(
            "worker closing (%s); shared queue left with %d requests", reason, len(self.queue)
        )

    def flush(self) -> None:
        logger.warning(
            "not flushing the shared queue %s: other workers may be using it", self.queue.key
        )

    def enqueue_request(self, request: Request) -> bool:
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        if self.stats:
            self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Request | None:
        for _ in range(MAX_REJECTED_PER_CALL):
            try:
                request = self.queue.pop(self.idle_before_close)
                break
            except RejectedRequest as error:  # popped, so it is gone: count it and go on
                logger.warning("skipped a queue entry: %s", error)
                if self.stats:
                    self.stats.inc_value("newscrawl/rejected/queue_entry")
        else:
            return None  # the engine asks again soon: no unbounded loop on a poisoned queue
        if request is not None and self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request

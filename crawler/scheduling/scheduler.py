"""SharedQueueScheduler: scrapy-redis's Scheduler with leased requests and Redis outages survived.

Kept from scrapy-redis 0.9.1 (checked with Scrapy 2.19): its settings plumbing, the request encoding
of its ``PriorityQueue`` (``Request.to_dict`` through ``SCHEDULER_SERIALIZER``, our JSON), the queue
layout (sorted set, score ``-priority``) and its ``RFPDupeFilter`` (fingerprint, key, logging).
Replaced, because they lose requests:

- scrapy-redis pops a request destructively: a worker killed with requests in flight lost them, and
  they were already in the dupefilter, so never fetched. Here a request is *leased*
  (:class:`~crawler.scheduling.leases.LeaseQueue`): it stays in Redis with a deadline
  (``NEWSCRAWL_LEASE_SECONDS``, renewed every third of it while this worker holds it) until the
  :class:`~crawler.scheduling.tracker.LeaseTracker` says it is done and it is acknowledged. Every
  ``NEWSCRAWL_LEASE_REAP_INTERVAL`` seconds each worker puts expired leases back in the queue, so
  a dead worker's requests are fetched again within lease + reap interval (35 s by default).
- the fingerprint and the request went to Redis in two calls: now one script.
- an enqueue while Redis was away raised and the request was dropped: writes now go through the
  :class:`~pipelines.redis_conn.link.RedisLink`, which holds them and replays them in order.
- a queue entry the JSON serializer refuses (a request class, callback or field it did not write:
  :class:`crawler.serializers.json_request.RejectedRequest`) is acknowledged and counted under
  ``newscrawl/rejected/queue_entry`` instead of letting the error out into the engine.

Scrapy's engine asks its scheduler for requests when a download ends, when a request is scheduled,
and otherwise on a 5 s heartbeat. With one queue in the process that is enough; with a shared one,
other workers fill the queue while this one waits: a worker that started before the fronts were
fetched (or whose queue ran dry for a moment) sat idle up to 5 s with work in Redis (the crawl bench
saw a second worker's first request 5.06 s into a 9.4 s crawl). So once the queue has given
nothing, the scheduler looks again every ``NEWSCRAWL_QUEUE_POLL_INTERVAL`` seconds (0.2; one
lease call a look, only while this worker is short of work): a request found is leased, held here,
and handed to the engine with ``crawler.engine.crawl``, Scrapy's public way to have the engine ask
its scheduler again (``enqueue_request`` knows the held request and does not queue it twice).

With the shared politeness on (its middleware registers the worker's
:class:`~crawler.scheduling.slots.Reservations`), a lease takes the first request, among the
queue's first ``LEASE_WINDOW``, whose site has a free shared slot, and reserves that slot for the
request (:mod:`crawler.scheduling.slots`): a worker used to lease the queue's head whatever its
site and hold one of its ``CONCURRENT_REQUESTS`` in the politeness middleware until a slot of that
site freed (27-41 such waits a worker in the crawl bench's two-worker runs at 1 s a response).
When every site near the head is full the lease gives nothing and the poll above looks again.
The lease is fair between workers: one that got nothing is noted at the sites it found full, and
another worker holding more of such a site's slots passes over a slot that frees there until the
refused worker's next poll (:mod:`crawler.scheduling.slots`).

``close()`` and ``flush()`` never delete the shared keys (scrapy-redis's ``close()`` does when
``SCHEDULER_PERSIST`` is false); ``close()`` puts this worker's unfinished leases back at once.
Stats under ``newscrawl/leases/``: ``taken``, ``acked``, ``handed_over``, ``failed``,
``renew_missed`` (a lease that expired while this worker still held it), ``reaped``, ``released``,
``bad_entries``, ``polled`` (requests the poll found and handed to the engine), ``sites_full``
(leases that found every site near the queue's head full), ``skipped_full`` (entries passed over
for a later one whose site had a free slot), ``yielded`` (sites with a free slot passed over for a
refused worker holding fewer of their slots).
"""

from __future__ import annotations

import importlib
import logging
from collections import deque
from typing import Any

from scrapy import Request
from scrapy.utils.misc import load_object
from scrapy.utils.request import request_from_dict
from scrapy_redis.scheduler import Scheduler
from twisted.internet import task

from crawler.downloadermiddlewares.politeness import RESERVED_META
from crawler.scheduling.leases import LeaseKeys, LeaseQueue, Leased, Refused
from crawler.scheduling.seen import REFETCH_AFTER_DAYS
from pipelines.redis_conn.link import HELD, PROBE_MAX_S, redis_link
from crawler.rounds import ROUND_META
from crawler.scope import site_origin
from crawler.scheduling.slots import (
    RESERVE_S, give_back, refusal_ms, reservations, url_prefix,
)
from crawler.scheduling.tracker import LEASE_META, REDELIVERED_META, lease_tracker
from crawler.serializers.json_request import RejectedRequest, request_dict
from pipelines.redis_conn.clients import check_reachable, crawl_redis_url, crawler_redis

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_LEASE_S", "DEFAULT_QUEUE_POLL_S", "DEFAULT_REAP_INTERVAL_S", "SharedQueueScheduler",
]

#: Lease of a request taken (seconds). Renewed every third of it, so only a worker that stopped
#: renewing (dead, or cut from Redis that long) loses it; 30 s + the 5 s reap interval keeps a
#: dead worker's requests out of the queue at most 35 s (the target is 60 s).
DEFAULT_LEASE_S = 30.0
DEFAULT_REAP_INTERVAL_S = 5.0
#: After Redis comes back, reaping waits a renewal period plus this long, so that every worker has
#: reconnected (probe back-off at most PROBE_MAX_S) and renewed or acknowledged the leases it held
#: through the outage (they may have expired meanwhile).
REAP_GRACE_S = 2 * PROBE_MAX_S
#: Seconds between two looks at the shared queue while this worker has found it empty.
DEFAULT_QUEUE_POLL_S = 0.2
#: Sites whose requests queued are counted (:meth:`SharedQueueScheduler._score`) before the counts
#: start over.
MAX_SITES_COUNTED = 100_000


class SharedQueueScheduler(Scheduler):
    """scrapy-redis scheduler whose requests are leased until done; see the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._site_turns: dict[str, int] = {}  # requests queued per site (_score)
        self._ready: deque[Request] = deque()  # leased by the poll, handed to the engine

    @classmethod
    def from_crawler(cls, crawler: Any) -> SharedQueueScheduler:
        """scrapy-redis's ``from_settings``, but with the crawl's one client
        (:func:`pipelines.redis_conn.clients.crawler_redis`), PINGed here so that a wrong URL stops
        the crawl at start with a message naming it."""
        settings = crawler.settings
        optional = {
            "queue_key": "SCHEDULER_QUEUE_KEY",
            "queue_cls": "SCHEDULER_QUEUE_CLASS",
            "dupefilter_key": "SCHEDULER_DUPEFILTER_KEY",
            "dupefilter_cls": "DUPEFILTER_CLASS",
            "serializer": "SCHEDULER_SERIALIZER",
        }
        kwargs = {name: settings.get(key) for name, key in optional.items() if settings.get(key)}
        if isinstance(kwargs.get("serializer"), str):
            kwargs["serializer"] = importlib.import_module(kwargs["serializer"])
        server = crawler_redis(crawler)
        check_reachable(server, crawl_redis_url(settings))
        instance = cls(server=server, persist=True, **kwargs)
        instance.stats = crawler.stats
        instance.crawler = crawler
        instance.lease_s = crawler.settings.getfloat("NEWSCRAWL_LEASE_SECONDS", DEFAULT_LEASE_S)
        instance.reap_interval = crawler.settings.getfloat(
            "NEWSCRAWL_LEASE_REAP_INTERVAL", DEFAULT_REAP_INTERVAL_S
        )
        instance.poll_s = crawler.settings.getfloat(
            "NEWSCRAWL_QUEUE_POLL_INTERVAL", DEFAULT_QUEUE_POLL_S
        )
        return instance

    def open(self, spider: Any) -> None:
        # scrapy-redis's open() without its flush-on-start and its deprecated Spider.log() call
        self.spider = spider
        self.queue = load_object(self.queue_cls)(
            server=self.server, spider=spider, key=self.queue_key % {"spider": spider.name},
            serializer=self.serializer,
        )  # fmt: skip
        if not self.df:  # scrapy-redis's from_spider(), but on our client (it would make its own)
            self.df = load_object(self.dupefilter_cls)(
                self.server, key=self.dupefilter_key % {"spider": spider.name},
                debug=self.crawler.settings.getbool("DUPEFILTER_DEBUG"),
            )  # fmt: skip
        self.link = redis_link(self.crawler)
        age_days = self.crawler.settings.getfloat("NEWSCRAWL_REFETCH_AFTER_DAYS", REFETCH_AFTER_DAYS)
        self.leases = LeaseQueue(
            self.link.client, LeaseKeys(self.queue.key, self.df.key), age_days
        )
        self.link.register("push", self._push)
        self.link.register("ack", lambda _client, data: self.leases.ack(data["members"]))
        self.tracker = lease_tracker(self.crawler)
        self.tracker.on_done = self._on_done
        # the link starts replaying held writes at spider_opened, once every pipeline (the stream
        # sink's "xadd") has registered its writes (redis_link connects it)
        queued, leased = self.link.query(lambda _c: self.leases.sizes(), (0, 0))
        logger.info(
            "shared queue %s: %d requests queued, %d leased", self.queue.key, queued, leased
        )
        self._loops = [task.LoopingCall(self._renew), task.LoopingCall(self._reap)]
        self._loops[0].start(self.lease_s / 3, now=False)
        self._loops[1].start(self.reap_interval, now=True)
        self._poll = task.LoopingCall(self._look)
        # the shared politeness's slots, reserved by the lease (crawler.scheduling.slots): only
        # when its middleware is on, which confirms them
        self.reservations = reservations(self.crawler)
        self.polite = self.reservations.pace is not None

    def close(self, reason: str) -> None:
        for loop in [*getattr(self, "_loops", []), getattr(self, "_poll", None)]:
            if loop is not None and loop.running:
                loop.stop()
        for request in self._ready:  # leased and tracked: drain() below puts them back
            reserved = request.meta.pop(RESERVED_META, None)
            if reserved:
                give_back(self.link, self.reservations, site_origin(request.url), reserved)
        self._ready.clear()
        unfinished = self.tracker.drain()
        released = self.link.query(lambda _c: self.leases.release(unfinished), 0)
        self._count("released", released)
        self.link.stop()
        logger.info(
            "worker closing (%s); %d unfinished requests put back in the shared queue",
            reason, released,
        )  # fmt: skip

    def flush(self) -> None:
        logger.warning(
            "not flushing the shared queue %s: other workers may be using it", self.queue.key
        )

    def __len__(self) -> int:
        queued = int(self.link.query(lambda client: client.zcard(self.queue.key), 0))
        return queued + len(self._ready)

    def has_pending_requests(self) -> bool:
        return len(self) > 0

    def enqueue_request(self, request: Request) -> bool:
        if any(request is held for held in self._ready):  # the poll's wake-up (_look): held here
            return True
        parent = request.meta.pop(LEASE_META, None)  # a redirect or retry of a leased request
        request.meta.pop(RESERVED_META, None)  # never queued: a slot is reserved per lease
        fingerprint = "" if request.dont_filter else self.df.request_fingerprint(request)
        raw = self._encode(request)
        member = raw.decode("utf-8")
        data = {"member": member, "score": self._score(request), "fp": fingerprint,
                "fr": request.meta.get(ROUND_META), "site": self._site_entry(request, raw)}
        result = self.link.send("push", data)
        self.tracker.hand_over(parent)
        if result is HELD:
            return True
        if not result:
            self.df.log(request, self.spider)
            return False
        if self.stats:
            self.stats.inc_value("scheduler/enqueued/redis")
        return True

    def next_request(self) -> Request | None:
        if self._ready:
            return self._ready.popleft()
        request = self._take()
        if request is None and self.poll_s > 0 and not self._poll.running:
            self._poll.start(self.poll_s, now=False)  # look again soon, not at the 5 s heartbeat
        return request

    def _look(self) -> None:
        """The poll: one request from the shared queue, handed to the engine (which then asks for
        more); the poll stops once the engine has work."""
        if self._ready:
            return
        request = self._take()
        if request is None:
            return
        self._poll.stop()
        self._ready.append(request)
        self._count("polled")
        try:
            self.crawler.engine.crawl(request)
        except RuntimeError:  # the spider is closing: close() puts the held lease back
            logger.debug("engine closing; %s stays leased here until close", request.url)

    def _take(self) -> Request | None:
        """Lease the first queued request whose site has a free shared slot, reserving it (the
        first queued request, with the shared politeness off); None: queue empty, every site of
        its first entries full, Redis away, or a bad entry."""
        if not self.link.up or self.link.held:
            return None
        token = self.reservations.token() if self.polite else ""
        found = self.link.query(lambda _c: self._lease(token), None)
        if isinstance(found, Refused):  # every site near the queue's head is full: ask again later
            self._count("sites_full")
            self._count("yielded", found.yielded)
            return None
        if found is None:
            return None
        member = found.member.decode("utf-8")
        try:
            request = self._decode(found.member)
        except RejectedRequest as error:  # poisoned: a class or callback we did not write
            logger.warning("skipped a queue entry: %s", error)
            if self.stats:
                self.stats.inc_value("newscrawl/rejected/queue_entry")
            self._drop(member, found.site, token)
            return None
        except Exception as error:  # an entry we cannot read is dropped, never retried forever
            logger.error("dropping an unreadable shared-queue entry: %s: %.200r", error, member)
            self._count("bad_entries")
            self._drop(member, found.site, token)
            return None
        if found.redelivered:  # an earlier lease of it expired: its item may be in the stream
            request.meta[REDELIVERED_META] = True
            self._count("redelivered")
        if found.site:
            request.meta[RESERVED_META] = token
            self.reservations.add(found.site, token)
            self._count("skipped_full", found.skipped)
            self._count("yielded", found.yielded)
        self.tracker.take(request, member)
        self._count("taken")
        if self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request

    def _score(self, request: Request) -> float:
        """The queue score: ``-priority`` (scrapy-redis's layout), plus ``k / (k + 1)`` for the
        request that is the ``k``-th this worker queued for its site (0 for the first).

        The fraction stays under 1, so priorities keep their order; within one priority it hands
        out the sites' requests in turn (every site's first, then every site's second...) instead
        of in the order of their serialised JSON (all of one site's articles, then the next
        site's). That order made a worker's requests wait for the shared per-site slots of one
        site (``NEWSCRAWL_SITE_CONCURRENCY``) while holding its ``CONCURRENT_REQUESTS``, with other
        sites' slots free: on the crawl bench (8 sites, 0.3 s per response) one worker fetched
        8 pages/s where its 8 requests in flight allow 26. Scrapy's ``DownloaderAwarePriorityQueue``
        does the same for one process's own queue; counts are this worker's (a rough turn when
        several workers queue for one site, never a reordering across priorities).
        """
        site = site_origin(request.url)
        turn = self._site_turns.get(site, 0)
        if len(self._site_turns) >= MAX_SITES_COUNTED and site not in self._site_turns:
            self._site_turns.clear()  # bounded memory: the turns start over
        self._site_turns[site] = turn + 1
        return -request.priority + turn / (turn + 1)

    def _encode(self, request: Request) -> bytes:
        """scrapy-redis's queue encoding (``Request.to_dict``, as
        :func:`~crawler.serializers.json_request.request_dict` makes it, through the queue's
        serializer), from public API rather than the queue's private ``_encode_request``."""
        return self.queue.serializer.dumps(request_dict(request, self.spider))

    def _decode(self, raw: bytes) -> Request:
        return request_from_dict(self.queue.serializer.loads(raw), spider=self.spider)

    def _drop(self, member: str, site: str, token: str) -> None:
        """Acknowledge a queue entry that is not a request of ours, giving back its slot."""
        self.link.send("ack", {"members": [member]})
        give_back(self.link, self.reservations, site, token)

    def _lease(self, token: str) -> Leased | Refused | None:
        lease_ms = int(self.lease_s * 1000)
        if not self.polite:
            found = self.leases.lease(lease_ms)
            return Leased(*found, "", 0, 0) if found else None
        reserve_ms = int(RESERVE_S * 1000)
        return self.leases.lease_polite(lease_ms, token, reserve_ms, self.reservations.slot_ms,
                                        refusal_ms(self.poll_s))  # fmt: skip

    def _site_entry(self, request: Request, raw: bytes) -> tuple[str, str] | None:
        """The queue entry's URL prefix and "``concurrency site``", for the lease to know its site
        (:mod:`crawler.scheduling.slots`); None with the shared politeness off."""
        prefix = url_prefix(raw) if self.polite else None
        if prefix is None:
            return None
        concurrency, _ = self.reservations.pace(request.url)
        return prefix, f"{concurrency} {site_origin(request.url)}"

    def _push(self, _client: Any, data: dict[str, Any]) -> bool:
        site = data.get("site")
        return self.leases.push(data["member"], data["score"], data["fp"], data.get("fr"),
                                tuple(site) if site else None)  # fmt: skip

    def _on_done(self, member: str, how: str) -> None:
        self._count(how if how != "done" else "acked")
        self.link.send("ack", {"members": [member]})

    def _renew(self) -> None:
        members = self.tracker.handles()
        if not members or not self.link.up:
            return
        lease_ms = int(self.lease_s * 1000)
        renewed = self.link.query(lambda _c: self.leases.renew(members, lease_ms), len(members))
        if renewed < len(members):
            self._count("renew_missed", len(members) - renewed)

    def _reap(self) -> None:
        if not self.link.up or self.link.up_for() < self.lease_s / 3 + REAP_GRACE_S:
            return
        reaped = self.link.query(lambda _c: self.leases.reap(), 0)
        if reaped:
            self._count("reaped", reaped)
            logger.warning("put %d expired leases back in the shared queue", reaped)

    def _count(self, key: str, n: int = 1) -> None:
        if self.stats and n:
            self.stats.inc_value(f"newscrawl/leases/{key}", n)

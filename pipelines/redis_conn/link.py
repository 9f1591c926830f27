"""RedisLink: one worker's connection to the crawl's Redis, which holds writes while Redis is away.

The scheduler (requests found, leases acknowledged) and the stream sink (items) write to Redis
through :meth:`RedisLink.send`. While Redis answers, a write runs at once. When a write or read
fails to connect, the link is *down*: every write is held, in order, in memory (at most
``NEWSCRAWL_REDIS_HOLD_MAX``; past that a write is dropped and counted), reads answer their
default (no request to lease, nothing to renew), and a probe (PING in a thread, so the reactor never
waits on a dead host) runs with doubling back-off up to ``PROBE_MAX_S``. When Redis answers again
the held writes are replayed in the order they were made: requests found first, then the items and
the acknowledgements that came after them, so a request is never acknowledged before the links and
the item it produced are in Redis.

A Redis away longer than ``NEWSCRAWL_REDIS_MAX_OUTAGE`` seconds stops the worker: the held writes
are written to ``<out>/held-redis.journal`` (replayed by the next worker started on the same
``--out``), and the spider is closed with reason ``redis_outage`` (the CLI exits with code 3). Its
unacknowledged leases expire in Redis and other workers fetch those requests again.

Logging is rate-limited: one line when Redis goes away, one every ``LOG_EVERY_S`` while it is away,
one when it is back. Stats under ``newscrawl/redis/``: ``outages``, ``outage_seconds``,
``held/<kind>``, ``replayed/<kind>``, ``dropped/<kind>``, ``failed/<kind>`` (refused by Redis),
``spilled``, ``unspilled``.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import deferred_from_coro
from twisted.internet import task, threads

from pipelines.redis_conn.clients import crawl_redis_url, crawler_redis, per_crawler, redacted_url

logger = logging.getLogger(__name__)

__all__ = ["HELD", "SPILL_FILE", "RedisLink", "redis_link"]

#: Returned by :meth:`RedisLink.send` for a write held until Redis is back.
HELD = object()
SPILL_FILE = "held-redis.journal"
#: Probe back-off while down: 0.5 s, doubling, at most PROBE_MAX_S (a restart is seen within it).
PROBE_FIRST_S = 0.5
PROBE_MAX_S = 4.0
TICK_S = 0.5
LOG_EVERY_S = 30.0
DEFAULT_MAX_OUTAGE_S = 300.0
DEFAULT_HOLD_MAX = 100_000
_UNREACHABLE = (redis.ConnectionError, redis.TimeoutError, OSError)

Handler = Callable[[redis.Redis, dict[str, Any]], Any]


class RedisLink:
    """Writes to Redis that survive an outage; see the module docstring."""

    def __init__(
        self,
        crawler: Crawler,
        client: redis.Redis,
        url: str,
        spill_path: Path | None,
        max_outage_s: float = DEFAULT_MAX_OUTAGE_S,
        hold_max: int = DEFAULT_HOLD_MAX,
    ) -> None:
        self.crawler = crawler
        self.url = url
        #: the crawl's one client (:func:`pipelines.redis_conn.clients.crawler_redis`: short
        #: timeouts, no retry inside redis-py: this link retries); its owner closes it, not the link
        self.client = client
        self.spill_path = spill_path
        self.max_outage_s = max_outage_s
        self.hold_max = hold_max
        self.handlers: dict[str, Handler] = {}
        self.held: deque[tuple[str, dict[str, Any]]] = deque()
        self.down_since: float | None = None
        self.up_since = time.monotonic()
        self.gave_up = False
        self._next_probe = 0.0
        self._probe_wait = PROBE_FIRST_S
        self._probing = False
        self._last_log = 0.0
        self._loop: task.LoopingCall | None = None
        self._load_spill()

    @property
    def up(self) -> bool:
        return self.down_since is None

    def up_for(self) -> float:
        """Seconds since Redis last came back (or since start); 0 while down."""
        return time.monotonic() - self.up_since if self.up else 0.0

    def register(self, kind: str, handler: Handler) -> None:
        """``handler(client, data)`` runs the writes of ``kind``."""
        self.handlers[kind] = handler

    def start(self) -> None:
        if self._loop is None:
            self._loop = task.LoopingCall(self._tick)
            self._loop.start(TICK_S, now=False)

    def stop(self) -> None:
        """Stop probing; replay what Redis takes, spill the rest (idempotent)."""
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._loop = None
        if self.held:
            self.flush()
        if self.held:
            self.spill()

    def send(self, kind: str, data: dict[str, Any]) -> Any:
        """Run the write ``kind`` now (its result); hold it (:data:`HELD`) while Redis is away."""
        if self.held or not self.up:
            return self._hold(kind, data)
        try:
            return self.handlers[kind](self.client, data)
        except _UNREACHABLE as error:
            self._went_down(error)
            return self._hold(kind, data)
        except redis.RedisError as error:  # e.g. WRONGTYPE: retrying cannot help
            self._failed(kind, error)
            return None

    def query(self, read: Callable[[redis.Redis], Any], default: Any) -> Any:
        """``read(client)``, or ``default`` while Redis is away (a failure marks it away)."""
        if not self.up:
            return default
        try:
            return read(self.client)
        except _UNREACHABLE as error:
            self._went_down(error)
            return default

    def flush(self) -> bool:
        """Replay held writes in order; True when none is left (Redis is then marked up)."""
        try:
            if not self.held and not self.up:
                self.client.ping()
            while self.held:
                kind, data = self.held[0]
                handler = self.handlers.get(kind)
                if handler is not None:
                    try:
                        handler(self.client, data)
                    except _UNREACHABLE:
                        raise
                    except redis.RedisError as error:
                        self._failed(kind, error)
                self.held.popleft()
                self._count(f"replayed/{kind}" if handler else f"dropped/{kind}")
        except _UNREACHABLE as error:
            self._went_down(error)
            return False
        self._back_up()
        return True

    def _failed(self, kind: str, error: BaseException) -> None:
        self._count(f"failed/{kind}")
        logger.error("Redis refused a %s write: %s", kind, error)

    def _hold(self, kind: str, data: dict[str, Any]) -> Any:
        if len(self.held) >= self.hold_max:
            self._count(f"dropped/{kind}")
            self._log(logging.ERROR, "%d writes held (NEWSCRAWL_REDIS_HOLD_MAX): dropping a %s",
                      len(self.held), kind)  # fmt: skip
            return HELD
        self.held.append((kind, data))
        self._count(f"held/{kind}")
        return HELD

    def _went_down(self, error: BaseException) -> None:
        if self.down_since is not None:
            return
        self.down_since = time.monotonic()
        self._probe_wait = PROBE_FIRST_S
        self._next_probe = self.down_since + self._probe_wait
        self._count("outages")
        self._last_log = self.down_since
        logger.error(
            "Redis at %s unreachable (%s): holding writes, reconnecting with back-off; stopping "
            "after %.0f s away", redacted_url(self.url), error, self.max_outage_s,
        )  # fmt: skip

    def _back_up(self) -> None:
        if self.down_since is None:
            return
        away = time.monotonic() - self.down_since
        self.down_since = None
        self.up_since = time.monotonic()
        self.crawler.stats.inc_value("newscrawl/redis/outage_seconds", round(away, 1))
        logger.warning("Redis at %s back after %.1f s; held writes replayed",
                       redacted_url(self.url), away)  # fmt: skip

    def _tick(self) -> None:
        now = time.monotonic()
        if self.up:
            if self.held:
                self.flush()
            return
        away = now - (self.down_since or now)
        if away >= self.max_outage_s and not self.gave_up:
            self._give_up(away)
            return
        if now - self._last_log >= LOG_EVERY_S:
            self._last_log = now
            logger.error("Redis still unreachable after %.0f s; %d writes held", away,
                         len(self.held))  # fmt: skip
        if self._probing or now < self._next_probe:
            return
        self._probing = True
        deferred = threads.deferToThread(self.client.ping)
        deferred.addCallbacks(self._probe_ok, self._probe_failed)

    def _probe_ok(self, _: Any) -> None:
        self._probing = False
        self.flush()

    def _probe_failed(self, _: Any) -> None:
        self._probing = False
        self._probe_wait = min(self._probe_wait * 2, PROBE_MAX_S)
        self._next_probe = time.monotonic() + self._probe_wait

    def _give_up(self, away: float) -> None:
        self.gave_up = True
        self.spill()
        logger.error(
            "Redis at %s away for %.0f s (NEWSCRAWL_REDIS_MAX_OUTAGE %.0f s): stopping this worker;"
            " held writes saved to %s", redacted_url(self.url), away, self.max_outage_s,
            self.spill_path,
        )  # fmt: skip
        deferred_from_coro(self.crawler.engine.close_spider_async(reason="redis_outage"))

    def spill(self) -> None:
        """Write the held writes to the spill file (atomically; appended to one left earlier)."""
        if self.spill_path is None or not self.held:
            return
        self.spill_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.spill_path.with_suffix(".tmp")
        lines = [json.dumps({"kind": k, "data": d}, ensure_ascii=False) for k, d in self.held]
        old = self.spill_path.read_text(encoding="utf-8") if self.spill_path.exists() else ""
        tmp.write_text(old + "".join(line + "\n" for line in lines), encoding="utf-8")
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        tmp.replace(self.spill_path)
        self._count("spilled", len(lines))
        self.held.clear()

    def _load_spill(self) -> None:
        if self.spill_path is None or not self.spill_path.exists():
            return
        loaded = 0
        for line in self.spill_path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
                kind, data = entry["kind"], entry["data"]
            except (ValueError, KeyError, TypeError):
                self._count("spill_bad_lines")
                continue
            if isinstance(kind, str) and isinstance(data, dict):
                self.held.append((kind, data))
                loaded += 1
        self.spill_path.unlink()
        self._count("unspilled", loaded)
        logger.warning("replaying %d writes held by an earlier run (%s)", loaded, self.spill_path)

    def _count(self, key: str, n: int = 1) -> None:
        self.crawler.stats.inc_value(f"newscrawl/redis/{key}", n)

    def _log(self, level: int, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self._last_log >= LOG_EVERY_S:
            self._last_log = now
            logger.log(level, message, *args)


def redis_link(crawler: Crawler) -> RedisLink:
    """The link of ``crawler`` (built on first use from its settings; started when it opens)."""

    def make() -> RedisLink:
        settings = crawler.settings
        out = settings.get("NEWSCRAWL_JSONL_DIR")
        link = RedisLink(
            crawler,
            crawler_redis(crawler),
            crawl_redis_url(settings),
            Path(out) / SPILL_FILE if out else None,
            settings.getfloat("NEWSCRAWL_REDIS_MAX_OUTAGE", DEFAULT_MAX_OUTAGE_S),
            settings.getint("NEWSCRAWL_REDIS_HOLD_MAX", DEFAULT_HOLD_MAX),
        )
        crawler.signals.connect(link.start, signal=signals.spider_opened)
        crawler.signals.connect(link.stop, signal=signals.spider_closed)
        return link

    return per_crawler(crawler, "redis_link", make)

"""RedisStreamPipeline: every item appended to a capped Redis Stream as JSON.

``XADD <NEWSCRAWL_STREAM_KEY> MAXLEN ~ <NEWSCRAWL_STREAM_MAXLEN> * item <json>``, run in a worker
thread (redis-py is blocking). When Redis goes away mid-crawl the command is retried with
doubling back-off; then the stream is marked down, the item is counted under
``newscrawl/errors/redis_stream`` and passed on (it is still in the WARC and JSONL files),
and while down each later item gets a single probe at most every ``NEWSCRAWL_STREAM_COOLDOWN``
seconds so that an outage does not slow the crawl.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import run_in_thread, sleep

from pipelines.redis_client import redacted_url, redis_from_url
from pipelines.serialize import item_to_json

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["RedisStreamPipeline"]

logger = logging.getLogger(__name__)

DEFAULT_KEY = "newscrawl:items"
DEFAULT_MAXLEN = 100_000
DEFAULT_RETRIES = 3  # after the first attempt: 4 tries, 0.2 + 0.4 + 0.8 s of back-off
DEFAULT_BACKOFF_S = 0.2
DEFAULT_COOLDOWN_S = 10.0
_UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)


class RedisStreamPipeline:
    """XADD each item (as JSON in field ``item``) to a length-capped stream; never drops items."""

    def __init__(
        self,
        crawler: Crawler,
        url: str,
        key: str = DEFAULT_KEY,
        maxlen: int = DEFAULT_MAXLEN,
        retries: int = DEFAULT_RETRIES,
        backoff_s: float = DEFAULT_BACKOFF_S,
        cooldown_s: float = DEFAULT_COOLDOWN_S,
    ) -> None:
        self.crawler = crawler
        self.url, self.key, self.maxlen = url, key, maxlen
        self.retries, self.backoff_s, self.cooldown_s = max(0, retries), backoff_s, cooldown_s
        self._client: redis.Redis | None = None
        self._down_until: float | None = None  # monotonic time of the next probe while down

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        s = crawler.settings
        url = s.get("NEWSCRAWL_REDIS_URL")
        if not url:
            raise NotConfigured  # silently off: embedded mode has no Redis
        return cls(
            crawler,
            str(url),
            s.get("NEWSCRAWL_STREAM_KEY") or DEFAULT_KEY,
            s.getint("NEWSCRAWL_STREAM_MAXLEN", DEFAULT_MAXLEN),
            s.getint("NEWSCRAWL_STREAM_RETRIES", DEFAULT_RETRIES),
            s.getfloat("NEWSCRAWL_STREAM_RETRY_BACKOFF", DEFAULT_BACKOFF_S),
            s.getfloat("NEWSCRAWL_STREAM_COOLDOWN", DEFAULT_COOLDOWN_S),
        )

    async def open_spider(self) -> None:
        # No client-level retries: process_item retries with its own back-off.
        self._client = await run_in_thread(redis_from_url, self.url, retry=Retry(NoBackoff(), 0))
        logger.info(
            "Streaming items to %s key %r (MAXLEN ~%d)",
            redacted_url(self.url),
            self.key,
            self.maxlen,
        )

    async def process_item(self, item: Any) -> Any:
        payload = item_to_json(item)
        down = self._down_until is not None
        if down and time.monotonic() < self._down_until:
            self._lost(item, "stream down")
            return item
        attempts = 1 if down else self.retries + 1  # while down: one probe, no retries
        try:
            error = await self._xadd_with_retries(payload, attempts)
        except redis.RedisError as exc:  # e.g. WRONGTYPE: retrying cannot help
            logger.error("XADD to %r failed for %s: %s", self.key, _url(item), exc)
            self._lost(item, str(exc))
            return item
        if error is not None:
            self._mark_down(error, attempts)
            self._lost(item, str(error))
            return item
        self._mark_up()
        self.crawler.stats.inc_value("newscrawl/items_streamed")
        return item

    async def _xadd_with_retries(self, payload: str, attempts: int) -> redis.RedisError | None:
        """XADD in a worker thread; the last connection error if every attempt failed."""
        error: redis.RedisError | None = None
        for attempt in range(attempts):
            if attempt:
                await sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                await run_in_thread(self._xadd, payload)
            except _UNREACHABLE as exc:
                error = exc
            else:
                return None
        return error

    def close_spider(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _xadd(self, payload: str) -> None:
        assert self._client is not None, "RedisStreamPipeline used before open_spider()"
        self._client.xadd(self.key, {"item": payload}, maxlen=self.maxlen, approximate=True)

    def _lost(self, item: Any, why: str) -> None:
        self.crawler.stats.inc_value("newscrawl/errors/redis_stream")
        logger.debug("Item %s not streamed (%s); it is kept in the files", _url(item), why)

    def _mark_down(self, error: redis.RedisError, attempts: int) -> None:
        if self._down_until is None:
            logger.error(
                "Redis stream %r at %s unreachable after %d attempts (%s); items go on to the"
                " files only, retrying every %.1f s",
                self.key,
                redacted_url(self.url),
                attempts,
                error,
                self.cooldown_s,
            )
        self._down_until = time.monotonic() + self.cooldown_s

    def _mark_up(self) -> None:
        if self._down_until is not None:
            logger.warning(
                "Redis stream %r at %s is reachable again", self.key, redacted_url(self.url)
            )
            self._down_until = None


def _url(item: Any) -> str:
    return item.get("url", "?") if isinstance(item, dict) else "?"

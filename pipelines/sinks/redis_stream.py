"""RedisStreamPipeline: every item appended once to a Redis Stream, read through consumer groups.

``XADD <NEWSCRAWL_STREAM_KEY> * item <json> id <id> site <site> page_type <type> published <date>``
(the fields beside the JSON let a consumer route entries without parsing them), in one Lua script
with a check against the ``<NEWSCRAWL_STREAM_KEY>:seen:<bucket>`` hashes (item ``id`` → content
hash; see Memory below): an
item whose id was already streamed with the same content is not added again. A page fetched twice
(its worker died before acknowledging it, or its lease expired during an outage) thus gives one
stream entry, and so does a redelivered page (``extraction.redelivered``: fetched again after the
worker holding its request died) whose id the stream holds with any content, since its second
extraction can differ for reasons of the crawl alone (a kill -9 fault run streamed an article twice
whose body differed: the second fetch was compared with another sibling page). Otherwise a page
whose extracted content changed gives a second entry (an update). The content hash covers
the item without its per-fetch fields: ``fetched_at``, ``warc`` and ``extraction`` (how it was
extracted: timings, the sibling used, the list wrapper with its match count and the pages it was
induced from, which differ between two fetches of one unchanged page; a change of method shows in
the body, title or records anyway).

Memory: the check keeps, per item id, 64 bits of the id's SHA-1 and 64 bits of the content hash, as
integers in ``<NEWSCRAWL_STREAM_KEY>:seen:<bucket>`` hashes (2^20 buckets by the id's low bits;
listpacks; measured by ``newscrawl seen-bench`` on Redis 6.2 at 95 items a bucket: 21.5 bytes an
item, 2.15 GB per 100 M items, against 144.5 bytes, 14.5 GB, in the single hash of 40-character
strings used before). That older hash,
``<NEWSCRAWL_STREAM_KEY>:seen``, is still read, never written. Two ids sharing 64 bits (odds
~3 in 10 000 among 100 M items): the second is taken for an update of the first (streamed, unless
it is a redelivery).

Writes go through the crawl's :class:`~pipelines.redis_conn.link.RedisLink`: while Redis is away
items are held in memory (bounded) and replayed in order when it is back, or saved under the output
folder when the worker stops (see that module). Items always reach the JSONL files too.

Consumers: the group ``NEWSCRAWL_STREAM_GROUP`` (default "newscrawl"; empty: none) is created at
start, reading from the stream's first entry, so a consumer started later misses nothing. Trimming
(every 100 items or 5 s) never deletes an entry a registered group has not acknowledged
(:mod:`pipelines.sinks.stream_groups`); ``NEWSCRAWL_STREAM_MAXLEN`` (100 000) is the length cap when
no group is registered, and with groups the length past which the crawl warns and slows down (each
item waits up to 60 s for the groups to catch up, then is added anyway).

Stats: ``newscrawl/items_streamed``, ``newscrawl/stream_duplicates`` (not added again),
``newscrawl/stream_trimmed``, ``newscrawl/stream_over_cap``, ``newscrawl/stream_backpressure_s``,
``newscrawl/redis/held/xadd`` and ``newscrawl/redis/replayed/xadd``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

import redis
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import run_in_thread, sleep

from pipelines.redis_conn.clients import RedisUnavailable, redacted_url
from pipelines.redis_conn.link import HELD, RedisLink, redis_link
from pipelines.sinks.serialize import item_to_json
from pipelines.sinks.stream_groups import create_group, trim
from pipelines.throttled_log import ThrottledLog

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["RedisStreamPipeline", "content_hash"]


logger = logging.getLogger(__name__)
_trim_log = ThrottledLog(logger)

DEFAULT_KEY = "newscrawl:items"
DEFAULT_MAXLEN = 100_000
#: Item fields that differ from one fetch of a page to the next without its content changing (a
#: kill -9 fault run streamed a list page twice whose only difference was its wrapper's match count).
PER_FETCH_FIELDS = ("fetched_at", "warc", "extraction")

_XADD_ONCE = """
if ARGV[1] ~= '' then
  local held = redis.call('HGET', KEYS[3], ARGV[8])
  if held then
    if held == ARGV[9] or ARGV[4] == '1' then return 0 end
  else
    local legacy = redis.call('HGET', KEYS[2], ARGV[1])
    if legacy and (legacy == ARGV[2] or ARGV[4] == '1') then return 0 end
  end
  redis.call('HSET', KEYS[3], ARGV[8], ARGV[9])
end
redis.call('XADD', KEYS[1], '*', 'item', ARGV[3], 'id', ARGV[1], 'site', ARGV[5],
           'page_type', ARGV[6], 'published', ARGV[7])
return 1
"""
#: Buckets of the stream's seen hashes: 100 M items make ~95 fields a bucket, kept as a compact
#: listpack while at most ``hash-max-listpack-entries`` (128 by default; deploy/ sets 256).
STREAM_SEEN_BUCKETS = 1 << 20
#: Fields of a stream entry beside ``item`` (the JSON), for consumers that route without parsing.
ENTRY_FIELDS = ("id", "site", "page_type", "published")
DEFAULT_GROUP = "newscrawl"
#: The stream is trimmed (and its length checked) after this many items, or this many seconds.
TRIM_EVERY_ITEMS = 100
TRIM_EVERY_S = 5.0
#: Backpressure: while the stream is over its cap because a group lags, an item waits this long
#: between checks, and at most BACKPRESSURE_MAX_S in all (then it is added anyway: never dropped).
BACKPRESSURE_STEP_S = 1.0
BACKPRESSURE_MAX_S = 60.0


def content_hash(item: dict[str, Any]) -> str:
    """SHA-1 of the item without its per-fetch fields.

    >>> a = {"id": "1", "body": "text", "fetched_at": "t1", "extraction": {"wrapper": {"matched": 1}}}
    >>> b = {"id": "1", "body": "text", "fetched_at": "t2", "extraction": {"wrapper": {"matched": 3}}}
    >>> content_hash(a) == content_hash(b), content_hash(a) == content_hash({**a, "body": "new"})
    (True, False)
    """
    stable = {k: v for k, v in item.items() if k not in PER_FETCH_FIELDS}
    text = json.dumps(stable, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class RedisStreamPipeline:
    """XADD each item once (as JSON in field ``item``) to a length-capped stream."""

    def __init__(
        self, crawler: Crawler, url: str, key: str = DEFAULT_KEY, maxlen: int = DEFAULT_MAXLEN,
        group: str = DEFAULT_GROUP,
    ) -> None:
        self.crawler = crawler
        self.url, self.key, self.maxlen, self.group = url, key, maxlen, group
        self.seen_key = f"{key}:seen"
        self.link: RedisLink | None = None
        self._script: Any = None
        self._since_trim, self._trimmed_at = 0, time.monotonic()
        self.over_cap = False  # the stream is past its cap because a group lags

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
            s.get("NEWSCRAWL_STREAM_GROUP", DEFAULT_GROUP) or "",
        )

    async def open_spider(self) -> None:
        self.link = redis_link(self.crawler)
        self._script = self.link.client.register_script(_XADD_ONCE)
        self.link.register("xadd", self._xadd)
        try:
            await run_in_thread(self.link.client.ping)
            if self.group and await run_in_thread(
                create_group, self.link.client, self.key, self.group
            ):
                logger.info("Created consumer group %r of stream %r", self.group, self.key)
        except redis.RedisError as exc:
            shown = redacted_url(self.url)
            raise RedisUnavailable(f"cannot reach Redis at {shown}: {_cause(exc)}") from exc
        self.link.start()
        logger.info(
            "Streaming items to %s key %r (cap %d; group %r)", redacted_url(self.url), self.key,
            self.maxlen, self.group,
        )  # fmt: skip

    async def process_item(self, item: Any) -> Any:
        assert self.link is not None, "RedisStreamPipeline used before open_spider()"
        data = ItemAdapter(item).asdict()
        await self._backpressure()
        entry = {
            "id": str(data.get("id") or ""),
            "hash": content_hash(data),
            "payload": item_to_json(item),
            "again": "1" if (data.get("extraction") or {}).get("redelivered") else "",
            **{name: str(data.get(name) or "") for name in ENTRY_FIELDS[1:]},
        }
        if self.link.send("xadd", entry) is HELD:
            logger.debug("Item %s held until Redis is back", data.get("url", "?"))
        self._since_trim += 1
        if (self._since_trim >= TRIM_EVERY_ITEMS
                or time.monotonic() - self._trimmed_at >= TRIM_EVERY_S):  # fmt: skip
            self.trim()
        return item

    def trim(self) -> None:
        """Trim by :mod:`pipelines.sinks.stream_groups`' policy; note when a lagging group holds the
        stream past its cap (backpressure). Skipped while Redis is away."""
        assert self.link is not None
        self._since_trim, self._trimmed_at = 0, time.monotonic()
        try:
            found = self.link.query(
                lambda client: (*trim(client, self.key, self.maxlen), client.xlen(self.key)), None
            )
        except redis.RedisError as exc:  # e.g. the key is not a stream: say so, go on
            _trim_log.warning("cannot trim stream %r: %s", self.key, exc)
            return
        if found is None:
            return
        removed, groups, length = found
        if removed:
            self.crawler.stats.inc_value("newscrawl/stream_trimmed", removed)
        self.over_cap = bool(groups) and length > self.maxlen
        if self.over_cap:
            self.crawler.stats.inc_value("newscrawl/stream_over_cap")
            _trim_log.warning(
                "stream %r holds %d entries, past its cap of %d: a consumer group lags (unread "
                "and unacknowledged entries are never trimmed); slowing down", self.key, length,
                self.maxlen,
            )  # fmt: skip

    async def _backpressure(self) -> None:
        waited = 0.0
        while self.over_cap and waited < BACKPRESSURE_MAX_S:
            await sleep(BACKPRESSURE_STEP_S)
            waited += BACKPRESSURE_STEP_S
            self.trim()
        if waited:
            self.crawler.stats.inc_value("newscrawl/stream_backpressure_s", waited)

    def close_spider(self) -> None:
        if self.link is not None:
            self.link.flush()

    def _xadd(self, _client: redis.Redis, entry: dict[str, Any]) -> bool:
        args = [entry["id"], entry["hash"], entry["payload"], entry.get("again", ""),
                *(entry.get(name, "") for name in ENTRY_FIELDS[1:])]  # fmt: skip
        item_fp = int.from_bytes(hashlib.sha1(entry["id"].encode("utf-8")).digest()[:8], "big")
        bucket_key = f"{self.seen_key}:{item_fp & (STREAM_SEEN_BUCKETS - 1)}"
        args += [_signed64(item_fp), _signed64(int(entry["hash"][:16], 16))]
        added = bool(self._script(keys=[self.key, self.seen_key, bucket_key], args=args))
        self.crawler.stats.inc_value(
            "newscrawl/items_streamed" if added else "newscrawl/stream_duplicates"
        )
        return added


def _signed64(value: int) -> int:
    """A 64-bit value as the signed integer Redis keeps compactly (as crawler.scheduling.seen)."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    if isinstance(inner, OSError) and inner.strerror:
        return inner.strerror
    return str(exc) or type(exc).__name__

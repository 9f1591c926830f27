"""RedisStreamPipeline: every item appended once to a capped Redis Stream as JSON.

``XADD <NEWSCRAWL_STREAM_KEY> MAXLEN ~ <NEWSCRAWL_STREAM_MAXLEN> * item <json>``, in one Lua script
with a check against the hash ``<NEWSCRAWL_STREAM_KEY>:seen`` (item ``id`` → content hash): an
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
the body, title or records anyway). The hash holds one field per item id (about 100 bytes each).

Writes go through the crawl's :class:`~crawler.scheduling.link.RedisLink`: while Redis is away items
are held in memory (bounded) and replayed in order when it is back, or saved under the output
folder when the worker stops (see that module). Items always reach the JSONL files too. Stats:
``newscrawl/items_streamed``, ``newscrawl/stream_duplicates`` (not added again),
``newscrawl/redis/held/xadd`` and ``newscrawl/redis/replayed/xadd``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import TYPE_CHECKING, Any

import redis
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import run_in_thread

from crawler.scheduling.link import HELD, RedisLink, redis_link
from pipelines.redis_client import RedisUnavailable, redacted_url
from pipelines.serialize import item_to_json

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["RedisStreamPipeline", "content_hash"]

logger = logging.getLogger(__name__)

DEFAULT_KEY = "newscrawl:items"
DEFAULT_MAXLEN = 100_000
#: Item fields that differ from one fetch of a page to the next without its content changing (a
#: kill -9 fault run streamed a list page twice whose only difference was its wrapper's match count).
PER_FETCH_FIELDS = ("fetched_at", "warc", "extraction")

_XADD_ONCE = """
if ARGV[1] ~= '' then
  local held = redis.call('HGET', KEYS[2], ARGV[1])
  if held == ARGV[2] or (held and ARGV[5] == '1') then return 0 end
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'item', ARGV[3])
return 1
"""


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
        self, crawler: Crawler, url: str, key: str = DEFAULT_KEY, maxlen: int = DEFAULT_MAXLEN
    ) -> None:
        self.crawler = crawler
        self.url, self.key, self.maxlen = url, key, maxlen
        self.seen_key = f"{key}:seen"
        self.link: RedisLink | None = None
        self._script: Any = None

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
        )

    async def open_spider(self) -> None:
        self.link = redis_link(self.crawler)
        self._script = self.link.client.register_script(_XADD_ONCE)
        self.link.register("xadd", self._xadd)
        try:
            await run_in_thread(self.link.client.ping)
        except redis.RedisError as exc:
            shown = redacted_url(self.url)
            raise RedisUnavailable(f"cannot reach Redis at {shown}: {_cause(exc)}") from exc
        self.link.start()
        logger.info(
            "Streaming items to %s key %r (MAXLEN ~%d)", redacted_url(self.url), self.key,
            self.maxlen,
        )  # fmt: skip

    async def process_item(self, item: Any) -> Any:
        assert self.link is not None, "RedisStreamPipeline used before open_spider()"
        data = ItemAdapter(item).asdict()
        entry = {
            "id": str(data.get("id") or ""),
            "hash": content_hash(data),
            "payload": item_to_json(item),
            "again": "1" if (data.get("extraction") or {}).get("redelivered") else "",
        }
        if self.link.send("xadd", entry) is HELD:
            logger.debug("Item %s held until Redis is back", data.get("url", "?"))
        return item

    def close_spider(self) -> None:
        if self.link is not None:
            self.link.flush()

    def _xadd(self, _client: redis.Redis, entry: dict[str, Any]) -> bool:
        args = [entry["id"], entry["hash"], entry["payload"], self.maxlen, entry.get("again", "")]
        added = bool(self._script(keys=[self.key, self.seen_key], args=args))
        self.crawler.stats.inc_value(
            "newscrawl/items_streamed" if added else "newscrawl/stream_duplicates"
        )
        return added


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    if isinstance(inner, OSError) and inner.strerror:
        return inner.strerror
    return str(exc) or type(exc).__name__

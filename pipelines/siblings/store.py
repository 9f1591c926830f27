"""SiblingStore: the last K pages of each template key, the pages LCS denoising pairs an article with.

A *sibling* of a page is another page of the same site and URL template (same
:func:`crawler.templates.template_key`). The store keeps the most recent ``per_template`` pages of
every template key, bodies zlib-compressed:

- :class:`MemorySiblingStore` (embedded mode): in-process, an LRU over template keys bounded by the
  total compressed bytes (``max_bytes``); adding to a template makes it the most recent one, and the
  least recently used templates are evicted until the total fits.
- :class:`RedisSiblingStore` (distributed mode): one Redis list per template key
  (``<prefix><template key>``), newest first; every value is JSON ``{"url", "content_type",
  "body": base64(zlib(body))}`` (never pickle); ``LPUSH`` + ``LTRIM 0 K-1`` + ``EXPIRE ttl`` in one
  transaction, so every worker sees every worker's pages and a key dies ``ttl`` seconds after its
  last write. Bodies whose compressed size is over ``max_body_bytes`` are not stored (both stores).

Reading back is bounded (:mod:`pipelines.untrusted`): a body never inflates past ``max_page_bytes``
(the crawl's page size cap), and a Redis value this store did not write (not JSON, a bomb, missing
fields) is skipped, logged and passed to ``on_reject`` (the pairing counts it under
``newscrawl/rejected/sibling_entry``).

``get(template_key, exclude_url)`` returns the newest stored page of the template whose URL is not
``exclude_url`` (a page is never its own sibling), or None.

>>> store = MemorySiblingStore(per_template=2, max_bytes=1_000_000)
>>> store.add("a.org/news/<slug>", "https://a.org/news/one-two", b"<html>1</html>", "text/html")
True
>>> store.get("a.org/news/<slug>", exclude_url="https://a.org/news/one-two") is None
True
>>> store.add("a.org/news/<slug>", "https://a.org/news/three-four", b"<html>2</html>", None)
True
>>> store.get("a.org/news/<slug>", exclude_url="https://a.org/news/three-four").body
b'<html>1</html>'
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from extractors.page import DEFAULT_MAX_BYTES as DEFAULT_MAX_PAGE_BYTES
from pipelines.untrusted import UntrustedData, inflate, load_json

if TYPE_CHECKING:
    import redis

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_PAGE_BYTES",
    "DEFAULT_PER_TEMPLATE",
    "DEFAULT_TTL",
    "MemorySiblingStore",
    "RedisSiblingStore",
    "SiblingStore",
    "StoredPage",
]

logger = logging.getLogger(__name__)

DEFAULT_PER_TEMPLATE = 3
#: Memory store: total compressed bytes over all templates (news pages compress to ~20-40 KB).
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
#: A page whose compressed body is larger than this is not stored (both stores).
DEFAULT_MAX_BODY_BYTES = 1024 * 1024
DEFAULT_TTL = 24 * 3600
#: A stored body never inflates past DEFAULT_MAX_PAGE_BYTES (the default of
#: ``NEWSCRAWL_MAX_PAGE_BYTES``, written once in extractors/page.py).
REDIS_KEY_PREFIX = "newscrawl:siblings:"
#: zlib level of stored bodies (both stores). Every page the crawl fetches is stored, so this is
#: paid on every page: over 240 pages of cx_bbc, cx_163, big9 and aeb (2026-11-26), level 1 takes
#: 1.05 ms a page (median; mean 1.25) against 2.70 ms (mean 3.73) at zlib's default 6, for bodies
#: 17 % larger (27.1 % of the page against 23.2 %); inflating is 0.1 ms slower. The memory store's
#: cap is in bytes, so memory stays bounded (it holds fewer pages at the cap).
ZLIB_LEVEL = 1


@dataclass(frozen=True, slots=True)
class StoredPage:
    """A page kept as a possible sibling: its URL, raw body bytes and Content-Type header."""

    url: str
    body: bytes
    content_type: str | None


class SiblingStore(Protocol):
    """Where sibling pages are kept (see the module docstring)."""

    def get(self, template_key: str, exclude_url: str) -> StoredPage | None:
        """The newest stored page of ``template_key`` whose URL is not ``exclude_url``."""
        ...

    def add(self, template_key: str, url: str, body: bytes, content_type: str | None) -> bool:
        """Store a page; False when it was not stored (too large)."""
        ...


@dataclass(frozen=True, slots=True)
class _Entry:
    url: str
    data: bytes  # zlib-compressed body
    content_type: str | None


class MemorySiblingStore:
    """In-process store: K pages per template, LRU over templates bounded by compressed bytes.

    Thread-safe (one lock; compression runs outside it), so callers may use it from worker threads.
    """

    def __init__(
        self,
        per_template: int = DEFAULT_PER_TEMPLATE,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES,
    ) -> None:
        if per_template < 1:
            raise ValueError(f"per_template must be at least 1, got {per_template}")
        self.per_template = per_template
        self.max_bytes = max_bytes
        self.max_body_bytes = max_body_bytes
        self.max_page_bytes = max_page_bytes
        self._templates: OrderedDict[str, list[_Entry]] = OrderedDict()
        self._lock = threading.Lock()
        self.total_bytes = 0

    def __len__(self) -> int:
        """The number of template keys held."""
        return len(self._templates)

    def get(self, template_key: str, exclude_url: str) -> StoredPage | None:
        with self._lock:
            entries = self._templates.get(template_key)
            if entries:
                self._templates.move_to_end(template_key)
            found = next((e for e in entries or () if e.url != exclude_url), None)
        if found is None:
            return None
        body = inflate(found.data, max_bytes=self.max_page_bytes)  # ours: never over the cap
        return StoredPage(found.url, body, found.content_type)

    def add(self, template_key: str, url: str, body: bytes, content_type: str | None) -> bool:
        data = zlib.compress(body, ZLIB_LEVEL)
        if len(data) > min(self.max_body_bytes, self.max_bytes):
            return False
        with self._lock:
            old = self._templates.pop(template_key, [])
            kept = [_Entry(url, data, content_type)] + [e for e in old if e.url != url]
            self._templates[template_key] = kept[: self.per_template]
            self.total_bytes += sum(len(e.data) for e in self._templates[template_key])
            self.total_bytes -= sum(len(e.data) for e in old)
            self._evict()
        return True

    def _evict(self) -> None:
        """Drop least recently used templates until the total fits (never the newest one)."""
        while self.total_bytes > self.max_bytes and len(self._templates) > 1:
            _, entries = self._templates.popitem(last=False)
            self.total_bytes -= sum(len(e.data) for e in entries)


class RedisSiblingStore:
    """Shared store: one Redis list of JSON values per template key, trimmed to K, with a TTL.

    Redis errors (``redis.RedisError``) propagate: the caller counts them and goes on without a
    sibling. Both methods block on the network: call them off the reactor thread.
    """

    def __init__(
        self,
        client: redis.Redis,
        per_template: int = DEFAULT_PER_TEMPLATE,
        ttl: int = DEFAULT_TTL,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        key_prefix: str = REDIS_KEY_PREFIX,
        max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES,
        on_reject: Callable[[str], None] | None = None,
    ) -> None:
        if per_template < 1:
            raise ValueError(f"per_template must be at least 1, got {per_template}")
        self.client = client
        self.per_template = per_template
        self.ttl = ttl
        self.max_body_bytes = max_body_bytes
        self.key_prefix = key_prefix
        self.max_page_bytes = max_page_bytes
        self.on_reject = on_reject

    def key(self, template_key: str) -> str:
        return self.key_prefix + template_key

    def get(self, template_key: str, exclude_url: str) -> StoredPage | None:
        for raw in self.client.lrange(self.key(template_key), 0, self.per_template - 1):
            page = self._decode(raw)
            if page is not None and page.url != exclude_url:
                return page
        return None

    def _decode(self, raw: bytes | str) -> StoredPage | None:
        """A stored JSON value back to a page; None (logged, counted) for a value this store did
        not write or that is over the limits."""
        try:
            return decode_value(raw, self.max_body_bytes, self.max_page_bytes)
        except UntrustedData as exc:
            logger.warning("ignored an unreadable sibling store value: %s", exc)
            if self.on_reject is not None:
                self.on_reject(exc.reason)
            return None

    def add(self, template_key: str, url: str, body: bytes, content_type: str | None) -> bool:
        data = zlib.compress(body, ZLIB_LEVEL)
        if len(data) > self.max_body_bytes:
            return False
        value = json.dumps(
            {"url": url, "content_type": content_type, "body": base64.b64encode(data).decode()}
        )
        key = self.key(template_key)
        pipe = self.client.pipeline(transaction=True)
        pipe.lpush(key, value)
        pipe.ltrim(key, 0, self.per_template - 1)
        pipe.expire(key, self.ttl)
        pipe.execute()
        return True


def decode_value(raw: bytes | str, max_body_bytes: int, max_page_bytes: int) -> StoredPage:
    """A stored JSON value back to a page; :class:`UntrustedData` for anything this store did not
    write: not JSON, wrong types, a compressed body over ``max_body_bytes`` or one that inflates
    past ``max_page_bytes``.

    >>> decode_value('{"url": "u", "body": "eJzLSM3JyQcABiwCFQ=="}', 100, 100).body
    b'hello'
    >>> decode_value('{"url": "u", "body": 1e999}', 100, 100)
    Traceback (most recent call last):
    ...
    pipelines.untrusted.UntrustedData: not finite: 1e999
    """
    # base64 makes 4 bytes of 3, plus the URL and Content-Type (bounded by the same slack)
    value = load_json(raw, max_bytes=max_body_bytes * 4 // 3 + 64_000, max_depth=2)
    if not isinstance(value, dict):
        raise UntrustedData("a sibling store value is a JSON object", "invalid")
    url, data, content_type = value.get("url"), value.get("body"), value.get("content_type")
    if not isinstance(url, str) or not isinstance(data, str) \
            or not isinstance(content_type, (str, type(None))):
        raise UntrustedData("a sibling store value needs a str url and body", "invalid")
    try:
        compressed = base64.b64decode(data, validate=True)
    except ValueError as exc:
        raise UntrustedData(f"body is not base64: {exc}", "invalid") from exc
    return StoredPage(url, inflate(compressed, max_bytes=max_page_bytes), content_type)

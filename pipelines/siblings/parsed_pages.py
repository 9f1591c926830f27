"""Parsed pages kept for reuse, so a page is parsed once: a small, thread-safe, bounded LRU.

Two uses in the extract pipeline (:mod:`pipelines.extract`):

- the page the spider parsed for its link scan (``item["parsed"]``) waits here, not in the item,
  while the page waits for its sibling: a held page then costs its body, not its tree, once the
  cache has moved on (a page evicted meanwhile is parsed again; nothing is lost);
- the sibling pages: every article of a template is compared with the same sibling, and parsing
  it again for each one cost as much as a sixth of the chain (``newscrawl crawl-bench``).

Entries are counted, not weighed: a parsed page takes about 5-10 times its body in memory (the
lxml tree and the node table), and the page-size limit bounds a body, so ``max_pages`` x the limit
x 10 bounds the cache. A cached page is only read (the extractors never change a tree) and may be
read by several extraction threads at once.

>>> cache = PageCache(2)
>>> cache.put("a", 1); cache.put("b", 2); cache.get("a"); cache.put("c", 3)
1
>>> cache.get("b") is None, cache.pop("a"), cache.get("a") is None, len(cache)
(True, 1, True, 1)
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import extractors
from extractors.errors import BadInput

if TYPE_CHECKING:
    from pipelines.siblings.store import StoredPage

__all__ = [
    "DEFAULT_PARSED_PAGES",
    "DEFAULT_SIBLING_PAGES",
    "PARSED",
    "PageCache",
    "body_key",
    "parsed_sibling",
]

#: The page item's key for the spider's parsed page (:class:`extractors.Page`, never serialised);
#: written here, where the pipeline takes it out, so pipelines never import the crawler.
PARSED = "parsed"

#: Pages parsed by the spider kept for the pipeline: the pages between the scan and the extraction
#: (items in flight; held pages beyond this are parsed again).
DEFAULT_PARSED_PAGES = 128
#: Parsed siblings kept: one per template in use; a crawl of many sites at once cycles through more.
DEFAULT_SIBLING_PAGES = 32


class PageCache:
    """``key -> parsed page`` for at most ``max_pages`` entries, least recently used out first."""

    def __init__(self, max_pages: int) -> None:
        self.max_pages = max(0, max_pages)
        self._entries: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._entries.get(key)
            if value is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return value

    def pop(self, key: Any) -> Any:
        with self._lock:
            return self._entries.pop(key, None)

    def put(self, key: Any, value: Any) -> None:
        if not self.max_pages:
            return
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_pages:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


def body_key(url: str, body: bytes) -> tuple[str, int, int]:
    """A cache key for a stored page: its URL and its body's length and CRC-32 (a sibling stored
    again with other bytes is another page)."""
    return url, len(body), zlib.crc32(body)


def parsed_sibling(
    sibling: StoredPage, max_bytes: int, siblings: PageCache | None = None, *, look: bool = True
) -> bytes | extractors.Page:
    """The parse of ``sibling`` (with its own Content-Type), taken from ``siblings`` or made now
    and kept there; its bytes when it cannot be parsed, so the extractor says why it was not used.
    ``look=False``: the caller looked in ``siblings`` already and missed (parse it, keep it).
    Runs in a worker thread."""
    key = body_key(sibling.url, sibling.body)
    other = siblings.get(key) if siblings is not None and look else None
    if other is not None:
        return other
    try:
        other = extractors.parse_page(
            sibling.body, url=sibling.url, content_type=sibling.content_type, max_bytes=max_bytes
        )
    except BadInput:
        return sibling.body
    if siblings is not None:
        siblings.put(key, other)
    return other

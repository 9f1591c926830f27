"""WarcArchivePipeline: each page item points at the WARC record of its response.

The archive itself is written at the downloader, by :class:`pipelines.archive.capture.
WarcCaptureMiddleware`, which sees every exchange (redirects, errors, robots.txt, non-HTML) with its
payload as received; the page item carries the pointer of its response record, copied from the
request meta by :func:`crawler.page_item.page_item`. This pipeline, first in ``ITEM_PIPELINES``,
checks that pointer: ``item["warc"] = {"file": <final .warc.gz basename>, "offset", "length"}`` of
the response record (its gzip member), or ``None`` when the exchange could not be archived
(``newscrawl/errors/warc_write``) or the capture middleware is not installed
(``newscrawl/warc_missing``, with a warning once).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["WarcArchivePipeline"]

logger = logging.getLogger(__name__)

_POINTER_KEYS = frozenset({"file", "offset", "length"})


class WarcArchivePipeline:
    """Attach and count the WARC pointer of every page item (``kind == "page"``)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self._warned = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.getbool("NEWSCRAWL_WARC_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_WARC_ENABLED is off")
        return cls(crawler)

    async def process_item(self, item: Any) -> Any:
        if not (isinstance(item, dict) and item.get("kind") == "page"):
            return item
        pointer = item.get("warc")
        if isinstance(pointer, dict) and set(pointer) == _POINTER_KEYS:
            self.crawler.stats.inc_value("newscrawl/pages_archived")
            return item
        item["warc"] = None
        self.crawler.stats.inc_value("newscrawl/warc_missing")
        if not self._warned:
            self._warned = True
            logger.warning(
                "Page %s has no WARC record (a write error, or no "
                "pipelines.archive.capture.WarcCaptureMiddleware in DOWNLOADER_MIDDLEWARES)",
                item.get("url"),
            )
        return item

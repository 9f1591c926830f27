"""RecordBoard: where the spider waits for the records the pipeline found on a list page.

Why the spider waits, rather than the pipeline scheduling the records. Record URLs must become the
crawl's article requests *ahead of* the list page's other links (priority ``RECORD_PRIORITY``,
between the sibling requests' 100 and the normal 0), with the list page as referer. If the spider
yielded every link of the list page at once (priority 0) and the pipeline later scheduled the records
through ``crawler.engine.crawl``, the dupefilter would drop each record request as a duplicate of the
link already queued at priority 0: the records would go last, not first. Requests scheduled through
``engine.crawl`` also skip the spider middlewares (depth limit, depth priority, referer).

So, for a list page (route ``list``), the spider (``crawler/spiders/news.py``) registers the page here
(:meth:`RecordBoard.expect`), yields its sibling request and its page item, then awaits the
Deferred; the extract pipeline, once it has the page's records (from a known wrapper or a newly
induced one; none when it found none, dropped the page or failed), calls :meth:`RecordBoard.publish`;
the spider then yields the record requests first and the remaining links after, all through the
spider middlewares. Each record URL is requested once, at the higher priority. The wait is bounded
twice: the pipeline publishes whatever happens to the item (its sibling hold is itself bounded by
``NEWSCRAWL_SIBLING_WAIT``), and the Deferred times out after ``timeout`` seconds with no records
(the links are then yielded as usual). Nothing fetched is lost: the page item is already on its way.

The board belongs to the extract pipeline (its list stage,
:class:`pipelines.lists.stage.ListStage`); the spider finds it through Scrapy's
``crawler.get_item_pipeline(ExtractPipeline)``, and waits only when that pipeline is enabled with
list wrappers on. It is in process: the item of a response is always processed in the process whose
spider parsed it, in embedded and in distributed mode.

>>> board = RecordBoard()
>>> waiting = board.expect("https://a.org/news/", timeout=0)
>>> board.publish("https://a.org/news/", ["https://a.org/news/one-two"])
True
>>> waiting.result
['https://a.org/news/one-two']
>>> board.publish("https://a.org/other/", [])   # nobody waits: nothing happens
False
"""

from __future__ import annotations

from typing import Any

from twisted.internet.defer import Deferred

__all__ = ["RECORD_PRIORITY", "RecordBoard"]

#: Priority of record requests: after the sibling requests (100, a held page waits for them), before
#: the crawl's normal requests (0 minus depth).
RECORD_PRIORITY = 50


class RecordBoard:
    """List pages whose records the spider awaits, by URL."""

    def __init__(self) -> None:
        self._waiting: dict[str, Deferred[list[str] | None]] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def expect(self, url: str, timeout: float) -> Deferred[list[str] | None]:
        """A Deferred firing with the record URLs of list page ``url`` (None after ``timeout`` s:
        no answer came; 0 = no timeout)."""
        waiter: Deferred[list[str] | None] = Deferred(lambda d: None)
        self._waiting[url] = waiter
        waiter.addBoth(self._forget, url, waiter)
        if timeout > 0:
            from twisted.internet import reactor

            waiter.addTimeout(timeout, reactor, onTimeoutCancel=lambda *_: None)
        return waiter

    def _forget(self, result: Any, url: str, waiter: Deferred[list[str] | None]) -> Any:
        if self._waiting.get(url) is waiter:
            del self._waiting[url]
        return result

    def publish(self, url: str, records: list[str]) -> bool:
        """Hand the records of ``url`` to the spider waiting for them; False when none waits."""
        waiter = self._waiting.pop(url, None)
        if waiter is None or waiter.called:
            return False
        waiter.callback(list(records))
        return True

    def release_all(self) -> int:
        """Fire every waiter with no records (the crawl is closing); how many were waiting."""
        urls = list(self._waiting)
        for url in urls:
            self.publish(url, [])
        return len(urls)

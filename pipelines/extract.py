"""ExtractPipeline, the hall: a page item in, a news item out, routed to the article or list room.

Runs :func:`extractors.extract` off the reactor thread and replaces the page item (raw bytes)
by a JSON-ready news item. Bad input (empty, binary, oversized... pages) drops the item
with its reason counted under ``newscrawl/skipped/<reason>``; an extractor bug drops the item,
is logged with the URL and counted under ``newscrawl/errors/extract_exception``.

A page's path (docs/architecture.md, "The rooms"): the sibling room's door,
:meth:`pipelines.siblings.pairing.SiblingPairing.find`, gives the same-template sibling (paper
003), holding the page until one arrives if it must (a list page whose template has a wrapper,
:meth:`pipelines.lists.stage.ListStage.has_wrapper`, is not held); the extraction runs against it
in a worker thread, where an article also becomes its item (:func:`extract_item`, then
:func:`pipelines.items.article_item`, saying which sibling was used or why there was none,
``extraction.sibling``); a list page (route ``list``, or
an extracted ``page_type`` of ``list``) goes to the list room
(:meth:`pipelines.lists.stage.ListStage.news_list`: records by a PSNT wrapper, known or induced
from the page and a same-template sibling list page). The record URLs of a route-``list`` page
are handed to the spider, which is waiting for them to request them first
(:meth:`~pipelines.lists.stage.ListStage.publish`), whatever happens to the item.

A page is parsed once: the spider's link scan parses it (``item["parsed"]``) and the extraction
takes that tree; the same tree goes into the cache of parsed siblings at once where the pairing
stores the page (:meth:`~pipelines.siblings.pairing.SiblingPairing.stores`), since it becomes the
newest stored sibling of its template, which the next articles of that template are paired with
(:mod:`pipelines.siblings.parsed_pages`; ``NEWSCRAWL_PARSED_PAGES``, ``NEWSCRAWL_SIBLING_PAGES``);
an article takes its sibling's parse from there as the pairing hands the sibling over. Before, the
sibling was parsed again for 162 of the crawl bench's 248 pages: a tenth of the crawl's CPU.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from scrapy.exceptions import DropItem
from scrapy.utils.asyncio import run_in_thread

import extractors
from extractors.svm_fields import policy_for
from extractors.errors import BadInput
from extractors.page import DEFAULT_MAX_BYTES as DEFAULT_MAX_PAGE_BYTES
from pipelines.items import article_item, page_content_type
from pipelines.lists.stage import ListStage
from pipelines.reasons import DISABLED, reason_slug
from pipelines.siblings.pairing import SiblingPairing, pairing_from_crawler, use_sibling_setting
from pipelines.siblings.parsed_pages import (DEFAULT_PARSED_PAGES, DEFAULT_SIBLING_PAGES, PARSED,
                                             PageCache, body_key, parsed_sibling)

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

    from pipelines.lists.record_board import RecordBoard
    from pipelines.siblings.store import StoredPage

__all__ = ["ExtractPipeline", "ItemFailure", "extract_item", "extract_page"]

logger = logging.getLogger(__name__)

#: :func:`extract_page`'s default ``sibling_parse``: look for the sibling's parse in ``siblings``.
LOOK = object()



class ExtractPipeline:
    """Turn page items (``kind == "page"``) into news items; other items pass through."""

    def __init__(
        self,
        crawler: Crawler,
        max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES,
        pairing: SiblingPairing | None = None,
        lists: ListStage | None = None,
        svm: extractors.SvmPolicy | None = None,
        parsed_pages: int = DEFAULT_PARSED_PAGES,
        sibling_pages: int = DEFAULT_SIBLING_PAGES,
        use_sibling: str = extractors.AUTO,
    ) -> None:
        self.crawler = crawler
        self.use_sibling = use_sibling  # NEWSCRAWL_USE_SIBLING, passed to extractors.extract
        self.parsed = PageCache(parsed_pages)
        self.siblings = PageCache(sibling_pages)
        self.max_page_bytes = max_page_bytes
        self.pairing = pairing
        self.lists = lists
        self.svm = svm

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        limit = crawler.settings.getint("NEWSCRAWL_MAX_PAGE_BYTES", DEFAULT_MAX_PAGE_BYTES)
        settings = crawler.settings
        return cls(crawler, limit, pairing_from_crawler(crawler), ListStage.from_crawler(crawler),
                   policy_for(settings.get("NEWSCRAWL_FIELDS_MODEL")),
                   settings.getint("NEWSCRAWL_PARSED_PAGES", DEFAULT_PARSED_PAGES),
                   settings.getint("NEWSCRAWL_SIBLING_PAGES", DEFAULT_SIBLING_PAGES),
                   use_sibling_setting(settings))

    @property
    def record_board(self) -> RecordBoard | None:
        """Where the spider awaits a list page's records; None when list wrappers are off (then
        the spider does not wait)."""
        return self.lists.board if self.lists is not None else None

    async def open_spider(self) -> None:
        """The chain's one-time loads (:func:`extractors.warmup.warm_up`: models, language
        identifier, date parser), in a thread, before the engine takes its first request.

        Scrapy starts the engine once every pipeline is open, so a worker leases no request before
        it can extract at full speed. Loaded on first use instead, the first pages' extractions
        took the two page threads for the load (0.8 s of CPU alone; each of two workers on the
        2-core bench machine 2-3 s), the link scans of every response meanwhile queued behind
        them (40 queued), the responses waiting (over ``SCRAPER_SLOT_MAX_ACTIVE_SIZE``, 5 MB, 41-42
        responses) stopped the engine fetching: the crawl bench's two workers at 0.3 s a response
        had 0.0-1.3 requests in flight in the fourth tenth of the span, 10.4-11.8 with it; 2 workers
        27.2-33.3 pages/s against 23.4-25.9 (issue 12, docs/evaluation.md, "the two-worker dip at
        0.3 s is the first extraction's loads"). A failed warm-up is logged and the crawl goes on,
        loading on first use."""
        from extractors.warmup import warm_up

        try:
            seconds = await run_in_thread(warm_up)
        except Exception:  # the pages will meet the same error, each dropped with its reason
            logger.exception("warm-up of the extraction failed; it loads on first use")
            return
        logger.debug("extraction warmed up in %.2f s", seconds)

    def close_spider(self) -> None:
        if self.pairing is not None:
            self.pairing.close()
        if self.lists is not None:
            self.lists.close()

    async def process_item(self, item: Any) -> Any:
        if not (isinstance(item, dict) and item.get("kind") == "page"):
            return item
        parsed = item.pop(PARSED, None)
        if parsed is not None:
            self.parsed.put(id(item), parsed)
            # kept among the parsed siblings only if it can be a sibling (stored by the pairing):
            # the crawl bench's 175 English articles (never stored: not CJK) pushed CJK siblings
            # out of the 32 kept (5-18 of 65 siblings parsed again in a crawl, with the cause
            # below)
            if (self.pairing is not None and self.pairing.stores(item)
                    and _one_content_type(item)):  # parsed as extract_page parses a sibling
                self.siblings.put(body_key(item["url"], item["body"]), parsed)
        news = None
        try:
            news = await self._process_page(item, parsed is not None)
            return news
        finally:  # the spider waits for a list page's records, whatever happened to it
            self.parsed.pop(id(item))
            if self.lists is not None and item.get("route") == "list":
                self.lists.publish(item["url"], news)

    async def _process_page(self, item: dict[str, Any], had_parse: bool = False
                            ) -> dict[str, Any]:
        url, body = item["url"], item["body"]
        if len(body) > self.max_page_bytes:
            self._skip(url, "too_large", f"{len(body)} bytes > {self.max_page_bytes}")
        content_type = page_content_type(item)
        is_list = self.lists is not None and item.get("route") == "list"
        sibling, no_sibling = await self._sibling(item, is_list)
        # LCS is for articles: a list page is extracted without its sibling. An article's sibling
        # parse is taken from the cache as the pairing gives it: while the page waits for an
        # extraction thread, the 32 parses kept move on (on the crawl bench's sites 5-18 of 65
        # siblings were parsed again, each evicted between its pairing and its extraction)
        extract_sibling = None if is_list else sibling
        sibling_parse = (None if extract_sibling is None else
                         self.siblings.get(body_key(sibling.url, sibling.body)))
        parsed = self.parsed.pop(id(item))  # None: evicted while the page was held; parse again
        if parsed is not None:
            self._count("newscrawl/parse/reused")
        else:  # "unparsed": the scan could not read it either (empty, binary...): the parse says why
            self._count(f"newscrawl/parse/{'again' if had_parse else 'unparsed'}")
        lists_on = self.lists is not None
        try:
            result, news = await run_in_thread(
                extract_item, item, sibling, no_sibling, is_list, lists_on,
                parsed if parsed is not None else body, url, content_type,
                self.max_page_bytes, extract_sibling, fetched_at(item), self.svm,
                self.siblings, self.use_sibling, sibling_parse,
            )
        except BadInput as exc:
            self._skip(url, exc.reason, str(exc))
        except Exception as exc:
            logger.exception("Extractor failed on %s", url)
            self._count("newscrawl/errors/extract_exception")
            raise DropItem(f"extract_exception: {url}: {type(exc).__name__}: {exc}") from exc
        stats = self.crawler.stats
        stats.set_value("newscrawl/parse/siblings_reused", self.siblings.hits)
        stats.set_value("newscrawl/parse/siblings_parsed", self.siblings.misses)
        if isinstance(news, ItemFailure):  # raised here, out of the extraction's error handling
            raise news.error
        if news is None:  # the list room
            news = await self.lists.news_list(item, result, sibling, no_sibling,
                                              self.max_page_bytes)
        self._count_news(news)
        return news

    async def _sibling(
        self, item: dict[str, Any], is_list: bool
    ) -> tuple[StoredPage | None, str | None]:
        if self.pairing is None:
            return None, DISABLED
        wait = not (is_list and await self.lists.has_wrapper(item.get("template_key") or ""))
        return await self.pairing.find(item, wait=wait)

    def _count_news(self, news: dict[str, Any]) -> None:
        """The stats of a news item: its sibling (used, or why none), its page type."""
        note = news["extraction"]["sibling"]
        if note["used"]:
            self._count("newscrawl/siblings/used")
        else:
            self._count(f"newscrawl/siblings/none/{reason_slug(note['reason'] or 'unknown')}")
        self._count(f"newscrawl/page_type/{news['page_type']}")
        self._count("newscrawl/items_extracted")

    def _skip(self, url: str, reason: str, detail: str) -> NoReturn:
        self._count(f"newscrawl/skipped/{reason}")
        raise DropItem(f"{reason}: {url} ({detail})", log_level="INFO")

    def _count(self, key: str) -> None:
        self.crawler.stats.inc_value(key)


class ItemFailure(NamedTuple):
    """An error raised while building the article's item in :func:`extract_item`'s thread: the
    pipeline raises it on the reactor, as when the item was built there (an item bug is not an
    extraction failure, ``extract_exception``)."""

    error: Exception


def extract_item(
    item: dict[str, Any], sibling: StoredPage | None, no_sibling: str | None, is_list: bool,
    lists_on: bool, *extract_args: Any,
) -> tuple[extractors.Extraction, dict[str, Any] | ItemFailure | None]:
    """:func:`extract_page` (``extract_args``), then, for an article, its news item
    (:func:`pipelines.items.article_item`) in the same worker thread; None for a page that goes
    to the list room (``lists_on`` and routed ``list`` or typed ``list``), which builds its own.

    Built here, the item (its id's ``canonicalize_url``, ``Extraction.to_dict``, the fields'
    copies: 0.14 ms a news item on the crawl bench's pages) no longer holds the reactor thread,
    and the page makes no second trip between the threads for it. The page item, the extraction
    and the sibling belong to this page's ``process_item`` alone while the thread runs.
    """
    result = extract_page(*extract_args)
    if lists_on and (is_list or result.page_type == "list"):
        return result, None
    try:
        return result, article_item(item, result, sibling, no_sibling)
    except Exception as exc:  # noqa: BLE001 - re-raised by the pipeline on the reactor
        return result, ItemFailure(exc)


def extract_page(
    body: bytes | extractors.Page,
    url: str,
    content_type: str | None,
    max_bytes: int,
    sibling: StoredPage | None,
    fetched: datetime | None = None,
    svm: extractors.SvmPolicy | None = None,
    siblings: PageCache | None = None,
    use_sibling: str = extractors.AUTO,
    sibling_parse: extractors.Page | None | object = LOOK,
) -> extractors.Extraction:
    """:func:`extractors.extract` of ``body`` (bytes, or the page already parsed), against
    ``sibling`` (parsed with its own Content-Type, or taken from ``siblings``) if any, as
    ``use_sibling`` says (``auto``: on CJK pages only). ``sibling_parse``: the sibling's parse
    the caller took from ``siblings`` already, or None where it looked and missed (the sibling is
    then parsed and kept); by default the parse is looked up here.

    Runs in a worker thread. A sibling that cannot be parsed is passed as bytes, so the extractor
    reports why it was not used. (With ``auto`` the crawl pairs only pages whose text is CJK, so a
    sibling parsed here is one the extractor almost always uses.)
    """
    if sibling is None:
        other = None
    elif sibling_parse is LOOK or sibling_parse is None:
        other = parsed_sibling(sibling, max_bytes, siblings, look=sibling_parse is LOOK)
    else:
        other = sibling_parse
    return extractors.extract(
        body, url=url, content_type=content_type, max_bytes=max_bytes, sibling=other,
        fetched_at=fetched, svm=svm, use_sibling=use_sibling,
    )



def fetched_at(item: dict[str, Any]) -> datetime | None:
    """The page item's ``fetched_at`` as an aware datetime (None when absent or unreadable).

    >>> fetched_at({"fetched_at": "2024-05-01T10:00:00Z"}).isoformat()
    '2024-05-01T10:00:00+00:00'
    """
    value = item.get("fetched_at")
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _one_content_type(item: dict[str, Any]) -> bool:
    """Whether the page item has at most one Content-Type value: then the spider's scan (Scrapy's
    header, the last value) and the sibling store (the first value) parse it alike."""
    for key, values in (item.get("response_headers") or {}).items():
        if key.lower() == "content-type" and not isinstance(values, str) and len(values) > 1:
            return False
    return True

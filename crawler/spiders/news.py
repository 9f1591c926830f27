"""NewsSpider: crawl news sites from seed URLs, following same-site links, one page item per page.

Scope: links are followed on the page's own site (:func:`crawler.scope.site_origin`: scheme, host
without ``www.`` and port). Every request carries its seed's origin
(``meta["newscrawl_seed_origin"]``), which :class:`crawler.downloadermiddlewares.address_guard.AddressGuard` needs for the seed exception
of its SSRF rule. A page's links come from :func:`crawler.link_scan.scan_page`, run in a worker
thread: nothing CPU-heavy runs on the reactor; a page it refuses (``too_many_elements``,
``too_many_attributes``, ``too_deep``) is counted under ``newscrawl/skipped/<reason>`` and yields
nothing, and links past ``NEWSCRAWL_MAX_LINKS_PER_PAGE`` are cut (``newscrawl/capped/links``).
Outputs are yielded ``OUTPUTS_PER_TURN`` at a time, the reactor getting a turn in between.

Seeds come from the ``start_urls`` argument (a list, or a string of URLs separated by commas or
whitespace: ``scrapy crawl news -a start_urls=https://a.example/,https://b.example/``), from a file
(``-a seeds_file=FILE``, one URL per line, ``#`` comments) and, in distributed mode, from a Redis list
(:mod:`crawler.scheduling.idle`). Limits are Scrapy settings: ``DEPTH_LIMIT``, ``CLOSESPIDER_PAGECOUNT``.

Sibling pairing (``NEWSCRAWL_SIBLINGS_ENABLED``): every article and list page item carries its
nearest same-template link (``sibling_link``, :mod:`crawler.sibling_links`; list pages are keyed by
:func:`~crawler.sibling_links.list_template_key`, also their item's ``template_key``); for the first
page of each template key this spider sees, that link is requested first, with priority
``SIBLING_PRIORITY`` and ``meta["newscrawl_sibling_for"]`` = the page's URL (the page item of its
response carries it as ``sibling_for``, so the pipeline stores it whatever its route). Links past
``DEPTH_LIMIT`` are not requested (Scrapy's depth middleware would drop them). The pipeline side is
:mod:`pipelines.siblings.pairing`. The sibling of an article serves LCS denoising, which the
extractor uses on CJK pages only (:mod:`extractors.script`); so with ``NEWSCRAWL_USE_SIBLING``
``auto`` (the default) an article page whose text is not CJK (:func:`extractors.script.page_is_cjk`,
run by the link scan in its worker thread on the parse it made) gets no sibling link and requests no
sibling: its item says ``sibling_skip`` ``"not_cjk"`` and the pipeline neither stores nor pairs it
(``never``: no article is paired, ``"use_sibling=never"``; ``always``: every article is, as before
the CJK test). List pages are paired whatever their script (PSNT wrappers).

List pages and their records (``NEWSCRAWL_WRAPPERS_ENABLED``, with the extract pipeline on): for a
page routed ``list`` the callback yields the sibling request (list pages have same-template siblings
too: a PSNT wrapper is induced from two of them) and the page item, then waits (bounded by
``NEWSCRAWL_RECORDS_WAIT``) for the record URLs the extract pipeline finds with the template's PSNT
wrapper, and requests them first, with priority ``RECORD_PRIORITY`` and the list page as referer,
then the page's other links. Why the spider waits instead of the pipeline scheduling the records:
:mod:`pipelines.lists.record_board`. The spider finds the pipeline's board with Scrapy's
``crawler.get_item_pipeline`` (no setting names it), and does not wait when there is none.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy.http import Request, Response, TextResponse
from scrapy.utils.asyncio import run_in_thread, sleep
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.python.failure import Failure

from crawler.settings import NEWSCRAWL_RECORDS_WAIT
from crawler.downloadermiddlewares.address_guard import SEED_ORIGIN
from crawler.failures import failure_reason
from crawler.link_scan import MAX_LINKS_PER_PAGE, KnownLinks, PageScan, scan_page
from crawler.page_item import PARSED, page_item, skip_reason
from crawler.rounds import ROUND_META, is_front
from crawler.routing import route
from crawler.scope import host_origin, site_origin
from crawler.sites import SiteBook, load_sites
from crawler.sources import HINT_META, Source, read_source, source_kind
from crawler.sibling_links import choose_sibling_link, list_template_key
from crawler.templates import template_key
from extractors import AUTO, NEVER, NOT_CJK, SIBLING_OFF
from extractors.page import DEFAULT_MAX_BYTES
from pipelines.extract import ExtractPipeline
from pipelines.lists.record_board import RECORD_PRIORITY, RecordBoard
from pipelines.siblings.pairing import use_sibling_setting

logger = logging.getLogger(__name__)

__all__ = [
    "RECORD_OF",
    "RECORD_PRIORITY",
    "SIBLING_FOR",
    "SIBLING_PRIORITY",
    "NewsSpider",
    "read_seeds",
    "site_of",
]

#: Request meta key of a sibling request: the URL of the article it was requested for.
SIBLING_FOR = "newscrawl_sibling_for"
#: Priority of sibling requests: ahead of the crawl's own (0 minus depth with DEPTH_PRIORITY 1), so a
#: held article waits for one download, not for the rest of the queue.
SIBLING_PRIORITY = 100
#: Request meta key of a record request: the URL of the list page whose record it is.
RECORD_OF = "newscrawl_record_of"
#: Default of ``NEWSCRAWL_RECORDS_WAIT``: the longest a list page's links wait for its records (the
#: sibling wait, 30 s by default, plus time to extract; the pipeline normally answers sooner).
DEFAULT_RECORDS_WAIT = NEWSCRAWL_RECORDS_WAIT
#: The set of templates whose sibling was requested is forgotten past this size (memory bound).
MAX_TEMPLATES_REMEMBERED = 100_000
#: The callback gives the reactor a turn after this many outputs: each request costs the reactor
#: ~0.1-0.2 ms through the middlewares and the scheduler, so a page of 5 000 links yielded at once
#: held it for about a second (measured with crawler.extensions.reactor_health); 100 is ~20 ms.
OUTPUTS_PER_TURN = 100


def site_of(url: str) -> str:
    """The site of a URL: host name, lower-cased, without ``www.`` (ports are ignored)."""
    return (urlsplit(url).hostname or "").lower().removeprefix("www.")


def read_seeds(text: str) -> list[str]:
    """URLs from a seeds text: separated by commas or whitespace, ``#`` starts a comment."""
    urls: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        urls += [u for u in line.replace(",", " ").split() if u]
    return urls


class NewsSpider(scrapy.Spider):
    """Crawl news sites: same-site links only, each HTML page routed as list or article."""

    name = "news"

    def __init__(
        self,
        start_urls: str | Iterable[str] | None = None,
        seeds_file: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        seeds = read_seeds(start_urls) if isinstance(start_urls, str) else list(start_urls or [])
        if seeds_file:
            seeds += read_seeds(Path(seeds_file).read_text(encoding="utf-8"))
        self.seeds: list[str] = seeds
        self.max_links = MAX_LINKS_PER_PAGE
        self.pair_siblings = True
        self.use_sibling = AUTO  # NEWSCRAWL_USE_SIBLING: which article pages are paired
        self.depth_limit = 0
        self._record_board: RecordBoard | None | bool = False  # False: not looked up yet
        self.records_wait = DEFAULT_RECORDS_WAIT
        self.sibling_templates: set[str] = set()  # templates whose sibling was requested
        self.known_links = KnownLinks()  # hrefs read on earlier pages (crawler.link_scan)
        self.round = int(time.time())  # the round of this crawl's fronts (crawler.rounds)
        self.round_number, self.rounds_left, self.round_every = 1, 0, 3600.0
        self.round_started_at, self._next_round_at = time.time(), None
        self.sites = SiteBook()  # per-site rules of a sites file (crawler/sites.py)
        self._site_pages: dict[str, int] = {}  # pages requested per site this round
        self._site_started: dict[str, float] = {}  # when each site's round began

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.pair_siblings = crawler.settings.getbool("NEWSCRAWL_SIBLINGS_ENABLED", True)
        spider.use_sibling = use_sibling_setting(crawler.settings)
        spider.depth_limit = crawler.settings.getint("DEPTH_LIMIT")
        spider.max_links = crawler.settings.getint(
            "NEWSCRAWL_MAX_LINKS_PER_PAGE", MAX_LINKS_PER_PAGE
        )
        spider.records_wait = crawler.settings.getfloat(
            "NEWSCRAWL_RECORDS_WAIT", DEFAULT_RECORDS_WAIT
        )
        crawler.signals.connect(spider.on_request_dropped, signal=signals.request_dropped)
        spider.round = crawler.settings.getint("NEWSCRAWL_ROUND") or int(time.time())
        spider.rounds_left = max(0, crawler.settings.getint("NEWSCRAWL_ROUNDS", 1) - 1)
        spider.round_every = crawler.settings.getfloat("NEWSCRAWL_ROUND_EVERY", 3600.0)
        crawler.signals.connect(spider.on_idle, signal=signals.spider_idle)
        sites_file = crawler.settings.get("NEWSCRAWL_SITES_FILE")
        if sites_file:
            sites = load_sites(sites_file)
            spider.sites = SiteBook(sites)
            spider.seeds += [url for site in sites for url in site.start_urls]
        elif crawler.settings.get("NEWSCRAWL_REDIS_URL"):  # a worker: the sites `seed` stored
            from pipelines.redis_conn.link import redis_link

            spider.sites = SiteBook(link_factory=lambda: redis_link(crawler), crawler=crawler)
        return spider

    async def start(self) -> AsyncIterator[Request]:
        for url in self.seeds:
            yield self.seed_request(url)

    def seed_request(self, url: str, crawl_round: int | None = None) -> Request:
        """The request of seed ``url``, carrying its own origin (the SSRF rule's seed exception)
        and its round (a seed is a front: fetched again each round, :mod:`crawler.rounds`); the
        site's page count of the round starts again."""
        crawl_round = self.round if crawl_round is None else crawl_round
        origin = site_origin(url)
        if self._site_started.get(origin, 0.0) < time.time() - 1:
            self._site_started[origin] = time.time()
            self._site_pages[origin] = 0
        self._site_pages[origin] = self._site_pages.get(origin, 0) + 1
        return self.request(url, meta={SEED_ORIGIN: host_origin(url), ROUND_META: crawl_round})

    def request(self, url: str, parent: Response | None = None, **kwargs: Any) -> Request:
        """A request for ``url`` handled by this spider's callback and errback; a link of page
        ``parent`` inherits its seed origin, and, when it is a front, the round."""
        meta = kwargs.setdefault("meta", {})
        if parent is not None:
            seed = parent.meta.get(SEED_ORIGIN)
            if seed is not None:
                meta.setdefault(SEED_ORIGIN, seed)
            if is_front(url):
                meta.setdefault(ROUND_META, parent.meta.get(ROUND_META, self.round))
        return Request(url, callback=self.parse, errback=self.on_error, **kwargs)

    def on_idle(self) -> None:
        """Between rounds (``NEWSCRAWL_ROUNDS`` > 1): wait for the next one, then queue the seeds
        again with the new round; close after the last."""
        if self.rounds_left <= 0 or not self.seeds:
            return
        now = time.time()
        if self._next_round_at is None:
            self._next_round_at = self.round_started_at + self.round_every
            logger.warning("round %d done; round %d of %d starts in %.0f s", self.round_number,
                           self.round_number + 1, self.round_number + self.rounds_left,
                           max(0.0, self._next_round_at - now))  # fmt: skip
        if now >= self._next_round_at:
            self.rounds_left -= 1
            self.round_number += 1
            # a round is its start second, always after the last (--every 0 starts the next
            # round within the second the last one started when its crawl is short)
            self.round = max(int(now), self.round + 1)
            self.round_started_at, self._next_round_at = now, None
            self.crawler.stats.set_value("newscrawl/rounds", self.round_number)
            for url in self.seeds:
                site = self.sites.get(url)
                if site is not None and site.every and now < self._site_started.get(
                        site.origin, 0.0) + site.every - 1:  # fmt: skip
                    continue  # this site's own interval has not passed yet
                self.crawler.engine.crawl(self.seed_request(url))
        raise DontCloseSpider

    def follows(self, url: str, parent: Response) -> bool:
        """Whether a link of ``parent`` is followed under its site's rules (sites file: ``allow``,
        ``depth``, ``max_pages`` requested per round, seeds included); always, for a site
        without rules."""
        site = self.sites.get(url)
        if site is None:
            return True
        if not site.allows(url):
            self.count("sites/not_allowed")
            return False
        if site.depth is not None and int(parent.meta.get("depth", 0)) + 1 > site.depth:
            return False
        if site.max_pages and self._site_pages.get(site.origin, 0) >= site.max_pages:
            self.count("sites/max_pages")
            return False
        self._site_pages[site.origin] = self._site_pages.get(site.origin, 0) + 1
        return True

    def count(self, key: str) -> None:
        self.crawler.stats.inc_value(f"newscrawl/{key}")

    async def parse(self, response: Response) -> AsyncIterator[dict | Request]:
        self.count("pages_fetched")
        max_bytes = self.settings.getint("NEWSCRAWL_MAX_PAGE_BYTES")
        if response.body[:2] == b"\x1f\x8b" or source_kind(response.body) is not None:
            source = await run_in_thread(read_source, response.body, max_bytes)
            if source is not None:  # a sitemap or a feed: its entries, not a page
                for n, request in enumerate(self.source_requests(response, source), 1):
                    yield request
                    if n % OUTPUTS_PER_TURN == 0:
                        await sleep(0)
                return
        reason = skip_reason(response, max_bytes)
        scan = None if reason is not None else await self.scan(response)
        outputs = self.outputs(response, scan, reason)
        if isinstance(outputs, AsyncIterator):
            async for output in outputs:
                yield output
            return
        for n, output in enumerate(outputs, 1):
            yield output
            if n % OUTPUTS_PER_TURN == 0:
                await sleep(0)

    def outputs(
        self, response: Response, scan: PageScan | None, reason: str | None = None
    ) -> Iterator[dict | Request] | AsyncIterator[dict | Request]:
        """What the page yields, once scanned: nothing (counted) when ``reason`` or the scan
        refuses it; else its sibling request and item, then its record and link requests."""
        reason = reason or (scan.refused if scan is not None else "not_html")
        if reason is not None:
            logger.info("skipped %s: %s", response.url, reason)
            self.count(f"skipped/{reason}")
            return iter(())
        for cap in scan.capped:
            logger.info("capped %s: %s (%d found)", response.url, cap, scan.found)
            self.count(f"capped/{cap}")
        links = scan.links
        page_route = route(response.url, link_count=len(links))
        is_list = page_route == "list"
        sibling = None
        skip = None if is_list or not self.pair_siblings else self.sibling_skip(scan)
        if self.pair_siblings and skip is None:
            key_of = list_template_key if is_list else template_key
            sibling = choose_sibling_link(response.url, links, key_of=key_of)
        item = page_item(response, page_route, sibling, response.meta.get(SIBLING_FOR), skip)
        if scan.page is not None:  # parsed once: the extract pipeline takes it from here
            item[PARSED] = scan.page
        if is_list:  # sections of one site share a list template (crawler.sibling_links)
            item["template_key"] = list_template_key(response.url)
        sibling_request = self.sibling_request(response, item["template_key"], sibling)
        head = [sibling_request, item] if sibling_request is not None else [item]
        board = self.record_board() if is_list else None
        if board is not None:
            return self.list_output(response, head, links, board)
        return chain(head, self.link_requests(response, links, {r.url for r in head[:-1]}))

    def sibling_skip(self, scan: PageScan) -> str | None:
        """Why an article page is not paired (``NEWSCRAWL_USE_SIBLING``): ``"not_cjk"`` when its
        text is not CJK (``auto``), ``"use_sibling=never"`` (``never``); None: pair it."""
        if self.use_sibling == NEVER:
            return SIBLING_OFF
        if self.use_sibling == AUTO and scan.cjk is False:
            return NOT_CJK
        return None

    async def scan(self, response: Response) -> PageScan:
        """The page's links (:func:`crawler.link_scan.scan_page` in a worker thread)."""
        if not isinstance(response, TextResponse):
            return PageScan()
        max_bytes = self.settings.getint("NEWSCRAWL_MAX_PAGE_BYTES") or DEFAULT_MAX_BYTES
        return await run_in_thread(scan_page, response, self.max_links, max_bytes,
                                   self.known_links, self.pair_siblings and self.use_sibling == AUTO)

    def record_board(self) -> RecordBoard | None:
        """The extract pipeline's record board (Scrapy's ``crawler.get_item_pipeline``, looked up
        once the engine runs); None when that pipeline is off or runs without list wrappers: the
        spider then yields a list page's links without waiting for records."""
        if self._record_board is False:
            try:
                pipeline = self.crawler.get_item_pipeline(ExtractPipeline)
            except RuntimeError:  # no engine: the spider is driven by hand, nothing to wait for
                return None
            self._record_board = pipeline.record_board if pipeline is not None else None
        return self._record_board

    async def list_output(
        self, response: Response, head: list[Any], links: list[str], board: RecordBoard
    ) -> AsyncIterator[dict | Request]:
        """The output of a list page: its sibling request and item, then (once the pipeline found
        them) its record requests, then its other links."""
        waiter = board.expect(response.url, self.records_wait)
        for output in head:
            yield output
        records = await maybe_deferred_to_future(waiter)
        if records is None:  # NEWSCRAWL_RECORDS_WAIT passed without an answer from the pipeline
            self.count("wrappers/records_wait_timeout")
            records = []
        if self.at_depth_limit(response):
            records = []  # past DEPTH_LIMIT: the depth middleware would drop them
        site = site_origin(response.url)
        done = {r.url for r in head[:-1]}
        records = [u for u in dict.fromkeys(records)
                   if site_origin(u) == site and u not in done and self.follows(u, response)]
        done.update(records)
        for n, url in enumerate(records, 1):
            self.count("wrappers/records_requested")
            yield self.request(
                url, response, priority=RECORD_PRIORITY, meta={RECORD_OF: response.url}
            )
            if n % OUTPUTS_PER_TURN == 0:
                await sleep(0)
        for n, request in enumerate(self.link_requests(response, links, done), 1):
            yield request
            if n % OUTPUTS_PER_TURN == 0:
                await sleep(0)

    def source_requests(self, response: Response, source: Source) -> Iterator[Request]:
        """Requests of a sitemap's or feed's same-site entries (:mod:`crawler.sources`): sitemaps of
        an index as fronts of this round, articles with the entry's title and date as hints."""
        self.count(f"sources/{source.kind}")
        if source.capped:
            self.count("capped/source_entries")
        site, crawl_round = site_origin(response.url), response.meta.get(ROUND_META, self.round)
        for entry in source.entries:
            try:
                url = urljoin(response.url, entry.url.strip())
                off_site = site_origin(url) != site
            except ValueError:  # an entry urllib cannot split (http://[::1): the others go on
                self.count("sources/bad_url")
                continue
            if off_site:
                self.count("sources/off_site")
                continue
            if not self.follows(url, response):
                continue
            self.count("sources/entries")
            if entry.is_sitemap:
                yield self.request(url, response, meta={ROUND_META: crawl_round})
            else:
                hint = {"title": entry.title, "published": entry.published, "source": source.kind}
                yield self.request(url, response, meta={HINT_META: hint})

    def at_depth_limit(self, page: Response) -> bool:
        """Whether links of ``page`` would be past ``DEPTH_LIMIT`` (Scrapy's depth middleware
        would drop their requests)."""
        return bool(self.depth_limit) and int(page.meta.get("depth", 0)) >= self.depth_limit

    def link_requests(
        self, page: Response, links: list[str], done: set[str]
    ) -> Iterator[Request]:
        """Requests of the page's links at the normal priority, but those in ``done`` (lazily:
        built as they are taken); none from a page at ``DEPTH_LIMIT``.

        The depth middleware would drop those, but only after each was built and sent through the
        spider middlewares: on the crawl bench (240 articles at the limit, 62 same-site links
        each) that was 14 800 requests built for nothing, about 1 s of the reactor's time in a
        10 s crawl; and a sites file's ``max_pages`` counted them as requested (:meth:`follows`).
        """
        if self.at_depth_limit(page):
            return iter(())
        return (self.request(url, page) for url in links
                if url not in done and self.follows(url, page))  # fmt: skip

    def sibling_request(self, response: Response, key: str, link: str | None) -> Request | None:
        """The high-priority request of ``link`` for the first article of template ``key``."""
        if link is None or key in self.sibling_templates or not self.follows(link, response):
            return None
        if self.at_depth_limit(response):
            return None
        if len(self.sibling_templates) >= MAX_TEMPLATES_REMEMBERED:
            self.sibling_templates.clear()
        self.sibling_templates.add(key)
        self.count("siblings/requested")
        return self.request(
            link, response, priority=SIBLING_PRIORITY, meta={SIBLING_FOR: response.url}
        )

    def on_error(self, failure: Failure) -> None:
        reason = failure_reason(failure.value)
        request = failure.request if hasattr(failure, "request") else None
        logger.info("skipped %s: %s (%s)", getattr(request, "url", "?"), reason, failure.value)
        self.count(f"skipped/{reason}")

    def on_request_dropped(self, request: Request, spider: scrapy.Spider) -> None:
        """A redirect back to a URL of its own redirect chain is dropped as a duplicate: a loop."""
        if request.url in request.meta.get("redirect_urls", ()):
            logger.info("skipped %s: redirect_loop", request.url)
            self.count("skipped/redirect_loop")
        elif SIBLING_FOR in request.meta:  # already requested or fetched: it comes (came) anyway
            self.count("siblings/request_duplicate")
        elif RECORD_OF in request.meta:  # queued earlier at the normal priority (another page)
            self.count("wrappers/record_duplicate")
